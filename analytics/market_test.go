package analytics

import (
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

func near6(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = nil, want %v", what, want)
		return
	}
	if math.Abs(*got-want) > 1e-6 {
		t.Errorf("%s = %.9f, want %.9f", what, *got, want)
	}
}

func series(vals ...float64) []decimal.Decimal {
	out := make([]decimal.Decimal, len(vals))
	for i, v := range vals {
		out[i] = decimal.NewFromFloat(v)
	}
	return out
}

func TestStdDevAndVolatility(t *testing.T) {
	// mean 2.5, squares 2.25+0.25+0.25+2.25 = 5, / (4-1): sqrt(5/3)
	near6(t, "sd", StdDev([]float64{1, 2, 3, 4}), 1.2909944487)
	// +-1%: sd sqrt(0.0002 / 1), annualised sqrt(0.0002 * 365) = sqrt(0.073)
	near6(t, "vol", Volatility([]float64{0.01, -0.01}), 0.2701851217)
	if Volatility([]float64{0.01}) != nil || Volatility(nil) != nil {
		t.Error("volatility of fewer than two returns must be nil")
	}
	near6(t, "flat", Volatility([]float64{0.02, 0.02, 0.02}), 0)
}

func TestRiskLevel(t *testing.T) {
	for _, c := range []struct {
		vol  float64
		want string
	}{{0.81, "High"}, {0.80, "Medium"}, {0.51, "Medium"}, {0.50, "Low"}, {0, "Low"}} {
		if got := RiskLevel(c.vol); got != c.want {
			t.Errorf("RiskLevel(%v) = %s, want %s", c.vol, got, c.want)
		}
	}
}

func TestPearson(t *testing.T) {
	near6(t, "same direction", Pearson([]float64{1, 2, 3}, []float64{2, 4, 6}), 1)
	near6(t, "opposite", Pearson([]float64{1, 2, 3}, []float64{3, 2, 1}), -1)
	// dx = dy up to order: sxy = 2.25-0.25-0.25+2.25 = 4, sxx = syy = 5: 0.8
	near6(t, "partial", Pearson([]float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}), 0.8)
	for name, c := range map[string][2][]float64{
		"one pair": {{1}, {2}}, "constant": {{1, 1, 1}, {1, 2, 3}}, "lengths": {{1, 2}, {1, 2, 3}},
	} {
		if Pearson(c[0], c[1]) != nil {
			t.Errorf("%s: want nil", name)
		}
	}
}

func TestSMAAndTrend(t *testing.T) {
	up := make([]float64, 50)
	for i := range up {
		up[i] = float64(i + 1) // 1..50
	}
	if got := SMA(series(up...), 20); !got.Equal(dec("40.5")) { // mean of 31..50
		t.Errorf("SMA20 = %s", got)
	}
	r, ok := Trend(series(up...))
	if !ok || r.Trend != TrendBullish || !r.SMA50.Equal(dec("25.5")) {
		t.Errorf("rising: %+v %v", r, ok)
	}
	down := make([]float64, 50)
	for i := range down {
		down[i] = float64(50 - i)
	}
	if r, _ := Trend(series(down...)); r.Trend != TrendBearish {
		t.Errorf("falling: %+v", r)
	}
	// 1..49 then 30: SMA20 = (760 + 30) / 20 = 39.5, SMA50 = (1225 + 30) / 50 = 25.1;
	// close 30 < 39.5 but 39.5 > 25.1: neutral.
	mixed := append(append([]float64{}, up[:49]...), 30)
	if r, _ := Trend(series(mixed...)); r.Trend != TrendNeutral || !r.SMA20.Equal(dec("39.5")) || !r.SMA50.Equal(dec("25.1")) {
		t.Errorf("mixed: %+v", r)
	}
	if _, ok := Trend(series(up[:49]...)); ok {
		t.Error("49 closes must give no verdict")
	}
}

func TestTrendStrength(t *testing.T) {
	near6(t, "one net", TrendStrength([]string{TrendBullish, TrendBullish, TrendBearish, TrendNeutral}), 25)
	near6(t, "all agree", TrendStrength([]string{TrendBearish, TrendBearish}), 100)
	near6(t, "cancel", TrendStrength([]string{TrendBearish, TrendBullish, ""}), 0)
	if TrendStrength([]string{"", ""}) != nil {
		t.Error("no verdicts must be nil")
	}
}

