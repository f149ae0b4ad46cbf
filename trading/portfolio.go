package trading

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var hundred = decimal.NewFromInt(100)

// valuation is the account valued at current prices, from one snapshot.
type valuation struct {
	cash      decimal.Decimal // USD available + on hold
	balances  []domain.Balance
	positions []domain.Position // every book, closed ones included (for realized P&L)
	prices    map[string]decimal.Decimal
	total     decimal.Decimal
}

// value reads balances and position books in one snapshot and values them:
// the total is cash plus every currency held at its price, so a fill
// between two reads can never count twice.
func (s *Service) value(ctx context.Context) (valuation, error) {
	v := valuation{prices: map[string]decimal.Decimal{}}
	acct, err := s.d.Account(ctx)
	if err != nil {
		return v, err
	}
	v.balances = acct.Balances
	for _, b := range acct.Balances {
		if b.Currency == "USD" {
			v.cash = b.Total()
			continue
		}
		sym := b.Currency + "-USD"
		if t, err := s.d.Market.Ticker(sym); err == nil {
			v.prices[sym] = t.Price
			v.total = v.total.Add(b.Total().Mul(t.Price))
		}
	}
	v.total = v.total.Add(v.cash)
	for _, p := range acct.Positions {
		v.positions = append(v.positions, valued(p, v.prices))
	}
	return v, nil
}

// valued is a position book at the current price.
func valued(p domain.PositionBook, prices map[string]decimal.Decimal) domain.Position {
	pos := domain.Position{Symbol: p.Symbol, Quantity: p.Quantity, AvgPrice: p.AvgPrice(), RealizedPnL: p.Realized.Round(2)}
	if px, ok := prices[p.Symbol]; ok {
		pos.CurrentPrice = px
		pos.CurrentValue = p.Quantity.Mul(px).Round(2)
		pos.UnrealizedPnL = p.Quantity.Mul(px).Sub(p.Cost).Round(2)
		if p.Cost.IsPositive() {
			pos.PnLPercentage = p.Quantity.Mul(px).Sub(p.Cost).Div(p.Cost).Mul(hundred).Round(2)
		}
	}
	return pos
}

func startOfDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

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
	v, err := s.value(ctx)
	if err != nil {
		return err
	}
	return s.d.Store.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: s.d.Clock.Now(), Value: v.total, Cash: v.cash})
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
	return now.Sub(p.Value)
}

// Performance is the spec's Performance summary.
type Performance struct {
	DailyPnL         decimal.Decimal `json:"daily_pnl"`
	TotalTrades      int             `json:"total_trades"`
	SuccessfulTrades int             `json:"successful_trades"`
	FailedTrades     int             `json:"failed_trades"`
	WinRate          float64         `json:"win_rate"`
	TotalExposure    decimal.Decimal `json:"total_exposure"`
	PortfolioValue   decimal.Decimal `json:"portfolio_value"`
	ActivePositions  int             `json:"active_positions"`
	PendingOrders    int             `json:"pending_orders"`
}

// Performance computes the summary from orders, positions and the value history.
// A trade is an order that reached an end state: filled ones succeeded,
// rejected ones failed (cancelled orders never traded and are not counted).
func (s *Service) Performance(ctx context.Context) (Performance, error) {
	var p Performance
	v, err := s.value(ctx)
	if err != nil {
		return p, err
	}
	orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Limit: 100000})
	if err != nil {
		return p, err
	}
	for _, o := range orders {
		switch {
		case o.Status == domain.StatusFilled:
			p.SuccessfulTrades++
		case o.Status == domain.StatusRejected:
			p.FailedTrades++
		case o.Status.Live():
			p.PendingOrders++
		}
	}
	p.TotalTrades = p.SuccessfulTrades + p.FailedTrades
	if p.TotalTrades > 0 {
		p.WinRate = roundTo(float64(p.SuccessfulTrades)/float64(p.TotalTrades)*100, 1)
	}
	for _, pos := range v.positions {
		if pos.Quantity.IsPositive() {
			p.ActivePositions++
			p.TotalExposure = p.TotalExposure.Add(pos.CurrentValue)
		}
	}
	p.PortfolioValue = v.total.Round(2)
	p.TotalExposure = p.TotalExposure.Round(2)
	p.DailyPnL = s.pnlSince(ctx, startOfDay(s.d.Clock.Now()), v.total).Round(2)
	return p, nil
}

// Portfolio is the spec's Portfolio summary.
type Portfolio struct {
	TotalValue         decimal.Decimal   `json:"total_value"`
	CashBalance        decimal.Decimal   `json:"cash_balance"`
	TotalUnrealizedPnL decimal.Decimal   `json:"total_unrealized_pnl"`
	TotalRealizedPnL   decimal.Decimal   `json:"total_realized_pnl"`
	DailyPnL           decimal.Decimal   `json:"daily_pnl"`
	WeeklyPnL          decimal.Decimal   `json:"weekly_pnl"`
	PositionsCount     int               `json:"positions_count"`
	Positions          []domain.Position `json:"positions"`
	Diversification    Diversification   `json:"diversification"`
	TotalExposure      decimal.Decimal   `json:"total_exposure"`
	LastUpdated        time.Time         `json:"last_updated"`
}

// Diversification describes how concentrated the holdings are.
type Diversification struct {
	Symbols                   int             `json:"symbols"`
	LargestPositionPercentage decimal.Decimal `json:"largest_position_percentage"`
}

