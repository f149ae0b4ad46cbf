package domain

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestThinKeep(t *testing.T) {
	base := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	pt := func(min int, v string) PortfolioPoint {
		return PortfolioPoint{Time: base.Add(time.Duration(min) * time.Minute), Value: decimal.RequireFromString(v)}
	}
	points := []PortfolioPoint{
		pt(0, "100"), pt(1, "105"), pt(2, "101"), pt(59, "102"), // 10:00 hour: the peak 105 and the last 102
		pt(60, "99"),                   // 11:00 hour: one point
		pt(125, "98"), pt(130, "97.5"), // 12:00 hour: the last is also... the highest is 98
	}
	got := ThinKeep(points, time.Hour)
	want := []bool{false, true, false, true, true, true, true}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("keep %v, want %v", got, want)
		}
	}
	for _, k := range ThinKeep(points, 0) {
		if !k {
			t.Fatal("a zero bucket keeps everything")
		}
	}
}
