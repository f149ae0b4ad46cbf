package auth

import (
	"context"
	"testing"
	"time"
)

func TestPruneEveryDeletesExpiredSessions(t *testing.T) {
	ctx := context.Background()
	s, clock := newService(t)
	if _, err := s.Register(ctx, NewUser{Email: "a@example.com", Name: "A", Password: "kestrel-pass-1"}); err != nil {
		t.Fatal(err)
	}
	token, _, err := s.Login(ctx, "a@example.com", "kestrel-pass-1", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(2 * time.Hour) // past the one-hour session
	run, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.PruneEvery(run, time.Hour) }()
	_, err = s.store.SessionByHash(ctx, hashToken(token))
	for i := 0; i < 200 && err == nil; i++ {
		time.Sleep(5 * time.Millisecond)
		_, err = s.store.SessionByHash(ctx, hashToken(token))
	}
	cancel()
	<-done
	if err == nil {
		t.Fatal("expired session still stored after the first round")
	}
}
