package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// RunPortfolio is the contract for domain.PortfolioStore.
func RunPortfolio(t *testing.T, open func(t *testing.T) domain.PortfolioStore) {
	ctx := context.Background()
	s := open(t)
	_, err := s.PortfolioPointAt(ctx, at)
	wantCode(t, err, domain.ENotFound)
	if peak, err := s.PeakPortfolioValue(ctx); err != nil || !peak.IsZero() {
		t.Fatalf("empty peak = %v, %v", peak, err)
	}
	// 9.5 > 10.25 in text order: the peak must compare numbers.
	values := []string{"100000", "100250.12345678", "99999.99", "9.5"}
	for i, v := range values {
		p := domain.PortfolioPoint{Time: at.Add(time.Duration(i) * time.Minute), Value: decimal.RequireFromString(v), Cash: decimal.RequireFromString("50000.5")}
		if err := s.AppendPortfolioPoint(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	peak, err := s.PeakPortfolioValue(ctx)
	if err != nil || peak.String() != "100250.12345678" {
		t.Fatalf("peak = %v, %v", peak, err)
	}
	p, err := s.PortfolioPointAt(ctx, at.Add(150*time.Second))
	if err != nil || p.Value.String() != "99999.99" || !p.Time.Equal(at.Add(2*time.Minute)) || p.Cash.String() != "50000.5" {
		t.Fatalf("PointAt = %+v, %v", p, err)
	}
	pts, err := s.PortfolioPoints(ctx, at, at.Add(time.Hour), 2)
	if err != nil || len(pts) != 2 || pts[0].Value.String() != "99999.99" || pts[1].Value.String() != "9.5" {
		t.Fatalf("Points = %+v, %v (want the newest 2, ascending)", pts, err)
	}
	// Thinning to hours keeps, of the points before the cut, the hour's last
	// and its highest: 100000 at 0 min goes, 100250.12345678 (the peak) and
	// 99999.99 (the last before 3 min) stay, as does 9.5 after the cut.
	n, err := s.ThinPortfolioPoints(ctx, at.Add(3*time.Minute), time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("Thin = %d, %v, want 1 deleted", n, err)
	}
	pts, err = s.PortfolioPoints(ctx, at, at.Add(time.Hour), 10)
	if err != nil || len(pts) != 3 || pts[0].Value.String() != "100250.12345678" || pts[1].Value.String() != "99999.99" || pts[2].Value.String() != "9.5" {
		t.Fatalf("after thinning %+v, %v", pts, err)
	}
	if peak, err := s.PeakPortfolioValue(ctx); err != nil || peak.String() != "100250.12345678" {
		t.Fatalf("peak after thinning = %v, %v", peak, err)
	}
	if n, err := s.ThinPortfolioPoints(ctx, at.Add(3*time.Minute), time.Hour); err != nil || n != 0 {
		t.Fatalf("thinning again = %d, %v, want nothing more", n, err)
	}
}
