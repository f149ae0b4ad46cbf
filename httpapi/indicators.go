package httpapi

import (
	"math"
	"net/http"
	"strings"
	"time"

	"kestrel/indicators"
)

// The technical strategy defaults (spec section 9) parameterise the readings.
const (
	rsiPeriod       = 14
	smaShort        = 10
	smaLong         = 20
	macdFast        = 12
	macdSlow        = 26
	macdSignal      = 9
	bollingerPeriod = 20
	bollingerStd    = 2.0
	// warmup is how many extra candles are read so the first reading returned is settled.
	warmup = 100
)

var indicatorTypes = []string{"RSI", "MACD", "MACD_SIGNAL", "MACD_HISTOGRAM", "SMA", "EMA", "BOLLINGER"}

// indicatorReading is the spec's Indicator reading with its time; Bollinger
// readings carry the bands too.
type indicatorReading struct {
	Time          time.Time `json:"timestamp"`
	IndicatorType string    `json:"indicator_type"`
	Value         float64   `json:"value"`
	Upper         *float64  `json:"upper,omitempty"`
	Lower         *float64  `json:"lower,omitempty"`
	Period        int       `json:"period,omitempty"`
}

func (s *Server) indicators(w http.ResponseWriter, r *http.Request) {
	sym, err := s.symbolParam(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	typ := strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("indicator_type")))
	if typ == "" {
		typ = "RSI"
	}
	valid := false
	for _, t := range indicatorTypes {
		valid = valid || t == typ
	}
	if !valid {
		fail(w, r, fieldErr("indicator_type", "Unsupported indicator_type: "+typ+" (use "+strings.Join(indicatorTypes, ", ")+")"))
		return
	}
	limit, err := intQuery(r, "limit", 100, 1, 1000)
	if err != nil {
		fail(w, r, err)
		return
	}
	g, err := granularityQuery(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	cs, err := s.d.Market.Candles(r.Context(), sym, g, time.Time{}, time.Time{}, limit+warmup)
	if err != nil {
		fail(w, r, err)
		return
	}
	closes := make([]float64, len(cs))
	for i, c := range cs {
		closes[i] = c.Close.InexactFloat64() // statistics: floats are fine here
	}
	var values, upper, lower []float64
	period := 0
	switch typ {
	case "RSI":
		values, period = indicators.RSISeries(closes, rsiPeriod), rsiPeriod
	case "SMA":
		values, period = indicators.SMASeries(closes, smaLong), smaLong
	case "EMA":
		values, period = indicators.EMASeries(closes, smaShort), smaShort
	case "MACD", "MACD_SIGNAL", "MACD_HISTOGRAM":
		m, sig, hist := indicators.MACDSeries(closes, macdFast, macdSlow, macdSignal)
		values = map[string][]float64{"MACD": m, "MACD_SIGNAL": sig, "MACD_HISTOGRAM": hist}[typ]
	case "BOLLINGER":
		values, upper, lower = indicators.BollingerSeries(closes, bollingerPeriod, bollingerStd)
		period = bollingerPeriod
	}
	out := []indicatorReading{}
	for i := max(0, len(cs)-limit); i < len(cs); i++ {
		if math.IsNaN(values[i]) {
			continue
		}
		rd := indicatorReading{Time: cs[i].Time, IndicatorType: typ, Value: round6(values[i]), Period: period}
		if upper != nil {
			u, l := round6(upper[i]), round6(lower[i])
			rd.Upper, rd.Lower = &u, &l
		}
		out = append(out, rd)
	}
	// "indicators" is the spec's key; "readings" stays for existing clients.
	ok(w, map[string]any{"symbol": sym, "indicator_type": typ, "granularity": g, "indicators": out, "readings": out})
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
