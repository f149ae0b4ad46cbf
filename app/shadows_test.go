package app_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai/aifake"
)

type shadowBoard struct {
	Evaluations int
	Fee         decimal.Decimal
	Models      []struct {
		Role, Provider, Model string
		Decisions, Failed     int
		InputTokens           int `json:"input_tokens"`
	}
	Recent []struct {
		EvaluationID string `json:"evaluation_id"`
		Decisions    []struct{ Role, Model, Decision, Error string }
	}
}

// Shadow models are validated on save (field errors, never a 500), asked
// with the live model on Test AI, listed beside it on the leaderboard, and
// their calls are in the spend view, labelled.
func TestShadowModelsThroughTheAPI(t *testing.T) {
	fake := &aifake.Server{}
	s, op, trader := liveServer(t, fake)
	for _, tc := range []struct{ name, body, field string }{
		{"unknown provider", `[{"provider":"anthropic","model":"claude"}]`, "shadow_models.0.provider"},
		{"the live model", `[{"provider":"openai","model":"gpt-4.1-nano"}]`, "shadow_models.0.model"},
		{"too many", `[{"provider":"builtin","model":""},{"provider":"openai","model":"a"},{"provider":"openai","model":"b"},{"provider":"openai","model":"c"}]`, "shadow_models"},
	} {
		r := s.do("PUT", "/api/strategy/config/ai_strategy", op, `{"shadow_models":`+tc.body+`}`)
		if r.Status != 400 || r.Error.Fields[tc.field] == "" {
			t.Errorf("%s: %d %+v, want 400 with a field error on %s", tc.name, r.Status, r.Error, tc.field)
		}
	}
	if r := s.do("PUT", "/api/strategy/config/ai_strategy", op, `{"shadow_models":[{"provider":"builtin","model":""},{"provider":"openai","model":"other-model"}]}`); r.Status != 200 {
		t.Fatalf("save shadows: %+v", r)
	}
	if r := s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, ""); r.Status != 200 {
		t.Fatalf("Test AI: %+v", r)
	}
	var b shadowBoard
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s.into(s.do("GET", "/api/strategy/shadows/ai_strategy", trader, ""), &b)
		if len(b.Models) == 3 || time.Now().After(deadline) {
			break
		}
	}
	if b.Evaluations != 1 || len(b.Models) != 3 || b.Models[0].Role != "live" || b.Models[0].Provider != "openai" || len(b.Recent) != 1 || len(b.Recent[0].Decisions) != 3 {
		t.Fatalf("leaderboard %+v", b)
	}
	if !b.Fee.Equal(decimal.RequireFromString("0.006")) {
		t.Errorf("fee %s, want the paper venue's taker fee 0.006", b.Fee)
	}
	labels := map[string]bool{}
	for _, m := range b.Models {
		labels[m.Role+" "+m.Provider+"/"+m.Model] = m.Decisions == 1
	}
	for _, want := range []string{"live openai/fake-model", "shadow builtin/Built-in analyst (offline)", "shadow openai/other-model"} {
		if !labels[want] {
			t.Errorf("no answered row %q in %v", want, labels)
		}
	}
	if fake.Calls() != 2 {
		t.Errorf("the model host was called %d times, want 2 (live and the openai shadow)", fake.Calls())
	}
	var sp struct {
		Total struct {
			Decisions       int
			InputTokens     int `json:"input_tokens"`
			ShadowDecisions int `json:"shadow_decisions"`
		}
	}
	s.into(s.do("GET", "/api/ai/spend", op, ""), &sp)
	in, _ := fake.Tokens()
	if sp.Total.Decisions != 3 || sp.Total.ShadowDecisions != 2 || sp.Total.InputTokens != in {
		t.Errorf("spend %+v, want 3 decisions (2 shadows) and the fake's %d input tokens", sp.Total, in)
	}
	for _, tc := range []struct {
		path string
		want int
	}{{"/api/strategy/shadows/nope", 404}, {"/api/strategy/shadows/ai_strategy?days=0", 400}, {"/api/strategy/shadows/ai_strategy?days=x", 400}} {
		if r := s.do("GET", tc.path, trader, ""); r.Status != tc.want {
			t.Errorf("GET %s: %d, want %d", tc.path, r.Status, tc.want)
		}
	}
}
