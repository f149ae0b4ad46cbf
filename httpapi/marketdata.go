package httpapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"kestrel/domain"
)

func (s *Server) marketRoutes() {
	s.api("GET /api/market-data/ticker/{symbol}", signedIn.withToken(tokenRead), s.ticker)
	s.api("GET /api/market-data/stats/{symbol}", signedIn.withToken(tokenRead), s.stats)
	s.api("GET /api/market-data/candles/{symbol}", signedIn.withToken(tokenRead), s.candles)
	s.api("GET /api/market-data/products", signedIn.withToken(tokenRead), s.products)
	s.api("GET /api/market-data/realtime/{symbol}", signedIn.withToken(tokenRead), s.realtime)
	s.api("GET /api/market-data/indicators/{symbol}", signedIn.withToken(tokenRead), s.indicators)
	s.api("GET /api/market-data/websocket/status", signedIn.withToken(tokenRead), s.websocketStatus)
	// The feed switch is shared by every client, so only operators turn it.
	s.api("POST /api/market-data/websocket/subscribe", operatorOnly, s.feedSubscribe)
	s.api("POST /api/market-data/websocket/unsubscribe", operatorOnly, s.feedUnsubscribe)
}

// symbolParam returns the path's symbol, upper-cased, or a not_found error.
func (s *Server) symbolParam(r *http.Request) (string, error) {
	sym := strings.ToUpper(strings.TrimSpace(r.PathValue("symbol")))
	if !slices.Contains(s.d.Market.Symbols(), sym) {
		return "", domain.Errorf(domain.ENotFound, "Unknown symbol: %s", r.PathValue("symbol"))
	}
	return sym, nil
}

func (s *Server) ticker(w http.ResponseWriter, r *http.Request) {
	sym, err := s.symbolParam(r)
	if err == nil {
		var t domain.Ticker
		if t, err = s.d.Market.Ticker(sym); err == nil {
			ok(w, t)
			return
		}
	}
	fail(w, r, err)
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	sym, err := s.symbolParam(r)
	if err == nil {
		var st domain.Stats24h
		if st, err = s.d.Market.Stats(sym); err == nil {
			ok(w, st)
			return
		}
	}
	fail(w, r, err)
}

func (s *Server) realtime(w http.ResponseWriter, r *http.Request) {
	sym, err := s.symbolParam(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	t, err := s.d.Market.Ticker(sym)
	if err != nil {
		fail(w, r, err)
		return
	}
	st, err := s.d.Market.Stats(sym)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"symbol": sym, "ticker": t, "stats": st, "source": s.d.marketSource(), "replay_of": s.d.replayOf()})
}

type candlesResponse struct {
	Symbol      string             `json:"symbol"`
	Granularity domain.Granularity `json:"granularity"`
	Candles     []domain.Candle    `json:"candles"`
}

func (s *Server) candles(w http.ResponseWriter, r *http.Request) {
	s.serveCandles(w, r, "start", "end", 100, 300)
}

func (s *Server) serveCandles(w http.ResponseWriter, r *http.Request, startKey, endKey string, defLimit, maxLimit int) {
	sym, err := s.symbolParam(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	g, err := granularityQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	limit, err := intQuery(r, "limit", defLimit, 1, maxLimit)
	if err != nil {
		fail(w, r, err)
		return
	}
	start, err := timeQuery(r, startKey)
	if err != nil {
		fail(w, r, err)
		return
	}
	end, err := timeQuery(r, endKey)
	if err != nil {
		fail(w, r, err)
		return
	}
	if !start.IsZero() && !end.IsZero() && !start.Before(end) {
		fail(w, r, fieldErr(startKey, startKey+" must be before "+endKey))
		return
	}
	cs, err := s.d.Market.Candles(r.Context(), sym, g, start, end, limit)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, candlesResponse{Symbol: sym, Granularity: g, Candles: cs})
}

// timeQuery parses RFC 3339, a plain date (YYYY-MM-DD) or Unix seconds; absent is zero.
func timeQuery(r *http.Request, key string) (time.Time, error) {
	raw := strings.TrimSpace(r.URL.Query().Get(key))
	if raw == "" {
		return time.Time{}, nil
	}
	if secs, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return time.Unix(secs, 0).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fieldErr(key, key+" must be an RFC 3339 time, a YYYY-MM-DD date or Unix seconds")
}

func fieldErr(field, msg string) error {
	return &domain.Error{Code: domain.EInvalid, Message: msg, Fields: map[string]string{field: msg}}
}

type product struct {
	ProductID      string `json:"product_id"`
	BaseCurrency   string `json:"base_currency"`
	QuoteCurrency  string `json:"quote_currency"`
	Price          string `json:"price"`
	PriceIncrement string `json:"price_increment"`
	QuoteIncrement string `json:"quote_increment"` // Coinbase's name for the same step
	BaseIncrement  string `json:"base_increment"`
	BaseMinSize    string `json:"base_min_size"`
	Status         string `json:"status"`
}

// products reports the exchange's products with their increments and
// minimum sizes, and the current price.
func (s *Server) products(w http.ResponseWriter, r *http.Request) {
	ps, err := s.d.Trading.Products(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	out := []product{}
	for _, p := range ps {
		pr := product{ProductID: p.Symbol, BaseCurrency: p.BaseCurrency, QuoteCurrency: p.QuoteCurrency, PriceIncrement: p.PriceIncrement.String(),
			QuoteIncrement: p.PriceIncrement.String(), BaseIncrement: p.SizeIncrement.String(), BaseMinSize: p.MinSize.String(), Status: "online"}
		if t, err := s.d.Market.Ticker(p.Symbol); err == nil {
			pr.Price = t.Price.String()
		}
		out = append(out, pr)
	}
	ok(w, map[string]any{"products": out})
}

// granularityQuery reads ?granularity=, ONE_HOUR when absent.
func granularityQuery(r *http.Request) (domain.Granularity, error) {
	g := domain.Granularity(strings.ToUpper(r.URL.Query().Get("granularity")))
	if g == "" {
		g = domain.OneHour
	}
	if g.Duration() == 0 {
		return g, fieldErr("granularity", "Unsupported granularity: "+string(g)+" (use ONE_MINUTE, FIVE_MINUTE, FIFTEEN_MINUTE, THIRTY_MINUTE, ONE_HOUR, TWO_HOUR, SIX_HOUR or ONE_DAY)")
	}
	return g, nil
}
