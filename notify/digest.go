package notify

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// DailyDigest is the daily summary event (P&L, trades, open risk).
const DailyDigest = "digest.daily"

// DigestData is the payload of digest.daily: the account over the 24 hours
// before To, from the account's own records.
type DigestData struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// PnL is the change in the portfolio's total value over the window:
	// now against the portfolio history's point at From (recorded each
	// minute; the first one after From when the history starts later);
	// zero when there is no history yet.
	PnL        decimal.Decimal `json:"pnl"`
	TotalValue decimal.Decimal `json:"total_value"`
	// Trades counts the fills in the window; Bought and Sold are their
	// notional (quantity x price) in USD by side, Fees what they cost.
	Trades int             `json:"trades"`
	Bought decimal.Decimal `json:"bought_usd"`
	Sold   decimal.Decimal `json:"sold_usd"`
	Fees   decimal.Decimal `json:"fees_usd"`
	// Open risk: the open positions at market, their exposure (market
	// value) and unrealized P&L, and the live orders.
	Positions     []domain.Position `json:"positions"`
	Exposure      decimal.Decimal   `json:"exposure_usd"`
	UnrealizedPnL decimal.Decimal   `json:"unrealized_pnl"`
	OpenOrders    int               `json:"open_orders"`
}

// Text is the digest for people.
func (d DigestData) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s to %s (UTC)\n", d.From.UTC().Format("2006-01-02 15:04"), d.To.UTC().Format("2006-01-02 15:04"))
	fmt.Fprintf(&b, "P&L: %s USD (portfolio value now %s USD)\n", signed(d.PnL), d.TotalValue.StringFixed(2))
	fmt.Fprintf(&b, "Trades: %d (bought %s USD, sold %s USD, fees %s USD)\n", d.Trades, d.Bought.StringFixed(2), d.Sold.StringFixed(2), d.Fees.StringFixed(2))
	fmt.Fprintf(&b, "Open risk: %d position(s) worth %s USD, unrealized %s USD; %d live order(s)", len(d.Positions), d.Exposure.StringFixed(2),
		signed(d.UnrealizedPnL), d.OpenOrders)
	for _, p := range d.Positions {
		fmt.Fprintf(&b, "\n  %s %s at %s = %s USD (%s)", p.Symbol, p.Quantity.String(), p.CurrentPrice.String(), p.CurrentValue.StringFixed(2), signed(p.UnrealizedPnL))
	}
	return b.String()
}

func signed(d decimal.Decimal) string {
	if d.IsPositive() {
		return "+" + d.StringFixed(2)
	}
	return d.StringFixed(2)
}

// DigestAccount reads what a digest says: P&L since from, the account now.
type DigestAccount interface {
	// PnLSince is the change in portfolio value since from, and the value now.
	PnLSince(ctx context.Context, from time.Time) (pnl, total decimal.Decimal, err error)
	// FillsSince lists the fills at or after from.
	FillsSince(ctx context.Context, from time.Time) ([]domain.Fill, error)
	// OpenRisk lists the open positions at market and counts the live orders.
	OpenRisk(ctx context.Context) ([]domain.Position, int, error)
}

// BuildDigest reads the account for the 24 hours before to.
func BuildDigest(ctx context.Context, acct DigestAccount, to time.Time) (DigestData, error) {
	from := to.Add(-24 * time.Hour)
	d := DigestData{From: from, To: to, Positions: []domain.Position{}}
	var err error
	if d.PnL, d.TotalValue, err = acct.PnLSince(ctx, from); err != nil {
		return d, err
	}
	fills, err := acct.FillsSince(ctx, from)
	if err != nil {
		return d, err
	}
	for _, f := range fills {
		if f.Time.Before(from) || f.Time.After(to) {
			continue
		}
		d.Trades++
		notional := f.Quantity.Mul(f.Price)
		if f.Side == domain.Buy {
			d.Bought = d.Bought.Add(notional)
		} else {
			d.Sold = d.Sold.Add(notional)
		}
		d.Fees = d.Fees.Add(f.Fee)
	}
	pos, orders, err := acct.OpenRisk(ctx)
	if err != nil {
		return d, err
	}
	d.OpenOrders = orders
	for _, p := range pos {
		if !p.Quantity.IsPositive() {
			continue
		}
		d.Positions = append(d.Positions, p)
		d.Exposure = d.Exposure.Add(p.CurrentValue)
		d.UnrealizedPnL = d.UnrealizedPnL.Add(p.UnrealizedPnL)
	}
	d.Bought, d.Sold, d.Fees, d.Exposure, d.UnrealizedPnL = d.Bought.Round(2), d.Sold.Round(2), d.Fees.Round(2), d.Exposure.Round(2), d.UnrealizedPnL.Round(2)
	d.PnL, d.TotalValue = d.PnL.Round(2), d.TotalValue.Round(2)
	return d, nil
}

// digestKey is where the time of the last digest sent is kept.
const digestKey = "notify.digest.last"

// DigestDue is the digest time due at now (the latest scheduled time at or
// before now) given hhmm (HH:MM UTC), and whether it is after last.
func DigestDue(now time.Time, hhmm string, last time.Time) (time.Time, bool) {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return time.Time{}, false
	}
	now = now.UTC()
	at := time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), 0, 0, time.UTC)
	if at.After(now) {
		at = at.Add(-24 * time.Hour)
	}
	return at, at.After(last)
}

// SendDigestIfDue queues the daily digest once its time has come and it has
// not gone out for that time yet (kv keeps the last one), for every user who
// routes digest.daily. A digest more than an hour late (the server was down
// at its time) covers the 24 hours before its scheduled time all the same.
// It reports whether it queued one.
func (s *Service) SendDigestIfDue(ctx context.Context, kv domain.KVStore, acct DigestAccount) (bool, error) {
	var last time.Time
	if v, err := kv.GetValue(ctx, digestKey); err == nil {
		last, _ = time.Parse(time.RFC3339, v)
	} else if domain.ErrorCode(err) != domain.ENotFound {
		return false, err
	}
	at, due := DigestDue(s.clock.Now(), s.opt.Servers().DigestTime, last)
	if !due {
		return false, nil
	}
	if last.IsZero() && s.clock.Now().Sub(at) > time.Hour {
		// First start long after today's time: begin with the next one,
		// rather than a digest at an hour nobody chose.
		return false, kv.PutValue(ctx, digestKey, at.Format(time.RFC3339))
	}
	d, err := BuildDigest(ctx, acct, at)
	if err != nil {
		return false, err
	}
	if _, err := s.Enqueue(ctx, Event{Type: DailyDigest, Severity: domain.SeverityLow, Data: d, Time: at}); err != nil {
		return false, err
	}
	// Marked after queueing: a crash between sends that digest twice
	// rather than never.
	return true, kv.PutValue(ctx, digestKey, at.Format(time.RFC3339))
}

// RunDigest checks every minute whether the daily digest is due, until ctx
// ends. Like Run, it runs on one instance (the leader).
func (s *Service) RunDigest(ctx context.Context, kv domain.KVStore, acct DigestAccount) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		if _, err := s.SendDigestIfDue(ctx, kv, acct); err != nil && ctx.Err() == nil {
			slog.Warn("daily digest", "err", err, "component", "notify")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
