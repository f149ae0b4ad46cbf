package trading

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
	"kestrel/risk"
)

// view is the account as the risk check sees it, read once per decision
// about an order on symbol.
type view struct {
	snap   risk.Snapshot
	free   map[string]decimal.Decimal // available (not on hold), per currency
	total  map[string]decimal.Decimal // available + hold, per currency
	prices map[string]decimal.Decimal
	// protective are symbol's live SELLs attached to a BUY (ParentID set),
	// oldest first: a SELL may take its quantity from them.
	protective []domain.Order
	// sells lists symbol's live SELLs (only read to word a refusal).
	sells func() ([]domain.Order, error)
}

func (s *Service) view(ctx context.Context, symbol string) (view, error) {
	v := view{free: map[string]decimal.Decimal{}, total: map[string]decimal.Decimal{}, prices: map[string]decimal.Decimal{}}
	acct, prices, err := s.snapshot(ctx)
	if err != nil {
		return v, err
	}
	for _, b := range acct.Balances {
		v.free[b.Currency], v.total[b.Currency] = b.Available, b.Total()
	}
	v.prices = prices
	_, total := analytics.Totals(acct.Balances, prices) // Value's total without valuing every position in full
	v.snap = risk.Snapshot{EmergencyStop: s.Halt().Active, PortfolioValue: total, Exposure: map[string]decimal.Decimal{}}
	for _, book := range acct.Positions {
		if x, priced := analytics.PositionValue(book, prices); priced && book.Quantity.IsPositive() {
			v.snap.Exposure[book.Symbol] = x
		}
	}
	if err := s.liveView(ctx, &v, symbol); err != nil {
		return v, err
	}
	now := s.d.Clock.Now()
	if v.snap.StartOfDayValue, err = s.startOfDayValue(ctx, now); err != nil {
		return v, err
	}
	if v.snap.PeakValue, err = s.peakValue(ctx); err != nil {
		return v, err
	}
	if v.snap.TradesToday, err = s.tradesToday(ctx, now); err != nil {
		return v, err
	}
	return v, nil
}

// liveView adds the live orders' part: resting BUYs' exposure and symbol's
// protective SELLs. An exchange with a domain.LiveIndex answers from its
// index; any other lists its live orders.
func (s *Service) liveView(ctx context.Context, v *view, symbol string) error {
	sellsOf := func(live []domain.Order) []domain.Order {
		var out []domain.Order
		for _, o := range live {
			if o.Symbol == symbol && o.Side == domain.Sell {
				out = append(out, o)
			}
		}
		return out
	}
	v.sells = func() ([]domain.Order, error) {
		live, err := s.liveOrders(ctx)
		return sellsOf(live), err
	}
	if idx, ok := domain.Underlying(s.d.Exchange).(domain.LiveIndex); ok {
		exp, err := idx.BuyExposure(ctx)
		if err != nil {
			return err
		}
		for sym, x := range exp {
			v.snap.Exposure[sym] = v.snap.Exposure[sym].Add(x)
		}
		v.protective, err = idx.ProtectiveOrders(ctx, symbol)
		return err
	}
	live, err := s.liveOrders(ctx)
	if err != nil {
		return err
	}
	for _, o := range live {
		if o.Side == domain.Buy {
			v.snap.Exposure[o.Symbol] = v.snap.Exposure[o.Symbol].Add(exposureOf(o))
		}
		if o.Symbol == symbol && o.Side == domain.Sell && o.ParentID != "" {
			v.protective = append(v.protective, o)
		}
	}
	v.sells = func() ([]domain.Order, error) { return sellsOf(live), nil }
	return nil
}

// marks are the figures of the portfolio history the risk check reads: the
// value at the start of the day and the peak. The store is read for the
// start of the day once a day (later points cannot change it) and for the
// peak once a minute (retention may prune it); in between the peak follows
// the values RecordPortfolio appends, so no order re-reads the history.
type marks struct {
	mu       sync.Mutex
	day      time.Time
	sod      decimal.Decimal
	peak     decimal.Decimal
	peakRead time.Time
}

const peakReread = time.Minute

func (s *Service) startOfDayValue(ctx context.Context, now time.Time) (decimal.Decimal, error) {
	day := startOfDay(now)
	s.marks.mu.Lock()
	defer s.marks.mu.Unlock()
	if s.marks.day.Equal(day) {
		return s.marks.sod, nil
	}
	if since := s.d.RiskStart().Since; since.After(day) {
		// The venue changed today: its day starts at its first value.
		pts, err := s.d.Store.PortfolioPoints(ctx, since, now.Add(time.Second), 1)
		if err != nil {
			return decimal.Zero, err
		}
		if len(pts) == 0 {
			return decimal.Zero, nil // none recorded yet: unknown, asked again next time
		}
		s.marks.sod, s.marks.day = pts[0].Value, day
		return s.marks.sod, nil
	}
	p, err := s.d.Store.PortfolioPointAt(ctx, day)
	switch {
	case err == nil:
		s.marks.sod = p.Value
	case domain.ErrorCode(err) == domain.ENotFound:
		s.marks.sod = decimal.Zero // unknown: no value recorded before today
	default:
		return decimal.Zero, err
	}
	s.marks.day = day
	return s.marks.sod, nil
}

