package app_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

type marketTab struct {
	Period  string
	Symbol  string
	Metrics struct {
		MarketCap       decimal.Decimal  `json:"marketCap"`
		Volume24h       decimal.Decimal  `json:"volume24h"`
		Dominance       *decimal.Decimal `json:"dominance"`
		DominanceScope  string           `json:"dominanceScope"`
		VolatilityIndex *float64         `json:"volatilityIndex"`
		FearGreedIndex  *float64         `json:"fearGreedIndex"`
		FearGreedLabel  *string          `json:"fearGreedLabel"`
		MarketIndex     *struct{ Name string }
		TrendStrength   *float64 `json:"trendStrength"`
	}
	Trends []struct {
		Symbol           string
		Price            decimal.Decimal
		ChangePercent24h decimal.Decimal `json:"changePercent24h"`
		Volume           decimal.Decimal
		VolumeUSD        decimal.Decimal `json:"volumeUsd"`
		MarketCap        *decimal.Decimal
		Trend            *string
	}
	Volatility []struct {
		Symbol            string
		Volatility        *float64
		AverageVolatility *float64
		RiskLevel         *string
	}
	Correlations []struct {
		Symbol1, Symbol2 string
		Correlation      *float64
		Days             int
	}
	PriceHistory   map[string][]struct{ Date string }
	VolumeAnalysis []struct {
		Date      string
		Volume    decimal.Decimal
		AvgVolume decimal.Decimal `json:"avgVolume"`
	}
	Supply struct {
		AsOf       string                     `json:"asOf"`
		Source     string                     `json:"source"`
		Supply     map[string]decimal.Decimal `json:"supply"`
		Unverified []string                   `json:"unverified"`
	}
	Unavailable map[string]string
}

// within reports whether a and b differ by at most frac of b (prices move
// between two requests).
func within(a, b decimal.Decimal, frac float64) bool {
	if b.IsZero() {
		return a.IsZero()
	}
	return math.Abs(a.Sub(b).Div(b).InexactFloat64()) <= frac
}

