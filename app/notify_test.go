package app_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/app"
	"kestrel/notify"
)

// hookReceiver is a loopback webhook receiver that can be down (503).
type hookReceiver struct {
	mu   sync.Mutex
	down bool
	ok   []hookCall // the calls it answered 2xx
	srv  *httptest.Server
}

type hookCall struct {
	id, ts, sig, body string
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.down {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		h.ok = append(h.ok, hookCall{r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature"), string(body)})
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookReceiver) setDown(v bool) { h.mu.Lock(); h.down = v; h.mu.Unlock() }

// waitFor returns the delivered calls whose body contains s (10 s at most).
func (h *hookReceiver) waitFor(t *testing.T, s string) []hookCall {
	t.Helper()
	for range 500 {
		h.mu.Lock()
		var got []hookCall
		for _, c := range h.ok {
			if strings.Contains(c.body, s) {
				got = append(got, c)
			}
		}
		h.mu.Unlock()
		if len(got) > 0 {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no webhook with %s", s)
	return nil
}

func checkSignature(t *testing.T, secret string, c hookCall) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(c.id + "." + c.ts + "." + c.body))
	if want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)); c.sig != want {
		t.Fatalf("signature %q, want %q", c.sig, want)
	}
}

// allowLoopbackTargets turns on the setting that lets webhook and push
// channels reach this machine (the tests' receivers are loopback servers),
// as the operator of accounts().
func (s *server) allowLoopbackTargets() {
	s.t.Helper()
	op := s.login("op@example.com", "operator-pass")
	if r := s.do("PUT", "/api/settings", op, `{"system":{"notifications":{"allowLoopbackTargets":true}}}`); r.Status != 200 {
		s.t.Fatalf("allow loopback targets: %+v", r)
	}
}

func fastNotify(c *app.Config) {
	c.NotifyOptions = notify.Options{FirstRetry: 50 * time.Millisecond, MaxRetry: 200 * time.Millisecond, Poll: 20 * time.Millisecond}
}

// subscribe adds a webhook channel to url and routes fills to it; it
// returns the channel id and its secret.
func (s *server) subscribe(tok, url string) (id, secret string) {
	s.t.Helper()
	s.allowLoopbackTargets()
	r := s.do("POST", "/api/notifications/channels", tok, `{"name":"My hook","url":"`+url+`"}`)
	var ch struct{ ID, Secret string }
	s.into(r, &ch)
	if r.Status != 201 || !strings.HasPrefix(ch.Secret, "whsec_") {
		s.t.Fatalf("create channel: %+v", r)
	}
	if r := s.do("PUT", "/api/notifications/routing", tok, `{"routes":{"order.filled":["`+ch.ID+`"]},"min_severity":"low","aggregate":false,"aggregate_seconds":0}`); r.Status != 200 {
		s.t.Fatalf("routing: %+v", r)
	}
	return ch.ID, ch.Secret
}

func TestWebhookGetsASignedFill(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	op, tok := s.accounts()
	rcv := newHookReceiver(t)
	id, secret := s.subscribe(tok, rcv.srv.URL+"/hook")

	r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	var placed struct{ Order order }
	s.into(r, &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("market buy: %+v", r)
	}
	got := rcv.waitFor(t, `"order_id":"`+placed.Order.ID+`"`)
	if len(got) != 1 || !strings.Contains(got[0].body, `"type":"order.filled"`) {
		t.Fatalf("fill webhooks: %+v", got)
	}
	checkSignature(t, secret, got[0])

	var log []struct {
		ID, Channel, Status, Type string
		Attempts                  int
		LastError                 string `json:"last_error"`
	}
	// The receiver has the message before the sender has its 2xx and records
	// the outcome: read the log until the outcome is in (or a deadline passes).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s.into(s.do("GET", "/api/notifications/deliveries", tok, ""), &log)
		if len(log) != 1 || log[0].Status != "pending" || time.Now().After(deadline) {
			break
		}
	}
	if len(log) != 1 || log[0].ID != got[0].id || log[0].Channel != id || log[0].Status != "delivered" || log[0].Attempts != 1 {
		t.Fatalf("delivery log: %+v", log)
	}

	// Send test answers what the receiver did.
	r = s.do("POST", "/api/notifications/channels/"+id+"/test", tok, "")
	if r.Status != 200 || !strings.Contains(string(r.Data), `"status":"delivered"`) {
		t.Fatalf("send test: %+v", r)
	}
	rcv.waitFor(t, `"type":"notification.test"`)

	// Other users' channels are not found; bad input names its field.
	if r := s.do("POST", "/api/notifications/channels/"+id+"/test", op, ""); r.Status != 404 {
		t.Fatalf("operator testing a trader's channel: %d", r.Status)
	}
	if r := s.do("POST", "/api/notifications/channels", tok, `{"name":"x","url":"http://10.0.0.1/hook"}`); r.Status != 400 || r.Error.Fields["url"] == "" {
		t.Fatalf("internal http url: %+v", r)
	}
	if r := s.do("PUT", "/api/notifications/routing", tok, `{"routes":{"order.nope":["`+id+`"]},"min_severity":"urgent","aggregate":true,"aggregate_seconds":0}`); r.Status != 400 ||
		r.Error.Fields["routes.order.nope"] == "" || r.Error.Fields["min_severity"] == "" || r.Error.Fields["aggregate_seconds"] == "" {
		t.Fatalf("bad routing: %+v", r)
	}
	if r := s.do("GET", "/api/notifications/deliveries?scope=all", tok, ""); r.Status != 403 {
		t.Fatalf("trader reading every user's deliveries: %d", r.Status)
	}
	s.into(s.do("GET", "/api/notifications/deliveries?scope=all&status=delivered", op, ""), &log)
	if len(log) != 2 {
		t.Fatalf("operator's view of every delivery: %+v", log)
	}
	r = s.do("PATCH", "/api/notifications/channels/"+id, tok, `{"name":"Renamed","enabled":false}`)
	if r.Status != 200 || !strings.Contains(string(r.Data), `"name":"Renamed"`) || !strings.Contains(string(r.Data), `"enabled":false`) || !strings.Contains(string(r.Data), `"secret":""`) {
		t.Fatalf("update channel: %+v %s", r, r.Data)
	}
	if r := s.do("PATCH", "/api/notifications/channels/"+id, tok, `{"secret":"not-a-secret"}`); r.Status != 400 || r.Error.Fields["secret"] == "" {
		t.Fatalf("bad secret: %+v", r)
	}
	if r := s.do("DELETE", "/api/notifications/channels/"+id, tok, ""); r.Status != 200 {
		t.Fatalf("delete channel: %+v", r)
	}
	if r := s.do("GET", "/api/notifications/channels", tok, ""); string(r.Data) != "[]" {
		t.Fatalf("channels after delete: %s", r.Data)
	}
}

