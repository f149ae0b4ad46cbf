package marketwatch_test

import (
	"context"
	"testing"
	"time"

	"kestrel/ops/marketwatch"
)

type alerts struct{ got []string }

func (a *alerts) Raise(_ context.Context, key, severity, component, title, message string) {
	a.got = append(a.got, key+" "+severity+": "+message)
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		age  time.Duration
		want string
	}{
		{"no tick yet", -1, ""},
		{"fresh", time.Second, ""},
		{"just at the limit", 30 * time.Second, ""},
		{"stale", 47*time.Second + 400*time.Millisecond, "market:stale high: No price update for 47s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &alerts{}
			raised := marketwatch.Check(context.Background(), tc.age, a)
			got := ""
			if len(a.got) == 1 {
				got = a.got[0]
			}
			if got != tc.want || raised != (tc.want != "") {
				t.Errorf("Check(%s) = %v, alert %q; want %q", tc.age, raised, got, tc.want)
			}
		})
	}
}