func TestAnalyticsMarketTab(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	if r := s.do("GET", "/api/analytics/market", "", ""); r.Status != 401 {
		t.Fatalf("signed out: %+v", r)
	}
	r := s.do("GET", "/api/analytics/market", tok, "")
	if !r.Success {
		t.Fatalf("market: %+v", r)
	}
	if strings.Contains(string(r.Data), "NaN") {
		t.Fatalf("NaN in %s", r.Data)
	}
	var m marketTab
	s.into(r, &m)
	if m.Period != "7d" || m.Symbol != "BTC-USD" || len(m.Trends) != 4 || len(m.Volatility) != 4 || len(m.Correlations) != 6 {
		t.Fatalf("shape %+v", m)
	}
	if m.Supply.AsOf == "" || m.Supply.Source == "" || len(m.Supply.Supply) != 4 || m.Unavailable["sectorAnalysis"] == "" ||
		strings.Join(m.Supply.Unverified, ",") != "ETH-USD,ADA-USD,SOL-USD" {
		t.Fatalf("supply table %+v, unavailable %v", m.Supply, m.Unavailable)
	}
	total := decimal.Zero
	for _, row := range m.Trends {
		var tk struct {
			Price     decimal.Decimal `json:"price"`
			Volume24h decimal.Decimal `json:"volume_24h"`
		}
		s.into(s.do("GET", "/api/market-data/ticker/"+row.Symbol, tok, ""), &tk)
		if !within(row.Price, tk.Price, 0.01) || !within(row.Volume, tk.Volume24h, 0.01) {
			t.Errorf("%s: price %s volume %s, ticker %s %s", row.Symbol, row.Price, row.Volume, tk.Price, tk.Volume24h)
		}
		if row.MarketCap == nil || !row.MarketCap.Equal(row.Price.Mul(m.Supply.Supply[row.Symbol]).Round(2)) {
			t.Errorf("%s: market cap %v is not price x supply", row.Symbol, row.MarketCap)
		}
		if !row.VolumeUSD.Equal(row.Volume.Mul(row.Price).Round(2)) {
			t.Errorf("%s: volumeUsd %s", row.Symbol, row.VolumeUSD)
		}
		if row.Trend == nil || !strings.Contains("bullish bearish neutral", *row.Trend) {
			t.Errorf("%s: trend %v", row.Symbol, row.Trend)
		}
		total = total.Add(*row.MarketCap)
		// 7 days back to today: 8 daily closes.
		if h := m.PriceHistory[row.Symbol]; len(h) != 8 {
			t.Errorf("%s: %d daily closes", row.Symbol, len(h))
		}
	}
	if !m.Metrics.MarketCap.Equal(total) || m.Metrics.Dominance == nil ||
		!m.Metrics.Dominance.Equal(m.Trends[0].MarketCap.Div(total).Mul(decimal.NewFromInt(100)).Round(2)) || m.Metrics.DominanceScope == "" {
		t.Errorf("metrics %+v", m.Metrics)
	}
	if fg := m.Metrics.FearGreedIndex; fg == nil || *fg < 0 || *fg > 100 || m.Metrics.MarketIndex == nil || m.Metrics.MarketIndex.Name != "Kestrel market index" {
		t.Errorf("index %+v", m.Metrics)
	}
	if m.Metrics.VolatilityIndex == nil || m.Metrics.TrendStrength == nil {
		t.Errorf("metrics %+v", m.Metrics)
	}
	sum := 0.0
	for _, v := range m.Volatility {
		if v.Volatility == nil || *v.Volatility <= 0 || v.AverageVolatility == nil || v.RiskLevel == nil {
			t.Errorf("volatility %+v", v)
			continue
		}
		sum += *v.Volatility
	}
	if math.Abs(sum/4-*m.Metrics.VolatilityIndex) > 0.0001 {
		t.Errorf("volatility index %v, mean %v", *m.Metrics.VolatilityIndex, sum/4)
	}
	for _, c := range m.Correlations {
		if c.Correlation == nil || *c.Correlation < -1 || *c.Correlation > 1 || c.Days != 7 {
			t.Errorf("correlation %+v", c)
		}
	}
	if len(m.VolumeAnalysis) != 8 || !m.VolumeAnalysis[0].AvgVolume.IsPositive() {
		t.Errorf("volume analysis %+v", m.VolumeAnalysis)
	}

	// One day: two daily closes, one return: no volatility, no correlation (null, not 0).
	r = s.do("GET", "/api/analytics/market?period=1d&symbol=sol-usd", tok, "")
	var d marketTab
	s.into(r, &d)
	if d.Symbol != "SOL-USD" || d.Volatility[0].Volatility != nil || d.Volatility[0].RiskLevel != nil || d.Correlations[0].Correlation != nil ||
		d.Metrics.VolatilityIndex != nil || d.Metrics.FearGreedIndex == nil || len(d.VolumeAnalysis) != 2 {
		t.Fatalf("1d %s", r.Data)
	}
	var raw map[string]json.RawMessage
	s.into(r, &raw)
	if !strings.Contains(string(raw["volatility"]), `"volatility":null`) {
		t.Errorf("1d volatility %s", raw["volatility"])
	}

	if r := s.do("GET", "/api/analytics/market?period=2w", tok, ""); r.Status != 400 || r.Error.Fields["period"] == "" {
		t.Errorf("bad period: %+v", r)
	}
	if r := s.do("GET", "/api/analytics/market?symbol=DOGE-USD", tok, ""); r.Status != 400 || r.Error.Fields["symbol"] == "" {
		t.Errorf("bad symbol: %+v", r)
	}
	if r := s.do("GET", "/api/analytics/market?period=all", tok, ""); !r.Success {
		t.Errorf("all: %+v", r)
	}
}

