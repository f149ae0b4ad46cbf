package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"kestrel/domain"
)

// RunSweeps is the contract for domain.SweepStore.
func RunSweeps(t *testing.T, s domain.SweepStore) {
	ctx := context.Background()
	score := 1.25
	trial := func(id string, i int, sc *float64) domain.SweepTrial {
		return domain.SweepTrial{SweepID: id, Index: i, Values: json.RawMessage(`{"indicators.rsi_period":7}`),
			Params: json.RawMessage(`{"indicators":{"rsi_period":7}}`), Metrics: json.RawMessage(`{"total_return":0.5,"total_trades":3}`),
			Score: sc, Trades: 3, CreatedAt: at.Add(time.Duration(i) * time.Second)}
	}
	if got, err := s.SweepTrials(ctx, "s1"); err != nil || len(got) != 0 {
		t.Fatalf("no trials = %v, %v", got, err)
	}
	for _, i := range []int{2, 0, 1} {
		sc := &score
		if i == 1 {
			sc = nil // an objective undefined for the trial stays null
		}
		if err := s.SaveSweepTrial(ctx, trial("s1", i, sc)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveSweepTrial(ctx, trial("s2", 0, &score)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.SaveSweepTrial(ctx, trial("s1", 0, &score)), domain.EConflict)
	bad := trial("s1", 9, nil)
	bad.Metrics = json.RawMessage(`{`)
	wantCode(t, s.SaveSweepTrial(ctx, bad), domain.EInvalid)

	got, err := s.SweepTrials(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("trials = %d, want 3", len(got))
	}
	for i, tr := range got {
		if tr.Index != i || tr.SweepID != "s1" || tr.Trades != 3 || !tr.CreatedAt.Equal(at.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("trial %d = %+v", i, tr)
		}
		if (i == 1) != (tr.Score == nil) || tr.Score != nil && *tr.Score != score {
			t.Fatalf("trial %d score = %v", i, tr.Score)
		}
		var m map[string]float64
		var p map[string]map[string]int
		if json.Unmarshal(tr.Metrics, &m) != nil || m["total_return"] != 0.5 || json.Unmarshal(tr.Params, &p) != nil || p["indicators"]["rsi_period"] != 7 {
			t.Fatalf("trial %d = %s %s", i, tr.Metrics, tr.Params)
		}
	}
}
