package views

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
)

const (
	mktDay = 24 * time.Hour
	// mktAllSpan is how far back "all" reads: the two years of shipped history
	// (the replay loops it, so earlier days would repeat it).
	mktAllSpan = 730 * mktDay
	// mktLookback is the history always read, whatever the period: the
	// trend's SMA50, the index's 30 days and each symbol's one-year volatility.
	mktLookback = 366 * mktDay
)

type mktTrendRow struct {
	Symbol           string           `json:"symbol"`
	Price            decimal.Decimal  `json:"price"`
	Change24h        decimal.Decimal  `json:"change24h"`
	ChangePercent24h decimal.Decimal  `json:"changePercent24h"`
	Volume           decimal.Decimal  `json:"volume"`    // 24h, base units (the ticker's volume_24h)
	VolumeUSD        decimal.Decimal  `json:"volumeUsd"` // volume x price
	MarketCap        *decimal.Decimal `json:"marketCap"`
	Trend            *string          `json:"trend"`
	SMA20            *decimal.Decimal `json:"sma20"`
	SMA50            *decimal.Decimal `json:"sma50"`
}

type mktVolatilityRow struct {
	Symbol            string   `json:"symbol"`
	Volatility        *float64 `json:"volatility"`        // annualised, fraction, over the period
	AverageVolatility *float64 `json:"averageVolatility"` // the same over the last 365 days
	RiskLevel         *string  `json:"riskLevel"`
}

type mktCorrelationRow struct {
	Symbol1     string   `json:"symbol1"`
	Symbol2     string   `json:"symbol2"`
	Correlation *float64 `json:"correlation"`
	Strength    *string  `json:"strength"`
	Days        int      `json:"days"` // paired daily returns
}

type mktPricePoint struct {
	Date  string          `json:"date"`
	Close decimal.Decimal `json:"close"`
}

type mktVolumePoint struct {
	Date      string          `json:"date"`
	Volume    decimal.Decimal `json:"volume"`
	AvgVolume decimal.Decimal `json:"avgVolume"`
}

type mktMetrics struct {
	MarketCap       decimal.Decimal        `json:"marketCap"`
	Volume24h       decimal.Decimal        `json:"volume24h"`
	Dominance       *decimal.Decimal       `json:"dominance"`
	DominanceScope  string                 `json:"dominanceScope"`
	VolatilityIndex *float64               `json:"volatilityIndex"`
	FearGreedIndex  *float64               `json:"fearGreedIndex"`
	FearGreedLabel  *string                `json:"fearGreedLabel"`
	MarketIndex     *analytics.MarketIndex `json:"marketIndex"`
	TrendStrength   *float64               `json:"trendStrength"`
}

// mktDates is the span of the daily candles read and their source.
type mktDates struct {
	// Source is "candle store" (the sandbox: the stored history by its real
	// dates) or "market" (the live venue's daily candles).
	Source string     `json:"source"`
	From   *time.Time `json:"from"` // the first day's open (null: no candle)
	To     *time.Time `json:"to"`   // the last day's close
	Note   string     `json:"note"`
}

// MarketView is the market tab.
type MarketView struct {
	Period         string                     `json:"period"`
	Symbol         string                     `json:"symbol"`
	AsOf           time.Time                  `json:"asOf"`
	Coverage       analytics.Coverage         `json:"coverage"`
	Metrics        mktMetrics                 `json:"metrics"`
	Trends         []mktTrendRow              `json:"trends"`
	Volatility     []mktVolatilityRow         `json:"volatility"`
	Correlations   []mktCorrelationRow        `json:"correlations"`
	PriceHistory   map[string][]mktPricePoint `json:"priceHistory"`
	VolumeAnalysis []mktVolumePoint           `json:"volumeAnalysis"`
	Supply         analytics.SupplyTable      `json:"supply"`
	Unavailable    map[string]string          `json:"unavailable"`
	// Dates says where the daily candles behind the history, trends,
	// volatility, correlations and the index come from, and their dates.
	Dates   mktDates                      `json:"dates"`
	daily   map[string][]domain.Candle    // per symbol, oldest first
	returns map[string]map[string]float64 // per symbol, date -> return that mktDay
}

