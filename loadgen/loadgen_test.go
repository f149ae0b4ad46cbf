package loadgen

import (
	"testing"
	"time"
)

func TestOnlyLoopbackIsAllowed(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9000", "http://127.0.0.2:80"} {
		if err := CheckLoopback(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1:8080", "http://example.com", "ftp://127.0.0.1", "http://0.0.0.0:8080"} {
		if err := CheckLoopback(u); err == nil {
			t.Errorf("%s allowed", u)
		}
	}
}

func TestMix(t *testing.T) {
	m, err := ParseMix("limit:3,cancel:1")
	if err != nil {
		t.Fatal(err)
	}
	got := schedule(m)
	want := []Op{OpLimit, OpLimit, OpLimit, OpCancel}
	if len(got) != len(want) {
		t.Fatalf("schedule %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("schedule %v, want %v", got, want)
		}
	}
	for _, bad := range []string{"limit:x", "sell:1", "limit:-1"} {
		if _, err := ParseMix(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPercentiles(t *testing.T) {
	s := &Stats{}
	for i := 1; i <= 100; i++ {
		s.lat = append(s.lat, time.Duration(i)*time.Millisecond)
	}
	for q, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond} {
		if got := s.Percentile(q); got != want {
			t.Errorf("p%v = %s, want %s", q*100, got, want)
		}
	}
	if s.Max() != 100*time.Millisecond {
		t.Errorf("max %s", s.Max())
	}
}
