package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kestrel/ai"
	"kestrel/analytics/views"
	"kestrel/domain"
	"kestrel/strategy"
)

func (s *Server) strategyRoutes() {
	s.api("GET /api/strategy/list", signedIn.withToken(tokenRead), s.listStrategies(false))
	s.api("GET /api/strategy/active", signedIn.withToken(tokenRead), s.listStrategies(true))
	s.api("GET /api/strategy/types", signedIn.withToken(tokenRead), s.strategyTypes)
	s.api("POST /api/strategy", operatorOnly, s.createStrategy)
	// Each its own operation (ServeMux alone refuses the first two beside
	// the third: routemux mounts them; ai-analyze/enable is Test AI). A
	// strategy trades on the venue once enabled: for tokens, like an order.
	// Test AI asks the model (it costs, and counts toward the AI budget)
	// and records a decision; it never trades.
	s.api("POST /api/strategy/{name}/enable", operatorOnly.withToken(tokenTrade), s.toggleStrategy(true))
	s.api("POST /api/strategy/{name}/disable", operatorOnly.withToken(tokenTrade), s.toggleStrategy(false))
	s.api("POST /api/strategy/ai-analyze/{symbol}", operatorOnly.withToken(tokenWork), s.aiAnalyze)
	s.api("GET /api/strategy/config/{name}", signedIn.withToken(tokenRead), s.strategyConfig)
	s.api("PUT /api/strategy/config/{name}", operatorOnly, s.putStrategyConfig)
	s.api("GET /api/strategy/signals/{name}", signedIn.withToken(tokenRead), s.strategySignals)
	s.api("GET /api/strategy/prompt/{name}", signedIn.withToken(tokenRead), s.strategyPrompt)
	s.api("POST /api/strategy/prompt/{name}", operatorOnly, s.checkPrompt)
	s.api("GET /api/strategy/prompt-versions/{name}", signedIn.withToken(tokenRead), s.promptVersions)
	s.api("GET /api/strategy/shadows/{name}", signedIn.withToken(tokenRead), s.shadowLeaderboard)
	s.api("GET /api/strategy/ai-decisions", signedIn.withToken(tokenRead), s.aiDecisions)
	s.api("GET /api/strategy/ai-history/{symbol}", signedIn.withToken(tokenRead), s.aiHistory)
	s.api("GET /api/strategy/performance", signedIn.withToken(tokenRead), s.strategyPerformance)
	s.api("GET /api/strategy/performance/{name}", signedIn.withToken(tokenRead), s.strategyPerformance)
	s.api("GET /api/strategy/ai-performance", signedIn.withToken(tokenRead), s.aiPerformance)
	s.api("GET /api/strategy/ai-performance/{name}", signedIn.withToken(tokenRead), s.aiPerformance)
	s.strategyVersionRoutes()
	s.promotionRoutes()
}

// strategySummary is the spec's Strategy with its configuration.
type strategySummary struct {
	Name           string          `json:"name"`
	Type           string          `json:"type"`
	IsActive       bool            `json:"is_active"`
	TotalSignals   int             `json:"total_signals"`
	AvgConfidence  float64         `json:"avg_confidence"`
	LastSignalTime *string         `json:"last_signal_time"`
	Config         strategy.Config `json:"config"`
}

func (s *Server) listStrategies(activeOnly bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		out := []strategySummary{}
		for _, c := range s.d.Strategies.List() {
			if activeOnly && !c.Enabled {
				continue
			}
			evs, err := s.d.Store.Evaluations(r.Context(), domain.EvaluationFilter{Strategy: c.Name, Limit: 10000})
			if err != nil {
				fail(w, r, err)
				return
			}
			sum := strategySummary{Name: c.Name, Type: c.Type, IsActive: c.Enabled, TotalSignals: len(evs), Config: c}
			sum.AvgConfidence, sum.LastSignalTime = views.Signals(evs)
			out = append(out, sum)
		}
		ok(w, map[string]any{"strategies": out, "count": len(out)})
	}
}

func (s *Server) strategyTypes(w http.ResponseWriter, r *http.Request) {
	ok(w, map[string]any{"types": []map[string]string{
		{"type": domain.StrategyTechnical, "description": "Rules on RSI, SMA and MACD crosses and Bollinger band touches; confidence from how many agree"},
		{"type": domain.StrategyAI, "description": "A model (the built-in analyst, Replicate or an OpenAI-compatible server) decides from candles, indicators and the position"},
		{"type": domain.StrategyHybrid, "description": "Acts only when the technical rules and the AI agree; confidence is the lower of the two"},
	}})
}

