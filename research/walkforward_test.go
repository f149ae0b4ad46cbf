package research

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"kestrel/domain"
)

func TestSpansRollingAndAnchored(t *testing.T) {
	// 100 units, 4 folds, 0.6 in sample: o = floor(100 x 0.4 / (4 x 0.4 +
	// 0.6)) = floor(18.18) = 18, i = 100 - 72 = 28.
	r, f := Spans(WalkForward{Mode: Rolling, Folds: 4, InSampleFraction: 0.6}, 100, 7, "days")
	if f != nil {
		t.Fatal(f)
	}
	want := []Span{{0, 28, 28, 46}, {18, 46, 46, 64}, {36, 64, 64, 82}, {54, 82, 82, 100}}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("rolling = %v, want %v", r, want)
	}
	a, _ := Spans(WalkForward{Mode: Anchored, Folds: 4, InSampleFraction: 0.6}, 100, 7, "days")
	for k, s := range a {
		if s.ISFrom != 0 || s.ISTo != want[k].ISTo || s.OOSFrom != want[k].OOSFrom || s.OOSTo != want[k].OOSTo {
			t.Fatalf("anchored fold %d = %v", k, s)
		}
	}
	if _, f := Spans(WalkForward{Mode: Rolling, Folds: 10, InSampleFraction: 0.5}, 60, 7, "days"); !strings.Contains(f["walk_forward.folds"], "out-of-sample windows of 5 days") {
		t.Fatalf("too short: %v", f)
	}
}

func TestStabilityAndSimpleAnnualised(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	chosen := []map[string]json.RawMessage{{"p": raw("10")}, {"p": raw("10")}, {"p": raw("20")}, {"p": raw("10")}}
	s := stability(chosen, "p", 10, 30)
	// mean 12.5, population deviation sqrt((3 x 6.25 + 56.25) / 4) = 4.3301;
	// over the range 20: 0.21651.
	if string(s.ModalValue) != "10" || s.ModalShare != 0.75 || s.Dispersion == nil || math.Abs(*s.Dispersion-0.21650635) > 1e-8 {
		t.Fatalf("stability = %+v %v", s, *s.Dispersion)
	}
	if b := stability([]map[string]json.RawMessage{{"p": raw("true")}, {"p": raw("false")}}, "p", 0, 0); b.Dispersion != nil || b.ModalShare != 0.5 || string(b.ModalValue) != "true" {
		t.Fatalf("booleans = %+v", b)
	}
	// 2% over 73 days is 10% a year, simply.
	a := simpleAnnualised(raw(`{"start_date":"2026-01-01T00:00:00Z","end_date":"2026-03-15T00:00:00Z","total_return":0.02}`))
	if a == nil || math.Abs(*a-0.1) > 1e-12 {
		t.Fatalf("annualised = %v", a)
	}
}

