package replay

import (
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

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