func TestDominance(t *testing.T) {
	if got := Dominance(dec("600"), dec("1000")); got == nil || !got.Equal(dec("60")) {
		t.Errorf("dominance %v", got)
	}
	if Dominance(dec("1"), decimal.Zero) != nil {
		t.Error("dominance of nothing must be nil")
	}
}

func TestKestrelIndex(t *testing.T) {
	ones := series(make([]float64, 30)...)
	for i := range ones {
		ones[i] = decimal.NewFromInt(1)
	}
	// 23 closes alternating 90/110, then 8 at 100: the last 7 returns are 0
	// (s7 = 0: volatility 50 - 50 * (0 - 1) = 100); SMA20 = (6*110 + 6*90 +
	// 8*100) / 20 = 100 (momentum 50); 100 vs 8 closes ago 100: no direction
	// (volume 50). Index (50 + 100 + 50) / 3 = 66.67, Greed.
	var a []float64
	for i := range 23 {
		a = append(a, []float64{90, 110}[i%2])
	}
	for range 8 {
		a = append(a, 100)
	}
	idx := KestrelIndex([]DailySeries{{Closes: series(a...), Volumes: ones}})
	if idx == nil || idx.Momentum != 50 || idx.Volatility != 100 || idx.Volume != 50 || idx.Value != 66.67 ||
		idx.Label != "Greed" || idx.Name != "Kestrel market index" {
		t.Fatalf("index %+v", idx)
	}

	// Closes 100 + 2*(i mod 3) + i/2, the last raised 5% (to 120.75); 23
	// days of volume 1 then 7 of 3. Computed independently: momentum 86.49,
	// volatility 50.65, volume clamped to 100 (rising, v7/v30 = 2.045);
	// index 79.05, Extreme Greed.
	var b []float64
	for i := range 31 {
		b = append(b, 100+float64(i%3)*2+float64(i)*0.5)
	}
	b[30] = 120.75
	vols := series(make([]float64, 30)...)
	for i := range vols {
		vols[i] = decimal.NewFromInt(map[bool]int64{true: 3, false: 1}[i >= 23])
	}
	idx = KestrelIndex([]DailySeries{{Closes: series(b...), Volumes: vols}})
	if idx == nil || idx.Momentum != 86.49 || idx.Volatility != 50.65 || idx.Volume != 100 || idx.Value != 79.05 || idx.Label != "Extreme Greed" {
		t.Fatalf("index %+v", idx)
	}

	// Both symbols (a third, too short, left out): each component is the
	// mean over them of the unrounded scores: (50 + 86.4886) / 2 = 68.24,
	// (100 + 50.6476) / 2 = 75.32, (50 + 100) / 2 = 75; index 72.86.
	idx = KestrelIndex([]DailySeries{{Closes: series(a...), Volumes: ones}, {Closes: series(b...), Volumes: vols}, {Closes: series(b[:30]...), Volumes: vols}})
	if idx == nil || idx.Momentum != 68.24 || idx.Volatility != 75.32 || idx.Volume != 75 || idx.Value != 72.86 {
		t.Fatalf("two symbols (the short one left out) %+v", idx)
	}
	if KestrelIndex([]DailySeries{{Closes: series(b[:30]...), Volumes: vols}}) != nil {
		t.Error("30 closes must give no index")
	}
}

func TestIndexLabel(t *testing.T) {
	for v, want := range map[float64]string{0: "Extreme Fear", 24.99: "Extreme Fear", 25: "Fear", 44.99: "Fear", 45: "Neutral", 55: "Neutral", 55.01: "Greed", 75: "Greed", 75.01: "Extreme Greed", 100: "Extreme Greed"} {
		if got := IndexLabel(v); got != want {
			t.Errorf("IndexLabel(%v) = %s, want %s", v, got, want)
		}
	}
}

func TestMovingAverage(t *testing.T) {
	got := MovingAverage(series(1, 2, 3, 4), 2)
	for i, w := range []string{"1", "1.5", "2.5", "3.5"} {
		if !got[i].Equal(dec(w)) {
			t.Errorf("[%d] = %s, want %s", i, got[i], w)
		}
	}
}
