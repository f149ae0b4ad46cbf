package app_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kestrel/app"
	"kestrel/auth"
	"kestrel/domain"
)

type apiToken struct {
	ID, Name, Scope, Token string
	UserID                 string     `json:"user_id"`
	LastUsedAt             *time.Time `json:"last_used_at"`
}

// passwords are the test accounts' (accounts()), by email.
var passwords = map[string]string{"op@example.com": "operator-pass", "t@example.com": "trader-pass"}

// newToken creates an API token with a session (sess) and its user's
// password, and returns it with its secret.
func (s *server) newToken(sess, query, name, scope string) apiToken {
	s.t.Helper()
	var me struct{ Email string }
	s.into(s.do("GET", "/api/auth/me", sess, ""), &me)
	return s.newTokenWith(sess, query, name, scope, passwords[me.Email])
}

func (s *server) newTokenWith(sess, query, name, scope, password string) apiToken {
	s.t.Helper()
	exp := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	r := s.do("POST", "/api/tokens"+query, sess, `{"name":"`+name+`","scope":"`+scope+`","expires_at":"`+exp+`","password":"`+password+`"}`)
	if r.Status != 201 {
		s.t.Fatalf("create token %s: %d %+v", name, r.Status, r.Error)
	}
	var t apiToken
	s.into(r, &t)
	return t
}

