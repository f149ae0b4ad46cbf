package app_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A client reads a strategy's configuration, changes a value and writes it
// back whole: every strategy's GET answer is a valid PUT body (what GET adds,
// the model label and provider, is ignored), and the change is saved.
func TestStrategyConfigReadModifyWrite(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	var list struct{ Strategies []struct{ Name string } }
	s.into(s.do("GET", "/api/strategy/list", op, ""), &list)
	if len(list.Strategies) == 0 {
		t.Fatal("no strategies")
	}
	for _, st := range list.Strategies {
		r := s.do("GET", "/api/strategy/config/"+st.Name, op, "")
		var cfg map[string]any
		s.into(r, &cfg)
		if st.Name == "ai_strategy" && cfg["model_label"] == nil {
			t.Errorf("%s: GET has no model_label to write back: %s", st.Name, r.Data)
		}
		cfg["min_confidence"] = 0.55
		body, _ := json.Marshal(cfg)
		r = s.do("PUT", "/api/strategy/config/"+st.Name, op, string(body))
		if r.Status != 200 {
			t.Errorf("%s: PUT of its own GET answer: %d %+v", st.Name, r.Status, r.Error)
			continue
		}
		s.into(s.do("GET", "/api/strategy/config/"+st.Name, op, ""), &cfg)
		if cfg["min_confidence"] != 0.55 {
			t.Errorf("%s: min_confidence after the write %v", st.Name, cfg["min_confidence"])
		}
	}
	// Still strict about the rest.
	if r := s.do("PUT", "/api/strategy/config/technical_strategy", op, `{"min_confidance":0.5}`); r.Status != 400 || !strings.Contains(r.Error.Message, "min_confidance") {
		t.Errorf("an unknown field: %d %+v", r.Status, r.Error)
	}
}
