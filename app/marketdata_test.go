package app_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
)

type coverageRow struct {
	Symbol      string    `json:"symbol"`
	Granularity string    `json:"granularity"`
	From        time.Time `json:"from"`
	To          time.Time `json:"to"`
	Candles     int       `json:"candles"`
	Gaps        []struct {
		From time.Time `json:"from"`
		To   time.Time `json:"to"`
	} `json:"gaps"`
}

type dataReport struct {
	Request struct {
		StartDate string `json:"start_date"`
		EndDate   string `json:"end_date"`
	} `json:"request"`
	Assumptions struct {
		CandlesHash string          `json:"candles_hash"`
		HalfSpread  decimal.Decimal `json:"half_spread"`
		Data        struct {
			Source    string    `json:"source"`
			From      time.Time `json:"from"`
			To        time.Time `json:"to"`
			Candles   int       `json:"candles"`
			Hash      string    `json:"hash"`
			Synthetic bool      `json:"synthetic"`
		} `json:"data"`
	} `json:"assumptions"`
	StartDate   time.Time `json:"start_date"`
	EndDate     time.Time `json:"end_date"`
	EquityCurve []struct {
		Time time.Time `json:"time"`
	} `json:"equity_curve"`
	Fills []struct {
		Time  time.Time       `json:"time"`
		Price decimal.Decimal `json:"price"`
	} `json:"fills"`
}

// realHourly are the shipped BTC candles opening in [from, to), merged to
// hours: what a run on those real dates must have read.
func realHourly(t *testing.T, from, to time.Time) []candles.Bar {
	t.Helper()
	s, err := candles.Load("BTC-USD")
	if err != nil {
		t.Fatal(err)
	}
	return candles.Aggregate(s.Bars(from, to), time.Hour)
}

