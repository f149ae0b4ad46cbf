package backtest

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
)

// lazy holds a run given fixed-point bars (Request.Bars) on the fast path:
// no decimal candle is kept for every bar, only the one the run is on,
// with its prices made once something reads them (a signal, a resting
// order in range, a day's first open: a few per cent of the candles). A
// 50,000-candle file then costs neither a quarter of a million decimals
// nor a 5 MB slice of candles.
type lazy struct {
	bars []candles.Bar
	t    int  // the candle in c (-1: none yet)
	made bool // c has its prices
	c    domain.Candle
}

// barScale is the decimals a candles.Bar holds its prices in.
const barScale = 8

// decimalCandles is every bar as a candle (the general path reads them all).
func decimalCandles(bars []candles.Bar) []domain.Candle {
	cs := make([]domain.Candle, len(bars))
	for i, b := range bars {
		cs[i] = b.Candle()
	}
	return cs
}

// slot is candle t with its time, and its prices if something read them
// already. With bars it is the run's one candle: valid until the run
// moves to another.
func (r *run) slot(t int) *domain.Candle {
	l := r.lazy
	if l == nil {
		return &r.req.Candles[t]
	}
	if l.t != t {
		l.c, l.t, l.made = domain.Candle{Time: time.Unix(0, l.bars[t].Time).UTC()}, t, false
	}
	return &l.c
}

// candle is candle t with its prices.
func (r *run) candle(t int) *domain.Candle {
	c := r.slot(t)
	if l := r.lazy; l != nil && !l.made {
		b := &l.bars[t]
		c.Open, c.High, c.Low = decimal.New(b.Open, -barScale), decimal.New(b.High, -barScale), decimal.New(b.Low, -barScale)
		c.Close, c.Volume = decimal.New(b.Close, -barScale), decimal.New(b.Volume, -barScale)
		l.made = true
	}
	return c
}

// allCandles makes every candle (a run that leaves the fast path for good
// reads them all from then on).
func (r *run) allCandles() {
	if r.lazy == nil {
		return
	}
	r.req.Candles, r.lazy = decimalCandles(r.lazy.bars), nil
}

// spacing is spacing(candles), read from the bars' times when there are
// no candles.
func (r *run) spacing() time.Duration {
	if r.lazy == nil {
		return spacing(r.req.Candles)
	}
	bars := r.lazy.bars
	var first time.Duration
	even := true
	for i := 1; i < len(bars) && even; i++ {
		switch g := time.Duration(bars[i].Time - bars[i-1].Time); {
		case g <= 0:
		case first == 0:
			first = g
		default:
			even = g == first
		}
	}
	if even {
		if first == 0 {
			return time.Hour
		}
		return first
	}
	if m, ok := medianGap(len(bars), func(i int) time.Duration { return time.Duration(bars[i].Time - bars[i-1].Time) }); ok {
		return m
	}
	gaps := make([]time.Duration, 0, len(bars)-1)
	for i := 1; i < len(bars); i++ {
		if g := time.Duration(bars[i].Time - bars[i-1].Time); g > 0 {
			gaps = append(gaps, g)
		}
	}
	slices.Sort(gaps)
	return gaps[len(gaps)/2]
}
