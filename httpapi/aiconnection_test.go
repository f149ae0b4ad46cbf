package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
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

// A stolen operator session cannot send the stored AI token or SMTP
// password to a host of its choice (issue 33, item 6): saving a new AI
// endpoint or SMTP host with the secret still masked (or left out of an
// imported file) clears the secret, with a warning; the audit names the
// move (old -> new host); the connection test then sends no token to the
// new host, and never the stored one to an unsaved endpoint. With the
// operator's password the secret follows; a wrong password changes nothing.
func TestStoredSecretsDoNotFollowAMovedEndpoint(t *testing.T) {
	a := newSettingsAPI(t)
	op, _ := a.register("op@example.com", "Op", "correct horse battery")
	var legitSeen, evilSeen []string
	legit := fakeChat(t, `{"decision":"HOLD","confidence":0.9,"reasoning":"flat"}`, &legitSeen)
	evil := fakeChat(t, `{"decision":"HOLD","confidence":0.9,"reasoning":"flat"}`, &evilSeen)
	aiDoc := func(baseURL, token string) string {
		return `{"api":{"ai":{"provider":"openai","baseUrl":"` + baseURL + `","model":"tiny","apiToken":"` + token + `","timeout":10000}}`
	}
	type saved struct {
		Settings   settings.Settings
		Validation settings.Result
	}
	put := func(body string) (response, saved) {
		t.Helper()
		r := a.do("PUT", "/api/settings", op, body)
		var out saved
		json.Unmarshal(r.Data, &out)
		return r, out
	}
	if r, _ := put(aiDoc(legit.URL+"/v1", "sk-stored-secret-4321") + `}`); r.Status != 200 {
		t.Fatalf("save: %d %s", r.Status, r.Raw)
	}
	mask := settings.Mask("sk-stored-secret-4321")

	// The connection test never sends the stored token to an unsaved endpoint.
	r := a.do("POST", "/api/settings/test-connection", op, `{"provider":"ai","settings":{"ai":{"provider":"openai","baseUrl":"`+evil.URL+`/v1","model":"tiny","apiToken":"`+mask+`","timeout":10000}}}`)
	if r.Status == 200 && strings.Contains(r.Raw, "Connected") {
		t.Fatalf("test of an unsaved endpoint with the mask: %s", r.Raw)
	}

	// The move with the mask: saved, the token cleared, a warning says so.
	r, out := put(aiDoc(evil.URL+"/v1", mask) + `}`)
	if r.Status != 200 || out.Settings.API.AI.APIToken != "" {
		t.Fatalf("moved endpoint with the mask: %d token %q %s", r.Status, out.Settings.API.AI.APIToken, r.Raw)
	}
	warned := false
	for _, w := range out.Validation.Warnings {
		warned = warned || w.Field == "api.ai.apiToken" && strings.Contains(w.Message, "cleared")
	}
	if !warned {
		t.Errorf("no warning of the cleared token: %+v", out.Validation.Warnings)
	}
	a.do("POST", "/api/settings/test-connection", op, `{"provider":"ai"}`)
	for _, tok := range evilSeen {
		if strings.Contains(tok, "sk-stored") {
			t.Fatalf("the new host received the stored token: %q", evilSeen)
		}
	}

	// The audit names the move.
	var audit struct {
		Entries []struct{ Action, Detail string }
	}
	json.Unmarshal(a.do("GET", "/api/audit?limit=50", op, "").Data, &audit)
	legitHost, evilHost := strings.TrimPrefix(legit.URL, "http://"), strings.TrimPrefix(evil.URL, "http://")
	want := "AI endpoint openai " + legitHost + " -> openai " + evilHost + " (API token cleared)"
	found := false
	for _, e := range audit.Entries {
		found = found || e.Action == "PUT /api/settings" && strings.Contains(e.Detail, want)
	}
	if !found {
		t.Errorf("no audit entry with %q: %+v", want, audit.Entries)
	}

	// With the password the token follows; a wrong one changes nothing.
	put(aiDoc(legit.URL+"/v1", "sk-stored-secret-4321") + `}`)
	if r, _ := put(aiDoc(evil.URL+"/v1", mask) + `,"password":"wrong password!"}`); r.Status < 400 {
		t.Fatalf("wrong password: %d", r.Status)
	}
	var cur saved
	json.Unmarshal(a.do("GET", "/api/settings", op, "").Data, &cur)
	if cur.Settings.API.AI.BaseURL != legit.URL+"/v1" || cur.Settings.API.AI.APIToken != mask {
		t.Fatalf("after a refused save: %+v", cur.Settings.API.AI)
	}
	if r, out := put(aiDoc(evil.URL+"/v1", mask) + `,"password":"correct horse battery"}`); r.Status != 200 || out.Settings.API.AI.APIToken != mask {
		t.Fatalf("move with the password: %d %q", r.Status, out.Settings.API.AI.APIToken)
	}

	// An imported file that moves the endpoint and leaves the token out.
	put(aiDoc(legit.URL+"/v1", "sk-stored-secret-4321") + `}`)
	var file map[string]any
	json.Unmarshal(a.do("GET", "/api/settings/export", op, "").Data, &file)
	file["settings"].(map[string]any)["api"].(map[string]any)["ai"].(map[string]any)["baseUrl"] = evil.URL + "/v1"
	b, _ := json.Marshal(file)
	r = a.do("POST", "/api/settings/import", op, string(b))
	var imported struct{ KeptSecrets []string }
	json.Unmarshal(r.Data, &imported)
	if r.Status != 200 || slices.Contains(imported.KeptSecrets, "api.ai.apiToken") {
		t.Fatalf("import: %d %s", r.Status, r.Raw)
	}
	json.Unmarshal(a.do("GET", "/api/settings", op, "").Data, &cur)
	if cur.Settings.API.AI.APIToken != "" {
		t.Fatalf("an import moved the endpoint and kept the token %q", cur.Settings.API.AI.APIToken)
	}

	// The SMTP password and its host, the same way.
	smtp := func(host, pw string) string {
		return `{"system":{"notifications":{"smtpHost":"` + host + `","smtpPort":587,"smtpPassword":"` + pw + `","smtpFrom":"k@example.com"}}}`
	}
	if r, _ := put(smtp("mail.example.com", "smtp-secret-pw")); r.Status != 200 {
		t.Fatalf("smtp save: %d %s", r.Status, r.Raw)
	}
	r, out = put(smtp("mail.attacker.example", settings.Mask("smtp-secret-pw")))
	if r.Status != 200 || out.Settings.System.Notifications.SMTPPassword != "" {
		t.Fatalf("moved SMTP host: %d password %q", r.Status, out.Settings.System.Notifications.SMTPPassword)
	}
	// An unchanged endpoint keeps its secret.
	put(smtp("mail.attacker.example", "smtp-new-pw-1"))
	if r, out := put(smtp("mail.attacker.example", settings.Mask("smtp-new-pw-1"))); r.Status != 200 || out.Settings.System.Notifications.SMTPPassword == "" {
		t.Fatalf("unchanged host lost its password: %d", r.Status)
	}
}

