package smacross

import (
	"fmt"
	"math"
	"time"

	"kestrel/candles"
)

// One unit of a fixed-point value (8 decimal places), and of cash (16).
const (
	unit     = 100_000_000
	cashUnit = unit // cash is value x 10^8 x unit
)

// Params of a run. Money and rates are fixed point x 10^8, as package
// candles holds prices: 10,000 USD is 10_000 * 1e8, a 0.6% fee 600_000.
type Params struct {
	Fast, Slow  int   // SMA lengths in candles, 1 <= Fast < Slow
	Capital     int64 // starting cash x 10^8, above 0
	FeeRate     int64 // fee per fill as a fraction x 10^8, in [0, 1)
	SlippageBps int64 // basis points paid beyond the open on every fill, in [0, 10000)
}

// Side of a fill.
type Side int8

// The two sides.
const (
	Buy Side = iota + 1
	Sell
)

func (s Side) String() string {
	if s == Buy {
		return "BUY"
	}
	return "SELL"
}

// Fill is one execution; values are fixed point x 10^8.
type Fill struct {
	Side      Side
	Time      int64 // open time of the candle filled on, Unix nanoseconds
	Price     int64 // the open (or, at the end of data, the close), slippage included
	Quantity  int64
	Fee       int64
	EndOfData bool // the sale of a position still open after the last candle
}

// Result of a run. Cash is kept exactly: to 16 decimal places.
type Result struct {
	Params
	Candles              int
	Start, End           int64 // open times of the first and last candle, Unix nanoseconds
	FirstOpen, LastClose int64
	Fills                []Fill
	FeesPaid             int64
	finalCash            u128 // x 10^16
}

func (p Params) validate() error {
	switch {
	case p.Fast < 1 || p.Slow <= p.Fast:
		return fmt.Errorf("SMA lengths must satisfy 1 <= fast < slow (got fast %d, slow %d)", p.Fast, p.Slow)
	case p.Capital <= 0:
		return fmt.Errorf("capital must be above 0")
	case p.FeeRate < 0 || p.FeeRate >= unit:
		return fmt.Errorf("fee rate must be at least 0 and below 1")
	case p.SlippageBps < 0 || p.SlippageBps >= 10_000:
		return fmt.Errorf("slippage must be at least 0 and below 10000 basis points")
	}
	return nil
}

// Run trades the SMA cross over bars (ascending by time), as the package
// documentation describes. It fails on invalid parameters, on no bars, on a
// negative close or a fill at a price of 0, and when an amount overflows.
func Run(bars []candles.Bar, p Params) (*Result, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if len(bars) == 0 {
		return nil, fmt.Errorf("no candles")
	}
	last := bars[len(bars)-1]
	r := &Result{Params: p, Candles: len(bars), Start: bars[0].Time, End: last.Time,
		FirstOpen: bars[0].Open, LastClose: last.Close, Fills: make([]Fill, 0, 64)}
	l := ledger{r: r, cash: mul64(uint64(p.Capital), cashUnit)}
	if err := l.scan(bars); err != nil {
		return nil, err
	}
	if l.qty > 0 {
		if err := l.sell(last.Time, last.Close, last.Low, true); err != nil {
			return nil, err
		}
	}
	r.finalCash = l.cash
	return r, nil
}

// ledger is the account during a run: cash and the one position.
type ledger struct {
	r    *Result
	cash u128 // x 10^16
	qty  int64
}

const (
	none = iota
	buy
	sell
)

// scan walks the candles once: a pending order fills at the open of the
// candle after its signal, then the candle's close updates the two sums.
// The sums are exact integers and the SMAs are compared without dividing:
// sumFast/fast > sumSlow/slow exactly when sumFast*slow > sumSlow*fast.
func (l *ledger) scan(bars []candles.Bar) error {
	fast, slow := l.r.Fast, l.r.Slow
	limit := uint64(math.MaxUint64) / uint64(slow) // keeps both sums in 64 bits
	var sumFast, sumSlow uint64
	prev, pending := 0, none
	for t := range bars {
		b := &bars[t]
		if pending != none {
			if err := l.fill(pending, b); err != nil {
				return err
			}
			pending = none
		}
		c := uint64(b.Close)
		if c > limit {
			return fmt.Errorf("candle at %s: close %d x 10^-8 is negative or too large", time.Unix(0, b.Time).UTC().Format(time.RFC3339), b.Close)
		}
		sumFast += c
		sumSlow += c
		if t >= fast {
			sumFast -= uint64(bars[t-fast].Close)
		}
		if t >= slow {
			sumSlow -= uint64(bars[t-slow].Close)
		}
		if t < slow-1 {
			continue
		}
		rel := compare(mul64(sumFast, uint64(slow)), mul64(sumSlow, uint64(fast)))
		if t >= slow {
			if prev <= 0 && rel > 0 && l.qty == 0 {
				pending = buy
			} else if prev >= 0 && rel < 0 && l.qty > 0 {
				pending = sell
			}
		}
		prev = rel
	}
	return nil
}

func compare(a, b u128) int {
	switch {
	case a.hi != b.hi:
		return cmp(a.hi, b.hi)
	default:
		return cmp(a.lo, b.lo)
	}
}

func cmp(a, b uint64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

func (l *ledger) fill(side int, b *candles.Bar) error {
	if b.Open <= 0 {
		return fmt.Errorf("candle at %s: cannot fill at an open of %d x 10^-8", time.Unix(0, b.Time).UTC().Format(time.RFC3339), b.Open)
	}
	if side == buy {
		return l.buy(b.Time, b.Open, b.High)
	}
	return l.sell(b.Time, b.Open, b.Low, false)
}
