package trading

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
	"kestrel/risk"
)

// valuation is the account valued at current prices, from one snapshot,
// with the balances and prices it was valued from (the risk check reads them).
type valuation struct {
	analytics.Valuation
	balances []domain.Balance
	prices   analytics.Prices
}

// value reads balances and position books in one snapshot, looks up the
// price of every currency held and values them.
func (s *Service) value(ctx context.Context) (valuation, error) {
	acct, prices, err := s.snapshot(ctx)
	if err != nil {
		return valuation{}, err
	}
	return valuation{Valuation: analytics.Value(acct, prices), balances: acct.Balances, prices: prices}, nil
}

// snapshot reads balances and position books in one snapshot and the price
// of every currency held.
func (s *Service) snapshot(ctx context.Context) (domain.Account, analytics.Prices, error) {
	acct, err := s.d.Account(ctx)
	if err != nil {
		return acct, nil, err
	}
	prices := analytics.Prices{}
	for _, b := range acct.Balances {
		if b.Currency == analytics.QuoteCurrency {
			continue
		}
		sym := analytics.Pair(b.Currency)
		if t, err := s.d.Market.Ticker(sym); err == nil {
			prices[sym] = t.Price
		}
	}
	return acct, prices, nil
}

// startOfDay is the start of t's risk day (00:00 UTC), the one the
// backtest uses too.
func startOfDay(t time.Time) time.Time { return risk.DayStart(t) }

// tradesSince counts orders placed since t that were not rejected.
func (s *Service) tradesSince(ctx context.Context, t time.Time) (int, error) {
	orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Since: t, Limit: 100000})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range orders {
		if !o.CreatedAt.Before(t) && o.Status != domain.StatusRejected {
			n++
		}
	}
	return n, nil
}

// RecordPortfolio appends the current portfolio value to the history.
func (s *Service) RecordPortfolio(ctx context.Context) error {
	s.rec.RLock()
	defer s.rec.RUnlock()
	v, err := s.value(ctx)
	if err != nil {
		return err
	}
	if err := s.d.Store.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: s.d.Clock.Now(), Value: v.Total, Cash: v.Cash}); err != nil {
		return err
	}
	s.recorded(v.Total)
	return nil
}

// pnlSince is the change in portfolio value since t (zero without history).
func (s *Service) pnlSince(ctx context.Context, t time.Time, now decimal.Decimal) decimal.Decimal {
	p, err := s.d.Store.PortfolioPointAt(ctx, t)
	if err != nil {
		// No point that old: measure from the first recorded point after t.
		pts, err2 := s.d.Store.PortfolioPoints(ctx, t, s.d.Clock.Now().Add(time.Second), 1_000_000)
		if err2 != nil || len(pts) == 0 {
			return decimal.Zero
		}
		p = pts[0]
	}
	return analytics.PnL(p.Value, now)
}

// PnLSince is the change in portfolio value since t (from the recorded
// history point at t, or the first one after it when the history starts
// later; zero without history) and the value now.
func (s *Service) PnLSince(ctx context.Context, t time.Time) (pnl, total decimal.Decimal, err error) {
	v, err := s.value(ctx)
	if err != nil {
		return decimal.Zero, decimal.Zero, err
	}
	return s.pnlSince(ctx, t, v.Total), v.Total, nil
}

// Performance summarises the round trips, live orders, positions and the value history.
func (s *Service) Performance(ctx context.Context) (analytics.Performance, error) {
	v, err := s.value(ctx)
	if err != nil {
		return analytics.Performance{}, err
	}
	orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Status: domain.StatusOpen, Limit: 100000})
	if err != nil {
		return analytics.Performance{}, err
	}
	pending, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Status: domain.StatusPending, Limit: 100000})
	if err != nil {
		return analytics.Performance{}, err
	}
	fills, err := s.Fills(ctx)
	if err != nil {
		return analytics.Performance{}, err
	}
	daily := s.pnlSince(ctx, startOfDay(s.d.Clock.Now()), v.Total)
	return analytics.PerformanceOf(append(orders, pending...), fills, v.Valuation, daily), nil
}

// Portfolio summarises the account; realized P&L covers closed positions too.
func (s *Service) Portfolio(ctx context.Context) (analytics.Portfolio, error) {
	v, err := s.value(ctx)
	if err != nil {
		return analytics.Portfolio{}, err
	}
	now := s.d.Clock.Now()
	daily := s.pnlSince(ctx, startOfDay(now), v.Total)
	weekly := s.pnlSince(ctx, now.Add(-7*24*time.Hour), v.Total)
	p := analytics.PortfolioOf(v.Valuation, daily, weekly, now)
	if p.Positions, err = s.protected(ctx, p.Positions); err != nil {
		return analytics.Portfolio{}, err
	}
	return p, nil
}

// History lists fills newest first as trade rows (with their order's type
// and the P&L each exit realized), optionally for one symbol, paged.
func (s *Service) History(ctx context.Context, symbol string, limit, offset int) ([]analytics.Trade, int, error) {
	fills, err := s.Fills(ctx)
	if err != nil {
		return nil, 0, err
	}
	orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Limit: 1_000_000})
	if err != nil {
		return nil, 0, err
	}
	byID := make(map[string]domain.Order, len(orders))
	for _, o := range orders {
		byID[o.ID] = o
	}
	rows := analytics.TradesOf(fills, byID)
	if sym := strings.ToUpper(strings.TrimSpace(symbol)); sym != "" {
		kept := rows[:0]
		for _, r := range rows {
			if r.Symbol == sym {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	total := len(rows)
	offset = min(offset, total)
	end := min(offset+limit, total)
	return rows[offset:end], total, nil
}

// Orders lists orders newest first, optionally by status.
func (s *Service) Orders(ctx context.Context, status string, limit int) ([]domain.Order, error) {
	st := domain.OrderStatus(strings.ToLower(strings.TrimSpace(status)))
	if st == "all" {
		st = ""
	}
	switch st {
	case "", domain.StatusPending, domain.StatusOpen, domain.StatusFilled, domain.StatusCancelled, domain.StatusRejected:
	default:
		return nil, domain.FieldErrors(map[string]string{"status_filter": "status_filter must be pending, open, filled, cancelled or rejected"}, "status_filter")
	}
	orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Status: st, Limit: limit})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(orders, func(i, j int) bool { return orders[i].CreatedAt.After(orders[j].CreatedAt) })
	return orders, nil
}

// Positions lists open positions, valued now.
func (s *Service) Positions(ctx context.Context) ([]domain.Position, error) {
	v, err := s.value(ctx)
	if err != nil {
		return nil, err
	}
	out := []domain.Position{}
	for _, p := range v.Positions {
		if !p.Quantity.IsZero() {
			out = append(out, p)
		}
	}
	return s.protected(ctx, out)
}

// protected adds to each position the live orders that would close it
// (always a list, empty when none) and the last notice of Kestrel reducing
// them: the positions and the portfolio show the same protection.
func (s *Service) protected(ctx context.Context, positions []domain.Position) ([]domain.Position, error) {
	if len(positions) == 0 {
		return positions, nil
	}
	live, err := s.liveOrders(ctx)
	if err != nil {
		return nil, err
	}
	for i := range positions {
		positions[i].Protection = protectionLevels(live, positions[i].Symbol)
		positions[i].ProtectionReduced = s.reducedNotice(ctx, positions[i].Symbol)
	}
	return positions, nil
}
