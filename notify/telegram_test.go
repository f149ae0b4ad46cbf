package notify_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/notify"
)

// fakeTelegram speaks the Bot API's sendMessage: the token in the path,
// a JSON body, an {"ok":…} answer; it can answer 429 with retry_after.
type fakeTelegram struct {
	mu       sync.Mutex
	token    string
	got      []tgMessage
	requests int
	limit    int // seconds; >0: the next request gets a 429 with this retry_after
	srv      *httptest.Server
}

type tgMessage struct {
	ChatID string `json:"chat_id"`
	Text   string `json:"text"`
}

func newFakeTelegram(t *testing.T, token string) *fakeTelegram {
	f := &fakeTelegram{token: token}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.requests++
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodPost || r.URL.Path != "/bot"+f.token+"/sendMessage" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"ok":false,"error_code":401,"description":"Unauthorized"}`))
			return
		}
		if f.limit > 0 {
			w.WriteHeader(http.StatusTooManyRequests)
			json.NewEncoder(w).Encode(map[string]any{"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 30",
				"parameters": map[string]int{"retry_after": f.limit}})
			f.limit = 0
			return
		}
		var m tgMessage
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil || m.ChatID == "" || m.Text == "" {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"ok":false,"error_code":400,"description":"Bad Request: message text is empty"}`))
			return
		}
		f.got = append(f.got, m)
		w.Write([]byte(`{"ok":true,"result":{"message_id":1}}`))
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeTelegram) messages() ([]tgMessage, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]tgMessage(nil), f.got...), f.requests
}

const testBotToken = "123456789:AAE-test_token_for_the_fake_bot_api_x"

// A Telegram channel gets the fill and the emergency stop through the Bot
// API; a 429's retry_after holds the next attempt back until it passes.
func TestTelegramGetsFillsAndTheEmergencyStopAndHonours429(t *testing.T) {
	ctx := context.Background()
	tg := newFakeTelegram(t, testBotToken)
	f := newFixture(t, t.TempDir())
	svc := notify.New(f.store, f.sealer, f.clock, notify.Options{FirstRetry: time.Second, MaxRetry: time.Minute, Window: time.Hour, TelegramURL: tg.srv.URL})
	kind, chat, token := domain.NotifyTelegram, "-100200300", testBotToken
	ch, err := svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("Phone"), Address: &chat, BotToken: &token})
	mustNil(t, err)
	if ch.Secret != "" || ch.Address != chat || ch.URL != "" {
		t.Fatalf("created %+v: a bot token is never shown back", ch)
	}
	_, err = svc.SetRouting(ctx, "u1", domain.NotifyRouting{Routes: map[string][]string{notify.OrderFilled: {ch.ID}, notify.EmergencyStop: {ch.ID}},
		MinSeverity: domain.SeverityLow})
	mustNil(t, err)

	e, _ := notify.FromTradeUpdate(fill(0, f.clock.Now()))
	_, err = svc.Enqueue(ctx, e)
	mustNil(t, err)
	stop, ok := notify.FromAlert(domain.Alert{ID: 7, Key: "trading:Emergency stop active", Severity: domain.SeverityCritical, Component: "trading",
		Title: "Emergency stop active", Message: "New orders are refused until trading is resumed", Count: 1, LastSeen: f.clock.Now()})
	if !ok {
		t.Fatal("the emergency stop has an event")
	}
	_, err = svc.Enqueue(ctx, stop)
	mustNil(t, err)
	_, err = svc.DeliverDue(ctx)
	mustNil(t, err)
	got, _ := tg.messages()
	if len(got) != 2 {
		t.Fatalf("telegram got %d messages: %+v", len(got), got)
	}
	var sawFill, sawStop bool
	for _, m := range got {
		if m.ChatID != chat {
			t.Errorf("chat %q, want %q", m.ChatID, chat)
		}
		sawFill = sawFill || strings.Contains(m.Text, "Order filled") && strings.Contains(m.Text, "BUY 0.01 BTC-USD") && strings.Contains(m.Text, "at 100.5")
		sawStop = sawStop || strings.Contains(m.Text, "Emergency stop (critical)") && strings.Contains(m.Text, "New orders are refused")
	}
	if !sawFill || !sawStop {
		t.Fatalf("texts: %+v", got)
	}

	// 429 with retry_after 30: no attempt before 30 s (the backoff alone would be 1 s).
	tg.mu.Lock()
	tg.limit = 30
	tg.mu.Unlock()
	e, _ = notify.FromTradeUpdate(fill(1, f.clock.Now()))
	_, err = svc.Enqueue(ctx, e)
	mustNil(t, err)
	_, err = svc.DeliverDue(ctx)
	mustNil(t, err)
	pending, err := svc.Deliveries(ctx, "u1", domain.NotifyPending, 10)
	mustNil(t, err)
	if len(pending) != 1 || !pending[0].NextAt.Equal(f.clock.Now().Add(30*time.Second)) || !strings.Contains(pending[0].LastError, "429") {
		t.Fatalf("after a 429: %+v", pending)
	}
	f.clock.Add(29 * time.Second)
	_, err = svc.DeliverDue(ctx)
	mustNil(t, err)
	if _, n := tg.messages(); n != 3 {
		t.Fatalf("%d requests before retry_after passed, want 3 (2 sent, 1 refused)", n)
	}
	f.clock.Add(2 * time.Second)
	_, err = svc.DeliverDue(ctx)
	mustNil(t, err)
	if got, n := tg.messages(); n != 4 || len(got) != 3 {
		t.Fatalf("after retry_after: %d requests, %d messages", n, len(got))
	}

	// A wrong token is a permanent failure, named, not retried for a day.
	bad := "987654321:BBB-wrong_token_for_the_fake_bot_api_y"
	ch2, err := svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("Wrong"), Address: &chat, BotToken: &bad})
	mustNil(t, err)
	d, err := svc.SendTest(ctx, ch2.NotifyChannel)
	mustNil(t, err)
	if d.Status != domain.NotifyFailed || !strings.Contains(d.LastError, "401") || strings.Contains(d.LastError, bad) {
		t.Fatalf("test with a wrong token: %+v", d)
	}
}

func TestTelegramChannelInputIsChecked(t *testing.T) {
	f := newFixture(t, t.TempDir())
	kind := domain.NotifyTelegram
	_, err := f.svc.CreateChannel(context.Background(), "u1", notify.ChannelInput{Kind: &kind, Name: ptr("x"), Address: ptr("not a chat"), BotToken: ptr("nope")})
	var de *domain.Error
	if !asDomainError(err, &de) || de.Fields["address"] == "" || de.Fields["bot_token"] == "" {
		t.Fatalf("bad telegram input: %v", err)
	}
	_, err = f.svc.CreateChannel(context.Background(), "u1", notify.ChannelInput{Kind: ptr("pigeon"), Name: ptr("x")})
	if !asDomainError(err, &de) || de.Fields["kind"] == "" {
		t.Fatalf("unknown kind: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func asDomainError(err error, out **domain.Error) bool {
	e, ok := err.(*domain.Error)
	*out = e
	return ok
}
