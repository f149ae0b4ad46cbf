package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kestrel/auth"
	"kestrel/domain"
	"kestrel/httpapi"
	"kestrel/settings"
	"kestrel/store/sqlite"
)

// newSettingsAPI is the API with the settings routes.
func newSettingsAPI(t *testing.T) *testAPI {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	clock := domain.SystemClock{}
	sealer, err := settings.NewSealer(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	st, err := settings.NewService(context.Background(), store, sealer, clock)
	if err != nil {
		t.Fatal(err)
	}
	a := auth.NewService(store, clock, time.Hour)
	s := httpapi.New(httpapi.Deps{Store: store, Auth: a, Clock: clock, Started: clock.Now(), UI: ui, Settings: st, MaxBodyBytes: 1 << 16})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() { srv.Close(); store.Close() })
	return &testAPI{t: t, srv: srv, store: store, auth: a}
}

// fakeChat is an OpenAI-compatible server that answers every completion
// with text, and records the bearer tokens it saw.
func fakeChat(t *testing.T, text string, tokens *[]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		*tokens = append(*tokens, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"model": "tiny",
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": text}}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAIConnectionTest(t *testing.T) {
	a := newSettingsAPI(t)
	op, _ := a.register("op@example.com", "Op", "correct horse battery")
	var tokens []string
	okSrv := fakeChat(t, `{"decision":"HOLD","confidence":0.9,"reasoning":"flat"}`, &tokens)
	prose := fakeChat(t, "Hello there!", &tokens)
	body := func(provider, baseURL, token string) string {
		return `{"provider":"ai","settings":{"ai":{"provider":"` + provider + `","baseUrl":"` + baseURL +
			`","model":"tiny","apiToken":"` + token + `","timeout":10000}}}`
	}
	tests := []struct {
		name, saved, body, status, message string
	}{
		{"builtin", "", `{"provider":"ai"}`, "Connected", "The built-in analyst is running (offline)"},
		{"openai answers", okSrv.URL + "/v1", body("openai", okSrv.URL+"/v1", "sk-entered"), "Connected", "The model tiny answered with a usable decision"},
		{"openai answers prose", prose.URL + "/v1", body("openai", prose.URL+"/v1", ""), "Failed", "The model answered, but not with the JSON decision the analyst needs"},
		{"openai unreachable", "http://127.0.0.1:1/v1", body("openai", "http://127.0.0.1:1/v1", ""), "Failed", "The provider could not be reached"},
		{"replicate without a token", "", `{"provider":"ai","settings":{"ai":{"provider":"replicate","model":"gpt-4.1-nano","timeout":10000}}}`, "Failed", "Replicate API token is required"},
		{"saved token to another provider", okSrv.URL + "/v1", `{"provider":"ai","settings":{"ai":{"provider":"replicate","model":"gpt-4.1-nano","apiToken":"••••1234","timeout":10000}}}`, "Failed", "The saved API token is only sent to the saved provider and endpoint"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.saved != "" {
				save := `{"api":{"ai":{"provider":"openai","baseUrl":"` + tc.saved + `","model":"tiny","timeout":10000}}}`
				if r := a.do("PUT", "/api/settings", op, save); r.Status != 200 {
					t.Fatalf("save %s: %d %s", tc.saved, r.Status, r.Raw)
				}
			}
			r := a.do("POST", "/api/settings/test-connection", op, tc.body)
			var got struct{ Provider, Status, Message string }
			json.Unmarshal(r.Data, &got)
			if r.Status != 200 || got.Status != tc.status || !strings.HasPrefix(got.Message, tc.message) {
				t.Fatalf("%d %+v, want %s %q", r.Status, got, tc.status, tc.message)
			}
		})
	}
	if len(tokens) == 0 || tokens[0] != "Bearer sk-entered" {
		t.Errorf("tokens sent: %q", tokens)
	}
}

// A saved token is used when the mask comes back for the saved endpoint.
func TestAIConnectionTestUsesTheSavedToken(t *testing.T) {
	a := newSettingsAPI(t)
	op, _ := a.register("op@example.com", "Op", "correct horse battery")
	var tokens []string
	srv := fakeChat(t, `{"decision":"HOLD","confidence":0.9,"reasoning":"flat"}`, &tokens)
	ai := `{"provider":"openai","baseUrl":"` + srv.URL + `/v1","model":"tiny","apiToken":"sk-saved-9876","timeout":10000}`
	if r := a.do("PUT", "/api/settings", op, `{"api":{"ai":`+ai+`}}`); r.Status != 200 {
		t.Fatalf("save: %d %s", r.Status, r.Raw)
	}
	r := a.do("POST", "/api/settings/test-connection", op, `{"provider":"ai"}`)
	var got struct{ Status, Message string }
	json.Unmarshal(r.Data, &got)
	if got.Status != "Connected" || len(tokens) != 1 || tokens[0] != "Bearer sk-saved-9876" {
		t.Fatalf("%+v, tokens %q", got, tokens)
	}
}
