package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/promotion"
)

// Promotion of strategy versions, in the spec's /strategy/<what>/{name}
// style (docs/PROMOTION.md): to paper (a paper account of its own, its
// gates checked here), to live with an operator's approval, demote.
func (s *Server) promotionRoutes() {
	s.api("GET /api/strategy/promotions/{name}", signedIn.withToken(tokenRead), s.promotions)
	// Starting, ending and closing out a stage are strategy actions:
	// operators only, like creating, switching and configuring one.
	s.api("POST /api/strategy/promotions/{name}", operatorOnly, s.promoteToPaper)
	s.api("POST /api/strategy/promotions/{name}/{id}/approve", operatorOnly, s.approvePromotion)
	s.api("POST /api/strategy/promotions/{name}/{id}/demote", operatorOnly, s.demotePromotion)
	s.api("GET /api/strategy/promotions/{name}/{id}/drift", signedIn.withToken(tokenRead), s.promotionDrift)
	s.api("POST /api/strategy/promotions/{name}/{id}/close-positions", operatorOnly, s.closePromotionPositions)
}

// promotionsOff answers 503 when the server runs without promotions.
func (s *Server) promotionsOff(w http.ResponseWriter, r *http.Request) bool {
	if s.d.Promotions == nil {
		fail(w, r, domain.Errorf(domain.EUnavailable, "Promotion is not available on this server"))
		return true
	}
	return false
}

// failPromotion answers a refused gate with 409, each gate and the figure
// it saw; anything else as usual.
func failPromotion(w http.ResponseWriter, r *http.Request, err error) {
	var ge *promotion.GateError
	if !errors.As(err, &ge) {
		fail(w, r, err)
		return
	}
	fields := map[string]string{}
	for _, g := range ge.Gates {
		if !g.Passed {
			fields[g.Setting] = g.Detail
		}
	}
	fail(w, r, gateRefusal{&domain.Error{Code: domain.EConflict, Message: ge.Error(), Fields: fields}, ge.Gates})
}

// stageView is a stage with, for a paper stage, its paper account's books.
type stageView struct {
	domain.Promotion
	Paper *paperBooks `json:"paper_account,omitempty"`
}

// paperPosition is a position book: quantity held, its cost and the P&L
// realized so far.
type paperPosition struct {
	Symbol   string          `json:"symbol"`
	Quantity decimal.Decimal `json:"quantity"`
	Cost     decimal.Decimal `json:"cost"`
	Realized decimal.Decimal `json:"realized_pnl"`
}

// paperBooks is a paper account as its ledger holds it.
type paperBooks struct {
	Balances  []domain.Balance `json:"balances"`
	Positions []paperPosition  `json:"positions"`
	// Equity is the account valued now: every balance at the market's
	// last price (USD as it is); null when a price is missing.
	Equity       *decimal.Decimal `json:"equity"`
	OrdersFilled int              `json:"orders_filled"`
	Fills        int              `json:"fills"`
	OpenOrders   int              `json:"open_orders"`
}

func (s *Server) booksOf(ctx context.Context, account string) (*paperBooks, error) {
	l := s.d.Store.LedgerFor(account)
	b := &paperBooks{}
	var err error
	if b.Balances, err = l.LedgerBalances(ctx); err != nil {
		return nil, err
	}
	b.Equity = s.valueOf(b.Balances)
	ps, err := l.LedgerPositions(ctx)
	if err != nil {
		return nil, err
	}
	b.Positions = make([]paperPosition, 0, len(ps))
	for _, p := range ps {
		b.Positions = append(b.Positions, paperPosition{Symbol: p.Symbol, Quantity: p.Quantity, Cost: p.Cost, Realized: p.Realized})
	}
	live, err := l.LedgerLiveOrders(ctx)
	if err != nil {
		return nil, err
	}
	b.OpenOrders = len(live)
	orders := map[string]bool{}
	for off := 0; ; off += 1000 {
		fs, err := l.LedgerFills(ctx, domain.FillFilter{Limit: 1000, Offset: off})
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			orders[f.OrderID] = true
		}
		b.Fills += len(fs)
		if len(fs) < 1000 {
			break
		}
	}
	b.OrdersFilled = len(orders)
	return b, nil
}

// valueOf is balances in USD at the market's last prices, or nil when a
// currency has none.
func (s *Server) valueOf(bs []domain.Balance) *decimal.Decimal {
	total := decimal.Zero
	for _, b := range bs {
		amount := b.Available.Add(b.Hold)
		if b.Currency == "USD" {
			total = total.Add(amount)
			continue
		}
		if amount.IsZero() {
			continue
		}
		if s.d.Market == nil {
			return nil
		}
		t, err := s.d.Market.Ticker(b.Currency + "-USD")
		if err != nil || !t.Price.IsPositive() {
			return nil
		}
		total = total.Add(amount.Mul(t.Price))
	}
	total = total.Round(2)
	return &total
}

