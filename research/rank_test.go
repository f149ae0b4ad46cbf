package research_test

import (
	"encoding/json"
	"testing"

	"kestrel/domain"
	"kestrel/research"
)

func scored(i int, score float64, halted bool) domain.SweepTrial {
	m := `{"total_return":0.1}`
	if halted {
		m = `{"total_return":0.1,"halted":{"reason":"Maximum drawdown reached (limit 15%)","at":"2025-05-02T10:00:00Z","refused":12,"untraded_days":200,"total_days":240}}`
	}
	return domain.SweepTrial{Index: i, Score: &score, Trades: 3, Metrics: json.RawMessage(m), Values: json.RawMessage(`{}`), Params: json.RawMessage(`{}`)}
}

// A trial a risk limit halted is flagged and never the best while one that
// traded to the end is eligible; when every trial halted, the best is
// among them (and flagged).
func TestRankPutsHaltedTrialsLast(t *testing.T) {
	a := research.Ask{Objective: "total_return"}
	ts := []domain.SweepTrial{scored(0, 0.02, false), scored(1, 0.30, true), scored(2, -0.01, false)}
	out, best := research.Rank(ts, a)
	if best != 0 {
		t.Fatalf("best = %d, want 0 (trial 1 scores higher but halted)", best)
	}
	if h := out[1].Halted; h == nil || h.Reason != "Maximum drawdown reached (limit 15%)" || h.Refused != 12 {
		t.Fatalf("trial 1 halted = %+v", h)
	}
	if out[0].Halted != nil || out[2].Halted != nil {
		t.Fatal("a trial that traded to the end is flagged halted")
	}
	all := []domain.SweepTrial{scored(0, -0.2, true), scored(1, -0.1, true)}
	out, best = research.Rank(all, a)
	if best != 1 || out[best].Halted == nil {
		t.Fatalf("every trial halted: best = %d, want 1, flagged", best)
	}
}