func (s *Server) createStrategy(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name   string          `json:"name"`
		Type   string          `json:"type"`
		Config json.RawMessage `json:"config"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	c, err := s.d.Strategies.CreateAs(r.Context(), strings.TrimSpace(in.Name), strings.TrimSpace(in.Type), in.Config, userFrom(r.Context()).Email)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "created strategy "+c.Name+" ("+c.Type+")")
	writeJSON(w, http.StatusCreated, envelope{Success: true, Data: map[string]any{"strategy": c}})
}

func (s *Server) toggleStrategy(on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := s.d.Strategies.SetEnabled(r.Context(), r.PathValue("name"), on)
		if err != nil {
			fail(w, r, err)
			return
		}
		noteAudit(r.Context(), "", "", map[bool]string{true: "enabled", false: "disabled"}[on]+" strategy "+c.Name)
		ok(w, map[string]any{"name": c.Name, "enabled": c.Enabled, "strategy": c})
	}
}

func (s *Server) strategyConfig(w http.ResponseWriter, r *http.Request) {
	c, err := s.d.Strategies.Get(r.PathValue("name"))
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, s.withModelLabel(c))
}

// configView is a configuration with, for AI instances, the model that
// really answers (the provider's label for the configured option).
type configView struct {
	strategy.Config
	ModelLabel string `json:"model_label,omitempty"`
	Provider   string `json:"provider,omitempty"`
}

func (s *Server) withModelLabel(c strategy.Config) configView {
	v := configView{Config: c}
	if c.AIParams == nil || s.d.Settings == nil {
		return v
	}
	a := s.d.Settings.Platform().API.AI
	if p, err := ai.New(ai.Config{Provider: a.Provider, BaseURL: a.BaseURL, Model: a.Model}); err == nil {
		v.Provider, v.ModelLabel = p.Name(), p.ModelLabel(c.Model)
	}
	return v
}

func (s *Server) putStrategyConfig(w http.ResponseWriter, r *http.Request) {
	cur, err := s.d.Strategies.Get(r.PathValue("name"))
	if err != nil {
		fail(w, r, err)
		return
	}
	// Omitted keys keep their values. What GET adds beside the
	// configuration (configView) is accepted and ignored, so a client can
	// read, change and write back.
	in := struct {
		*strategy.Config
		ModelLabel json.RawMessage `json:"model_label"`
		Provider   json.RawMessage `json:"provider"`
	}{Config: &cur}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	// Saving is a new version, derived from the running one.
	c, err := s.d.Strategies.ConfigureAs(r.Context(), r.PathValue("name"), cur, strategy.Meta{By: userFrom(r.Context()).Email})
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("configured strategy %s (version %d)", c.Name, c.Version))
	ok(w, c)
}

// evalQuery reads symbol, executed and limit for evaluation listings.
func evalQuery(r *http.Request) (domain.EvaluationFilter, error) {
	f := domain.EvaluationFilter{Symbol: strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("symbol")))}
	limit, err := intQuery(r, "limit", 100, 1, 1000)
	if err != nil {
		return f, err
	}
	f.Limit = limit
	if raw := r.URL.Query().Get("executed"); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return f, fieldErr("executed", "executed must be true or false")
		}
		f.Executed = &b
	}
	return f, nil
}

func (s *Server) strategySignals(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if _, err := s.d.Strategies.Get(name); err != nil {
		fail(w, r, err)
		return
	}
	f, err := evalQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	f.Strategy = name
	evs, err := s.d.Store.Evaluations(r.Context(), f)
	if err != nil {
		fail(w, r, err)
		return
	}
	out, err := s.views(r).WithOutcomes(r.Context(), evs)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"signals": out, "count": len(out)})
}

// aiNames lists the instances that ask a model (AI-driven and hybrid).
func (s *Server) aiNames() []string {
	var out []string
	for _, c := range s.d.Strategies.List() {
		if c.Type == domain.StrategyAI || c.Type == domain.StrategyHybrid {
			out = append(out, c.Name)
		}
	}
	return out
}

// aiEvaluations lists AI decisions (of one strategy, or of every AI one).
func (s *Server) aiEvaluations(r *http.Request, f domain.EvaluationFilter, name string) ([]domain.Evaluation, error) {
	names := s.aiNames()
	if name != "" {
		if _, err := s.d.Strategies.Get(name); err != nil {
			return nil, err
		}
		names = []string{name}
	}
	out := []domain.Evaluation{}
	for _, n := range names {
		f.Strategy = n
		evs, err := s.d.Store.Evaluations(r.Context(), f)
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
	}
	sortNewest(out)
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

func (s *Server) aiDecisions(w http.ResponseWriter, r *http.Request) {
	s.listDecisions(w, r, "", strings.TrimSpace(r.URL.Query().Get("strategy_name")))
}

func (s *Server) aiHistory(w http.ResponseWriter, r *http.Request) {
	s.listDecisions(w, r, strings.ToUpper(r.PathValue("symbol")), "")
}

// listDecisions writes the AI decisions the query asks for (symbol, when
// given, wins over the query's), with their outcomes.
func (s *Server) listDecisions(w http.ResponseWriter, r *http.Request, symbol, strategyName string) {
	f, err := evalQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	if symbol != "" {
		f.Symbol = symbol
	}
	evs, err := s.aiEvaluations(r, f, strategyName)
	if err != nil {
		fail(w, r, err)
		return
	}
	out, err := s.views(r).WithOutcomes(r.Context(), evs)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"decisions": out, "count": len(out)})
}

func (s *Server) strategyPerformance(w http.ResponseWriter, r *http.Request) {
	names := []string{}
	if n := r.PathValue("name"); n != "" {
		if _, err := s.d.Strategies.Get(n); err != nil {
			fail(w, r, err)
			return
		}
		names = append(names, n)
	} else {
		for _, c := range s.d.Strategies.List() {
			names = append(names, c.Name)
		}
	}
	out, err := s.views(r).StrategyPerformance(r.Context(), names)
	if err != nil {
		fail(w, r, err)
		return
	}
	if r.PathValue("name") != "" {
		ok(w, map[string]any{"performance": out[0]})
		return
	}
	ok(w, map[string]any{"performance": out})
}

// aiPerformance is the spec's AI performance over recorded decisions.
func (s *Server) aiPerformance(w http.ResponseWriter, r *http.Request) {
	evs, err := s.aiEvaluations(r, domain.EvaluationFilter{Limit: 100000}, r.PathValue("name"))
	if err != nil {
		fail(w, r, err)
		return
	}
	p := views.AIPerformanceOf(evs)
	ok(w, map[string]any{"performance": p})
}

// aiAnalyze is the Test AI action: the AI strategy (or ?strategy=) decides
// on symbol now; the decision is recorded, not executed. A provider failure
// or a malformed answer is recorded too and answers 502 with the reason; a
// provider whose monthly budget is spent is not asked (409, recorded as
// "paused: budget").
func (s *Server) aiAnalyze(w http.ResponseWriter, r *http.Request) {
	symbol := r.PathValue("symbol")
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	if !slices.Contains(s.d.Market.Symbols(), sym) {
		fail(w, r, domain.Errorf(domain.ENotFound, "Unknown symbol: %s", symbol))
		return
	}
	name := r.URL.Query().Get("strategy")
	if name == "" {
		name = strategy.AIName
	}
	ev, err := s.d.Strategies.Analyze(r.Context(), name, sym)
	if err != nil && ev.ID != "" && domain.ErrorCode(err) == domain.EConflict {
		// The provider's monthly budget is spent: recorded, no call made.
		failWith(w, r, &domain.Error{Code: domain.EConflict, Message: ev.Error}, ev)
		return
	}
	if err != nil && ev.ID != "" {
		failWith(w, r, badGateway{&domain.Error{Code: domain.EUnavailable, Message: "AI analysis failed: " + ev.Error}}, ev)
		return
	}
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, ev)
}

func sortNewest(evs []domain.Evaluation) {
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Time.After(evs[j].Time) })
}

// strategyPrompt previews the messages an AI instance would send for
// ?symbol= (default its first symbol) now, with its saved template.
func (s *Server) strategyPrompt(w http.ResponseWriter, r *http.Request) {
	c, sym, err := s.promptTarget(r, r.URL.Query().Get("symbol"))
	if err != nil {
		fail(w, r, err)
		return
	}
	m, err := s.d.Strategies.Prompt(r.Context(), c.Name, sym, nil)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, promptView(c.Name, sym, m))
}

// promptTarget is the instance of {name} and the symbol asked (default its
// first), which must be tradable.
func (s *Server) promptTarget(r *http.Request, symbol string) (strategy.Config, string, error) {
	c, err := s.d.Strategies.Get(r.PathValue("name"))
	if err != nil {
		return c, "", err
	}
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	if sym == "" && len(c.Symbols) > 0 {
		sym = c.Symbols[0]
	}
	if !slices.Contains(s.d.Market.Symbols(), sym) {
		return c, "", fieldErr("symbol", "Unknown symbol: "+sym)
	}
	return c, sym, nil
}

func promptView(name, symbol string, m ai.Rendered) map[string]any {
	return map[string]any{"strategy": name, "symbol": symbol, "template_version": m.Version, "system": m.System, "prompt": m.Prompt, "prompt_hash": m.Hash}
}