func (s *Service) peakValue(ctx context.Context) (decimal.Decimal, error) {
	now := s.d.Clock.Now()
	s.marks.mu.Lock()
	defer s.marks.mu.Unlock()
	if !s.marks.peakRead.IsZero() && now.Sub(s.marks.peakRead) < peakReread && !now.Before(s.marks.peakRead) {
		return s.marks.peak, nil
	}
	peak, err := s.d.Store.PeakPortfolioValue(ctx)
	if err != nil {
		return decimal.Zero, err
	}
	s.marks.peak, s.marks.peakRead = peak, now
	return peak, nil
}

// ReloadMarks makes the next risk check re-read the start-of-day and peak
// values from the store: for a history changed other than by
// RecordPortfolio (an import, a test writing past values).
func (s *Service) ReloadMarks() {
	s.marks.mu.Lock()
	s.marks.day, s.marks.peakRead = time.Time{}, time.Time{}
	s.marks.mu.Unlock()
}

// recorded notes a value appended to the history.
func (s *Service) recorded(v decimal.Decimal) {
	s.marks.mu.Lock()
	if !s.marks.peakRead.IsZero() && v.GreaterThan(s.marks.peak) {
		s.marks.peak = v
	}
	s.marks.mu.Unlock()
}

// tradesToday is the day's trade count (risk.DayCount, the rule the
// backtest keeps too). It is read from the store once a day (and after a
// restart), then kept in memory as the gateway places orders, so the risk
// check does not re-read the day's orders on every order. Callers hold s.mu.
func (s *Service) tradesToday(ctx context.Context, now time.Time) (int, error) {
	if s.today.Known(now) {
		return s.today.N(now), nil
	}
	from := startOfDay(now)
	if since := s.d.RiskStart().Since; since.After(from) {
		from = since // the venue changed today: its orders since
	}
	n, err := s.tradesSince(ctx, from)
	if err != nil {
		return 0, err
	}
	s.today.Start(now, n)
	return n, nil
}

// Rescope runs change (the switch to another venue, which restarts the
// risk start RiskStart reads) with no order being checked or placed and no
// portfolio value being recorded, then forgets the day's trade count, the
// day's start value and the peak: the next risk check reads them afresh,
// from the new start.
func (s *Service) Rescope(change func() error) error {
	s.rec.Lock()
	defer s.rec.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	err := change()
	s.today.Forget()
	s.ReloadMarks()
	return err
}

// placed counts an order submitted now, so orders still being journaled
// count against the daily limit; unplaced takes back one that then failed
// or was rejected. Callers hold s.mu.
func (s *Service) placed()   { s.today.Placed(s.d.Clock.Now()) }
func (s *Service) unplaced() { s.today.Unplaced(s.d.Clock.Now()) }

// exposureOf is what a resting BUY adds if it fills: its remainder at its price.
func exposureOf(o domain.Order) decimal.Decimal {
	px := o.Price
	if o.Type.IsStop() {
		px = o.StopPrice
	}
	if px == nil {
		return decimal.Zero
	}
	return o.Remaining().Mul(*px)
}

func (s *Service) liveOrders(ctx context.Context) ([]domain.Order, error) {
	return s.d.Exchange.LiveOrders(ctx)
}

// expectedPrice values an order for the risk check: its limit or stop
// price, or the side of the book a market order would take.
func (s *Service) expectedPrice(req domain.OrderRequest) (decimal.Decimal, error) {
	if req.Price != nil {
		return *req.Price, nil
	}
	if req.StopPrice != nil {
		return *req.StopPrice, nil
	}
	t, err := s.d.Market.Ticker(req.Symbol)
	if err != nil {
		return decimal.Zero, err
	}
	if req.Side == domain.Buy && t.Ask.IsPositive() {
		return t.Ask, nil
	}
	if req.Side == domain.Sell && t.Bid.IsPositive() {
		return t.Bid, nil
	}
	return t.Price, nil
}

// assess turns a request into what the risk check judges. A SELL reduces a
// position when it needs no more than is free plus what Kestrel's own
// protective orders hold (they make room for it). replacing is the live
// order a modify replaces.
func (s *Service) assess(v view, req domain.OrderRequest, replacing *domain.Order) (risk.Order, error) {
	px, err := s.expectedPrice(req)
	if err != nil {
		return risk.Order{}, err
	}
	qty := req.Quantity
	if replacing != nil {
		qty = qty.Sub(replacing.FilledQuantity)
	}
	o := risk.Order{Symbol: req.Symbol, Side: req.Side, Notional: qty.Mul(px)}
	if replacing != nil && replacing.Side == domain.Buy {
		o.Replaces = exposureOf(*replacing)
	}
	if req.Side != domain.Sell {
		return o, nil
	}
	base := domain.Base(req.Symbol)
	sellable := v.free[base]
	for _, g := range protectiveGroups(v.protective, req.Symbol) {
		sellable = sellable.Add(g.held)
	}
	if replacing != nil && replacing.ParentID == "" {
		sellable = sellable.Add(replacing.Hold)
	}
	if qty.LessThanOrEqual(sellable) {
		o.Reduces = true
		return o, nil
	}
	if v.total[base].GreaterThanOrEqual(qty) {
		sells, err := v.sells()
		if err != nil {
			return o, err
		}
		return o, heldBy(sells, req.Symbol, replacing)
	}
	return o, nil // more than is held: the exchange refuses it for want of funds
}

