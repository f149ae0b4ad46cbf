package openapitest

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// The description parses and is a valid OpenAPI document.
func TestDescriptionIsValid(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if d.T.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q, want 3.1.0", d.T.OpenAPI)
	}
	for _, op := range d.Operations() {
		switch op.Access {
		case "public", "signed-in", "operator":
		default:
			t.Errorf("%s %s: x-access %q, want public, signed-in or operator", op.Method, op.Path, op.Access)
		}
	}
}

// A response that breaks its schema is reported; one that keeps it is not.
func TestCheckCatchesAMismatch(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/api/trading/balances", nil)
	h := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	good := `{"success":true,"data":{"balances":[{"asset":"USD","available":"10.5","hold":"0","total":"10.5"}]}}`
	if err := d.Check(req, 200, h, []byte(good)); err != nil {
		t.Fatalf("a matching body was refused: %v", err)
	}
	for _, bad := range []string{
		`{"success":true,"data":{"balances":[{"asset":"USD","available":10.5,"hold":"0","total":"10.5"}]}}`, // a number, not a decimal string
		`{"success":true,"data":{}}`, // balances missing
		`{"success":false,"data":{"balances":[]}}`,
	} {
		if d.Check(req, 200, h, []byte(bad)) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if d.Check(req, 500, h, []byte(`{"success":false,"error":{"code":"internal"}}`)) == nil {
		t.Error("an error envelope without a message was accepted")
	}
	// A request no operation describes is not this check's business.
	if err := d.Check(httptest.NewRequest("GET", "/api/nope", nil), 404, h, []byte(`x`)); err != nil {
		t.Errorf("undescribed path: %v", err)
	}
}

// A body is checked against a named schema, its oneOf included.
func TestCheckSchema(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	good := `{"id":"msg_1","type":"notification.test","timestamp":"2026-01-02T03:04:05Z","severity":"low","count":1,"data":{"message":"hi","channel":"My hook"}}`
	if err := d.CheckSchema("NotificationMessage", []byte(good)); err != nil {
		t.Fatalf("a matching body was refused: %v", err)
	}
	for _, bad := range []string{
		`{"id":"msg_1","type":"notification.test","timestamp":"2026-01-02T03:04:05Z","severity":"low","count":1,"data":{"message":"hi"}}`,
		`{"id":"msg_1","type":"notification.test","timestamp":"2026-01-02T03:04:05Z","severity":"urgent","count":1,"data":{"message":"hi","channel":"c"}}`,
	} {
		if d.CheckSchema("NotificationMessage", []byte(bad)) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
