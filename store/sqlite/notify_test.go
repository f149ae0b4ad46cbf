package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"kestrel/store/sqlite"
	"kestrel/store/storetest"
)

func TestNotifyContract(t *testing.T) {
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.RunNotify(t, s)
	storetest.RunNotifyEvents(t, s)
	storetest.RunVenueFills(t, s)
}
