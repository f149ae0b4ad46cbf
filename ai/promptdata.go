package ai

import (
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// promptData is what prompts/*.tmpl see: the request summarised as text.
type promptData struct {
	Symbol, Base                     string
	Count                            int
	FirstClose, LastClose, High, Low string
	ReturnPct, Price                 string
	LastCloses                       []string
	Indicators                       []namedValue
	Position, AvgPrice, Limits       string
	Held                             bool
	// Width is the candles' width in words (e.g. 1-hour), "" when not given.
	Width, Timeframe string
	// MemoryOn says trade memory is on; Memory is the recent closed trades
	// that fit its budget, oldest first; MemoryOmitted how many of the
	// trades asked for were left out to fit it.
	MemoryOn      bool
	Memory        []memoryTrade
	MemoryOmitted int
}

func newPromptData(r Request) promptData {
	s := summarise(r)
	d := promptData{Symbol: r.Symbol, Base: baseOf(r.Symbol), Count: s.count,
		Indicators: sortedIndicators(r.Indicators), Position: r.Position.String(),
		AvgPrice: r.AvgPrice.String(), Limits: r.Limits, Held: r.Position.IsPositive(),
		Price: price(r).String(), Width: width(r.Timeframe), Timeframe: r.Timeframe, FirstClose: "n/a", LastClose: "n/a", High: "n/a", Low: "n/a", ReturnPct: "n/a"}
	if s.count > 0 {
		d.FirstClose, d.LastClose = s.first.String(), s.last.String()
		d.High, d.Low = s.high.String(), s.low.String()
		d.ReturnPct = strconv.FormatFloat(s.returnPct, 'f', 2, 64)
	}
	for _, c := range r.Candles[max(0, len(r.Candles)-lastCloses):] {
		d.LastCloses = append(d.LastCloses, c.Close.String())
	}
	if len(d.LastCloses) == 0 {
		d.LastCloses = []string{"none"}
	}
	d.MemoryOn = r.Memory != nil
	d.Memory, d.MemoryOmitted = fitMemory(r.Memory)
	return d
}

// candleSummary is the candles' shape in a few numbers.
type candleSummary struct {
	count                  int
	first, last, high, low decimal.Decimal
	returnPct              float64 // (last - first) / first x 100
}

func summarise(r Request) candleSummary {
	s := candleSummary{count: len(r.Candles)}
	if s.count == 0 {
		return s
	}
	s.first, s.last = r.Candles[0].Close, r.Candles[s.count-1].Close
	s.high, s.low = r.Candles[0].High, r.Candles[0].Low
	for _, c := range r.Candles[1:] {
		s.high, s.low = decimal.Max(s.high, c.High), decimal.Min(s.low, c.Low)
	}
	if s.first.IsPositive() {
		s.returnPct = s.last.Sub(s.first).Div(s.first).InexactFloat64() * 100
	}
	return s
}

// price is the request's price, or the last close when none was given.
func price(r Request) decimal.Decimal {
	if r.Price.IsPositive() || len(r.Candles) == 0 {
		return r.Price
	}
	return r.Candles[len(r.Candles)-1].Close
}

func baseOf(symbol string) string {
	base, _, _ := strings.Cut(symbol, "-")
	return base
}

// num writes an indicator value with the precision its size needs.
func num(x float64) string {
	if x >= 1 || x <= -1 {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

// width is a granularity's width in words: 15-minute, 1-hour, 1-day; ""
// for an unknown one.
func width(g string) string {
	d := domain.Granularity(g).Duration()
	switch {
	case d <= 0:
		return ""
	case d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + "-day"
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "-hour"
	}
	return strconv.Itoa(int(d/time.Minute)) + "-minute"
}
