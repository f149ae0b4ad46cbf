package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// recorder is a local listener that records whether anyone called it and
// answers with a body that must never reach the caller.
func recorder(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// A trader's connection test to an internal address is refused without
// contacting it; an operator's test of an endpoint not saved is refused
// the same way; a saved endpoint's redirect is not followed and its answer
// is not echoed (issue 21, item 3).
func TestConnectionTestCallsOnlyTheSavedEndpoint(t *testing.T) {
	a := newSettingsAPI(t)
	op, _ := a.register("op@example.com", "Op", "correct horse battery")
	if r := a.do("POST", "/api/users", op, `{"email":"t@example.com","name":"Tess","password":"trader-pass","role":"trader"}`); r.Status != 201 {
		t.Fatalf("create trader: %d %s", r.Status, r.Raw)
	}
	trader := a.login("t@example.com", "trader-pass")

	internal, internalCalls := recorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "internal-secret-body", http.StatusTeapot)
	})
	ask := func(base string) string {
		return `{"provider":"ai","settings":{"ai":{"provider":"openai","baseUrl":"` + base + `/v1","model":"tiny","apiToken":"x","timeout":60000}}}`
	}
	if r := a.do("POST", "/api/settings/test-connection", trader, ask(internal.URL)); r.Status != http.StatusForbidden {
		t.Fatalf("trader's connection test: %d %s", r.Status, r.Raw)
	}
	if r := a.do("POST", "/api/settings/test-connection", op, ask(internal.URL)); r.Status != http.StatusBadRequest ||
		!strings.Contains(string(r.Raw), "settings.ai.baseUrl") {
		t.Fatalf("operator's test of an unsaved endpoint: %d %s", r.Status, r.Raw)
	}
	if n := internalCalls.Load(); n != 0 {
		t.Fatalf("the internal address was contacted %d time(s)", n)
	}

	// Saved by the operator: called once, its redirect not followed, its
	// body not echoed.
	redirected, redirectedCalls := recorder(t, func(w http.ResponseWriter, r *http.Request) {})
	saved, _ := recorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, redirected.URL+"/v1/chat/completions", http.StatusFound)
	})
	if r := a.do("PUT", "/api/settings", op, `{"api":{"ai":{"provider":"openai","baseUrl":"`+saved.URL+`/v1","model":"tiny","timeout":10000}}}`); r.Status != 200 {
		t.Fatalf("save: %d %s", r.Status, r.Raw)
	}
	r := a.do("POST", "/api/settings/test-connection", op, ask(saved.URL))
	var got struct{ Status, Message string }
	json.Unmarshal(r.Data, &got)
	if r.Status != 200 || got.Status != "Failed" || got.Message != "The provider answered HTTP 302; the server log has its answer" {
		t.Fatalf("saved endpoint that redirects: %d %+v", r.Status, got)
	}
	if n := redirectedCalls.Load(); n != 0 {
		t.Fatalf("the redirect was followed (%d call(s))", n)
	}

	// The remote body is never echoed.
	if r := a.do("PUT", "/api/settings", op, `{"api":{"ai":{"provider":"openai","baseUrl":"`+internal.URL+`/v1","model":"tiny","timeout":10000}}}`); r.Status != 200 {
		t.Fatalf("save: %d %s", r.Status, r.Raw)
	}
	r = a.do("POST", "/api/settings/test-connection", op, ask(internal.URL))
	if strings.Contains(string(r.Raw), "internal-secret-body") || !strings.Contains(string(r.Raw), "HTTP 418") {
		t.Fatalf("the remote answer was echoed, or no status given: %s", r.Raw)
	}
}
