package postgres_test

import (
	"testing"

	"kestrel/store/storetest"
)

func TestNotifyContract(t *testing.T) {
	s := openStore(t)
	storetest.RunNotify(t, s)
	storetest.RunNotifyEvents(t, s)
	storetest.RunVenueFills(t, s)
}
