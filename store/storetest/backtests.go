package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"kestrel/domain"
)

// RunBacktests is the contract for domain.BacktestStore.
func RunBacktests(t *testing.T, s domain.BacktestStore) {
	ctx := context.Background()
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	ret := -0.0125
	for i := 0; i < 3; i++ {
		id := uuid.NewString()
		ids = append(ids, id)
		b := domain.BacktestRecord{ID: id, CreatedAt: base.Add(time.Duration(i) * time.Minute), Strategy: "technical_strategy", Symbol: "BTC-USD",
			Status: "completed", Request: json.RawMessage(`{"symbol":"BTC-USD"}`), Result: json.RawMessage(`{"total_trades":` + string(rune('0'+i)) + `}`)}
		if i == 2 {
			b.TotalReturn = &ret // listed with the run; the others have none
		}
		if err := s.SaveBacktest(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	dup := domain.BacktestRecord{ID: ids[0], CreatedAt: base, Request: json.RawMessage(`{}`), Result: json.RawMessage(`{}`)}
	if err := s.SaveBacktest(ctx, dup); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("duplicate id: %v, want conflict", err)
	}
	list, err := s.Backtests(ctx, 2)
	if err != nil || len(list) != 2 || list[0].ID != ids[2] || list[1].ID != ids[1] || list[0].Result != nil {
		t.Fatalf("list %+v %v: want the two newest, without results", list, err)
	}
	if list[0].TotalReturn == nil || *list[0].TotalReturn != ret || list[1].TotalReturn != nil {
		t.Fatalf("listed returns %v, %v: want %v and none", list[0].TotalReturn, list[1].TotalReturn, ret)
	}
	got, err := s.Backtest(ctx, ids[1])
	var res struct {
		TotalTrades int `json:"total_trades"`
	}
	if err != nil || json.Unmarshal(got.Result, &res) != nil || res.TotalTrades != 1 || !got.CreatedAt.Equal(base.Add(time.Minute)) || got.Symbol != "BTC-USD" {
		t.Fatalf("get %+v %v", got, err)
	}
	if _, err := s.Backtest(ctx, "nope"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("missing: %v", err)
	}
}
