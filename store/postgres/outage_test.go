package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/storetest"
)

// With its database refusing connections and its connections terminated,
// the ledger's reads and writes fail as EUnavailable (so the API answers
// 503, not 500), and work again by themselves once the database is back.
func TestLedgerUnavailableWhileTheDatabaseIsCutOff(t *testing.T) {
	ctx := context.Background()
	st, back := cutOff(t)

	usd := domain.Balance{Currency: "USD", Available: decimal.NewFromInt(100)}
	for what, err := range map[string]error{
		"write":            st.ApplyLedger(ctx, domain.LedgerChange{Balances: []domain.Balance{usd}}),
		"client id lookup": second(st.LedgerOrderByClientID(ctx, "u1", "c1")),
		"order":            second(st.LedgerOrder(ctx, "o1")),
		"balances":         second(st.LedgerBalances(ctx)),
		"live orders":      second(st.LedgerLiveOrders(ctx)),
		"fills":            second(st.LedgerFills(ctx, domain.FillFilter{})),
		"positions":        second(st.LedgerPositions(ctx)),
	} {
		if domain.ErrorCode(err) != domain.EUnavailable {
			t.Errorf("%s while cut off: %v, want EUnavailable", what, err)
		}
	}
	if err := st.Ping(ctx); err == nil {
		t.Error("Ping succeeded while the database refused connections")
	}

	back()
	if err := st.ApplyLedger(ctx, domain.LedgerChange{Balances: []domain.Balance{usd}}); err != nil {
		t.Fatalf("write once the database is back: %v", err)
	}
	if _, err := st.LedgerOrderByClientID(ctx, "u1", "c1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("lookup once the database is back: %v, want not found", err)
	}
}

// Every call of the store, reads included, fails as EUnavailable while the
// database is unreachable, whichever pgx call (query, row scan, batch, copy,
// transaction) it makes. The methods are found by reflection, so a new one
// is checked without being listed here.
func TestEveryCallUnavailableWhileTheDatabaseIsCutOff(t *testing.T) {
	ctx := context.Background()
	st, back := cutOff(t)
	// Arguments for the methods that refuse zero values before asking the database.
	args := map[string][]any{
		"SaveBacktest":        {domain.BacktestRecord{ID: "b1", Request: json.RawMessage(`{}`), Result: json.RawMessage(`{}`)}},
		"CreateJob":           {domain.Job{ID: "j1", Kind: "backtest", Params: json.RawMessage(`{}`)}},
		"FinishJob":           {"j1", domain.JobFailed, "", "reason", time.Time{}},
		"SaveSweepTrial":      {domain.SweepTrial{SweepID: "s1", Values: json.RawMessage(`{}`), Params: json.RawMessage(`{}`), Metrics: json.RawMessage(`{}`)}},
		"SaveStrategy":        {domain.StrategyRecord{Name: "s1"}},
		"AppendEvaluation":    {domain.Evaluation{ID: "e1"}},
		"RecordedDecision":    {"prompt-hash"},
		"SaveAIRecordings":    {[]domain.AIRecording{{PromptHash: "prompt-hash", Decision: "BUY"}}},
		"SaveShadowDecisions": {[]domain.ShadowDecision{{ID: "d1", EvaluationID: "e1", Role: domain.RoleShadow}}},
		"InsertCandles":       {"BTC-USD", domain.FifteenMinute, "test", []domain.CandleRow{{Time: time.Unix(0, 0), Open: "1", High: "1", Low: "1", Close: "1", Volume: "1"}}},
		"UpsertCandles":       {"BTC-USD", domain.FifteenMinute, "coinbase", []domain.CandleRow{{Time: time.Unix(0, 0), Open: "1", High: "1", Low: "1", Close: "1", Volume: "1"}}},
		"CandleGaps":          {"BTC-USD", domain.FifteenMinute},

		"AddStrategyVersion": {domain.StrategyVersion{Strategy: "s1"}},
	}
	checked := storetest.CallEveryMethod(ctx, st, args, func(name string, err error) {
		if domain.ErrorCode(err) != domain.EUnavailable || domain.ErrorMessage(err) != domain.MsgDatabaseUnavailable {
			t.Errorf("%s while cut off: %v, want EUnavailable", name, err)
		}
	})
	t.Logf("%d methods checked", checked)
	if checked < 50 {
		t.Fatalf("only %d methods checked: the reflection missed the store's methods", checked)
	}
	back()
	if _, err := st.Strategies(ctx); err != nil {
		t.Fatalf("once the database is back: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }
