package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// RunStrategies is the contract for domain.StrategyStore; every part gets a
// fresh store from open.
func RunStrategies(t *testing.T, open func(t *testing.T) domain.StrategyStore) {
	runParts(t, open, []part[domain.StrategyStore]{
		{"SaveAndList", testStrategiesSave},
		{"EvaluationRoundTrip", testEvaluationRoundTrip},
		{"EvaluationFilters", testEvaluationFilters},
		{"EvaluationDefaultLimit", testEvaluationDefaultLimit},
		{"PruneEvaluations", testPruneEvaluations},
		{"RecordedDecision", testRecordedDecision},
		{"Versions", testStrategyVersions},
		{"VersionsAtOnce", testStrategyVersionsAtOnce},
		{"ShadowDecisions", testShadowDecisions},
	})
}

// sameJSON reports whether two documents mean the same (PostgreSQL's jsonb
// keeps the meaning, not the bytes).
func sameJSON(t *testing.T, got, want json.RawMessage) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("stored config %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(g, w)
}

func testStrategiesSave(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	if got, err := s.Strategies(ctx); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("empty Strategies = %#v, %v (want an empty, non-nil list)", got, err)
	}
	rsi := json.RawMessage(`{"symbols": ["BTC-USD", "ETH-USD"], "period": 14, "oversold": 30.5, "nested": {"b": true, "a": null}}`)
	for _, st := range []domain.StrategyRecord{
		{Name: "rsi", Type: domain.StrategyTechnical, Enabled: true, Config: rsi, ActiveVersion: 4, CreatedAt: at, UpdatedAt: at},
		{Name: "Zeta", Type: domain.StrategyAI, Config: nil, CreatedAt: at.Add(time.Second), UpdatedAt: at.Add(time.Second)},
		{Name: "macd", Type: domain.StrategyHybrid, Enabled: true, Config: json.RawMessage(`[]`), CreatedAt: at, UpdatedAt: at},
	} {
		if err := s.SaveStrategy(ctx, st); err != nil {
			t.Fatalf("SaveStrategy(%s): %v", st.Name, err)
		}
	}
	got, err := s.Strategies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// By name in byte order: upper case sorts before lower case.
	if len(got) != 3 || got[0].Name != "Zeta" || got[1].Name != "macd" || got[2].Name != "rsi" {
		t.Fatalf("Strategies = %+v (want Zeta, macd, rsi)", got)
	}
	z, m, r := got[0], got[1], got[2]
	if z.Type != domain.StrategyAI || z.Enabled || !sameJSON(t, z.Config, json.RawMessage(`{}`)) ||
		!z.CreatedAt.Equal(at.Add(time.Second)) || !z.UpdatedAt.Equal(at.Add(time.Second)) {
		t.Fatalf("Zeta (nil config must read {}) = %+v, config %s", z, z.Config)
	}
	if m.Type != domain.StrategyHybrid || !m.Enabled || !sameJSON(t, m.Config, json.RawMessage(`[]`)) {
		t.Fatalf("macd = %+v, config %s", m, m.Config)
	}
	if r.Type != domain.StrategyTechnical || !r.Enabled || !sameJSON(t, r.Config, rsi) || r.ActiveVersion != 4 || z.ActiveVersion != 0 || !r.CreatedAt.Equal(at) || !r.UpdatedAt.Equal(at) ||
		r.CreatedAt.Location() != time.UTC {
		t.Fatalf("rsi = %+v, config %s", r, r.Config)
	}

	// Replacing keeps created_at and takes everything else.
	later := at.Add(time.Hour)
	upd := domain.StrategyRecord{Name: "rsi", Type: domain.StrategyHybrid, Enabled: false, Config: json.RawMessage(`{"period": 21}`), CreatedAt: later, UpdatedAt: later}
	if err := s.SaveStrategy(ctx, upd); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Strategies(ctx)
	if len(got) != 3 {
		t.Fatalf("after upsert %d strategies, want 3", len(got))
	}
	r = got[2]
	if r.Name != "rsi" || r.Type != domain.StrategyHybrid || r.Enabled || !sameJSON(t, r.Config, upd.Config) ||
		!r.CreatedAt.Equal(at) || !r.UpdatedAt.Equal(later) {
		t.Fatalf("after upsert rsi = %+v, config %s (created_at must stay %v)", r, r.Config, at)
	}

	wantCode(t, s.SaveStrategy(ctx, domain.StrategyRecord{Type: domain.StrategyTechnical, CreatedAt: at, UpdatedAt: at}), domain.EInvalid)
	wantCode(t, s.SaveStrategy(ctx, domain.StrategyRecord{Name: "bad", Type: domain.StrategyTechnical, Config: json.RawMessage(`{"period":`), CreatedAt: at, UpdatedAt: at}), domain.EInvalid)
	if got, _ := s.Strategies(ctx); len(got) != 3 {
		t.Fatalf("refused saves stored something: %+v", got)
	}
}

