package settings

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzValidate: any settings document decoded over the defaults (as PUT
// /api/settings and import do) validates without panicking, to a result
// whose errors each name a field and a message, and validating is stable:
// the same document gives the same verdict twice.
func FuzzValidate(f *testing.F) {
	def, _ := json.Marshal(Defaults())
	f.Add(def)
	for _, s := range []string{
		`{"trading":{"riskManagement":{"maxPositionSize":2,"stopLossPercent":-1}}}`,
		`{"api":{"exchange":{"timeout":0,"rateLimit":1e308}},"ui":{"theme":{"mode":"neon"}}}`,
		`{"system":{"logging":{"level":"LOUD"},"backup":{"retention":-5}}}`,
		`{"trading":{"defaultParameters":{"quantity":"0.1"}}}`,
		`{"ui":null,"trading":null}`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s := Defaults()
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if dec.Decode(&s) != nil {
			return // the API answers 400 before validating
		}
		r := Validate(&s)
		if r.IsValid != (len(r.Errors) == 0) {
			t.Fatalf("isValid %v with %d error(s)", r.IsValid, len(r.Errors))
		}
		for _, is := range append(r.Errors, r.Warnings...) {
			if is.Field == "" || is.Message == "" {
				t.Fatalf("issue without field or message: %+v", is)
			}
		}
		if again := Validate(&s); again.IsValid != r.IsValid || len(again.Errors) != len(r.Errors) {
			t.Fatalf("validating twice differs: %+v then %+v", r, again)
		}
	})
}
