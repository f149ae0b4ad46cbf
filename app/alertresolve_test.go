package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/strategy"
)

// A trader resolving a "Strategy paused" alert closes it and leaves the
// strategy disabled (enabling is for operators); an operator's resolution
// re-enables it; the audit says which happened (issue 21, item 5).
func TestResolvingAPausedAlertEnablesOnlyForOperators(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	title := "Strategy paused: " + strategy.TechnicalName
	raise := func() int64 {
		s.app.Alerts.Raise(context.Background(), "strategy:"+title, "high", "strategy", title, "failed evaluations in a row")
		open := false
		list, err := s.app.Store.ListAlerts(context.Background(), domain.AlertFilter{Resolved: &open, Limit: 10})
		if err != nil || len(list) == 0 || list[0].Title != title {
			t.Fatalf("alert not raised: %v %+v", err, list)
		}
		return list[0].ID
	}
	enabled := func() bool {
		var list struct {
			Strategies []struct {
				Name     string
				IsActive bool `json:"is_active"`
			}
		}
		s.into(s.do("GET", "/api/strategy/list", op, ""), &list)
		for _, st := range list.Strategies {
			if st.Name == strategy.TechnicalName {
				return st.IsActive
			}
		}
		t.Fatalf("no %s in %+v", strategy.TechnicalName, list)
		return false
	}
	lastDetail := func(action string) string {
		for _, e := range s.audit(op) {
			if e.Action == action {
				return e.Detail
			}
		}
		return ""
	}
	if enabled() {
		t.Fatal("the strategy starts enabled")
	}

	id := raise()
	path := fmt.Sprintf("/api/system/alerts/%d/resolve", id)
	if r := s.do("POST", path, trader, ""); r.Status != 200 {
		t.Fatalf("trader resolves: %+v", r)
	}
	if enabled() {
		t.Fatal("a trader's resolution enabled the strategy")
	}
	if d := lastDetail("POST " + path); !strings.Contains(d, "stays disabled") {
		t.Fatalf("audit of the trader's resolution: %q", d)
	}

	id = raise()
	path = fmt.Sprintf("/api/system/alerts/%d/resolve", id)
	if r := s.do("POST", path, op, ""); r.Status != 200 {
		t.Fatalf("operator resolves: %+v", r)
	}
	if !enabled() {
		t.Fatal("the operator's resolution did not enable the strategy")
	}
	if d := lastDetail("POST " + path); !strings.Contains(d, "re-enabled strategy "+strategy.TechnicalName) {
		t.Fatalf("audit of the operator's resolution: %q", d)
	}
}
