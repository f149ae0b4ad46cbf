package indicators

// Series helpers: one output per input close, NaN before the indicator is ready.

// SMASeries returns the n-period SMA of closes.
func SMASeries(closes []float64, n int) []float64 {
	s, out := NewSMA(n), make([]float64, len(closes))
	for i, x := range closes {
		out[i] = s.Update(x)
	}
	return out
}

// EMASeries returns the n-period EMA of closes.
func EMASeries(closes []float64, n int) []float64 {
	e, out := NewEMA(n), make([]float64, len(closes))
	for i, x := range closes {
		out[i] = e.Update(x)
	}
	return out
}

// RSISeries returns the n-period RSI of closes.
func RSISeries(closes []float64, n int) []float64 {
	r, out := NewRSI(n), make([]float64, len(closes))
	for i, x := range closes {
		out[i] = r.Update(x)
	}
	return out
}

// MACDSeries returns the MACD line, signal line and histogram.
func MACDSeries(closes []float64, fast, slow, signal int) (macd, sig, hist []float64) {
	m := NewMACD(fast, slow, signal)
	macd, sig, hist = make([]float64, len(closes)), make([]float64, len(closes)), make([]float64, len(closes))
	for i, x := range closes {
		macd[i], sig[i], hist[i] = m.Update(x)
	}
	return macd, sig, hist
}

// BollingerSeries returns the middle, upper and lower bands.
func BollingerSeries(closes []float64, n int, k float64) (mid, upper, lower []float64) {
	b := NewBollinger(n, k)
	mid, upper, lower = make([]float64, len(closes)), make([]float64, len(closes)), make([]float64, len(closes))
	for i, x := range closes {
		mid[i], upper[i], lower[i] = b.Update(x)
	}
	return mid, upper, lower
}