// heldBy is the refusal of a SELL whose quantity is held by the trader's
// own resting orders: it names the order that holds it.
func heldBy(live []domain.Order, symbol string, except *domain.Order) error {
	for _, o := range live {
		if o.Symbol == symbol && o.Side == domain.Sell && o.ParentID == "" && (except == nil || o.ID != except.ID) && o.Hold.IsPositive() {
			return domain.Errorf(domain.ERejected, "%s %s is on hold for your open %s SELL order %s; cancel or modify it first",
				o.Hold, domain.Base(symbol), o.Type, o.ID)
		}
	}
	return domain.Errorf(domain.ERejected, "Insufficient balance for this trade")
}

// group is one protective group Kestrel attached: its live members and the
// base quantity it holds (the largest remainder among them).
type group struct {
	id      string
	members []domain.Order
	held    decimal.Decimal
}

// protectiveGroups lists symbol's protective groups, newest first.
func protectiveGroups(live []domain.Order, symbol string) []group {
	byID := map[string]*group{}
	var out []*group
	for _, o := range live {
		if o.Symbol != symbol || o.ParentID == "" || o.Side != domain.Sell {
			continue
		}
		id := o.GroupID
		if id == "" {
			id = o.ID
		}
		g := byID[id]
		if g == nil {
			g = &group{id: id}
			byID[id] = g
			out = append(out, g)
		}
		g.members = append(g.members, o)
		g.held = decimal.Max(g.held, o.Remaining())
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].members[0].CreatedAt.After(out[j].members[0].CreatedAt) })
	res := make([]group, len(out))
	for i, g := range out {
		res[i] = *g
	}
	return res
}

// makeRoom frees qty of symbol's base currency for a SELL, taking it from
// the protective groups Kestrel attached (newest first), shrinking or
// cancelling them, so a trader is never refused because of an order
// Kestrel placed itself. why names the SELL for the notice the Positions
// screen shows: protection never shrinks silently.
func (s *Service) makeRoom(ctx context.Context, v view, symbol string, qty decimal.Decimal, except, why string) error {
	need := qty.Sub(v.free[domain.Base(symbol)])
	for _, g := range protectiveGroups(v.protective, symbol) {
		if !need.IsPositive() {
			return nil
		}
		take := decimal.Min(need, g.held)
		for _, m := range g.members {
			if m.ID == except {
				continue
			}
			var err error
			to := decimal.Zero
			if take.Equal(g.held) {
				_, err = s.d.Exchange.CancelOrder(ctx, m.ID)
			} else {
				q := m.Quantity.Sub(take)
				to = q.Sub(m.FilledQuantity)
				_, err = s.d.Exchange.ModifyOrder(ctx, m.ID, &q, nil)
				if domain.ErrorCode(err) == domain.EConflict {
					err = s.replaceSmaller(ctx, m, take)
				}
			}
			if err != nil && domain.ErrorCode(err) != domain.EConflict { // conflict: it just filled or went
				return fmt.Errorf("free %s from protective order %s: %w", symbol, m.ID, err)
			}
			if err == nil {
				s.noteReduced(ctx, m, to, why)
			}
		}
		need = need.Sub(take)
	}
	return nil
}

// LimitsState is the account state the loss and trade limits are checked
// against now, and what it measures: the venue and since when (the switch
// to it; nil: all of the recorded history).
type LimitsState struct {
	Venue         string           `json:"venue"`
	Since         *time.Time       `json:"since"`
	PeakValue     *decimal.Decimal `json:"peakValue"`     // nil: no value recorded yet
	DayStartValue *decimal.Decimal `json:"dayStartValue"` // nil: unknown (none recorded this day)
	TradesToday   int              `json:"tradesToday"`
}

// Limits reads the limits' state as the next risk check will.
func (s *Service) Limits(ctx context.Context) (LimitsState, error) {
	st := s.d.RiskStart()
	out := LimitsState{Venue: st.Label}
	if out.Venue == "" {
		out.Venue = s.d.Exchange.Name()
	}
	if !st.Since.IsZero() {
		since := st.Since
		out.Since = &since
	}
	now := s.d.Clock.Now()
	sod, err := s.startOfDayValue(ctx, now)
	if err != nil {
		return out, err
	}
	peak, err := s.peakValue(ctx)
	if err != nil {
		return out, err
	}
	if sod.IsPositive() {
		out.DayStartValue = &sod
	}
	if peak.IsPositive() {
		out.PeakValue = &peak
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out.TradesToday, err = s.tradesToday(ctx, now)
	return out, err
}