type aiTab struct {
	Metrics struct {
		TotalDecisions      int              `json:"totalDecisions"`
		ExecutedDecisions   int              `json:"executedDecisions"`
		AccuracyRate        *float64         `json:"accuracyRate"`
		AverageConfidence   *float64         `json:"averageConfidence"`
		TotalPnL            *decimal.Decimal `json:"totalPnL"`
		WinRate             *float64         `json:"winRate"`
		AverageResponseTime *float64         `json:"averageResponseTime"`
		ModelVersion        *string          `json:"modelVersion"`
	}
	Decisions []struct {
		ID             string
		Symbol         string
		Recommendation string
		Confidence     float64
		Reasoning      string
		Executed       bool
		Outcome        string
		PnL            *decimal.Decimal
	}
	Strategies []struct {
		StrategyName      string   `json:"strategyName"`
		TotalTrades       int      `json:"totalTrades"`
		WinRate           *float64 `json:"winRate"`
		TotalPnL          *decimal.Decimal
		AverageConfidence *float64 `json:"averageConfidence"`
	}
	ConfidenceDistribution []struct {
		Range string
		Count int
	}
	DecisionBreakdown []struct {
		Type        string
		Count       int
		SuccessRate *float64
	}
	Performance []struct {
		Date      string
		Decisions int
		Executed  int
		PnL       *decimal.Decimal
	}
}

func TestAnalyticsAITab(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()

	var empty aiTab
	s.into(s.do("GET", "/api/analytics/ai", tok, ""), &empty)
	m := empty.Metrics
	if m.TotalDecisions != 0 || m.AccuracyRate != nil || m.AverageConfidence != nil || m.TotalPnL != nil || m.WinRate != nil ||
		m.AverageResponseTime != nil || m.ModelVersion != nil || len(empty.Decisions) != 0 || len(empty.Performance) != 0 {
		t.Fatalf("no decisions %+v", empty)
	}
	if len(empty.Strategies) == 0 || len(empty.ConfidenceDistribution) != 6 || len(empty.DecisionBreakdown) != 3 {
		t.Fatalf("tables %+v", empty)
	}
	for _, st := range empty.Strategies {
		if st.TotalTrades != 0 || st.WinRate != nil || st.TotalPnL != nil || st.AverageConfidence != nil {
			t.Errorf("strategy without trades %+v", st)
		}
	}

	for range 3 {
		if r := s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, ""); r.Status != 200 {
			t.Fatalf("analyze: %+v", r)
		}
	}
	var recorded struct {
		Decisions []struct {
			ID         string  `json:"id"`
			Decision   string  `json:"decision"`
			Confidence float64 `json:"confidence"`
			Model      string  `json:"model"`
			LatencyMS  int64   `json:"latency_ms"`
		}
	}
	s.into(s.do("GET", "/api/strategy/ai-decisions?limit=10", tok, ""), &recorded)
	if len(recorded.Decisions) != 3 {
		t.Fatalf("recorded %+v", recorded)
	}
	conf, latency, withLatency := 0.0, 0.0, 0
	types := map[string]int{}
	for _, d := range recorded.Decisions {
		conf += d.Confidence
		types[d.Decision]++
		if d.LatencyMS > 0 {
			latency += float64(d.LatencyMS)
			withLatency++
		}
	}

	var got aiTab
	r := s.do("GET", "/api/analytics/ai?period=1d", tok, "")
	s.into(r, &got)
	m = got.Metrics
	if m.TotalDecisions != 3 || m.ExecutedDecisions != 0 || m.AverageConfidence == nil || math.Abs(*m.AverageConfidence-conf/3) > 0.0001 ||
		m.ModelVersion == nil || *m.ModelVersion != recorded.Decisions[0].Model || m.AccuracyRate != nil || m.TotalPnL != nil || m.WinRate != nil {
		t.Fatalf("metrics %s", r.Data)
	}
	if (withLatency == 0) != (m.AverageResponseTime == nil) ||
		(withLatency > 0 && math.Abs(*m.AverageResponseTime-latency/float64(withLatency)/1000) > 0.001) {
		t.Errorf("response time %v from %d latencies", m.AverageResponseTime, withLatency)
	}
	if len(got.Decisions) != 3 || got.Decisions[0].ID != recorded.Decisions[0].ID || got.Decisions[0].Outcome != "pending" ||
		got.Decisions[0].PnL != nil || got.Decisions[0].Reasoning == "" || got.Decisions[0].Symbol != "BTC-USD" {
		t.Fatalf("decisions %+v", got.Decisions)
	}
	buckets := 0
	for _, b := range got.ConfidenceDistribution {
		buckets += b.Count
	}
	if buckets != 3 {
		t.Errorf("buckets %+v", got.ConfidenceDistribution)
	}
	for _, b := range got.DecisionBreakdown {
		if b.Count != types[b.Type] || b.SuccessRate != nil {
			t.Errorf("breakdown %+v, recorded %v", b, types)
		}
	}
	if len(got.Performance) != 1 || got.Performance[0].Decisions != 3 || got.Performance[0].PnL != nil {
		t.Errorf("performance %+v", got.Performance)
	}
	for _, st := range got.Strategies {
		if st.StrategyName == "ai_strategy" && (st.AverageConfidence == nil || math.Abs(*st.AverageConfidence-conf/3) > 0.0001) {
			t.Errorf("ai_strategy row %+v", st)
		}
	}
	if r := s.do("GET", "/api/analytics/ai?period=forever", tok, ""); r.Status != 400 {
		t.Errorf("bad period: %+v", r)
	}
}