// Portfolio computes the summary; realized P&L covers closed positions too.
func (s *Service) Portfolio(ctx context.Context) (Portfolio, error) {
	v, err := s.value(ctx)
	if err != nil {
		return Portfolio{}, err
	}
	now := s.d.Clock.Now()
	p := Portfolio{TotalValue: v.total.Round(2), CashBalance: v.cash.Round(2), Positions: []domain.Position{}, LastUpdated: now}
	largest := decimal.Zero
	for _, pos := range v.positions {
		if !pos.Quantity.IsPositive() {
			continue
		}
		p.Positions = append(p.Positions, pos)
		p.TotalUnrealizedPnL = p.TotalUnrealizedPnL.Add(pos.UnrealizedPnL)
		p.TotalExposure = p.TotalExposure.Add(pos.CurrentValue)
		if pos.CurrentValue.GreaterThan(largest) {
			largest = pos.CurrentValue
		}
	}
	sort.Slice(p.Positions, func(i, j int) bool { return p.Positions[i].CurrentValue.GreaterThan(p.Positions[j].CurrentValue) })
	for _, pos := range v.positions {
		p.TotalRealizedPnL = p.TotalRealizedPnL.Add(pos.RealizedPnL)
	}
	p.PositionsCount = len(p.Positions)
	p.Diversification.Symbols = len(p.Positions)
	if v.total.IsPositive() {
		p.Diversification.LargestPositionPercentage = largest.Div(v.total).Mul(hundred).Round(2)
	}
	p.TotalUnrealizedPnL = p.TotalUnrealizedPnL.Round(2)
	p.TotalRealizedPnL = p.TotalRealizedPnL.Round(2)
	p.TotalExposure = p.TotalExposure.Round(2)
	p.DailyPnL = s.pnlSince(ctx, startOfDay(now), v.total).Round(2)
	p.WeeklyPnL = s.pnlSince(ctx, now.Add(-7*24*time.Hour), v.total).Round(2)
	return p, nil
}

// Trade is an order as the history screens show it.
type Trade struct {
	ID         string           `json:"id"`
	OrderID    string           `json:"order_id"`
	Symbol     string           `json:"symbol"`
	Side       domain.Side      `json:"side"`
	OrderType  domain.OrderType `json:"order_type"`
	Quantity   decimal.Decimal  `json:"quantity"`
	Price      *decimal.Decimal `json:"price"`
	TotalValue decimal.Decimal  `json:"total_value"`
	Fee        decimal.Decimal  `json:"fee"`
	Status     string           `json:"status"`
	Strategy   string           `json:"strategy"`
	Timestamp  time.Time        `json:"timestamp"`
	Reason     string           `json:"reason,omitempty"`
	// FilledQuantity is what traded; CancelledQuantity the remainder of an
	// order that partly filled and was then cancelled.
	FilledQuantity    decimal.Decimal  `json:"filled_quantity"`
	CancelledQuantity *decimal.Decimal `json:"cancelled_quantity,omitempty"`
}

// tradeStatus maps order statuses to the history's: executed, pending, failed, cancelled.
func tradeStatus(o domain.Order) string {
	switch o.Status {
	case domain.StatusFilled:
		return "executed"
	case domain.StatusPending, domain.StatusOpen:
		return "pending"
	case domain.StatusCancelled:
		if o.FilledQuantity.IsPositive() {
			return "executed" // for the part that filled; the remainder is noted
		}
		return "cancelled"
	}
	return "failed"
}

func toTrade(o domain.Order) Trade {
	t := Trade{ID: o.ID, OrderID: o.ID, Symbol: o.Symbol, Side: o.Side, OrderType: o.Type, Quantity: o.Quantity, Fee: o.Fee,
		Status: tradeStatus(o), Strategy: o.Strategy, Timestamp: o.CreatedAt, Reason: o.RejectReason}
	switch {
	case o.AvgFillPrice != nil:
		t.Price = o.AvgFillPrice
		if o.FilledQuantity.IsPositive() {
			t.Quantity = o.FilledQuantity
		}
	case o.Price != nil:
		t.Price = o.Price
	case o.StopPrice != nil:
		t.Price = o.StopPrice
	}
	if t.Price != nil {
		t.TotalValue = t.Quantity.Mul(*t.Price).Round(2)
	}
	t.FilledQuantity = o.FilledQuantity
	if o.Status == domain.StatusCancelled && o.FilledQuantity.IsPositive() {
		rest := o.Quantity.Sub(o.FilledQuantity)
		t.CancelledQuantity = &rest
	}
	if o.Status == domain.StatusFilled {
		t.Timestamp = o.UpdatedAt
	}
	return t
}

// History lists trades newest first, optionally for one symbol, paged.
func (s *Service) History(ctx context.Context, symbol string, limit, offset int) ([]Trade, int, error) {
	orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Symbol: strings.ToUpper(symbol), Limit: 100000})
	if err != nil {
		return nil, 0, err
	}
	sort.SliceStable(orders, func(i, j int) bool { return orders[i].CreatedAt.After(orders[j].CreatedAt) })
	total := len(orders)
	if offset > total {
		offset = total
	}
	end := min(offset+limit, total)
	out := make([]Trade, 0, end-offset)
	for _, o := range orders[offset:end] {
		out = append(out, toTrade(o))
	}
	return out, total, nil
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
	for _, p := range v.positions {
		if !p.Quantity.IsZero() {
			out = append(out, p)
		}
	}
	return out, nil
}

func roundTo(x float64, places int) float64 {
	return decimal.NewFromFloat(x).Round(int32(places)).InexactFloat64()
}
