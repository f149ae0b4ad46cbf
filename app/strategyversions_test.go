package app_test

import (
	"strings"
	"sync"
	"testing"
)

type versionList struct {
	Strategy      string `json:"strategy"`
	ActiveVersion int    `json:"active_version"`
	Versions      []struct {
		Version   int            `json:"version"`
		Parent    int            `json:"parent"`
		Note      string         `json:"note"`
		CreatedBy string         `json:"created_by"`
		Active    bool           `json:"active"`
		Params    map[string]any `json:"params"`
	} `json:"versions"`
}

func rsiPeriod(params map[string]any) any {
	in, _ := params["indicators"].(map[string]any)
	return in["rsi_period"]
}

// Strategy versions through the API: saving (by the config form or by
// POST /versions) is a new version, activate rolls back and forward, and
// every change is audited; traders read but do not change.
func TestStrategyVersionsAPI(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	const base = "/api/strategy/versions/technical_strategy"

	var l versionList
	s.into(s.do("GET", base, tok, ""), &l)
	if l.ActiveVersion != 1 || len(l.Versions) != 1 || !l.Versions[0].Active || rsiPeriod(l.Versions[0].Params) != 14.0 {
		t.Fatalf("first list %+v", l)
	}

	// The config form saves version 2.
	if r := s.do("PUT", "/api/strategy/config/technical_strategy", op, `{"min_confidence":0.7}`); !r.Success || !strings.Contains(string(r.Data), `"version":2`) {
		t.Fatalf("PUT config: %+v", r)
	}
	// POST /versions saves version 3 from version 1 (a Research trial's shape).
	r := s.do("POST", base, op, `{"params":{"indicators":{"rsi_period":7}},"note":"trial 4 of sweep x","parent":1}`)
	if r.Status != 201 {
		t.Fatalf("save version: %+v", r)
	}
	var saved struct {
		Version struct {
			Version, Parent int
			Note            string
			Active          bool
		} `json:"version"`
		Config struct {
			MinConfidence float64 `json:"min_confidence"`
			Version       int     `json:"version"`
		} `json:"config"`
	}
	s.into(r, &saved)
	if saved.Version.Version != 3 || saved.Version.Parent != 1 || !saved.Version.Active || saved.Config.MinConfidence != 0.6 || saved.Config.Version != 3 {
		t.Fatalf("saved %+v (want version 3 from version 1: min_confidence 0.6 as in version 1)", saved)
	}
	s.into(s.do("GET", base, tok, ""), &l)
	if l.ActiveVersion != 3 || len(l.Versions) != 3 || l.Versions[0].Version != 3 || rsiPeriod(l.Versions[0].Params) != 7.0 ||
		l.Versions[0].CreatedBy == "" || l.Versions[0].Note != "trial 4 of sweep x" || l.Versions[1].Parent != 1 || l.Versions[1].Active {
		t.Fatalf("list after two saves %+v", l)
	}

	// Field errors, never a 500.
	for body, field := range map[string]string{
		`{"params":{"indicators":{"rsi_period":99}}}`: "indicators.rsi_period",
		`{"params":{"rsi":7}}`:                        "params",
		`{"params":{},"parent":42}`:                   "parent",
	} {
		if r := s.do("POST", base, op, body); r.Status != 400 || r.Error.Fields[field] == "" {
			t.Errorf("%s: %+v, want 400 with a field error on %s", body, r, field)
		}
	}
	if r := s.do("POST", base, op, `{"params":{},"bogus":1}`); r.Status != 400 {
		t.Errorf("unknown body field: %+v", r)
	}

	// Roll back to version 1, then forward to 3.
	if r := s.do("POST", base+"/1/activate", tok, ""); r.Status != 403 {
		t.Fatalf("trader activating: %+v", r)
	}
	if r := s.do("POST", base+"/1/activate", op, ""); !r.Success || !strings.Contains(string(r.Data), `"active_version":1`) || !strings.Contains(string(r.Data), `"previous_version":3`) {
		t.Fatalf("activate 1: %+v", r)
	}
	var cfg struct {
		Version    int `json:"version"`
		Indicators struct {
			RSIPeriod int `json:"rsi_period"`
		} `json:"indicators"`
	}
	s.into(s.do("GET", "/api/strategy/config/technical_strategy", tok, ""), &cfg)
	if cfg.Version != 1 || cfg.Indicators.RSIPeriod != 14 {
		t.Fatalf("config after roll back %+v", cfg)
	}
	s.into(s.do("GET", base, tok, ""), &l)
	if len(l.Versions) != 3 || !l.Versions[2].Active || rsiPeriod(l.Versions[0].Params) != 7.0 {
		t.Fatalf("roll back rewrote or lost a version: %+v", l)
	}
	if r := s.do("POST", base+"/99/activate", op, ""); r.Status != 404 {
		t.Fatalf("activating a missing version: %+v", r)
	}
	if r := s.do("POST", base+"/x/activate", op, ""); r.Status != 400 || r.Error.Fields["version"] == "" {
		t.Fatalf("activating version x: %+v", r)
	}
	if r := s.do("GET", "/api/strategy/versions/nope", tok, ""); r.Status != 404 {
		t.Fatalf("versions of a missing strategy: %+v", r)
	}
	if r := s.do("GET", base+"/3", tok, ""); !r.Success || !strings.Contains(string(r.Data), `"rsi_period":7`) {
		t.Fatalf("one version: %+v", r)
	}
	if r := s.do("GET", base+"/4", tok, ""); r.Status != 404 {
		t.Fatalf("a missing version: %+v", r)
	}

	var audit struct {
		Entries []struct{ Action, Detail string }
	}
	s.into(s.do("GET", "/api/audit?limit=200", op, ""), &audit)
	found := map[string]bool{}
	for _, e := range audit.Entries {
		for _, want := range []string{"activated version 1 of strategy technical_strategy (was version 3)", "saved version 3 of strategy technical_strategy (from version 1)"} {
			found[want] = found[want] || strings.Contains(e.Detail, want)
		}
	}
	if len(found) != 2 || !found["activated version 1 of strategy technical_strategy (was version 3)"] || !found["saved version 3 of strategy technical_strategy (from version 1)"] {
		t.Fatalf("audit entries %+v", audit.Entries)
	}
}