// Market is the market tab: every tracked symbol from its ticker, 24h
// stats and daily candles, over period (default 7d), with sym's (default
// BTC-USD) volume analysis. Both arrive trimmed, sym in upper case.
func (vw *Views) Market(ctx context.Context, period, sym string) (*MarketView, error) {
	if period == "" {
		period = "7d"
	}
	if sym == "" {
		sym = "BTC-USD"
	}
	symbols := vw.Prices.Symbols()
	if !slices.Contains(symbols, sym) {
		msg := "Symbol must be one of " + strings.Join(symbols, ", ")
		return nil, &domain.Error{Code: domain.EInvalid, Message: msg, Fields: map[string]string{"symbol": msg}}
	}
	t0, err := vw.Prices.Ticker(symbols[0])
	if err != nil {
		return nil, err
	}
	now := t0.Time
	// The daily candles' clock: the market's, or (the sandbox) the real
	// time being replayed, up to which the candle store is read.
	dataNow, store := now, vw.replayOf() != nil && vw.History != nil
	if store {
		dataNow = vw.replayOf().UTC()
	}
	since, err := analytics.Since(period, dataNow)
	if err != nil {
		return nil, err
	}
	if period == "all" {
		since = dataNow.Add(-mktAllSpan)
	}
	from := since.UTC().Truncate(mktDay) // the first mktDay of the period
	fetch := dataNow.Add(-mktLookback).Truncate(mktDay)
	if from.Before(fetch) {
		fetch = from
	}
	today := dataNow.UTC().Truncate(mktDay)

	v := MarketView{Period: period, Symbol: sym, AsOf: now, Supply: analytics.CirculatingSupply, PriceHistory: map[string][]mktPricePoint{},
		Trends: []mktTrendRow{}, Volatility: []mktVolatilityRow{}, Correlations: []mktCorrelationRow{}, VolumeAnalysis: []mktVolumePoint{},
		Unavailable: map[string]string{"sectorAnalysis": "Kestrel has no sector classification of the tracked assets, so no sector figures are computed"},
		daily:       map[string][]domain.Candle{}, returns: map[string]map[string]float64{}}
	v.Metrics.DominanceScope = "BTC-USD market cap as a share of the four tracked assets' total, not of the whole crypto market"
	var trends []string
	var vols []float64
	var index []analytics.DailySeries
	var btcCap decimal.Decimal
	for _, symbol := range symbols {
		t, err := vw.Prices.Ticker(symbol)
		if err != nil {
			return nil, err
		}
		st, err := vw.Prices.Stats(symbol)
		if err != nil {
			return nil, err
		}
		cs, err := vw.mktDaily(ctx, store, symbol, fetch, dataNow)
		if err != nil {
			return nil, err
		}
		v.daily[symbol] = cs
		closes := make([]decimal.Decimal, len(cs))
		var complete []decimal.Decimal // volumes of days already over
		for i, c := range cs {
			closes[i] = c.Close
			if c.Time.Before(today) {
				complete = append(complete, c.Volume)
			}
		}
		row := mktTrendRow{Symbol: symbol, Price: t.Price, Change24h: st.Change, ChangePercent24h: st.ChangePercent,
			Volume: t.Volume24h, VolumeUSD: t.Volume24h.Mul(t.Price).Round(2)}
		if supply, ok := analytics.CirculatingSupply.Supply[symbol]; ok {
			mc := t.Price.Mul(supply).Round(2)
			row.MarketCap = &mc
			v.Metrics.MarketCap = v.Metrics.MarketCap.Add(mc)
			if symbol == "BTC-USD" {
				btcCap = mc
			}
		}
		if tr, ok := analytics.Trend(closes); ok {
			row.Trend, row.SMA20, row.SMA50 = &tr.Trend, mktRoundDec(tr.SMA20), mktRoundDec(tr.SMA50)
			trends = append(trends, tr.Trend)
		} else {
			trends = append(trends, "")
		}
		v.Metrics.Volume24h = v.Metrics.Volume24h.Add(row.VolumeUSD)
		v.Trends = append(v.Trends, row)
		index = append(index, analytics.DailySeries{Closes: closes, Volumes: complete})

		// The period's closes and their returns.
		var inPeriod []domain.Candle
		for _, c := range cs {
			if !c.Time.Before(from) {
				inPeriod = append(inPeriod, c)
				v.PriceHistory[symbol] = append(v.PriceHistory[symbol], mktPricePoint{Date: c.Time.Format("2006-01-02"), Close: c.Close})
			}
		}
		if v.PriceHistory[symbol] == nil {
			v.PriceHistory[symbol] = []mktPricePoint{}
		}
		v.returns[symbol] = mktDailyReturns(inPeriod)
		vr := mktVolatilityRow{Symbol: symbol, Volatility: mktRoundF(analytics.Volatility(mktValues(v.returns[symbol])), 4)}
		var year []domain.Candle
		for _, c := range cs {
			if !c.Time.Before(today.Add(-365 * mktDay)) {
				year = append(year, c)
			}
		}
		vr.AverageVolatility = mktRoundF(analytics.Volatility(mktValues(mktDailyReturns(year))), 4)
		if vr.Volatility != nil {
			lvl := analytics.RiskLevel(*vr.Volatility)
			vr.RiskLevel = &lvl
			vols = append(vols, *vr.Volatility)
		}
		v.Volatility = append(v.Volatility, vr)

		if symbol == sym {
			vs := make([]decimal.Decimal, len(cs))
			for i, c := range cs {
				vs[i] = c.Volume
			}
			avg := analytics.MovingAverage(vs, 7)
			for i, c := range cs {
				if !c.Time.Before(from) {
					v.VolumeAnalysis = append(v.VolumeAnalysis, mktVolumePoint{Date: c.Time.Format("2006-01-02"), Volume: c.Volume, AvgVolume: avg[i].Round(8)})
				}
			}
		}
	}
	v.Coverage = mktCoverage(v.daily, since, from, dataNow)
	v.Dates = mktDatesOf(v.daily, store, dataNow)
	v.Metrics.Dominance = analytics.Dominance(btcCap, v.Metrics.MarketCap)
	if len(vols) > 0 {
		sum := 0.0
		for _, x := range vols {
			sum += x
		}
		avg := sum / float64(len(vols))
		v.Metrics.VolatilityIndex = mktRoundF(&avg, 4)
	}
	if idx := analytics.KestrelIndex(index); idx != nil {
		v.Metrics.MarketIndex = idx
		v.Metrics.FearGreedIndex, v.Metrics.FearGreedLabel = &idx.Value, &idx.Label
	}
	v.Metrics.TrendStrength = mktRoundF(analytics.TrendStrength(trends), 2)
	for i, a := range symbols {
		for _, b := range symbols[i+1:] {
			x, y := mktPairedReturns(v.returns[a], v.returns[b])
			c := mktCorrelationRow{Symbol1: a, Symbol2: b, Days: len(x), Correlation: mktRoundF(analytics.Pearson(x, y), 4)}
			if c.Correlation != nil {
				st := mktCorrelationStrength(*c.Correlation)
				c.Strength = &st
			}
			v.Correlations = append(v.Correlations, c)
		}
	}
	return &v, nil
}

