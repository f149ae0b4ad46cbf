package httpapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"kestrel/analytics/views"
	"kestrel/domain"
)

// analyticsRoutes serves the trading, portfolio and risk analytics views
// (definitions in docs/ANALYTICS.md).
func (s *Server) analyticsRoutes() {
	if s.d.Trading == nil || s.d.Market == nil || s.d.Portfolio == nil {
		return
	}
	s.api("GET /api/analytics/trading", signedIn.withToken(tokenRead), s.analyticsTrading)
	s.api("GET /api/analytics/portfolio", signedIn.withToken(tokenRead), s.analyticsPortfolio)
	s.api("GET /api/analytics/risk", signedIn.withToken(tokenRead), s.analyticsRisk)
}

// analyticsMarketAIRoutes registers the Market and AI tabs of the analytics views.
func (s *Server) analyticsMarketAIRoutes() {
	if s.d.Market != nil {
		s.api("GET /api/analytics/market", signedIn.withToken(tokenRead), s.analyticsMarket)
	}
	if s.d.Strategies != nil && s.d.Trading != nil && s.d.Market != nil {
		s.api("GET /api/analytics/ai", signedIn.withToken(tokenRead), s.analyticsAI)
	}
}

// views are the analytics views over this server's account and market,
// for r (the AI view reads r's strategies' decisions).
func (s *Server) views(r *http.Request) *views.Views {
	vw := &views.Views{Prices: s.d.Market, Record: s.d.Portfolio, ReplayOf: s.d.ReplayOf, Clock: s.d.Clock,
		AIEvaluations: func(ctx context.Context, since time.Time) ([]domain.Evaluation, error) {
			return s.aiEvaluations(r.WithContext(ctx), domain.EvaluationFilter{Since: since, Limit: 100000}, "")
		}}
	if s.d.Trading != nil {
		vw.Account = s.d.Trading
	}
	if s.d.History != nil {
		vw.History = s.d.History
	}
	if s.d.Strategies != nil {
		vw.Strategies = func() []views.Strategy {
			var out []views.Strategy
			for _, c := range s.d.Strategies.List() {
				out = append(out, views.Strategy{Name: c.Name, Type: c.Type, Enabled: c.Enabled})
			}
			return out
		}
	}
	return vw
}

// analyticsQuery is a view's period (?period=) and symbol (?symbol=).
func (s *Server) analyticsQuery(r *http.Request) (views.Query, error) {
	return views.ParseQuery(r.URL.Query().Get("period"), strings.ToUpper(r.URL.Query().Get("symbol")), s.d.Clock.Now(), s.d.Market.Symbols())
}

func (s *Server) analyticsTrading(w http.ResponseWriter, r *http.Request) {
	q, err := s.analyticsQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	v, err := s.views(r).Trading(r.Context(), q)
	answer(w, r, v, err)
}

func (s *Server) analyticsPortfolio(w http.ResponseWriter, r *http.Request) {
	q, err := s.analyticsQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	v, err := s.views(r).Portfolio(r.Context(), q)
	answer(w, r, v, err)
}

func (s *Server) analyticsRisk(w http.ResponseWriter, r *http.Request) {
	q, err := s.analyticsQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	v, err := s.views(r).Risk(r.Context(), q)
	answer(w, r, v, err)
}

// analyticsMarket is the Market tab (?period=, ?symbol=).
func (s *Server) analyticsMarket(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v, err := s.views(r).Market(r.Context(), strings.TrimSpace(q.Get("period")), strings.ToUpper(strings.TrimSpace(q.Get("symbol"))))
	answer(w, r, v, err)
}

// analyticsAI is the AI tab (?period=).
func (s *Server) analyticsAI(w http.ResponseWriter, r *http.Request) {
	v, err := s.views(r).AI(r.Context(), strings.TrimSpace(r.URL.Query().Get("period")))
	answer(w, r, v, err)
}
