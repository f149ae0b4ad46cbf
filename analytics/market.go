package analytics

import (
	"math"

	"github.com/shopspring/decimal"
)

// Trend labels of the market view.
const (
	TrendBullish = "bullish"
	TrendBearish = "bearish"
	TrendNeutral = "neutral"
)

// Risk levels of a symbol's annualised volatility (fractions, 0.8 is 80%).
const (
	RiskHighAbove   = 0.80
	RiskMediumAbove = 0.50
)

// StdDev, Volatility and DaysPerYear are in stats.go: one implementation
// serves every view.

// RiskLevel labels an annualised volatility: High above 80%, Medium above
// 50%, else Low.
func RiskLevel(vol float64) string {
	switch {
	case vol > RiskHighAbove:
		return "High"
	case vol > RiskMediumAbove:
		return "Medium"
	}
	return "Low"
}

// Pearson is the correlation coefficient of paired samples,
//
//	r = sum (x_i - mx)(y_i - my) / sqrt( sum (x_i - mx)^2 * sum (y_i - my)^2 )
//
// nil when the lengths differ, there are fewer than two pairs, or either
// side does not vary (the coefficient is undefined).
func Pearson(x, y []float64) *float64 {
	n := len(x)
	if n != len(y) || n < 2 || constant(x) || constant(y) {
		return nil
	}
	mx, my := 0.0, 0.0
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(n)
	my /= float64(n)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return nil
	}
	r := sxy / math.Sqrt(sxx*syy)
	r = math.Max(-1, math.Min(1, r)) // a rounding error never leaves [-1, 1]
	return &r
}

// SMA is the simple mean of the last n values; nil when there are fewer.
func SMA(values []decimal.Decimal, n int) *decimal.Decimal {
	if n <= 0 || len(values) < n {
		return nil
	}
	sum := decimal.Zero
	for _, v := range values[len(values)-n:] {
		sum = sum.Add(v)
	}
	m := sum.Div(decimal.NewFromInt(int64(n)))
	return &m
}

// TrendReading is the trend rule's verdict with the averages it compared.
type TrendReading struct {
	Trend string           `json:"trend"`
	SMA20 *decimal.Decimal `json:"sma20"`
	SMA50 *decimal.Decimal `json:"sma50"`
}

// Trend applies the market view's trend rule to daily closes (oldest
// first, the last one the current price):
//
//	bullish  close > SMA20 > SMA50
//	bearish  close < SMA20 < SMA50
//	neutral  otherwise
//
// ok is false with fewer than 50 closes (no SMA50, no verdict).
func Trend(closes []decimal.Decimal) (TrendReading, bool) {
	s20, s50 := SMA(closes, 20), SMA(closes, 50)
	if s50 == nil {
		return TrendReading{}, false
	}
	r := TrendReading{Trend: TrendNeutral, SMA20: s20, SMA50: s50}
	last := closes[len(closes)-1]
	switch {
	case last.GreaterThan(*s20) && s20.GreaterThan(*s50):
		r.Trend = TrendBullish
	case last.LessThan(*s20) && s20.LessThan(*s50):
		r.Trend = TrendBearish
	}
	return r, true
}

// TrendStrength is the breadth of the trends, 0-100:
//
//	|bullish - bearish| / symbols * 100
//
// 100 when every symbol trends the same way, 0 when they cancel out or
// none trends. Symbols without a verdict ("") count in neither; nil when
// no symbol has one.
func TrendStrength(trends []string) *float64 {
	bull, bear, n := 0, 0, 0
	for _, t := range trends {
		switch t {
		case TrendBullish:
			bull++
		case TrendBearish:
			bear++
		case "":
			continue
		}
		n++
	}
	if n == 0 {
		return nil
	}
	v := math.Abs(float64(bull-bear)) / float64(n) * 100
	return &v
}

// Dominance is part / total as a percentage to two places; nil when the
// total is not positive.
func Dominance(part, total decimal.Decimal) *decimal.Decimal {
	if !total.IsPositive() {
		return nil
	}
	d := percent(part, total)
	return &d
}

// DailySeries is one symbol's daily candles reduced to what the market
// index reads: closes (oldest first, the last one the current price) and
// the volumes of complete days (oldest first, today's partial day left out).
type DailySeries struct {
	Closes  []decimal.Decimal
	Volumes []decimal.Decimal
}

