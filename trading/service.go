// Package trading is the order gateway: every order (a trader's, a
// strategy's, a protective one) goes through Place, Modify or Cancel, which
// validate it, make client order ids idempotent and run the risk check,
// exactly once. It also holds the emergency stop, attaches protective
// stop-loss and take-profit orders to BUY fills, and reads the account for
// the summaries package analytics computes.
package trading

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/events"
	"kestrel/risk"
)

// kvHalt is where the emergency stop survives restarts.
const kvHalt = "trading.emergency_stop"

// Store is what the desk persists.
type Store interface {
	domain.PortfolioStore
	domain.KVStore
}

// AlertFunc raises a system alert (severity critical, high, medium or low).
type AlertFunc func(ctx context.Context, severity, title, message string)

// AccountFunc returns one consistent snapshot of balances and Kestrel's
// position books (average cost and realized P&L from the fills).
type AccountFunc func(ctx context.Context) (domain.Account, error)

// Deps wires the gateway.
type Deps struct {
	Exchange domain.Exchange
	Account  AccountFunc
	Market   domain.MarketData
	Store    Store
	Clock    domain.Clock
	Bus      *events.Bus
	// Policy returns the current risk limits and protective-order settings
	// (settings may change them at any time).
	Policy func() Policy
	Alert  AlertFunc
	// Refused hears of a person's order the risk check refused (title and
	// what was refused, why): their answer already says so, so it is no
	// system alert; the notifications may still tell of it.
	Refused func(ctx context.Context, title, message string)
	// ResolveAlert resolves the open alert raised with title, on behalf of
	// by (Resume resolves the emergency stop's alert with it).
	ResolveAlert func(ctx context.Context, title, by string)
	// RiskStart is since when, and on which venue, the risk state is
	// measured (nil: all of the history). The day's start value and trade
	// count count from it when it is later than 00:00 UTC.
	RiskStart func() risk.Start
}

// Service is the order gateway.
type Service struct {
	d     Deps
	mu    sync.Mutex // serialises risk check + placement so limits cannot be raced past
	halt  HaltState
	hmu   sync.RWMutex
	today risk.DayCount // orders placed today, kept under mu
	marks marks         // start-of-day and peak portfolio values
	// rec is held (read) while a portfolio value is read and recorded, and
	// (write) while the venue changes: no value of the old venue is
	// recorded in the new one's history.
	rec sync.RWMutex
}

// HaltState is the emergency stop.
type HaltState struct {
	Active bool      `json:"active"`
	By     string    `json:"by,omitempty"`
	At     time.Time `json:"at,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

// New returns a gateway, restoring a persisted emergency stop.
func New(ctx context.Context, d Deps) (*Service, error) {
	if d.Policy == nil {
		d.Policy = DefaultPolicy
	}
	if d.Alert == nil {
		d.Alert = func(context.Context, string, string, string) {}
	}
	if d.Refused == nil {
		d.Refused = func(context.Context, string, string) {}
	}
	if d.ResolveAlert == nil {
		d.ResolveAlert = func(context.Context, string, string) {}
	}
	if d.RiskStart == nil {
		d.RiskStart = func() risk.Start { return risk.Start{} }
	}
	s := &Service{d: d}
	raw, err := d.Store.GetValue(ctx, kvHalt)
	switch {
	case err == nil:
		if err := json.Unmarshal([]byte(raw), &s.halt); err != nil {
			return nil, fmt.Errorf("read emergency stop state: %w", err)
		}
	case domain.ErrorCode(err) != domain.ENotFound:
		return nil, err
	}
	return s, nil
}

// Halt returns the emergency-stop state.
func (s *Service) Halt() HaltState {
	s.hmu.RLock()
	defer s.hmu.RUnlock()
	return s.halt
}

// Symbols lists tradable symbols.
func (s *Service) Symbols() []string { return s.d.Market.Symbols() }

// ExchangeName describes the connected exchange.
func (s *Service) ExchangeName() string { return s.d.Exchange.Name() }

// IsSandbox reports whether the exchange trades play money.
func (s *Service) IsSandbox() bool { return s.d.Exchange.IsSandbox() }

// Products lists the exchange's symbols with their increments.
func (s *Service) Products(ctx context.Context) ([]domain.Product, error) {
	return s.d.Exchange.Products(ctx)
}

// Balances is one snapshot of every currency's funds.
func (s *Service) Balances(ctx context.Context) ([]domain.Balance, error) {
	return s.d.Exchange.Balances(ctx)
}

// Fees are the fee rates the current exchange charges; ok is false when it
// does not publish them (Coinbase's depend on the account's tier).
func (s *Service) Fees() (taker, maker decimal.Decimal, ok bool) {
	f, ok := domain.Underlying(s.d.Exchange).(domain.FeeSchedule)
	if !ok {
		return decimal.Zero, decimal.Zero, false
	}
	taker, maker = f.Fees()
	return taker, maker, true
}

// Fills lists every fill of the account, manual and strategy orders alike, newest first.
func (s *Service) Fills(ctx context.Context) ([]domain.Fill, error) {
	return s.d.Exchange.Fills(ctx, domain.FillFilter{Limit: 1_000_000})
}

// StrategyFills lists every fill of an order a strategy placed (or of a
// protective order attached to one), newest first.
func (s *Service) StrategyFills(ctx context.Context) ([]domain.Fill, error) {
	all, err := s.d.Exchange.Fills(ctx, domain.FillFilter{Limit: 1_000_000})
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, f := range all {
		if f.Strategy != "" && f.Strategy != "position_close" {
			out = append(out, f)
		}
	}
	return out, nil
}