// dailyReturns maps each mktDay (after the first) to its close-to-close return.
func mktDailyReturns(cs []domain.Candle) map[string]float64 {
	out := map[string]float64{}
	for i := 1; i < len(cs); i++ {
		if prev := cs[i-1].Close; prev.IsPositive() {
			out[cs[i].Time.Format("2006-01-02")] = cs[i].Close.Sub(prev).Div(prev).InexactFloat64()
		}
	}
	return out
}

func mktValues(m map[string]float64) []float64 {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]float64, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// pairedReturns lines up two symbols' daily returns on the days both have one.
func mktPairedReturns(a, b map[string]float64) (x, y []float64) {
	keys := make([]string, 0, len(a))
	for k := range a {
		if _, ok := b[k]; ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, y = append(x, a[k]), append(y, b[k])
	}
	return x, y
}

// correlationStrength is the spec's label: above 0.7 strong, above 0.3 moderate, else weak (by magnitude).
func mktCorrelationStrength(c float64) string {
	switch c = max(c, -c); {
	case c > 0.7:
		return "strong"
	case c > 0.3:
		return "moderate"
	}
	return "weak"
}

func mktRound(x float64, places int) float64 {
	k := 1.0
	for range places {
		k *= 10
	}
	if x < 0 {
		return -float64(int64(-x*k+0.5)) / k
	}
	return float64(int64(x*k+0.5)) / k
}