// A token acts as its user within its scope, through the same gateway and
// risk check, audited with its name; it cannot manage accounts or tokens.
func TestAPITokens(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()

	// Validation: field errors, nothing stored.
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, c := range []struct{ body, field string }{
		{`{"name":"x","scope":"read"}`, "expires_at"},
		{`{"name":"x","scope":"read","expires_at":"2001-01-01T00:00:00Z"}`, "expires_at"},
		{`{"name":"x","scope":"read","expires_at":"` + time.Now().AddDate(2, 0, 0).UTC().Format(time.RFC3339) + `"}`, "expires_at"},
		{`{"name":" ","scope":"read","expires_at":"` + future + `"}`, "name"},
		{`{"name":"` + strings.Repeat("n", 65) + `","scope":"read","expires_at":"` + future + `"}`, "name"},
		{`{"name":"x","scope":"admin","expires_at":"` + future + `"}`, "scope"},
	} {
		if r := s.do("POST", "/api/tokens", trader, c.body); r.Status != 400 || r.Error.Fields[c.field] == "" {
			t.Errorf("%s: %d %+v, want 400 on %s", c.body, r.Status, r.Error, c.field)
		}
	}

	read := s.newToken(trader, "", "reader", "read")
	paper := s.newToken(trader, "", "bot-1", "paper")
	if !strings.HasPrefix(paper.Token, "kst_") || len(paper.Token) != 4+43 || paper.Scope != "paper" || paper.Name != "bot-1" {
		t.Fatalf("created token %+v", paper)
	}
	if r := s.do("POST", "/api/tokens", trader, `{"name":"bot-1","scope":"read","expires_at":"`+future+`","password":"trader-pass"}`); r.Status != 409 {
		t.Errorf("duplicate name: %d %+v", r.Status, r.Error)
	}

	// A read token reads, and is refused anything that changes state.
	if r := s.do("GET", "/api/trading/orders", read.Token, ""); r.Status != 200 {
		t.Fatalf("read token GET orders: %d %+v", r.Status, r.Error)
	}
	if r := s.do("POST", "/api/trading/execute", read.Token, `{"symbol":"BTC-USD","action":"BUY","quantity":0.001}`); r.Status != 403 || !strings.Contains(r.Error.Message, "read scope") {
		t.Fatalf("read token order: %d %+v", r.Status, r.Error)
	}
	if r := s.do("POST", "/api/backtests", read.Token, `{}`); r.Status != 403 {
		t.Errorf("read token backtest: %d %+v", r.Status, r.Error)
	}

	// No token manages tokens or the account, whatever its scope.
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/tokens", `{"name":"child","scope":"paper","expires_at":"` + future + `"}`},
		{"GET", "/api/tokens", ""},
		{"DELETE", "/api/tokens/" + read.ID, ""},
		{"POST", "/api/auth/password", `{"current_password":"trader-pass","new_password":"another-pass-1"}`},
		{"GET", "/api/auth/sessions", ""},
		{"GET", "/api/settings", ""},
		{"POST", "/api/auth/logout", ""},
	} {
		if r := s.do(c.method, c.path, paper.Token, c.body); r.Status != 403 {
			t.Errorf("paper token %s %s: %d %+v, want 403", c.method, c.path, r.Status, r.Error)
		}
	}

	// A paper token trades on the sandbox through the risk check.
	if r := s.do("POST", "/api/trading/execute", paper.Token, `{"symbol":"BTC-USD","action":"BUY","quantity":1}`); r.Status != 422 || !strings.Contains(r.Error.Message, "maximum trade amount") {
		t.Fatalf("over-limit order: %d %+v", r.Status, r.Error)
	}
	var placed struct{ Order order }
	r := s.do("POST", "/api/trading/orders/limit", paper.Token, `{"symbol":"BTC-USD","side":"BUY","quantity":0.02,"price":1000}`)
	if !r.Success {
		t.Fatalf("paper limit order: %d %+v", r.Status, r.Error)
	}
	s.into(r, &placed)
	if placed.Order.Status != "open" {
		t.Fatalf("limit order %+v", placed.Order)
	}
	if r := s.do("DELETE", "/api/trading/orders/"+placed.Order.ID, paper.Token, ""); r.Status != 200 {
		t.Fatalf("paper cancel: %d %+v", r.Status, r.Error)
	}

	// Every kind of order a trader can place is open to a trading scope:
	// a trailing stop too (a SELL of what the account holds: none here, so
	// the gateway, not the token check, refuses it).
	if r := s.do("POST", "/api/trading/orders/trailing-stop", read.Token, `{"symbol":"BTC-USD","side":"BUY","quantity":"0.001","trail_percent":"2"}`); r.Status != 403 {
		t.Errorf("read token trailing stop: %d %+v", r.Status, r.Error)
	}
	if r := s.do("POST", "/api/trading/orders/trailing-stop", paper.Token, `{"symbol":"BTC-USD","side":"BUY","quantity":"0.001","trail_percent":"2"}`); r.Status == 403 || r.Status == 401 || r.Status >= 500 {
		t.Errorf("paper token trailing stop: %d %+v", r.Status, r.Error)
	}
	// Sweeps are research, like backtests: read scope reads, paper and
	// trade scopes may start and cancel them.
	if r := s.do("POST", "/api/sweeps", read.Token, `{}`); r.Status != 403 {
		t.Errorf("read token sweep: %d %+v", r.Status, r.Error)
	}
	if r := s.do("POST", "/api/sweeps", paper.Token, `{}`); r.Status != 400 {
		t.Errorf("paper token invalid sweep: %d %+v, want 400 for the body, not the token", r.Status, r.Error)
	}
	if r := s.do("GET", "/api/sweeps", read.Token, ""); r.Status != 200 {
		t.Errorf("read token sweeps list: %d %+v", r.Status, r.Error)
	}

	// The audit log names the token, for the orders and the refusals alike.
	var audit struct {
		Entries []struct {
			Actor, Action string
			Status        int
		}
	}
	s.into(s.do("GET", "/api/audit?limit=200", op, ""), &audit)
	seen := map[string]bool{}
	for _, e := range audit.Entries {
		if strings.HasPrefix(e.Actor, "t@example.com via token ") {
			seen[e.Actor+" "+e.Action+" "+itoa(e.Status)] = true
		}
	}
	for _, want := range []string{
		"t@example.com via token 'bot-1' POST /api/trading/orders/limit 201",
		"t@example.com via token 'bot-1' DELETE /api/trading/orders/" + placed.Order.ID + " 200",
		"t@example.com via token 'bot-1' POST /api/trading/execute 422",
		"t@example.com via token 'reader' POST /api/trading/execute 403",
	} {
		if !seen[want] {
			t.Errorf("audit has no %q; token entries: %v", want, seen)
		}
	}

	// The list never shows a secret; it shows the last use.
	r = s.do("GET", "/api/tokens", trader, "")
	if strings.Contains(string(r.Data), paper.Token) || strings.Contains(string(r.Data), `"token"`) {
		t.Fatalf("list shows a secret: %s", r.Data)
	}
	var list struct{ Tokens []apiToken }
	s.into(r, &list)
	if len(list.Tokens) != 2 || list.Tokens[0].Name != "bot-1" || list.Tokens[0].LastUsedAt == nil {
		t.Fatalf("list %+v", list.Tokens)
	}

	// Operators list and revoke anyone's; traders only their own.
	opTok := s.newToken(op, "", "op-bot", "trade")
	if r := s.do("GET", "/api/tokens?user_id="+opTok.UserID, trader, ""); r.Status != 403 {
		t.Errorf("trader lists the operator's tokens: %d", r.Status)
	}
	if r := s.do("DELETE", "/api/tokens/"+opTok.ID, trader, ""); r.Status != 404 {
		t.Errorf("trader revokes the operator's token: %d", r.Status)
	}
	s.into(s.do("GET", "/api/tokens?user_id="+paper.UserID, op, ""), &list)
	if len(list.Tokens) != 2 {
		t.Errorf("operator's view of the trader's tokens: %+v", list.Tokens)
	}
	forTrader := s.newToken(op, "?user_id="+paper.UserID, "made-by-op", "read")
	if forTrader.UserID != paper.UserID {
		t.Errorf("token made for the trader belongs to %s", forTrader.UserID)
	}

	// Revoked: 401 at once.
	if r := s.do("DELETE", "/api/tokens/"+paper.ID, op, ""); r.Status != 200 {
		t.Fatalf("revoke: %d %+v", r.Status, r.Error)
	}
	if r := s.do("GET", "/api/trading/orders", paper.Token, ""); r.Status != 401 {
		t.Errorf("revoked token: %d %+v", r.Status, r.Error)
	}

	// Expired (stored with a past expiry, as time would leave it): 401.
	secret := "kst_expired-token-for-the-test"
	err := s.app.Store.CreateAPIToken(context.Background(), domain.APIToken{ID: "expired", UserID: paper.UserID, Name: "old",
		Scope: domain.ScopeTrade, Hash: auth.SessionID(secret), CreatedAt: time.Now().Add(-2 * time.Hour), ExpiresAt: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.do("GET", "/api/trading/orders", secret, ""); r.Status != 401 || !strings.Contains(r.Error.Message, "expired") {
		t.Errorf("expired token: %d %+v", r.Status, r.Error)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// A paper token is refused on the Coinbase venue; a trade token is not
// refused by its scope there.
func TestPaperTokenRefusedOnCoinbase(t *testing.T) {
	fake, srv, key, pemText := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	paper := s.newToken(op, "", "bot-1", "paper")
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":`+quote(key.Name)+`,"apiSecret":`+quote(pemText)+`,"sandbox":false,"timeout":5000,"rateLimit":20}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 })
	fake.SetPrice("BTC-USD", "50000")
	before := fake.OrderCount()
	r := s.do("POST", "/api/trading/orders/limit", paper.Token, `{"symbol":"BTC-USD","side":"BUY","quantity":0.001,"price":49000}`)
	if r.Status != 403 || !strings.Contains(r.Error.Message, "paper scope") || !strings.Contains(r.Error.Message, "coinbase") {
		t.Fatalf("paper token on coinbase: %d %+v", r.Status, r.Error)
	}
	if fake.OrderCount() != before {
		t.Fatalf("an order reached Coinbase")
	}
	// It still reads.
	if r := s.do("GET", "/api/trading/orders", paper.Token, ""); r.Status != 200 {
		t.Errorf("paper token read on coinbase: %d", r.Status)
	}
	trade := s.newToken(op, "", "live-bot", "trade")
	r = s.do("POST", "/api/trading/orders/limit", trade.Token, `{"symbol":"BTC-USD","side":"BUY","quantity":0.001,"price":49000}`)
	if !r.Success || fake.OrderCount() != before+1 {
		t.Fatalf("trade token on coinbase: %d %+v, %d orders at Coinbase", r.Status, r.Error, fake.OrderCount())
	}
}

// Making a token takes the password again, its owner is told through their
// notification routing, and every way of ending a user's access (sign out
// everywhere, a password change, an operator's reset, disabling) revokes
// the user's tokens too (issue 33, item 4: before, a session alone made a
// year-long trade token, and the token outlived all four).
func TestTokensTakeThePasswordAndEndWithTheUsersAccess(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	op, trader := s.accounts()
	rcv := newHookReceiver(t)
	ch, _ := s.subscribe(trader, rcv.srv.URL+"/hook")
	if r := s.do("PUT", "/api/notifications/routing", trader, `{"routes":{"security.token_created":["`+ch+`"]},"min_severity":"low","aggregate":false,"aggregate_seconds":0}`); r.Status != 200 {
		t.Fatalf("routing: %+v", r)
	}
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for pw, want := range map[string]string{"": "Enter your password to create a token", "wrong-pass": "Password is incorrect"} {
		r := s.do("POST", "/api/tokens", trader, `{"name":"x","scope":"trade","expires_at":"`+future+`","password":"`+pw+`"}`)
		if r.Status != 400 || r.Error.Fields["password"] != want {
			t.Fatalf("password %q: %d %+v, want 400 %q", pw, r.Status, r.Error, want)
		}
	}
	works := func(tok apiToken) bool {
		return s.do("GET", "/api/trading/orders", tok.Token, "").Status == 200
	}
	tok := s.newToken(trader, "", "first", "trade")
	if !works(tok) {
		t.Fatal("a new token does not work")
	}
	got := rcv.waitFor(t, "security.token_created")
	if !strings.Contains(got[0].body, `API token 'first' (trade scope`) || !strings.Contains(got[0].body, "by t@example.com") {
		t.Fatalf("the owner's notification: %s", got[0].body)
	}

	// Sign out everywhere (else) ends the tokens; this session stays.
	if r := s.do("POST", "/api/auth/sessions/end-others", trader, ""); r.Status != 200 {
		t.Fatalf("end others: %+v", r)
	}
	if works(tok) {
		t.Fatal("the token outlived signing out everywhere")
	}
	// A password change.
	tok = s.newToken(trader, "", "second", "trade")
	if r := s.do("POST", "/api/auth/password", trader, `{"current_password":"trader-pass","new_password":"trader-pass-2"}`); r.Status != 200 {
		t.Fatalf("change password: %+v", r)
	}
	if works(tok) {
		t.Fatal("the token outlived a password change")
	}
	// An operator's reset (a token an operator made for the trader too).
	tok = s.newTokenWith(trader, "", "third", "read", "trader-pass-2")
	byOp := s.newToken(op, "?user_id="+tok.UserID, "made-by-op", "read")
	if r := s.do("POST", "/api/users/"+tok.UserID+"/password", op, `{"new_password":"trader-pass-3"}`); r.Status != 200 {
		t.Fatalf("reset: %+v", r)
	}
	if works(tok) || works(byOp) {
		t.Fatal("a token outlived an operator's password reset")
	}
	// Disabling; enabling again does not bring the token back.
	trader = s.login("t@example.com", "trader-pass-3")
	tok = s.newTokenWith(trader, "", "fourth", "read", "trader-pass-3")
	for _, d := range []string{"true", "false"} {
		if r := s.do("PATCH", "/api/users/"+tok.UserID, op, `{"disabled":`+d+`}`); r.Status != 200 {
			t.Fatalf("disabled=%s: %+v", d, r)
		}
	}
	if works(tok) {
		t.Fatal("the token outlived disabling its user")
	}
	var list struct{ Tokens []apiToken }
	s.into(s.do("GET", "/api/tokens?user_id="+tok.UserID, op, ""), &list)
	if len(list.Tokens) != 0 {
		t.Fatalf("tokens left: %+v", list.Tokens)
	}
}
