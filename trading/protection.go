package trading

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// kvReducedPrefix + symbol holds the last ProtectionNotice for that symbol:
// in the store, so every node of a cluster and a restarted process show it.
const kvReducedPrefix = "trading.protection_reduced."

// protectionLevels lists the live SELL stops and limits on symbol: what
// would close the position, and for how much.
func protectionLevels(live []domain.Order, symbol string) []domain.ProtectiveLevel {
	out := []domain.ProtectiveLevel{}
	for _, o := range live {
		if o.Symbol != symbol || o.Side != domain.Sell || !o.Status.Live() {
			continue
		}
		l := domain.ProtectiveLevel{OrderID: o.ID, Quantity: o.Remaining(), Protective: o.ParentID != ""}
		switch {
		case o.Type.IsStop() && o.StopPrice != nil:
			l.Kind, l.Price = "stop_loss", *o.StopPrice
		case o.Type == domain.Limit && o.Price != nil:
			l.Kind, l.Price = "take_profit", *o.Price
		default:
			continue
		}
		out = append(out, l)
	}
	return out
}

// noteReduced records that Kestrel shrank (to > 0) or cancelled (to = 0)
// protective order m, and why. A failure to record is logged: the change
// itself is already made and must not fail the trader's SELL.
func (s *Service) noteReduced(ctx context.Context, m domain.Order, to decimal.Decimal, why string) {
	kind := "take_profit"
	if m.Type.IsStop() {
		kind = "stop_loss"
	}
	n := domain.ProtectionNotice{Symbol: m.Symbol, OrderID: m.ID, Kind: kind, From: m.Remaining(), To: to, Reason: why,
		At: s.d.Clock.Now().UTC()}
	raw, _ := json.Marshal(n)
	if err := s.d.Store.PutValue(ctx, kvReducedPrefix+m.Symbol, string(raw)); err != nil {
		slog.Warn("record reduced protection", "order", m.ID, "err", err)
	}
}

// clearReduced forgets symbol's notice once a new fill is protected afresh.
func (s *Service) clearReduced(ctx context.Context, symbol string) {
	if cur, err := s.d.Store.GetValue(ctx, kvReducedPrefix+symbol); err == nil && cur != "" {
		if err := s.d.Store.PutValue(ctx, kvReducedPrefix+symbol, ""); err != nil {
			slog.Warn("clear reduced-protection notice", "symbol", symbol, "err", err)
		}
	}
}

// reducedNotice is symbol's last notice, or nil.
func (s *Service) reducedNotice(ctx context.Context, symbol string) *domain.ProtectionNotice {
	raw, err := s.d.Store.GetValue(ctx, kvReducedPrefix+symbol)
	if err != nil || raw == "" {
		return nil
	}
	var n domain.ProtectionNotice
	if json.Unmarshal([]byte(raw), &n) != nil {
		return nil
	}
	return &n
}
