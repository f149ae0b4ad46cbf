package candles

import (
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Bar is one candle in fixed point, the form backtests read: values are
// exact (x 10^8, as the shipped data is held) and cost no allocation.
type Bar struct {
	Time                           int64 // open time, Unix nanoseconds
	Open, High, Low, Close, Volume int64 // value x 10^8
}

// Candle turns b back into decimals.
func (b Bar) Candle() domain.Candle {
	return domain.Candle{Time: time.Unix(0, b.Time).UTC(), Open: decimal.New(b.Open, -scale), High: decimal.New(b.High, -scale),
		Low: decimal.New(b.Low, -scale), Close: decimal.New(b.Close, -scale), Volume: decimal.New(b.Volume, -scale)}
}

// Bars returns the candles opening in [from, to) as fixed-point bars.
func (s *Series) Bars(from, to time.Time) []Bar {
	i, j := s.Index(from), s.Index(to)
	if j < i {
		j = i
	}
	out := make([]Bar, j-i)
	if len(out) == 0 {
		return out
	}
	cur := s.p.from(i)
	for k := range out {
		r, _ := cur.next() // checked when unpacked
		out[k] = Bar{Time: r.t * int64(time.Second), Open: r.o, High: r.h, Low: r.l, Close: r.c, Volume: r.volume}
	}
	return out
}

// Aggregate merges ascending bars into candles of width (a multiple of the
// bars' own width), aligned to the Unix epoch, so hours start on the hour and
// days at 00:00 UTC: first open, highest high, lowest low, last close, summed
// volume. A bucket the data only partly covers (a gap) is built from what is
// there; a bucket with no data is left out.
func Aggregate(bars []Bar, width time.Duration) []Bar {
	w := int64(width)
	out := make([]Bar, 0, len(bars))
	for _, b := range bars {
		start := b.Time - mod(b.Time, w)
		n := len(out)
		if n == 0 || out[n-1].Time != start {
			b.Time = start
			out = append(out, b)
			continue
		}
		last := &out[n-1]
		last.High = max(last.High, b.High)
		last.Low = min(last.Low, b.Low)
		last.Close = b.Close
		last.Volume += b.Volume
	}
	return out
}

// mod is the non-negative remainder, so times before 1970 align too.
func mod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