func mktRoundF(x *float64, places int) *float64 {
	if x == nil {
		return nil
	}
	v := mktRound(*x, places)
	return &v
}

func mktRoundDec(d *decimal.Decimal) *decimal.Decimal {
	if d == nil {
		return nil
	}
	v := d.Round(8)
	return &v
}

// mktCoverage is the span of the period every tracked symbol's daily candles
// cover: from the latest of their first candles (the period's first day when
// all reach back to it). A period ("all" included) is never longer than the
// replayed history, so "all" is complete when every symbol reaches its start.
func mktCoverage(daily map[string][]domain.Candle, since, from, now time.Time) analytics.Coverage {
	var first *time.Time
	back := len(daily) > 0
	for _, cs := range daily {
		i := 0
		for i < len(cs) && cs[i].Time.Before(from) {
			i++
		}
		if i == 0 {
			back = false
		}
		switch {
		case i == len(cs):
			// no candle in the period for this symbol
			return analytics.CoverageOf(since, now, false, nil, mktDay)
		case first == nil || cs[i].Time.After(*first):
			t := cs[i].Time
			first = &t
		}
	}
	if back {
		return analytics.CoverageOf(since, now, true, nil, mktDay)
	}
	return analytics.CoverageOf(since, now, false, first, mktDay)
}

// mktDaily is symbol's daily candles from fetch to now, today's so far:
// from the candle store by real dates when store (the sandbox, whose
// market replays the stored history in a loop: a year of the replay's own
// candles holds the loop's jump from the last stored day back to the
// first, a move no market made), today's built from its stored 15-minute
// candles up to now (never the rest of the day), else the market's.
func (vw *Views) mktDaily(ctx context.Context, store bool, symbol string, fetch, now time.Time) ([]domain.Candle, error) {
	if !store {
		return vw.Prices.Candles(ctx, symbol, domain.OneDay, fetch, time.Time{}, 5000)
	}
	today := now.Truncate(mktDay)
	win, err := vw.History.Candles(ctx, symbol, domain.OneDay, fetch, today)
	if err != nil {
		return nil, err
	}
	part, err := vw.History.Candles(ctx, symbol, domain.FifteenMinute, today, now.Truncate(15*time.Minute))
	if err != nil {
		return nil, err
	}
	cs := win.Candles
	if len(part.Candles) > 0 {
		c := part.Candles[0]
		c.Time = today
		for _, p := range part.Candles[1:] {
			c.High, c.Low = decimal.Max(c.High, p.High), decimal.Min(c.Low, p.Low)
			c.Close, c.Volume = p.Close, c.Volume.Add(p.Volume)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// mktDatesOf says which days the statistics read.
func mktDatesOf(daily map[string][]domain.Candle, store bool, end time.Time) mktDates {
	d := mktDates{Source: "market", Note: "The live market's daily candles"}
	if store {
		d.Source = "candle store"
		d.Note = fmt.Sprintf("The sandbox replays the stored history in a loop; these statistics read the stored candles by their real dates, up to the moment being replayed (%s UTC; that day's candle so far), so the loop's return from the last stored day to the first is never taken for a day's move",
			end.Format("2006-01-02 15:04"))
	}
	for _, cs := range daily {
		if len(cs) == 0 {
			continue
		}
		first, last := cs[0].Time, cs[len(cs)-1].Time.Add(mktDay)
		if last.After(end) {
			last = end // today's candle so far
		}
		if d.From == nil || first.Before(*d.From) {
			d.From = &first
		}
		if d.To == nil || last.After(*d.To) {
			d.To = &last
		}
	}
	return d
}