// MarketIndex is Kestrel's own market index (not anyone else's fear and
// greed index): 0 is extreme fear, 100 extreme greed.
type MarketIndex struct {
	Value      float64 `json:"value"`
	Label      string  `json:"label"`
	Momentum   float64 `json:"momentum"`
	Volatility float64 `json:"volatility"`
	Volume     float64 `json:"volume"`
	Name       string  `json:"name"`
}

// MarketIndexName is how the views label the index.
const MarketIndexName = "Kestrel market index"

// Index needs per symbol 31 closes (30 daily returns) and 30 complete days of volume.
const (
	indexCloses  = 31
	indexVolumes = 30
)

// KestrelIndex is the market index of the symbols, each scored 0-100 on
// three components and the scores averaged (components first over the
// symbols, then the three components equally):
//
//	momentum   = clamp(50 + 500 * (close / SMA20 - 1))             10% above its 20-day mean is 100
//	volatility = clamp(50 - 50 * (s7 / s30 - 1))                  s7, s30: sample deviation of the last 7 / 30 daily returns;
//	                                                              calmer than the month is greed, twice as wild is 0
//	volume     = clamp(50 + 50 * sign(7-day change) * (v7 / v30 - 1))  v7, v30: mean volume of the last 7 / 30 complete days;
//	                                                              heavy volume into a rise is greed, into a fall fear
//
// clamp to [0, 100]. A symbol without 31 closes and 30 complete days, or
// whose s30 or v30 is zero, is left out; nil when no symbol is left.
// Labels: below 25 Extreme Fear, below 45 Fear, up to 55 Neutral, up to 75
// Greed, above Extreme Greed.
func KestrelIndex(series []DailySeries) *MarketIndex {
	var mom, vol, volu float64
	n := 0
	for _, s := range series {
		if len(s.Closes) < indexCloses || len(s.Volumes) < indexVolumes {
			continue
		}
		closes := s.Closes
		last := closes[len(closes)-1]
		rets := Returns(closes[len(closes)-indexCloses:])
		s7, s30 := StdDev(rets[len(rets)-7:]), StdDev(rets)
		v7, v30 := meanDec(s.Volumes[len(s.Volumes)-7:]), meanDec(s.Volumes[len(s.Volumes)-indexVolumes:])
		sma20 := SMA(closes, 20)
		if s7 == nil || s30 == nil || *s30 == 0 || v30 <= 0 || sma20 == nil || !sma20.IsPositive() {
			continue
		}
		m := 50 + 500*(last.Div(*sma20).InexactFloat64()-1)
		vl := 50 - 50*(*s7 / *s30 - 1)
		dir := float64(last.Cmp(closes[len(closes)-8]))
		vo := 50 + 50*dir*(v7/v30-1)
		mom += clamp100(m)
		vol += clamp100(vl)
		volu += clamp100(vo)
		n++
	}
	if n == 0 {
		return nil
	}
	k := float64(n)
	idx := &MarketIndex{Momentum: round2(mom / k), Volatility: round2(vol / k), Volume: round2(volu / k), Name: MarketIndexName}
	idx.Value = round2((mom/k + vol/k + volu/k) / 3)
	idx.Label = IndexLabel(idx.Value)
	return idx
}

// IndexLabel names a market index value.
func IndexLabel(v float64) string {
	switch {
	case v < 25:
		return "Extreme Fear"
	case v < 45:
		return "Fear"
	case v <= 55:
		return "Neutral"
	case v <= 75:
		return "Greed"
	}
	return "Extreme Greed"
}

func clamp100(x float64) float64 { return math.Max(0, math.Min(100, x)) }

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func meanDec(xs []decimal.Decimal) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := decimal.Zero
	for _, x := range xs {
		sum = sum.Add(x)
	}
	return sum.Div(decimal.NewFromInt(int64(len(xs)))).InexactFloat64()
}

// MovingAverage is, for each value, the mean of it and up to window-1
// values before it (fewer at the start of the series).
func MovingAverage(values []decimal.Decimal, window int) []decimal.Decimal {
	out := make([]decimal.Decimal, len(values))
	sum := decimal.Zero
	for i, v := range values {
		sum = sum.Add(v)
		if i >= window {
			sum = sum.Sub(values[i-window])
		}
		out[i] = sum.Div(decimal.NewFromInt(int64(min(i+1, window))))
	}
	return out
}