// hashOf hashes candles as a report's candles_hash does.
func hashOf(bars []candles.Bar) string {
	h := sha256.New()
	for _, b := range bars {
		c := b.Candle()
		fmt.Fprintf(h, "%d,%s,%s,%s,%s,%s\n", c.Time.Unix(), c.Open, c.High, c.Low, c.Close, c.Volume)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Backtests read the candle store by real market dates: the default period
// ends with the newest stored candle, a year ending there is made of the
// real candles of that year (no splice of the data's end onto its start),
// fills are at prices of the asked dates' candles, and a period the store
// does not cover is refused with the coverage.
func TestBacktestsRunOnRealDates(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()

	var cov struct {
		Coverage []coverageRow `json:"coverage"`
	}
	s.into(s.do("GET", "/api/market-data/coverage", tok, ""), &cov)
	var btc coverageRow
	for _, c := range cov.Coverage {
		if c.Symbol == "BTC-USD" {
			btc = c
		}
	}
	series, _ := candles.Load("BTC-USD")
	if len(cov.Coverage) != 4 || btc.Granularity != "FIFTEEN_MINUTE" || !btc.From.Equal(series.First()) || !btc.To.Equal(series.End()) ||
		btc.Candles != series.Len() || len(btc.Gaps) == 0 {
		t.Fatalf("coverage %+v", cov.Coverage)
	}

	// The default period (the last three months) ends with the newest data.
	var def dataReport
	r := s.do("GET", "/api/strategy/backtest/technical_strategy", tok, "")
	if !r.Success {
		t.Fatalf("default run: %+v", r.Error)
	}
	s.into(r, &def)
	if def.Request.EndDate != "2026-05-08" || def.Request.StartDate != "2026-02-08" {
		t.Fatalf("default period %s to %s, want 2026-02-08 to 2026-05-08 (the newest whole day of data)", def.Request.StartDate, def.Request.EndDate)
	}

	// A year ending there is the real candles of that year, nothing else.
	end, _ := time.Parse(time.DateOnly, def.Request.EndDate)
	from := end.AddDate(0, 0, -365)
	var year dataReport
	r = s.backtest(tok, fmt.Sprintf(`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":%q,"end_date":%q,"initial_capital":10000}`,
		from.Format(time.DateOnly), end.Format(time.DateOnly)))
	if r.Status != 202 {
		t.Fatalf("365-day run: %+v", r)
	}
	s.into(r, &year)
	d := year.Assumptions.Data
	if d.From.Before(btc.From) || d.To.After(btc.To) || d.From.After(from) || !d.To.Equal(end) || !year.StartDate.Equal(from) || !year.EndDate.Equal(end) {
		t.Fatalf("data %s to %s, run %s to %s: not within the store's %s to %s, or not the asked period", d.From, d.To, year.StartDate, year.EndDate, btc.From, btc.To)
	}
	real := realHourly(t, d.From, d.To)
	if d.Source != "coinbase (shipped)" || d.Synthetic || d.Candles != len(real) || d.Hash != hashOf(real) || d.Hash != year.Assumptions.CandlesHash {
		t.Fatalf("data %+v: not the %d real hourly candles of %s to %s", d, len(real), d.From, d.To)
	}
	// The real candles themselves have no jump like the loop's (-20% in one step).
	for i := 1; i < len(real); i++ {
		if jump := float64(real[i].Open)/float64(real[i-1].Close) - 1; jump < -0.1 || jump > 0.1 {
			t.Fatalf("%.1f%% from %v to %v", 100*jump, time.Unix(0, real[i-1].Time).UTC(), time.Unix(0, real[i].Time).UTC())
		}
	}
	for i, p := range year.EquityCurve {
		if p.Time.Before(from) || !p.Time.Before(end) || i > 0 && !p.Time.After(year.EquityCurve[i-1].Time) {
			t.Fatalf("equity point %d at %s: outside %s to %s or out of order", i, p.Time, from, end)
		}
	}

	// A summer of 2024: every fill is at a price of that date's candle.
	var summer dataReport
	r = s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2024-06-01","end_date":"2024-08-31","initial_capital":10000}`)
	if r.Status != 202 {
		t.Fatalf("2024 run: %+v", r)
	}
	s.into(r, &summer)
	jun, aug := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 8, 31, 0, 0, 0, 0, time.UTC)
	if len(summer.Fills) == 0 || !summer.StartDate.Equal(jun) || !summer.EndDate.Equal(aug) || !summer.Assumptions.Data.To.Equal(aug) {
		t.Fatalf("2024 run: %d fills, %s to %s (data to %s)", len(summer.Fills), summer.StartDate, summer.EndDate, summer.Assumptions.Data.To)
	}
	hours := map[int64]candles.Bar{}
	for _, b := range realHourly(t, jun, aug) {
		hours[b.Time] = b
	}
	// BUYs pay the ask and SELLs get the bid, the stated half-spread
	// either side of the price (rounded outwards to the 0.01 price
	// increment), which itself stays inside the candle.
	hs := summer.Assumptions.HalfSpread
	if !hs.IsPositive() {
		t.Fatalf("the run states no half-spread: %s", hs)
	}
	one, tick := decimal.NewFromInt(1), decimal.RequireFromString("0.01")
	for _, f := range summer.Fills {
		b, ok := hours[f.Time.UnixNano()]
		c := b.Candle()
		if !ok || f.Price.LessThan(c.Low.Mul(one.Sub(hs)).Sub(tick)) || f.Price.GreaterThan(c.High.Mul(one.Add(hs)).Add(tick)) {
			t.Fatalf("fill at %s for %s: outside that hour's real candle %+v (half-spread %s)", f.Time, f.Price, c, hs)
		}
	}

	// Periods the store does not cover are refused with its coverage.
	for _, period := range [][2]string{{"2026-06-01", "2026-08-31"}, {"2023-01-01", "2023-03-01"}, {"2026-04-01", "2026-06-01"}} {
		r := s.backtest(tok, fmt.Sprintf(`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":%q,"end_date":%q,"initial_capital":10000}`, period[0], period[1]))
		if r.Status != 400 || r.Error.Message != "Market data for BTC-USD covers 2024-04-18 to 2026-05-07" {
			t.Fatalf("%s to %s: %d %q, want 400 with the coverage", period[0], period[1], r.Status, r.Error.Message)
		}
	}
	g := s.do("GET", "/api/strategy/backtest/technical_strategy?symbol=ETH-USD&start_date=2026-07-01&end_date=2026-08-01", tok, "")
	if g.Status != 400 || g.Error.Message != "Market data for ETH-USD covers 2024-04-18 to 2026-05-07" {
		t.Fatalf("GET form outside the data: %d %q", g.Status, g.Error.Message)
	}
}

// The spec's historical candles are the stored ones at their real dates.
func TestHistoricalCandlesAreRealDates(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	var h struct {
		Candles []struct {
			Time  time.Time       `json:"timestamp"`
			Close decimal.Decimal `json:"close"`
		} `json:"candles"`
		Source    string `json:"source"`
		Synthetic bool   `json:"synthetic"`
	}
	s.into(s.do("GET", "/api/market-data/historical/BTC-USD?granularity=ONE_DAY&start_date=2024-06-01&end_date=2024-06-08", tok, ""), &h)
	real := candles.Aggregate(realHourly(t, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 6, 8, 0, 0, 0, 0, time.UTC)), 24*time.Hour)
	if len(h.Candles) != 7 || len(real) != 7 || h.Synthetic || h.Source != "coinbase (shipped)" {
		t.Fatalf("historical: %+v", h)
	}
	for i, c := range h.Candles {
		if w := real[i].Candle(); !c.Time.Equal(w.Time) || !c.Close.Equal(w.Close) {
			t.Fatalf("day %d: %s %s, want %s %s", i, c.Time, c.Close, w.Time, w.Close)
		}
	}
	// No end date: up to the newest stored candle.
	s.into(s.do("GET", "/api/market-data/historical/BTC-USD?granularity=ONE_HOUR&limit=3", tok, ""), &h)
	if n := len(h.Candles); n != 3 || !h.Candles[2].Time.Equal(time.Date(2026, 5, 8, 16, 0, 0, 0, time.UTC)) {
		t.Fatalf("newest: %+v", h.Candles)
	}
	// Five-minute candles are generated inside the 15-minute ones, and say so; so does a run on them.
	s.into(s.do("GET", "/api/market-data/historical/BTC-USD?granularity=FIVE_MINUTE&start_date=2024-06-01&end_date=2024-06-02", tok, ""), &h)
	if len(h.Candles) != 288 || !h.Synthetic {
		t.Fatalf("five-minute: %d candles, synthetic %v", len(h.Candles), h.Synthetic)
	}
	var fine dataReport
	r := s.backtest(tok, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2024-06-01","end_date":"2024-06-08","initial_capital":10000,"params":{"timeframe":"FIVE_MINUTE"}}`)
	if r.Status != 202 {
		t.Fatalf("five-minute run: %+v", r)
	}
	if s.into(r, &fine); !fine.Assumptions.Data.Synthetic {
		t.Fatalf("a five-minute run's data %+v does not say it was generated", fine.Assumptions.Data)
	}
	if r := s.do("GET", "/api/market-data/historical/BTC-USD?start_date=2027-01-01&end_date=2027-02-01", tok, ""); r.Status != 400 ||
		r.Error.Message != "Market data for BTC-USD covers 2024-04-18 to 2026-05-07" {
		t.Fatalf("after the data: %d %q", r.Status, r.Error.Message)
	}
}

// The shipped candles are imported once: a restart on the same data
// directory finds them and writes nothing; the status names the real date
// the sandbox is replaying.
func TestMarketDataImportedOnceAndReplayLabelled(t *testing.T) {
	dir := t.TempDir()
	s := start(t, dir)
	_, tok := s.accounts()
	count := func(s *server) int {
		var cov struct {
			Coverage []coverageRow `json:"coverage"`
		}
		s.into(s.do("GET", "/api/market-data/coverage", tok, ""), &cov)
		n := 0
		for _, c := range cov.Coverage {
			n += c.Candles
		}
		return n
	}
	want := 0
	for _, sym := range candles.Symbols() {
		ser, _ := candles.Load(sym)
		want += ser.Len()
	}
	if n := count(s); n != want {
		t.Fatalf("first start stored %d candles, want %d", n, want)
	}
	var st struct {
		MarketData struct {
			Source   string     `json:"source"`
			ReplayOf *time.Time `json:"replay_of"`
		} `json:"market_data"`
	}
	s.into(s.do("GET", "/api/system/status", tok, ""), &st)
	ser, _ := candles.Load("BTC-USD")
	r := st.MarketData.ReplayOf
	if r == nil || r.Before(ser.First()) || !r.Before(ser.End()) || s.app.Market.Replaying().Sub(*r).Abs() > 5*time.Second {
		t.Fatalf("replay_of %v: not the replayed time inside the data (%s to %s)", r, ser.First(), ser.End())
	}
	s.app.Close()

	again := start(t, dir)
	tok = again.login("op@example.com", "operator-pass")
	if n := count(again); n != want {
		t.Fatalf("after a restart %d candles, want %d", n, want)
	}
}
