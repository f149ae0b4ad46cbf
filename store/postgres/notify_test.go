package postgres_test

import (
	"context"
	"testing"

	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/storetest"
)

func TestNotifyContract(t *testing.T) {
	s, err := postgres.Open(context.Background(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunNotify(t, s)
	storetest.RunNotifyEvents(t, s)
	storetest.RunVenueFills(t, s)
}
