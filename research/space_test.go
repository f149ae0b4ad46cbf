package research

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
)

func TestGridExpandsEveryCombinationIntoTheConfigShape(t *testing.T) {
	a := Ask{Ask: backtest.Ask{Params: json.RawMessage(`{"min_confidence":0.5,"indicators":{"sma_short":5}}`)},
		Grid: map[string][]json.RawMessage{"indicators.rsi_period": {json.RawMessage(`7`), json.RawMessage(`14`)}, "risk_multiplier": {json.RawMessage(`1`), json.RawMessage(`2`), json.RawMessage(`3`)}}}
	p, err := Expand(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Params) != 6 || !reflect.DeepEqual(p.Names, []string{"indicators.rsi_period", "risk_multiplier"}) {
		t.Fatalf("plan = %+v", p)
	}
	if got := string(p.Params[5]); got != `{"indicators":{"rsi_period":14,"sma_short":5},"min_confidence":0.5,"risk_multiplier":3}` {
		t.Fatalf("last trial's overrides = %s", got)
	}
	if got := string(p.Values[1]); got != `{"indicators.rsi_period":7,"risk_multiplier":2}` {
		t.Fatalf("trial 1 values = %s", got)
	}
}

func TestRandomSearchIsSeededDistinctAndOnTheSteps(t *testing.T) {
	d := decimal.RequireFromString
	a := Ask{Random: map[string]Range{"indicators.rsi_oversold": {Min: d("20"), Max: d("30"), Step: d("2.5")}, "indicators.rsi_period": {Min: d("5"), Max: d("9"), Step: d("1")}},
		Trials: 20, Seed: 42}
	p1, err := Expand(a)
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := Expand(a)
	if !reflect.DeepEqual(p1, p2) || len(p1.Params) != 20 {
		t.Fatalf("same seed, different or short plans: %d", len(p1.Params))
	}
	seen := map[string]bool{}
	for _, v := range p1.Values {
		var m map[string]float64
		if err := json.Unmarshal(v, &m); err != nil {
			t.Fatal(err)
		}
		o, r := m["indicators.rsi_oversold"], m["indicators.rsi_period"]
		if o < 20 || o > 30 || int(o*10)%25 != 0 || r < 5 || r > 9 || r != float64(int(r)) || seen[string(v)] {
			t.Fatalf("off the steps or repeated: %s", v)
		}
		seen[string(v)] = true
	}
	a.Seed = 43
	if p3, _ := Expand(a); reflect.DeepEqual(p3.Values, p1.Values) {
		t.Fatal("another seed drew the same trials")
	}
	a.Trials = 1000 // more than the 5 x 5 points the space holds
	if p4, _ := Expand(a); len(p4.Params) != 25 {
		t.Fatalf("a space of 25 gave %d trials", len(p4.Params))
	}
}

func TestRankSkipsIneligibleTrials(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	ts := []domain.SweepTrial{{Index: 0, Score: f(2), Trades: 1}, {Index: 1, Score: nil, Trades: 9}, {Index: 2, Score: f(1.5), Trades: 5}, {Index: 3, Score: f(1.5), Trades: 6}}
	ranked, best := Rank(ts, Ask{MinTrades: 3})
	if best != 2 || ranked[0].Eligible || ranked[1].Eligible || !ranked[2].Eligible || ranked[0].Note == "" || ranked[1].Note == "" {
		t.Fatalf("best %d, ranked %+v", best, ranked)
	}
	if _, best := Rank(ts[:2], Ask{MinTrades: 3}); best != -1 {
		t.Fatalf("no eligible trial, best = %d", best)
	}
}