func testEvaluationRoundTrip(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	cost := decimal.RequireFromString("0.000123456789")
	full := domain.Evaluation{
		ID: "ev-full", Time: at, Strategy: "ai", Symbol: "BTC-USD", CandleTime: at.Add(-5 * time.Minute),
		Decision: "BUY", Confidence: 0.8765432101234567, Reasoning: "RSI oversold; MACD crossing up",
		Indicators: map[string]float64{
			"rsi": 28.123456789, "macd": -0.30000000000000004, "zero": 0, "tiny": 1e-9, "huge": 1.5e21,
			"max": math.MaxFloat64, "smallest": math.SmallestNonzeroFloat64, "neg": -42,
		},
		Executed: true, Reason: "", OrderID: "ord-1",
		Provider: "openai", Model: "gpt-x", LatencyMS: 1234, PromptHash: "sha256:abc", Prompt: "You are…\n\"quoted\" ✓",
		Raw: `{"decision":"BUY"}`, Error: "", StrategyVersion: 7, TemplateVersion: "custom:0123456789ab",
		InputTokens: 1200, OutputTokens: 45, Cost: &cost,
	}
	refused := domain.Evaluation{
		ID: "ev-refused", Time: at.Add(time.Second), Strategy: "rsi", Symbol: "ETH-USD", CandleTime: at,
		Decision: "SELL", Confidence: 0.4, Indicators: map[string]float64{}, Reason: "below confidence",
		Error: "provider timeout", Provider: "openai", Model: "unpriced", InputTokens: 10, // cost unknown: nil
	}
	hold := domain.Evaluation{
		ID: "ev-hold", Time: at.Add(2 * time.Second), Strategy: "rsi", Symbol: "ETH-USD", CandleTime: at, Decision: "HOLD",
	}
	for _, e := range []domain.Evaluation{full, refused, hold} {
		if err := s.AppendEvaluation(ctx, e); err != nil {
			t.Fatalf("AppendEvaluation(%s): %v", e.ID, err)
		}
	}
	got, err := s.Evaluations(ctx, domain.EvaluationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("Evaluations = %d, want 3", len(got))
	}
	for i, want := range []domain.Evaluation{hold, refused, full} {
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("evaluation %d:\n got %#v\nwant %#v", i, got[i], want)
		}
	}
	if got[0].Indicators != nil {
		t.Errorf("nil indicators read back as %#v, want nil", got[0].Indicators)
	}
	if got[1].Indicators == nil || len(got[1].Indicators) != 0 {
		t.Errorf("empty indicators read back as %#v, want an empty map", got[1].Indicators)
	}
	if got[2].Time.Location() != time.UTC || got[2].CandleTime.Location() != time.UTC {
		t.Errorf("times not in UTC: %v, %v", got[2].Time, got[2].CandleTime)
	}

	// The AI decisions' usage (provider set), oldest first, in [since, until).
	usage, err := s.AIUsage(ctx, at, at.Add(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	wantUsage := []domain.AIUsage{
		{Time: at, Strategy: "ai", Provider: "openai", Model: "gpt-x", InputTokens: 1200, OutputTokens: 45, Cost: &cost},
		{Time: at.Add(time.Second), Strategy: "rsi", Provider: "openai", Model: "unpriced", InputTokens: 10},
	}
	if !reflect.DeepEqual(usage, wantUsage) {
		t.Errorf("AIUsage:\n got %#v\nwant %#v", usage, wantUsage)
	}
	if usage, err := s.AIUsage(ctx, at.Add(time.Millisecond), at.Add(time.Second)); err != nil || len(usage) != 0 {
		t.Errorf("AIUsage outside the window: %+v, %v", usage, err)
	}

	dup := hold
	dup.Decision = "BUY"
	wantCode(t, s.AppendEvaluation(ctx, dup), domain.EConflict)
	noID := hold
	noID.ID = ""
	wantCode(t, s.AppendEvaluation(ctx, noID), domain.EInvalid)
	nan := hold
	nan.ID, nan.Indicators = "ev-nan", map[string]float64{"rsi": math.NaN()}
	wantCode(t, s.AppendEvaluation(ctx, nan), domain.EInvalid)
	if got, _ := s.Evaluations(ctx, domain.EvaluationFilter{}); len(got) != 3 || got[0].Decision != "HOLD" {
		t.Fatalf("refused appends changed the log: %+v", got)
	}
}

func ids(es []domain.Evaluation) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func testEvaluationFilters(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	// id, seconds after at, strategy, symbol, executed. e3a, e3b and e3c
	// share a time, so the tie-break (id, descending) decides their order;
	// they are appended out of order.
	rows := []struct {
		id       string
		sec      int
		strategy string
		symbol   string
		executed bool
	}{
		{"e1", 0, "rsi", "BTC-USD", false},
		{"e2", 60, "rsi", "ETH-USD", true},
		{"e3b", 120, "ai", "BTC-USD", false},
		{"e3c", 120, "rsi", "BTC-USD", true},
		{"e3a", 120, "ai", "ETH-USD", true},
		{"e4", 180, "ai", "BTC-USD", false},
	}
	for _, r := range rows {
		e := domain.Evaluation{ID: r.id, Time: at.Add(time.Duration(r.sec) * time.Second), Strategy: r.strategy, Symbol: r.symbol,
			CandleTime: at, Decision: "HOLD", Executed: r.executed}
		if err := s.AppendEvaluation(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	yes, no := true, false
	for _, tc := range []struct {
		name string
		f    domain.EvaluationFilter
		want []string
	}{
		{"all", domain.EvaluationFilter{}, []string{"e4", "e3c", "e3b", "e3a", "e2", "e1"}},
		{"strategy", domain.EvaluationFilter{Strategy: "rsi"}, []string{"e3c", "e2", "e1"}},
		{"symbol", domain.EvaluationFilter{Symbol: "BTC-USD"}, []string{"e4", "e3c", "e3b", "e1"}},
		{"strategy and symbol", domain.EvaluationFilter{Strategy: "ai", Symbol: "BTC-USD"}, []string{"e4", "e3b"}},
		{"executed", domain.EvaluationFilter{Executed: &yes}, []string{"e3c", "e3a", "e2"}},
		{"not executed", domain.EvaluationFilter{Executed: &no}, []string{"e4", "e3b", "e1"}},
		{"since (inclusive)", domain.EvaluationFilter{Since: at.Add(time.Minute)}, []string{"e4", "e3c", "e3b", "e3a", "e2"}},
		{"limit", domain.EvaluationFilter{Limit: 2}, []string{"e4", "e3c"}},
		{"limit inside a tie", domain.EvaluationFilter{Limit: 3}, []string{"e4", "e3c", "e3b"}},
		{"everything", domain.EvaluationFilter{Strategy: "rsi", Symbol: "BTC-USD", Executed: &yes, Since: at.Add(time.Second), Limit: 5}, []string{"e3c"}},
		{"no match", domain.EvaluationFilter{Strategy: "nope"}, []string{}},
	} {
		got, err := s.Evaluations(ctx, tc.f)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got == nil {
			t.Errorf("%s: nil list, want an empty non-nil one", tc.name)
		}
		if g := ids(got); !reflect.DeepEqual(g, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, g, tc.want)
		}
	}
}

func testEvaluationDefaultLimit(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	for i := range 105 {
		e := domain.Evaluation{ID: fmt.Sprintf("e%03d", i), Time: at.Add(time.Duration(i) * time.Second), Strategy: "rsi", Symbol: "BTC-USD", CandleTime: at, Decision: "HOLD"}
		if err := s.AppendEvaluation(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, limit := range []int{0, -1} {
		got, err := s.Evaluations(ctx, domain.EvaluationFilter{Limit: limit})
		if err != nil || len(got) != 100 || got[0].ID != "e104" || got[99].ID != "e005" {
			t.Fatalf("Limit %d: %d evaluations, %v (want the newest 100)", limit, len(got), err)
		}
	}
	if got, _ := s.Evaluations(ctx, domain.EvaluationFilter{Limit: 200}); len(got) != 105 {
		t.Fatalf("Limit 200: %d evaluations, want 105", len(got))
	}
}

func testPruneEvaluations(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	if n, err := s.PruneEvaluations(ctx, at); err != nil || n != 0 {
		t.Fatalf("prune empty = %d, %v", n, err)
	}
	for i := range 4 {
		e := domain.Evaluation{ID: fmt.Sprintf("p%d", i), Time: at.Add(time.Duration(i) * time.Minute), Strategy: "rsi", Symbol: "BTC-USD", CandleTime: at, Decision: "HOLD"}
		if err := s.AppendEvaluation(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	// Strictly older: the evaluation at exactly 2 minutes stays.
	if n, err := s.PruneEvaluations(ctx, at.Add(2*time.Minute)); err != nil || n != 2 {
		t.Fatalf("PruneEvaluations = %d, %v (want 2)", n, err)
	}
	if got, _ := s.Evaluations(ctx, domain.EvaluationFilter{}); !reflect.DeepEqual(ids(got), []string{"p3", "p2"}) {
		t.Fatalf("after prune %v, want [p3 p2]", ids(got))
	}
}

// RecordedDecision finds the newest usable answer to a prompt, from any
// strategy, and never a failed one.
func testRecordedDecision(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	if _, ok, err := s.RecordedDecision(ctx, "h1"); ok || err != nil {
		t.Fatalf("empty store: ok %v, err %v", ok, err)
	}
	// Only an AI-driven instance's evaluation is the model's own answer; a
	// hybrid's is the combined decision and is never replayed.
	for name, kind := range map[string]string{"a": domain.StrategyAI, "b": domain.StrategyAI, "hyb": domain.StrategyHybrid} {
		if err := s.SaveStrategy(ctx, domain.StrategyRecord{Name: name, Type: kind, CreatedAt: at, UpdatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range []domain.Evaluation{
		{ID: "combined", Time: at.Add(90 * time.Second), Strategy: "hyb", Symbol: "BTC-USD", CandleTime: at, Decision: "HOLD", Confidence: 0.5, PromptHash: "h1", Prompt: "p", Provider: "openai", Model: "m4"},
		{ID: "old", Time: at, Strategy: "a", Symbol: "BTC-USD", CandleTime: at, Decision: "BUY", Confidence: 0.7, PromptHash: "h1", Prompt: "p", Provider: "openai", Model: "m1", Raw: "{}"},
		{ID: "new", Time: at.Add(time.Minute), Strategy: "b", Symbol: "BTC-USD", CandleTime: at, Decision: "SELL", Confidence: 0.6, PromptHash: "h1", Prompt: "p", Provider: "replicate", Model: "m2"},
		{ID: "failed", Time: at.Add(2 * time.Minute), Strategy: "b", Symbol: "BTC-USD", CandleTime: at, Decision: "HOLD", PromptHash: "h1", Prompt: "p", Error: "timeout"},
		{ID: "other", Time: at.Add(3 * time.Minute), Strategy: "b", Symbol: "BTC-USD", CandleTime: at, Decision: "HOLD", PromptHash: "h2"},
		{ID: "technical", Time: at.Add(4 * time.Minute), Strategy: "t", Symbol: "BTC-USD", CandleTime: at, Decision: "BUY"},
	} {
		if err := s.AppendEvaluation(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	e, ok, err := s.RecordedDecision(ctx, "h1")
	if err != nil || !ok || e.ID != "new" || e.Decision != "SELL" || e.Model != "m2" || e.Provider != "replicate" || !e.Time.Equal(at.Add(time.Minute)) {
		t.Fatalf("h1 = %+v, %v, %v (want the newest usable answer, new)", e, ok, err)
	}
	if _, ok, err := s.RecordedDecision(ctx, ""); ok || err != nil {
		t.Fatalf("an empty hash matched (technical evaluations have none): %v %v", ok, err)
	}
	if _, ok, _ := s.RecordedDecision(ctx, "h3"); ok {
		t.Fatal("unknown hash matched")
	}

	// Recordings (live-model backtests) count too: the newer answer wins.
	recs := []domain.AIRecording{
		{PromptHash: "h1", At: at.Add(30 * time.Second), Source: "backtest:old", Provider: "openai", Model: "m3", Decision: "HOLD", Confidence: 0.5, Reasoning: "older than new", Prompt: "p", Raw: "{}"},
		{PromptHash: "h3", At: at.Add(time.Hour), Source: "backtest:b1", Provider: "openai", Model: "m3", Decision: "BUY", Confidence: 0.75, Reasoning: "r3", Prompt: "p3 ✓", Raw: `{"decision":"BUY"}`},
	}
	if err := s.SaveAIRecordings(ctx, recs); err != nil {
		t.Fatal(err)
	}
	if e, ok, err := s.RecordedDecision(ctx, "h1"); err != nil || !ok || e.ID != "new" {
		t.Fatalf("h1 after an older recording = %+v (want the evaluation new)", e)
	}
	e, ok, err = s.RecordedDecision(ctx, "h3")
	want := domain.Evaluation{Time: at.Add(time.Hour), Strategy: "backtest:b1", Provider: "openai", Model: "m3", Decision: "BUY", Confidence: 0.75,
		Reasoning: "r3", Prompt: "p3 ✓", Raw: `{"decision":"BUY"}`, PromptHash: "h3"}
	if err != nil || !ok || !reflect.DeepEqual(e, want) {
		t.Fatalf("h3 from a recording = %#v, %v, %v\nwant %#v", e, ok, err, want)
	}
	if err := s.SaveAIRecordings(ctx, []domain.AIRecording{{PromptHash: "h4", At: at.Add(2 * time.Hour), Source: "x", Decision: "SELL"}}); err != nil {
		t.Fatal(err)
	}
	if e, ok, _ := s.RecordedDecision(ctx, "h4"); !ok || e.Decision != "SELL" {
		t.Fatalf("h4 = %+v", e)
	}
	wantCode(t, s.SaveAIRecordings(ctx, []domain.AIRecording{{PromptHash: "", At: at, Decision: "BUY"}}), domain.EInvalid)
	if err := s.SaveAIRecordings(ctx, nil); err != nil {
		t.Fatal(err)
	}
}

func testStrategyVersions(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	if got, err := s.StrategyVersions(ctx, "rsi"); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("no versions = %#v, %v (want an empty, non-nil list)", got, err)
	}
	p1 := json.RawMessage(`{"indicators": {"rsi_period": 14}, "symbols": ["BTC-USD"]}`)
	p2 := json.RawMessage(`{"indicators": {"rsi_period": 7}, "symbols": ["BTC-USD"]}`)
	v1, err := s.AddStrategyVersion(ctx, domain.StrategyVersion{Strategy: "rsi", Version: 99, Params: p1, Note: "first", CreatedBy: "a@example.com", CreatedAt: at})
	if err != nil || v1.Version != 1 {
		t.Fatalf("first version = %+v, %v (want number 1 whatever the caller passed)", v1, err)
	}
	v2, err := s.AddStrategyVersion(ctx, domain.StrategyVersion{Strategy: "rsi", Params: p2, Parent: 1, Note: "faster RSI ✓", CreatedAt: at.Add(time.Minute)})
	if err != nil || v2.Version != 2 {
		t.Fatalf("second version = %+v, %v", v2, err)
	}
	// Numbers count per instance.
	if other, err := s.AddStrategyVersion(ctx, domain.StrategyVersion{Strategy: "macd", Params: p1, CreatedAt: at}); err != nil || other.Version != 1 {
		t.Fatalf("another instance's first version = %+v, %v", other, err)
	}
	got, err := s.StrategyVersions(ctx, "rsi")
	if err != nil || len(got) != 2 {
		t.Fatalf("StrategyVersions = %+v, %v", got, err)
	}
	n, o := got[0], got[1]
	if n.Version != 2 || n.Parent != 1 || n.Note != "faster RSI ✓" || n.CreatedBy != "" || !n.CreatedAt.Equal(at.Add(time.Minute)) || !sameJSON(t, n.Params, p2) {
		t.Fatalf("newest = %+v, params %s", n, n.Params)
	}
	if o.Version != 1 || o.Parent != 0 || o.Note != "first" || o.CreatedBy != "a@example.com" || !o.CreatedAt.Equal(at) ||
		o.CreatedAt.Location() != time.UTC || !sameJSON(t, o.Params, p1) {
		t.Fatalf("oldest = %+v, params %s", o, o.Params)
	}
	one, err := s.StrategyVersion(ctx, "rsi", 1)
	if err != nil || !reflect.DeepEqual(one.Version, 1) || !sameJSON(t, one.Params, p1) || one.Note != "first" {
		t.Fatalf("StrategyVersion(rsi, 1) = %+v, %v", one, err)
	}
	_, err = s.StrategyVersion(ctx, "rsi", 3)
	wantCode(t, err, domain.ENotFound)
	_, err = s.StrategyVersion(ctx, "nope", 1)
	wantCode(t, err, domain.ENotFound)
	_, err = s.AddStrategyVersion(ctx, domain.StrategyVersion{Strategy: "rsi", Params: json.RawMessage(`{bad`), CreatedAt: at})
	wantCode(t, err, domain.EInvalid)
	_, err = s.AddStrategyVersion(ctx, domain.StrategyVersion{Params: p1, CreatedAt: at})
	wantCode(t, err, domain.EInvalid)
}

// testStrategyVersionsAtOnce saves versions of one instance from several
// goroutines at once: every save gets its own number, 1 to n, none lost.
func testStrategyVersionsAtOnce(t *testing.T, s domain.StrategyStore) {
	ctx := context.Background()
	const n = 12
	nums := make(chan int, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			v, err := s.AddStrategyVersion(ctx, domain.StrategyVersion{Strategy: "rsi", Params: json.RawMessage(fmt.Sprintf(`{"i": %d}`, i)), CreatedAt: at})
			nums <- v.Version
			errs <- err
		}()
	}
	seen := map[int]bool{}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		v := <-nums
		if seen[v] || v < 1 || v > n {
			t.Fatalf("version number %d given twice or out of 1..%d (seen %v)", v, n, seen)
		}
		seen[v] = true
	}
	got, err := s.StrategyVersions(ctx, "rsi")
	if err != nil || len(got) != n || got[0].Version != n || got[n-1].Version != 1 {
		t.Fatalf("after %d saves at once: %d versions, %v", n, len(got), err)
	}
}
