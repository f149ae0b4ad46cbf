package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestPanicBecomes500Envelope(t *testing.T) {
	h := withRequestID(withRecovery(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
	var env envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	if rec.Code != 500 || env.Success || env.Error.Code != "internal" || env.Error.Message != "Internal server error" {
		t.Fatalf("= %d %s", rec.Code, rec.Body)
	}
}
