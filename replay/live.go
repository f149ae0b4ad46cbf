package replay

import (
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// liveCandles rolls ticks up into 1-minute candles, keeping the newest max.
type liveCandles struct {
	max     int
	candles []domain.Candle
}

func newLiveCandles(max int) *liveCandles { return &liveCandles{max: max} }

func (l *liveCandles) add(t domain.Tick) {
	open := t.Time.Truncate(time.Minute)
	n := len(l.candles)
	if n > 0 && l.candles[n-1].Time.Equal(open) {
		c := &l.candles[n-1]
		c.High = decimal.Max(c.High, t.Price)
		c.Low = decimal.Min(c.Low, t.Price)
		c.Close = t.Price
		c.Volume = c.Volume.Add(t.Volume)
		return
	}
	l.candles = append(l.candles, domain.Candle{Time: open, Open: t.Price, High: t.Price, Low: t.Price, Close: t.Price, Volume: t.Volume})
	if len(l.candles) > l.max {
		l.candles = append(l.candles[:0], l.candles[len(l.candles)-l.max:]...)
	}
}

// window returns candles of width w (a multiple of a minute) opening in [start, end).
func (l *liveCandles) window(w time.Duration, start, end time.Time) []domain.Candle {
	var out []domain.Candle
	for _, c := range l.candles {
		if c.Time.Before(start) || !c.Time.Before(end) {
			continue
		}
		out = merge(out, c, c.Time.Truncate(w))
	}
	return out
}

// merge adds c to the bucket opening at open (the last one, or a new one).
func merge(out []domain.Candle, c domain.Candle, open time.Time) []domain.Candle {
	n := len(out)
	if n > 0 && out[n-1].Time.Equal(open) {
		b := &out[n-1]
		b.High = decimal.Max(b.High, c.High)
		b.Low = decimal.Min(b.Low, c.Low)
		b.Close = c.Close
		b.Volume = b.Volume.Add(c.Volume)
		return out
	}
	c.Time = open
	return append(out, c)
}
