package httpapi

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"kestrel/domain"
)

// A dependency that is down answers 503 with its own message in the
// envelope; the driver's error behind it stays in the logs.
func TestUnavailableIs503WithoutTheCause(t *testing.T) {
	cause := errors.New("failed to connect to `user=postgres database=kestrel`: connection refused")
	rec := httptest.NewRecorder()
	fail(rec, httptest.NewRequest("POST", "/api/trading/orders/limit", nil), domain.Unavailable(cause, "The database is unavailable; try again shortly"))
	var env envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	if rec.Code != 503 || env.Success || env.Error == nil || env.Error.Code != domain.EUnavailable || env.Error.Message != "The database is unavailable; try again shortly" {
		t.Fatalf("= %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), "postgres") {
		t.Fatalf("the cause leaked to the client: %s", rec.Body)
	}
}
