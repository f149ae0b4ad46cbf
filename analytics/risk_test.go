package analytics

import (
	"math"
	"testing"
	"time"

	"kestrel/domain"
)

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil || math.Abs(*got-want) > 1e-12 {
		if got == nil {
			t.Errorf("%s = nil, want %v", what, want)
			return
		}
		t.Errorf("%s = %v, want %v", what, *got, want)
	}
}

func null(t *testing.T, what string, got *float64) {
	t.Helper()
	if got != nil {
		t.Errorf("%s = %v, want null", what, *got)
	}
}

// A known return series: sorted -0.05, -0.02, 0.01, 0.03, 0.04; mean 0.002;
// squared deviations sum to 0.00548, so the sample variance is 0.00137.
var known = []float64{0.03, -0.05, 0.01, 0.04, -0.02}

func TestVaRAndShortfallOnAKnownSeries(t *testing.T) {
	// 5% quantile: h = 4 x 0.05 = 0.2 -> -0.05 + 0.2 x (-0.02 - -0.05) = -0.044.
	near(t, "VaR95", HistoricalVaR(known, 0.95), 0.044)
	// 1%: h = 0.04 -> -0.05 + 0.04 x 0.03 = -0.0488.
	near(t, "VaR99", HistoricalVaR(known, 0.99), 0.0488)
	// Only -0.05 is at or below -0.044.
	near(t, "ES95", ExpectedShortfall(known, 0.95), 0.05)
	// 50%: the median.
	near(t, "median", Quantile(known, 0.5), 0.01)
	if z := NormalQuantile(0.05); math.Abs(z+1.6448536269514722) > 1e-12 {
		t.Errorf("z(0.05) = %v", z)
	}
	near(t, "parametric VaR95", ParametricVaR(known, 0.95), -(0.002 - 1.6448536269514722*math.Sqrt(0.00137)))
	near(t, "volatility", Volatility(known), math.Sqrt(0.00137)*math.Sqrt(365))
	near(t, "std", StdDev(known), math.Sqrt(0.00137))
	if m := Money(HistoricalVaR(known, 0.95), dec("12345.67")); m == nil || m.String() != "543.21" {
		t.Errorf("VaR95 in USD = %v, want 543.21 (12345.67 x 0.044 = 543.20948)", m)
	}
}

func TestTooShortIsNull(t *testing.T) {
	one := []float64{0.01}
	null(t, "VaR", HistoricalVaR(one, 0.95))
	null(t, "ES", ExpectedShortfall(one, 0.95))
	null(t, "parametric", ParametricVaR(nil, 0.95))
	null(t, "volatility", Volatility(one))
	null(t, "correlation", Correlation(one, one))
	null(t, "flat correlation", Correlation([]float64{1, 1}, []float64{1, 2}))
	null(t, "beta on a flat benchmark", Beta([]float64{1, 2}, []float64{3, 3}))
	null(t, "quantile of nothing", Quantile(nil, 0.5))
	if Money(nil, dec("1")) != nil {
		t.Error("money of null")
	}
	if c, v := VarianceContributions([][]float64{one}, []float64{1}); c != nil || v != nil {
		t.Error("contributions from one return")
	}
	null(t, "diversification", DiversificationRatio([][]float64{one}, []float64{1}))
}

func TestCorrelationAndBeta(t *testing.T) {
	x, y := []float64{1, 2, 3}, []float64{2, 4, 7}
	// cov = ((-1)(-7/3) + 0 + (1)(8/3)) / 2 = 2.5; s(x) = 1; s(y)^2 = (49 + 1 + 64) / 9 / 2 = 57/9.
	near(t, "correlation", Correlation(x, y), 2.5/math.Sqrt(57.0/9))
	near(t, "beta", Beta(y, x), 2.5)
	near(t, "self", Correlation(x, x), 1)
	near(t, "opposite", Correlation(x, []float64{3, 2, 1}), -1)
}