// Report from stored runs: fold 0 chose trial 1 and ran out of sample,
// fold 1 had no eligible trial (min_trades), fold 2 chose trial 0; the
// stitched curve chains fold 2 onto fold 0's end.
func TestReportStitchesAndSkipsFoldsWithoutAChoice(t *testing.T) {
	a := Ask{Grid: map[string][]json.RawMessage{"p": {json.RawMessage("1"), json.RawMessage("3")}}, Objective: "total_return", MinTrades: 2,
		WalkForward: &WalkForward{Mode: Rolling, Folds: 3, InSampleFraction: 0.5}}
	l := Layout{N: 2, K: 3}
	f := func(x float64) *float64 { return &x }
	run := func(idx, trial int, score *float64, trades int, metrics string) domain.SweepTrial {
		return domain.SweepTrial{Index: idx, Values: json.RawMessage(fmt.Sprintf(`{"p":%d}`, 1+2*trial)), Params: json.RawMessage(`{}`), Metrics: json.RawMessage(metrics), Score: score, Trades: trades}
	}
	is := `{"total_return":%v,"start_date":"2026-01-01T00:00:00Z","end_date":"2026-01-11T00:00:00Z"}`
	oos := `{"total_return":%v,"initial_equity":"1000","final_equity":"%v","start_date":"2026-01-11T00:00:00Z","end_date":"2026-01-21T00:00:00Z",
		"equity_curve":[{"time":"2026-01-11T01:00:00Z","equity":"%v","drawdown":0},{"time":"2026-01-21T00:00:00Z","equity":"%v","drawdown":0}]}`
	runs := []domain.SweepTrial{
		run(0, 0, f(0.1), 5, `{"total_return":0.1,"sharpe_ratio":1}`), run(1, 1, f(0.2), 5, `{"total_return":0.2,"sharpe_ratio":2}`),
		run(l.InSample(0, 0), 0, f(0.01), 5, fmt.Sprintf(is, 0.01)), run(l.InSample(0, 1), 1, f(0.02), 5, fmt.Sprintf(is, 0.02)),
		run(l.InSample(1, 0), 0, f(0.05), 1, fmt.Sprintf(is, 0.05)), run(l.InSample(1, 1), 1, f(0.06), 1, fmt.Sprintf(is, 0.06)),
		run(l.InSample(2, 0), 0, f(0.04), 3, fmt.Sprintf(is, 0.04)), run(l.InSample(2, 1), 1, nil, 3, fmt.Sprintf(is, 0)),
		run(l.OutOfSample(0), 1, f(0.1), 3, fmt.Sprintf(oos, 0.1, 1100, 1050, 1100)),
		run(l.OutOfSample(2), 0, f(-0.05), 3, fmt.Sprintf(oos, -0.05, 950, 980, 950)),
	}
	ws := make([]Window, 3)
	r := Report(a, []string{"p"}, ws, runs)
	if r.Folds[0].Status != "completed" || *r.Folds[0].Trial != 1 || r.Folds[1].Status != "no_eligible_trial" || r.Folds[1].Trial != nil ||
		r.Folds[2].Status != "completed" || *r.Folds[2].Trial != 0 {
		t.Fatalf("folds = %+v", r.Folds)
	}
	// The runs planned: 2 + 3 x 2 + 3 + 1 = 12, less fold 1's out-of-sample run.
	if r.RunsPlanned != 11 || r.Runs != len(runs) || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "Fold 2") {
		t.Fatalf("runs %d/%d, notes %v", r.Runs, r.RunsPlanned, r.Notes)
	}
	// Fold 2 starts at fold 0's end: 980 x 1.1 = 1078, 950 x 1.1 = 1045.
	var got []string
	for _, p := range r.StitchedEquity {
		got = append(got, p.Equity.String())
	}
	if !reflect.DeepEqual(got, []string{"1050", "1100", "1078", "1045"}) || math.Abs(*r.StitchedReturn-0.045) > 1e-12 {
		t.Fatalf("stitched = %v, return %v", got, *r.StitchedReturn)
	}
	// IS annualised: 0.02 and 0.04 over 10 days x 36.5; OOS 0.1 and -0.05:
	// efficiency mean(0.1, -0.05) / mean(0.02, 0.04) = 0.025 / 0.03.
	if r.WalkForwardEfficiency == nil || math.Abs(*r.WalkForwardEfficiency-0.025/0.03) > 1e-9 {
		t.Fatalf("efficiency = %v (want 0.8333)", r.WalkForwardEfficiency)
	}
	if st := r.ParameterStability["p"]; st.ModalShare != 0.5 || string(st.ModalValue) != "3" || st.Dispersion == nil || *st.Dispersion != 0.5 {
		t.Fatalf("stability = %+v", st)
	}
	if r.DeflatedSharpe != nil {
		t.Fatalf("no best trial's second run stored, yet a deflated Sharpe: %+v", r.DeflatedSharpe)
	}
}
