package analytics

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func scenarioDay(i int) time.Time { return time.Date(2025, 3, 1+i, 0, 0, 0, 0, time.UTC) }

func closeSeries(ps ...string) []Close {
	out := []Close{}
	for i, p := range ps {
		if p != "" {
			out = append(out, Close{Date: scenarioDay(i), Price: dec(p)})
		}
	}
	return out
}

// Daily returns, day 1 to 10:
// BTC -11%, +6.74%, 0, -10% (exactly), +5.26%, +11.11%, -20%, +1.25%, +11.11%, +2.22%
// ETH 0, -10%, +10%, -9.09%, 0, +11.11%, -30%, 0, +14.29%, 0
var scenarioCloses = map[string][]Close{
	"BTC-USD": closeSeries("100", "89", "95", "95", "85.5", "90", "100", "80", "81", "90", "92"),
	"ETH-USD": closeSeries("10", "10", "9", "9.9", "9", "9", "10", "7", "7", "8", "8"),
}

func TestMoveFrequency(t *testing.T) {
	btc := []Holding{{Symbol: "BTC-USD", MarketValue: one}}
	// One-day falls of 10% or more: days 1, 4 (exactly 10%, included) and 7.
	f := MoveFrequency(scenarioCloses, btc, 1, dec("-0.10"))
	if f.Occurrences != 3 || f.Windows != 10 || *f.Probability() != 0.3 || f.DataFrom != "2025-03-01" || f.DataTo != "2025-03-11" {
		t.Fatalf("one day: %+v", f)
	}
	if f.Basis() != "3 of 10 1-day windows of the daily closes 2025-03-01 to 2025-03-11" {
		t.Errorf("basis %q", f.Basis())
	}
	// Three-day windows (8): 5->8 is 81/90 and 6->9 is 90/100, both exactly -10%.
	if f := MoveFrequency(scenarioCloses, btc, 3, dec("-0.10")); f.Occurrences != 2 || f.Windows != 8 || *f.Probability() != 0.25 {
		t.Errorf("three days: %+v", f)
	}
	// An equal mix of both falling 20% or more in a day (their changes sum to -0.4 or less): day 7 only (-0.2 - 0.3).
	mix := []Holding{{Symbol: "BTC-USD", MarketValue: one}, {Symbol: "ETH-USD", MarketValue: one}}
	if f := MoveFrequency(scenarioCloses, mix, 1, dec("-0.4")); f.Occurrences != 1 || f.Windows != 10 {
		t.Errorf("mix: %+v", f)
	}
	// A date missing from one symbol removes the windows that start or end on it.
	gappy := map[string][]Close{"BTC-USD": scenarioCloses["BTC-USD"], "ETH-USD": closeSeries("10", "10", "9", "9.9", "9", "", "10", "7", "7", "8", "8")}
	if f := MoveFrequency(gappy, mix, 1, dec("-0.4")); f.Windows != 8 || f.Occurrences != 1 {
		t.Errorf("with a gap: %+v", f)
	}
	// Longer than the history: no window, no probability.
	if f := MoveFrequency(scenarioCloses, btc, 30, dec("-0.25")); f.Windows != 0 || f.Probability() != nil || !strings.HasPrefix(f.Basis(), "No 30-day window") {
		t.Errorf("too long: %+v %q", f, f.Basis())
	}
}

