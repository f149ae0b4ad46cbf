package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"kestrel/domain"
)

// historyRoutes serve the candle store by real market dates.
func (s *Server) historyRoutes() {
	s.api("GET /api/market-data/historical/{symbol}", signedIn.withToken(tokenRead), s.historical)
	s.api("GET /api/market-data/coverage", signedIn.withToken(tokenRead), s.coverage)
	s.api("GET /api/market-data/gaps", signedIn.withToken(tokenRead), s.gaps)
}

type historicalResponse struct {
	candlesResponse
	// Source names where the stored candles came from.
	Source string `json:"source"`
	// Synthetic: cut from generated intra-candle paths (ONE_MINUTE,
	// FIVE_MINUTE), not read from the data.
	Synthetic bool `json:"synthetic"`
}

// historical is the spec's historical candles, read from the candle store
// by real dates: at most limit candles opening in [start_date, end_date),
// the newest ones when more exist (no end_date: up to the newest stored
// candle). A period with no data is refused with the symbol's coverage.
func (s *Server) historical(w http.ResponseWriter, r *http.Request) {
	sym, g, limit, start, end, err := s.historyQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	span, err := s.d.History.Span(r.Context(), sym)
	if err != nil {
		fail(w, r, err)
		return
	}
	if end.IsZero() {
		end = span.To
	}
	if start.IsZero() {
		start = end.Add(-time.Duration(limit) * g.Duration())
	}
	if !start.Before(span.To) || !end.After(span.From) {
		fail(w, r, fieldErr("start_date", span.Message()))
		return
	}
	win, err := s.d.History.Candles(r.Context(), sym, g, start, end)
	if err != nil {
		fail(w, r, err)
		return
	}
	cs := win.Candles
	if len(cs) > limit {
		cs = cs[len(cs)-limit:]
	}
	ok(w, historicalResponse{candlesResponse: candlesResponse{Symbol: sym, Granularity: g, Candles: cs}, Source: win.Source, Synthetic: win.Synthetic})
}

func (s *Server) historyQuery(r *http.Request) (sym string, g domain.Granularity, limit int, start, end time.Time, err error) {
	if sym, err = s.symbolParam(r); err != nil {
		return
	}
	if g, err = granularityQuery(r); err != nil {
		return
	}
	if limit, err = intQuery(r, "limit", 1000, 1, 5000); err != nil {
		return
	}
	if start, err = timeQuery(r, "start_date"); err != nil {
		return
	}
	if end, err = timeQuery(r, "end_date"); err != nil {
		return
	}
	if !start.IsZero() && !end.IsZero() && !start.Before(end) {
		err = fieldErr("start_date", "start_date must be before end_date")
	}
	return
}

// backtestHistory is what history a backtest of a symbol can use: from the
// first stored candle of any width to the last one's close, and the
// sources stored in it.
type backtestHistory struct {
	Symbol  string    `json:"symbol"`
	From    time.Time `json:"from"`
	To      time.Time `json:"to"`
	Sources []string  `json:"sources"`
	// Message is the range in words, as a backtest outside it is refused.
	Message string `json:"message"`
}

// coverage lists what the candle store holds: per symbol, granularity and
// source, the first candle's open, the last one's close, the count and the
// holes; and per symbol the history backtests can use.
func (s *Server) coverage(w http.ResponseWriter, r *http.Request) {
	cov, err := s.d.History.Coverage(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	used := []backtestHistory{}
	for _, c := range cov {
		n := len(used)
		if n == 0 || used[n-1].Symbol != c.Symbol {
			sp, err := s.d.History.Span(r.Context(), c.Symbol)
			if err != nil {
				fail(w, r, err)
				return
			}
			used = append(used, backtestHistory{Symbol: c.Symbol, From: sp.From, To: sp.To, Sources: []string{}, Message: sp.Message()})
			n++
		}
		if !slices.Contains(used[n-1].Sources, c.Source) {
			used[n-1].Sources = append(used[n-1].Sources, c.Source)
		}
	}
	ok(w, map[string]any{"coverage": cov, "backtests": used})
}

// gaps is the gap report of a symbol at a granularity: what a backtest at
// that width reads in [start, end) (default: the symbol's whole history),
// its sources and every run of missing candles.
func (s *Server) gaps(w http.ResponseWriter, r *http.Request) {
	sym := strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("symbol")))
	if !slices.Contains(s.d.Market.Symbols(), sym) {
		fail(w, r, fieldErr("symbol", "Unknown symbol: "+r.URL.Query().Get("symbol")))
		return
	}
	g, err := granularityQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	start, err := timeQuery(r, "start")
	if err != nil {
		fail(w, r, err)
		return
	}
	end, err := timeQuery(r, "end")
	if err != nil {
		fail(w, r, err)
		return
	}
	if !start.IsZero() && !end.IsZero() && !start.Before(end) {
		fail(w, r, fieldErr("start", "start must be before end"))
		return
	}
	rep, err := s.d.History.Gaps(r.Context(), sym, g, start, end)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, rep)
}
