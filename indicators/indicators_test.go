package indicators

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestSMAAndEMA(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6}
	sma := SMASeries(xs, 3)
	if !math.IsNaN(sma[1]) || sma[2] != 2 || sma[5] != 5 {
		t.Fatalf("SMA = %v", sma)
	}
	ema := EMASeries(xs, 3) // seed 2, k=0.5: 3, 4, 5
	if !math.IsNaN(ema[1]) || ema[2] != 2 || ema[3] != 3 || ema[5] != 5 {
		t.Fatalf("EMA = %v", ema)
	}
}

// Wilder's RSI on the classic 14-day example (Wilder 1978 / StockCharts table, which rounds intermediate averages: hence the tolerance).
func TestRSIWilderExample(t *testing.T) {
	closes := []float64{44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.10, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28,
		46.00, 46.03, 46.41, 46.22, 45.64}
	rsi := RSISeries(closes, 14)
	if !math.IsNaN(rsi[13]) {
		t.Fatalf("RSI ready too early: %v", rsi[13])
	}
	want := []float64{70.53, 66.32, 66.55, 69.41, 66.36, 57.97}
	for i, w := range want {
		if got := rsi[14+i]; !near(got, w, 0.1) {
			t.Errorf("RSI[%d] = %.2f, want %.2f", 14+i, got, w)
		}
	}
}

func TestMACDMatchesEMADifference(t *testing.T) {
	xs := make([]float64, 60)
	for i := range xs {
		xs[i] = 100 + 10*math.Sin(float64(i)/5)
	}
	macd, sig, hist := MACDSeries(xs, 12, 26, 9)
	fast, slow := EMASeries(xs, 12), EMASeries(xs, 26)
	if !math.IsNaN(macd[24]) || math.IsNaN(macd[25]) {
		t.Fatalf("MACD readiness: %v %v", macd[24], macd[25])
	}
	line := make([]float64, 0)
	for i := 25; i < len(xs); i++ {
		if !near(macd[i], fast[i]-slow[i], 1e-9) {
			t.Fatalf("macd[%d] = %v, want %v", i, macd[i], fast[i]-slow[i])
		}
		line = append(line, macd[i])
	}
	wantSig := EMASeries(line, 9)
	for i := 33; i < len(xs); i++ {
		if !near(sig[i], wantSig[i-25], 1e-9) || !near(hist[i], macd[i]-sig[i], 1e-12) {
			t.Fatalf("signal[%d] = %v, want %v", i, sig[i], wantSig[i-25])
		}
	}
}

func TestBollinger(t *testing.T) {
	mid, up, lo := BollingerSeries([]float64{2, 4, 4, 4, 5, 5, 7, 9}, 8, 2) // population sd = 2
	if mid[7] != 5 || !near(up[7], 9, 1e-12) || !near(lo[7], 1, 1e-12) || !math.IsNaN(mid[6]) {
		t.Fatalf("bands = %v %v %v", mid[7], up[7], lo[7])
	}
}

func BenchmarkRSIUpdate(b *testing.B) {
	r := NewRSI(14)
	for i := 0; i < b.N; i++ {
		r.Update(float64(i % 100))
	}
}