// In the sandbox the Market tab's daily statistics read the candle store by
// real dates, up to the moment being replayed, and say so: the replay's
// own candles of a year hold the loop point, where the history returns
// from its last stored day to its first (BTC "fell" 20% in a step).
func TestAnalyticsMarketReadsTheStoreByRealDates(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	var m struct {
		PriceHistory map[string][]struct {
			Date  string
			Close decimal.Decimal
		} `json:"priceHistory"`
		Dates struct {
			Source   string
			From, To *time.Time
			Note     string
		}
	}
	s.into(s.do("GET", "/api/analytics/market?period=90d", tok, ""), &m)
	replay := s.app.Market.Replaying().UTC()
	if m.Dates.Source != "candle store" || m.Dates.From == nil || m.Dates.To == nil || m.Dates.To.After(replay.Add(time.Minute)) ||
		!strings.Contains(m.Dates.Note, replay.Format(time.DateOnly)) {
		t.Fatalf("dates %+v, replaying %s", m.Dates, replay)
	}
	h := m.PriceHistory["BTC-USD"]
	if len(h) < 80 {
		t.Fatalf("%d daily closes in 90 days", len(h))
	}
	// Every whole day is the stored day of that real date; the last is the replayed day so far.
	if last := h[len(h)-1].Date; last != replay.Format(time.DateOnly) {
		t.Fatalf("the last day is %s, want the replayed day %s", last, replay.Format(time.DateOnly))
	}
	var hist struct {
		Candles []struct {
			Timestamp time.Time
			Close     decimal.Decimal
		}
	}
	s.into(s.do("GET", "/api/market-data/historical/BTC-USD?granularity=ONE_DAY&start_date="+h[0].Date+"&end_date="+h[len(h)-1].Date, tok, ""), &hist)
	if len(hist.Candles) != len(h)-1 {
		t.Fatalf("%d stored days for %d whole days of the tab", len(hist.Candles), len(h)-1)
	}
	for i, c := range hist.Candles {
		if got := h[i]; got.Date != c.Timestamp.Format(time.DateOnly) || !got.Close.Equal(c.Close) {
			t.Fatalf("day %d: tab %s %s, store %s %s", i, got.Date, got.Close, c.Timestamp.Format(time.DateOnly), c.Close)
		}
	}
}