// Every user's Telegram bot token goes to the Telegram API URL, and those
// tokens live in the channels, not the settings, so they cannot be cleared
// as the AI token is: a new Telegram API URL needs the operator's password
// (issue 33, item 6). Going back to Telegram's own API needs nothing.
func TestTelegramAPIURLMovesOnlyWithThePassword(t *testing.T) {
	a := newSettingsAPI(t)
	op, _ := a.register("op@example.com", "Op", "correct horse battery")
	doc := func(url, extra string) string {
		return `{"system":{"notifications":{"telegramApiUrl":"` + url + `"}}` + extra + `}`
	}
	r := a.do("PUT", "/api/settings", op, doc("https://bots.attacker.example", ""))
	if r.Status != 400 || !strings.Contains(r.Raw, settings.TelegramMoveMessage) {
		t.Fatalf("a new Telegram API URL without the password: %d %s", r.Status, r.Raw)
	}
	var cur struct{ Settings settings.Settings }
	json.Unmarshal(a.do("GET", "/api/settings", op, "").Data, &cur)
	if got := cur.Settings.System.Notifications.TelegramAPIURL; got != "" {
		t.Fatalf("refused save stored %q", got)
	}
	if r := a.do("PUT", "/api/settings", op, doc("https://bots.example.org", `,"password":"correct horse battery"`)); r.Status != 200 {
		t.Fatalf("with the password: %d %s", r.Status, r.Raw)
	}
	// Unchanged (saved again with other settings), and back to Telegram's own: no password.
	if r := a.do("PUT", "/api/settings", op, doc("https://bots.example.org", "")); r.Status != 200 {
		t.Fatalf("unchanged URL: %d %s", r.Status, r.Raw)
	}
	if r := a.do("PUT", "/api/settings", op, doc("", "")); r.Status != 200 {
		t.Fatalf("back to Telegram's own: %d %s", r.Status, r.Raw)
	}
}
