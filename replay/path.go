package replay

import (
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// stepsPerCandle is one point per market second of a 15-minute candle.
const stepsPerCandle = 900

// walk is a candle's price path: points[i] is the price i seconds after the open;
// points[stepsPerCandle] is the close.
type walk struct {
	points [stepsPerCandle + 1]decimal.Decimal
}

// Path is the replay's candle-to-tick path, for backtests and anyone who
// needs the market's second-by-second prices inside a historical candle: 901
// prices, one per second from the open (index 0) to the close (index 900),
// staying within the candle's low and high, touching both, on the price grid
// of increment. The same (seed, symbol, candle) always gives the same path.
func Path(seed int64, symbol string, c domain.Candle, increment decimal.Decimal) []decimal.Decimal {
	w := newWalk(seed, symbol, c, increment)
	return w.points[:]
}

// seedFor makes the walk depend only on (seed, symbol, candle time).
func seedFor(seed int64, symbol string, unix int64) (uint64, uint64) {
	h := fnv.New64a()
	h.Write([]byte(symbol))
	return uint64(seed) ^ h.Sum64(), uint64(unix)
}

// newWalk builds the path for c: open -> first extreme -> second extreme -> close,
// each leg a Brownian bridge, clamped to [low, high] and rounded to tick.
func newWalk(seed int64, symbol string, c domain.Candle, tick decimal.Decimal) *walk {
	s1, s2 := seedFor(seed, symbol, c.Time.Unix())
	rng := rand.New(rand.NewPCG(s1, s2))
	open, high, low, cls := c.Open.InexactFloat64(), c.High.InexactFloat64(), c.Low.InexactFloat64(), c.Close.InexactFloat64()

	// Up candles more often dip first, down candles more often spike first.
	lowFirst := rng.Float64() < 0.5
	if cls > open {
		lowFirst = rng.Float64() < 0.7
	} else if cls < open {
		lowFirst = rng.Float64() < 0.3
	}
	t1 := 1 + rng.IntN(stepsPerCandle/2-1)
	t2 := t1 + 1 + rng.IntN(stepsPerCandle-1-t1-1)
	first, second := high, low
	firstD, secondD := c.High, c.Low
	if lowFirst {
		first, second = low, high
		firstD, secondD = c.Low, c.High
	}
	f := make([]float64, stepsPerCandle+1)
	bridge(rng, f, 0, t1, open, first, high-low)
	bridge(rng, f, t1, t2, first, second, high-low)
	bridge(rng, f, t2, stepsPerCandle, second, cls, high-low)

	w := &walk{}
	g := newGrid(tick)
	for i, x := range f {
		d := g.round(reflect(x, low, high))
		if d.GreaterThan(c.High) {
			d = c.High
		} else if d.LessThan(c.Low) {
			d = c.Low
		}
		w.points[i] = d
	}
	// Waypoints are exact: the walk reaches the candle's real prices.
	w.points[0], w.points[t1], w.points[t2], w.points[stepsPerCandle] = c.Open, firstD, secondD, c.Close
	return w
}

// reflect folds x back into [lo, hi] like a ball off the walls. Clamping
// instead would park the price at the high or low for long flat stretches.
func reflect(x, lo, hi float64) float64 {
	w := hi - lo
	if w <= 0 {
		return lo
	}
	y := math.Mod(x-lo, 2*w)
	if y < 0 {
		y += 2 * w
	}
	if y > w {
		y = 2*w - y
	}
	return lo + y
}

// bridge fills f[a..b] with a random walk from x0 to x1 (a Brownian bridge).
func bridge(rng *rand.Rand, f []float64, a, b int, x0, x1, rangeWidth float64) {
	n := b - a
	sigma := rangeWidth / math.Sqrt(float64(stepsPerCandle)) * 0.8
	f[a] = x0
	acc := 0.0
	raw := make([]float64, n+1)
	for i := 1; i <= n; i++ {
		acc += rng.NormFloat64() * sigma
		raw[i] = acc
	}
	for i := 0; i <= n; i++ {
		frac := float64(i) / float64(n)
		// Remove the walk's drift so it lands exactly on x1.
		f[a+i] = x0 + (x1-x0)*frac + raw[i] - raw[n]*frac
	}
}