// Two saves at once both land, with distinct numbers.
func TestStrategyVersionSavesAtOnce(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	var wg sync.WaitGroup
	for _, p := range []string{"7", "9", "11", "21"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := s.do("POST", "/api/strategy/versions/technical_strategy", op, `{"params":{"indicators":{"rsi_period":`+p+`}}}`); r.Status != 201 {
				t.Errorf("save %s: %+v", p, r)
			}
		}()
	}
	wg.Wait()
	var l versionList
	s.into(s.do("GET", "/api/strategy/versions/technical_strategy", op, ""), &l)
	seen := map[int]bool{}
	for _, v := range l.Versions {
		seen[v.Version] = true
	}
	if len(l.Versions) != 5 || len(seen) != 5 || l.ActiveVersion != 5 {
		t.Fatalf("after four saves at once: %+v", l)
	}
}

// A backtest and a sweep record the version their overrides were applied
// to: after a roll back, the version the instance runs then.
func TestBacktestsAndSweepsRecordTheVersion(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	if r := s.do("POST", "/api/strategy/versions/technical_strategy", op, `{"params":{"indicators":{"rsi_period":7}}}`); r.Status != 201 {
		t.Fatalf("save: %+v", r)
	}
	if r := s.do("POST", "/api/strategy/versions/technical_strategy", op, `{"params":{"indicators":{"rsi_period":9}}}`); r.Status != 201 {
		t.Fatalf("save: %+v", r)
	}
	if r := s.do("POST", "/api/strategy/versions/technical_strategy/2/activate", op, ""); r.Status != 200 {
		t.Fatalf("activate: %+v", r)
	}
	r := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-10","initial_capital":10000,"params":{"min_confidence":0.5}}`)
	var rep struct {
		ID              string `json:"id"`
		StrategyVersion int    `json:"strategy_version"`
		Config          struct {
			Indicators struct {
				RSIPeriod int `json:"rsi_period"`
			} `json:"indicators"`
		} `json:"config"`
	}
	s.into(r, &rep)
	if rep.StrategyVersion != 2 || rep.Config.Indicators.RSIPeriod != 7 {
		t.Fatalf("backtest report: version %d, rsi_period %d (want version 2's 7)", rep.StrategyVersion, rep.Config.Indicators.RSIPeriod)
	}
	if got := s.do("GET", "/api/backtests/"+rep.ID, tok, ""); !strings.Contains(string(got.Data), `"strategy_version":2`) {
		t.Fatalf("the stored run lost its version: %.300s", got.Data)
	}
	r = s.do("POST", "/api/sweeps", tok, `{`+sweepBase+`,"grid":{"min_confidence":[0.5,0.6]},"objective":"total_return","strategy_version":9}`)
	if r.Status != 202 {
		t.Fatalf("sweep: %+v", r)
	}
	var q struct{ ID string }
	s.into(r, &q)
	s.waitSweep(tok, q.ID)
	var sw struct {
		StrategyVersion int `json:"strategy_version"`
	}
	s.into(s.do("GET", "/api/sweeps/"+q.ID, tok, ""), &sw)
	if sw.StrategyVersion != 2 {
		t.Fatalf("sweep strategy_version %d, want 2 (the server's, not the client's 9)", sw.StrategyVersion)
	}
}