func TestDailyReturnsAtUTCDayEnds(t *testing.T) {
	at := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339, s); return tm }
	pts := []domain.PortfolioPoint{
		{Time: at("2024-01-01T10:00:00Z"), Value: dec("100")},
		{Time: at("2024-01-01T23:59:00Z"), Value: dec("110")},
		{Time: at("2024-01-02T05:00:00Z"), Value: dec("121")},
		{Time: at("2024-01-03T00:00:00Z"), Value: dec("108.9")},
	}
	days := DayEnds(pts)
	if len(days) != 3 || days[0].Value.String() != "110" || days[1].Value.String() != "121" || !days[2].Date.Equal(at("2024-01-03T00:00:00Z")) {
		t.Fatalf("day ends %+v", days)
	}
	rs := DailyReturns(days)
	if len(rs) != 2 || rs[0].Return != 0.1 || rs[1].Return != -0.1 || !rs[0].Date.Equal(at("2024-01-02T00:00:00Z")) {
		t.Fatalf("returns %+v", rs)
	}
	x, y := Align(rs, []DayReturn{{Date: at("2024-01-03T00:00:00Z"), Return: 0.5}, {Date: at("2023-12-31T00:00:00Z"), Return: 9}})
	if len(x) != 1 || x[0] != -0.1 || y[0] != 0.5 {
		t.Fatalf("aligned %v %v", x, y)
	}
}

func TestDrawdowns(t *testing.T) {
	var days []DayValue
	for i, v := range []string{"100", "120", "90", "105", "130"} {
		days = append(days, DayValue{Date: time.Date(2024, 1, i+1, 0, 0, 0, 0, time.UTC), Value: dec(v)})
	}
	dd := Drawdowns(days)
	want := []struct {
		dd       float64
		under    bool
		recovery *float64
	}{{0, false, nil}, {0, false, nil}, {-0.25, true, F(0)}, {-0.125, true, F(0.5)}, {0, false, nil}}
	for i, w := range want {
		g := dd[i]
		if g.Drawdown != w.dd || g.Underwater != w.under || (g.Recovery == nil) != (w.recovery == nil) || (g.Recovery != nil && *g.Recovery != *w.recovery) {
			t.Errorf("day %d: %+v, want %+v", i, g, w)
		}
	}
}

func TestStressTestsToTheCent(t *testing.T) {
	h := []Holding{{"BTC-USD", dec("1234.57")}, {"ETH-USD", dec("100.01")}}
	// -30%: 1234.57 x -0.3 = -370.371 -> -370.37; 100.01 x -0.3 = -30.003 -> -30.00.
	r := StressTest(Scenarios[0], h, dec("2000.00"))
	eq(t, "crash impact", r.PortfolioImpact, "-400.37")
	eq(t, "crash percent", *r.ImpactPercent, "-20.02") // -20.0185
	// Altcoins -25%: BTC unchanged, ETH 100.01 x -0.25 = -25.0025 -> -25.00.
	r = StressTest(Scenarios[3], h, dec("2000.00"))
	eq(t, "altcoins impact", r.PortfolioImpact, "-25")
	eq(t, "altcoins percent", *r.ImpactPercent, "-1.25")
	if r := StressTest(Scenarios[1], nil, dec("0")); !r.PortfolioImpact.IsZero() || r.ImpactPercent != nil || r.Probability != nil {
		t.Errorf("nothing held: %+v", r)
	}
}

func TestVarianceContributions(t *testing.T) {
	// var a = 0.0002, var b = 0.0008, cov = 0.0004; w = (0.5, 0.25):
	// S w = (0.0002, 0.0004); contributions 0.0001 each; w'Sw = 0.0002.
	a, b := []float64{0.01, -0.01}, []float64{0.02, -0.02}
	c, v := VarianceContributions([][]float64{a, b}, []float64{0.5, 0.25})
	near(t, "a", &c[0], 0.0001)
	near(t, "b", &c[1], 0.0001)
	near(t, "variance", v, 0.0002)
	// Perfectly correlated assets do not diversify: ratio 1.
	near(t, "diversification", DiversificationRatio([][]float64{a, b}, []float64{0.5, 0.25}), 1)
	// Perfectly opposed equal-risk halves cancel: the mix does not vary, ratio undefined.
	null(t, "hedged", DiversificationRatio([][]float64{a, {-0.01, 0.01}}, []float64{0.5, 0.5}))
}