func TestStressFrequency(t *testing.T) {
	holdings := []Holding{{Symbol: "BTC-USD", MarketValue: dec("1000")}, {Symbol: "ETH-USD", MarketValue: dec("500")}}
	// Flash crash -15% over a day: the holdings lose 225 or more only on day 7 (-200 - 150).
	flash := Scenarios[2]
	if f := StressFrequency(flash, scenarioCloses, holdings); f.Occurrences != 1 || f.Windows != 10 || f.HorizonDays != 1 {
		t.Errorf("flash crash: %+v", f)
	}
	// Altcoins -25% over 3 days shocks ETH alone; its worst 3-day change is -22.2% (9 -> 7): never happened.
	alt := Scenarios[3]
	alt.Horizon = 3
	f := StressFrequency(alt, scenarioCloses, holdings)
	if f.Occurrences != 0 || f.Windows != 8 || f.Probability() != nil || f.Basis() != "Never happened in the 8 3-day windows of the daily closes 2025-03-01 to 2025-03-11" {
		t.Errorf("altcoins: %+v %q", f, f.Basis())
	}
	// Only BTC held: the altcoin scenario shocks nothing, so there is nothing to measure.
	if f := StressFrequency(alt, scenarioCloses, holdings[:1]); f.Windows != 0 || f.Probability() != nil || !strings.HasPrefix(f.Basis(), "Nothing to measure") {
		t.Errorf("altcoins on BTC: %+v", f)
	}
	// The worst day counts itself: 1 of 10.
	worst, _ := WorstHistorical(scenarioCloses, holdings, 1, "Worst day")
	r := StressTest(worst, holdings, dec("2500")).WithFrequency(StressFrequency(worst, scenarioCloses, holdings))
	if r.Occurrences != 1 || r.Windows != 10 || *r.Probability != 0.1 || !r.PortfolioImpact.Equal(dec("-350")) {
		t.Errorf("worst day: %+v", r)
	}
}

func TestJointTail(t *testing.T) {
	// BTC's sorted returns start -0.2, -0.11: the 5% quantile (h = 9 x 0.05 = 0.45) is -0.2 + 0.45 x 0.09 = -0.1595.
	// ETH's start -0.3, -0.1: -0.3 + 0.45 x 0.2 = -0.21. Both at or below them on day 7 only.
	shocks, f := JointTail(scenarioCloses, []string{"BTC-USD", "ETH-USD"}, 0.05)
	eq(t, "BTC shock", shocks["BTC-USD"], "-0.1595")
	eq(t, "ETH shock", shocks["ETH-USD"], "-0.21")
	if f.Occurrences != 1 || f.Windows != 10 {
		t.Errorf("joint tail %+v", f)
	}
}

func TestScenarioAnalysis(t *testing.T) {
	holdings := []Holding{{Symbol: "BTC-USD", MarketValue: dec("1000")}, {Symbol: "ETH-USD", MarketValue: dec("500")}}
	got := ScenarioAnalysis(scenarioCloses, holdings, dec("2500"), []string{"BTC-USD", "ETH-USD"})
	half := 0.25
	want := []struct {
		name         string
		impact, pct  string
		probability  *float64
		occ, windows int
	}{
		{"BTC-USD falls 10% or more in a day", "-100", "-4", F(0.3), 3, 10},
		// 7-day windows (4): only 0->7 (BTC -20%, ETH -30%: mean -25%).
		{"Broad market falls 20% or more over 7 days", "-300", "-12", &half, 1, 4},
		{"BTC-USD falls 25% or more over 30 days", "-250", "-10", nil, 0, 0},
		// -0.1595 x 1000 - 0.21 x 500 = -159.50 - 105.00.
		{"Every holding has one of its worst 5% of days at once", "-264.5", "-10.58", F(0.1), 1, 10},
	}
	if len(got) != len(want) {
		t.Fatalf("%d scenarios: %+v", len(got), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Scenario != w.name || !g.Impact.Equal(dec(w.impact)) || g.ImpactPercent == nil || !g.ImpactPercent.Equal(dec(w.pct)) ||
			g.Occurrences != w.occ || g.Windows != w.windows || (g.Probability == nil) != (w.probability == nil) ||
			(g.Probability != nil && *g.Probability != *w.probability) {
			t.Errorf("scenario %d: %+v (probability %v), want %+v", i, g, g.Probability, w)
		}
	}
	if !strings.Contains(got[3].Description, "BTC-USD -15.95%, ETH-USD -21.00%") {
		t.Errorf("joint tail description %q", got[3].Description)
	}
	// Without holdings the market events still have their frequency; nothing is lost.
	none := ScenarioAnalysis(scenarioCloses, nil, decimal.Zero, []string{"BTC-USD", "ETH-USD"})
	if len(none) != 3 || !none[0].Impact.IsZero() || none[0].ImpactPercent != nil || none[0].Occurrences != 3 {
		t.Errorf("no holdings: %+v", none)
	}
}