func TestMissedWebhooksArriveAfterARestart(t *testing.T) {
	dir := t.TempDir()
	s := startWith(t, dir, fastNotify)
	_, tok := s.accounts()
	rcv := newHookReceiver(t)
	rcv.setDown(true)
	_, secret := s.subscribe(tok, rcv.srv.URL)
	var ids []string
	for range 3 {
		var placed struct{ Order order }
		s.into(s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`), &placed)
		ids = append(ids, placed.Order.ID)
	}
	// Wait until each has been attempted (and refused) at least once.
	for i := 0; ; i++ {
		if i == 500 {
			t.Fatal("the three fills were not all attempted while the receiver was down")
		}
		var log []struct{ Attempts int }
		s.into(s.do("GET", "/api/notifications/deliveries?status=pending", tok, ""), &log)
		if len(log) == 3 && log[0].Attempts > 0 && log[1].Attempts > 0 && log[2].Attempts > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.app.Close()
	rcv.setDown(false)

	s2 := startWith(t, dir, fastNotify)
	for _, id := range ids {
		got := rcv.waitFor(t, `"order_id":"`+id+`"`)
		if len(got) != 1 {
			t.Fatalf("order %s delivered %d times", id, len(got))
		}
		checkSignature(t, secret, got[0])
	}
	tok = s2.login("t@example.com", "trader-pass")
	var log []struct{ Status string }
	s2.into(s2.do("GET", "/api/notifications/deliveries", tok, ""), &log)
	for _, d := range log {
		if d.Status != "delivered" {
			t.Fatalf("log after restart: %+v", log)
		}
	}
}

// A Telegram channel (through a local fake of the Bot API, set with the
// server's Telegram API URL) gets the fill of a real order and the
// emergency stop.
func TestTelegramGetsTheFillAndTheEmergencyStop(t *testing.T) {
	var mu sync.Mutex
	var texts []string
	const token = "123456789:AAE-app_test_token_for_the_fake_bot_api"
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/bot"+token+"/sendMessage" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		texts = append(texts, string(body))
		mu.Unlock()
		io.WriteString(w, `{"ok":true,"result":{"message_id":1}}`)
	}))
	defer fake.Close()
	s := startWith(t, t.TempDir(), func(c *app.Config) { fastNotify(c); c.TelegramAPIURL = fake.URL })
	_, tok := s.accounts()
	r := s.do("POST", "/api/notifications/channels", tok, `{"kind":"telegram","name":"Phone","address":"-1001234","bot_token":"`+token+`"}`)
	var ch struct{ ID, Kind, Address, Secret string }
	s.into(r, &ch)
	if r.Status != 201 || ch.Kind != "telegram" || ch.Address != "-1001234" || ch.Secret != "" {
		t.Fatalf("create telegram channel: %+v %s", r, r.Data)
	}
	if r := s.do("PUT", "/api/notifications/routing", tok, `{"routes":{"order.filled":["`+ch.ID+`"],"trading.emergency_stop":["`+ch.ID+`"]},"min_severity":"low","aggregate":false,"aggregate_seconds":0}`); r.Status != 200 {
		t.Fatalf("routing: %+v", r)
	}
	var placed struct{ Order order }
	s.into(s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`), &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("market buy: %+v", placed)
	}
	if r := s.do("POST", "/api/trading/stop", tok, ""); r.Status != 200 {
		t.Fatalf("stop: %+v", r)
	}
	for i := 0; ; i++ {
		mu.Lock()
		all := strings.Join(texts, "\n")
		mu.Unlock()
		if strings.Contains(all, placed.Order.ID) && strings.Contains(all, "Emergency stop") {
			if !strings.Contains(all, `"chat_id":"-1001234"`) {
				t.Fatalf("messages to another chat: %s", all)
			}
			break
		}
		if i == 500 {
			t.Fatalf("telegram got: %s", all)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := s.do("POST", "/api/notifications/channels", tok, `{"kind":"telegram","name":"x","address":"me","bot_token":"nope"}`); r.Status != 400 ||
		r.Error.Fields["address"] == "" || r.Error.Fields["bot_token"] == "" {
		t.Fatalf("bad telegram channel: %+v", r)
	}
}

// The daily digest reads the real account: a market buy shows as a trade
// and an open position; the mail server's password in the settings is
// sealed and read back masked.
func TestDigestFromTheAccountAndMailSettings(t *testing.T) {
	s := startWith(t, t.TempDir(), fastNotify)
	op, tok := s.accounts()
	var placed struct{ Order order }
	s.into(s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`), &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("market buy: %+v", placed)
	}
	var d struct {
		Trades     int    `json:"trades"`
		Bought     string `json:"bought_usd"`
		Exposure   string `json:"exposure_usd"`
		OpenOrders int    `json:"open_orders"`
		Positions  []struct {
			Symbol   string `json:"symbol"`
			Quantity string `json:"quantity"`
		} `json:"positions"`
	}
	r := s.do("GET", "/api/notifications/digest", tok, "")
	s.into(r, &d)
	if r.Status != 200 || d.Trades != 1 || d.Bought == "0" || len(d.Positions) != 1 || d.Positions[0].Symbol != "BTC-USD" || d.Positions[0].Quantity != "0.01" || d.Exposure == "0" {
		t.Fatalf("digest after one buy: %+v %s", d, r.Data)
	}

	if r := s.do("PUT", "/api/settings", op, `{"system":{"notifications":{"smtpHost":"mail.example.com","smtpPort":465,"smtpSecurity":"tls","smtpUser":"k","smtpPassword":"s3cret-mail-pass","smtpFrom":"kestrel@example.com","digestTime":"07:30","telegramApiUrl":""}}}`); r.Status != 200 {
		t.Fatalf("mail settings: %+v", r)
	}
	r = s.do("GET", "/api/settings", op, "")
	if r.Status != 200 || strings.Contains(string(r.Data), "s3cret-mail-pass") || !strings.Contains(string(r.Data), `"smtpHost":"mail.example.com"`) {
		t.Fatalf("settings show the mail password or lost the host: %s", r.Data)
	}
	if r := s.do("PUT", "/api/settings", op, `{"system":{"notifications":{"smtpHost":"mail.example.com:25","smtpFrom":"","digestTime":"7h"}}}`); r.Status != 400 {
		t.Fatalf("bad mail settings: %+v", r)
	}
}