func (s *Server) promotions(w http.ResponseWriter, r *http.Request) {
	if s.promotionsOff(w, r) {
		return
	}
	name := r.PathValue("name")
	if _, err := s.d.Strategies.Get(name); err != nil {
		fail(w, r, err)
		return
	}
	ps, err := s.d.Promotions.List(r.Context(), name)
	if err != nil {
		fail(w, r, err)
		return
	}
	out := make([]stageView, 0, len(ps))
	for _, p := range ps {
		v := stageView{Promotion: p}
		if p.Stage == domain.StagePaper {
			if v.Paper, err = s.booksOf(r.Context(), p.Account); err != nil {
				fail(w, r, err)
				return
			}
		}
		out = append(out, v)
	}
	ok(w, map[string]any{"strategy": name, "stages": out, "count": len(out), "settings": s.d.Settings.Platform().Trading.Promotion})
}

// promoteToPaper starts a paper stage of {version}.
func (s *Server) promoteToPaper(w http.ResponseWriter, r *http.Request) {
	if s.promotionsOff(w, r) {
		return
	}
	var in struct {
		Version int `json:"version"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if in.Version < 1 {
		fail(w, r, fieldErr("version", "Version must be a positive whole number"))
		return
	}
	name := r.PathValue("name")
	p, err := s.d.Promotions.ToPaper(r.Context(), name, in.Version, userFrom(r.Context()).Email)
	if err != nil {
		failPromotion(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("promoted version %d of strategy %s to paper (account %s, %s USD)", p.Version, name, p.Account, p.StartingUSD))
	writeJSON(w, http.StatusCreated, envelope{Success: true, Data: p})
}

// approvePromotion takes a running paper stage live (an operator's approval).
func (s *Server) approvePromotion(w http.ResponseWriter, r *http.Request) {
	if s.promotionsOff(w, r) {
		return
	}
	name := r.PathValue("name")
	p, err := s.d.Promotions.ToLive(r.Context(), name, r.PathValue("id"), userFrom(r.Context()).Email)
	if err != nil {
		failPromotion(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("approved version %d of strategy %s for live (from paper stage %s)", p.Version, name, p.FromStage))
	writeJSON(w, http.StatusCreated, envelope{Success: true, Data: p})
}

// demotePromotion ends a running stage; a live one only by an operator.
func (s *Server) demotePromotion(w http.ResponseWriter, r *http.Request) {
	if s.promotionsOff(w, r) {
		return
	}
	var in struct {
		Reason string `json:"reason"`
	}
	if r.ContentLength != 0 {
		if err := decode(r, &in); err != nil {
			fail(w, r, err)
			return
		}
	}
	if len(in.Reason) > 500 {
		fail(w, r, fieldErr("reason", "Reason must be at most 500 characters"))
		return
	}
	name, id := r.PathValue("name"), r.PathValue("id")
	if _, err := s.d.Promotions.Get(r.Context(), name, id); err != nil {
		fail(w, r, err)
		return
	}
	p, err := s.d.Promotions.Demote(r.Context(), name, id, userFrom(r.Context()).Email, in.Reason)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("demoted the %s stage of version %d of strategy %s", p.Stage, p.Version, name))
	ok(w, p)
}

// promotionDrift reports a paper stage against a backtest of the same
// version over the same window, decision by decision.
func (s *Server) promotionDrift(w http.ResponseWriter, r *http.Request) {
	if s.promotionsOff(w, r) {
		return
	}
	rep, err := s.d.Promotions.Drift(r.Context(), r.PathValue("name"), r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, rep)
}

// closePromotionPositions sells what an ended paper stage holds, at market.
func (s *Server) closePromotionPositions(w http.ResponseWriter, r *http.Request) {
	if s.promotionsOff(w, r) {
		return
	}
	name := r.PathValue("name")
	os, p, err := s.d.Promotions.ClosePositions(r.Context(), name, r.PathValue("id"))
	if err != nil && len(os) == 0 {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("closed the positions of the paper stage of version %d of strategy %s (%d order(s))", p.Version, name, len(os)))
	resp := map[string]any{"orders": os, "count": len(os)}
	if err != nil {
		resp["warning"] = domain.ErrorMessage(err)
	}
	ok(w, resp)
}
