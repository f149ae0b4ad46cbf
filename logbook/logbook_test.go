package logbook_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"kestrel/logbook"
	"kestrel/store/sqlite"
)

func TestRingFilterAndPersistence(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	b := logbook.New(3)
	log := slog.New(b.Handler(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug})))
	done := make(chan struct{})
	go func() { b.Persist(ctx, st); close(done) }()

	log.Warn("early warning", "component", "market")
	log.Error("disk full", "component", "store", "path", "/x")
	log.Info("one")
	log.Debug("two")
	log.With("component", "trading").Info("three")

	got, err := b.Query(ctx, nil, "DEBUG", "", 10)
	if err != nil || len(got) != 3 || got[0].Message != "three" || got[0].Component != "trading" || got[2].Message != "one" {
		t.Fatalf("ring = %+v, %v (want the last 3, newest first)", got, err)
	}
	cancel()
	<-done // flushes queued warnings and errors

	got, err = b.Query(context.Background(), st, "WARNING", "", 10)
	if err != nil || len(got) != 2 || got[0].Message != "disk full" || got[0].Attrs["path"] != "/x" || got[1].Message != "early warning" {
		t.Fatalf("warnings from ring + store = %+v, %v", got, err)
	}
	got, _ = b.Query(context.Background(), st, "INFO", "market", 10)
	if len(got) != 1 || got[0].Level != "WARNING" {
		t.Fatalf("component filter = %+v", got)
	}
}
