package smacross

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Report is a Result for people and JSON: every amount an exact decimal
// string, every time RFC 3339 UTC.
type Report struct {
	Strategy         string       `json:"strategy"`
	Symbol           string       `json:"symbol"`
	Fast             int          `json:"fast"`
	Slow             int          `json:"slow"`
	Start            string       `json:"start"` // open time of the first candle
	End              string       `json:"end"`   // open time of the last candle
	Candles          int          `json:"candles"`
	InitialCapital   string       `json:"initial_capital"`
	FeeRate          string       `json:"fee_rate"`
	SlippageBps      int64        `json:"slippage_bps"`
	Fills            []FillReport `json:"fills"`
	Trades           int          `json:"trades"` // round trips: one per sell
	FeesPaid         string       `json:"fees_paid"`
	FinalEquity      string       `json:"final_equity"`
	TotalReturn      string       `json:"total_return"`        // final / initial - 1, rounded to 8 places
	BuyAndHoldReturn string       `json:"buy_and_hold_return"` // last close / first open - 1, no fees, rounded to 8 places
}

// FillReport is one fill as the JSON result lists it.
type FillReport struct {
	Side      string `json:"side"`
	Time      string `json:"time"`
	Price     string `json:"price"`
	Quantity  string `json:"quantity"`
	Fee       string `json:"fee"`
	EndOfData bool   `json:"end_of_data,omitempty"`
}

// FinalEquity is the cash at the end (every position is sold by then), x 10^16.
func (r *Result) FinalEquity() string { return r.finalCash.decimal(16) }

// Report formats r for symbol (a name for the data: a symbol or a file).
func (r *Result) Report(symbol string) Report {
	fills := make([]FillReport, len(r.Fills))
	trades := 0
	for i, f := range r.Fills {
		fills[i] = FillReport{Side: f.Side.String(), Time: FormatTime(f.Time), Price: FormatFixed(f.Price),
			Quantity: FormatFixed(f.Quantity), Fee: FormatFixed(f.Fee), EndOfData: f.EndOfData}
		if f.Side == Sell {
			trades++
		}
	}
	final := r.FinalEquity()
	return Report{Strategy: "sma-cross", Symbol: symbol, Fast: r.Fast, Slow: r.Slow,
		Start: FormatTime(r.Start), End: FormatTime(r.End), Candles: r.Candles,
		InitialCapital: FormatFixed(r.Capital), FeeRate: FormatFixed(r.FeeRate), SlippageBps: r.SlippageBps,
		Fills: fills, Trades: trades, FeesPaid: FormatFixed(r.FeesPaid), FinalEquity: final,
		TotalReturn:      ratioMinusOne(decimal.RequireFromString(final), decimal.New(r.Capital, -8)),
		BuyAndHoldReturn: ratioMinusOne(decimal.New(r.LastClose, -8), decimal.New(r.FirstOpen, -8)),
	}
}

func ratioMinusOne(a, b decimal.Decimal) string {
	if b.IsZero() {
		return "0"
	}
	return a.Sub(b).DivRound(b, 8).String()
}

// FormatFixed writes a value x 10^8 as an exact decimal without trailing zeros.
func FormatFixed(v int64) string {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	var buf [40]byte
	b := buf[:0]
	if v < 0 {
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, u/unit, 10)
	if frac := u % unit; frac != 0 {
		digits := strconv.AppendUint(buf[28:28], frac+unit, 10)[1:] // 8 digits, leading zeros kept
		b = append(append(b, '.'), bytes.TrimRight(digits, "0")...)
	}
	return string(b)
}

// FormatTime writes Unix nanoseconds as RFC 3339 UTC.
func FormatTime(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339Nano) }

// ParseFixed reads a decimal with at most 8 places as value x 10^8.
func ParseFixed(s string) (int64, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if !d.IsZero() && (d.Exponent() > 18 || d.Exponent() < -100) {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	shifted := d.Shift(8)
	if !shifted.IsInteger() {
		return 0, fmt.Errorf("%q has more than 8 decimal places", s)
	}
	if shifted.Abs().GreaterThanOrEqual(decimal.New(1, 18)) {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return shifted.IntPart(), nil
}
