package smacross

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kestrel/candles"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// hourly builds hourly bars from "open/close" pairs; high and low are not used.
func hourly(t *testing.T, oc ...string) []candles.Bar {
	t.Helper()
	bars := make([]candles.Bar, len(oc))
	for i, s := range oc {
		o, c, _ := strings.Cut(s, "/")
		open, err1 := ParseFixed(o)
		cl, err2 := ParseFixed(c)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad fixture %q", s)
		}
		bars[i] = candles.Bar{Time: t0.Add(time.Duration(i) * time.Hour).UnixNano(), Open: open, High: max(open, cl), Low: min(open, cl), Close: cl}
	}
	return bars
}

func ledgerLines(r *Result) []string {
	var out []string
	for _, f := range r.Fills {
		line := fmt.Sprintf("%s %s %s @ %s fee %s", FormatTime(f.Time)[11:16], f.Side, FormatFixed(f.Quantity), FormatFixed(f.Price), FormatFixed(f.Fee))
		if f.EndOfData {
			line += " (end of data)"
		}
		out = append(out, line)
	}
	return out
}

func mustRun(t *testing.T, bars []candles.Bar, p Params) *Result {
	t.Helper()
	r, err := Run(bars, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The fixture, fast 2, slow 3 (SMAs of the closes, from t=1 and t=2):
//
//	t   open  close  SMA2   SMA3     fast vs slow  at the close of t (t >= 3)
//	0   10    10     -      -
//	1   10    9      9.5    -
//	2   9     8      8.5    9        below
//	3   8.5   9      8.5    8.667    below         no cross
//	4   9     12     10.5   9.667    above         cross up: buy at the open of 5
//	5   12.5  11     11.5   10.667   above         holding
//	6   11    8      9.5    10.333   below         cross down: sell at the open of 7
//	7   7.5   7      7.5    8.667    below
//	8   7     9      8      8        equal         not a cross (needs fast > slow)
//	9   9.5   12     10.5   9.333    above         cross up from equal: buy at the open of 10
//	10  12.2  13     12.5   11.333   above         last candle: sold at its close
var fixture = []string{"10/10", "10/9", "9/8", "8.5/9", "9/12", "12.5/11", "11/8", "7.5/7", "7/9", "9.5/12", "12.2/13"}

func TestLedgerByHand(t *testing.T) {
	// Capital 1000, fee 1%.
	//
	// Buy at 12.5: quantity = 1000 / (12.5 x 1.01) = 79.207920792... -> 79.20792079
	//   notional 12.5 x 79.20792079 = 990.099009875
	//   fee 9.90099009875 -> 9.90099010 (half-up)
	//   cash 1000 - 990.099009875 - 9.9009901 = 0.000000025 (kept exactly)
	// Sell at 7.5: notional 7.5 x 79.20792079 = 594.059405925
	//   fee 5.94059405925 -> 5.94059406
	//   cash 0.000000025 + 594.059405925 - 5.94059406 = 588.11881189
	// Buy at 12.2: quantity = 588.11881189 / (12.2 x 1.01) = 47.729168307... -> 47.7291683
	//   notional 12.2 x 47.7291683 = 582.29585326, fee 5.8229585326 -> 5.82295853
	//   cash 588.11881189 - 582.29585326 - 5.82295853 = 0.0000001
	// End of data, sell at the last close 13: notional 13 x 47.7291683 = 620.4791879
	//   fee 6.204791879 -> 6.20479188
	//   cash 0.0000001 + 620.4791879 - 6.20479188 = 614.27439612
	r := mustRun(t, hourly(t, fixture...), Params{Fast: 2, Slow: 3, Capital: 1000 * unit, FeeRate: 1_000_000})
	want := []string{
		"05:00 BUY 79.20792079 @ 12.5 fee 9.9009901",
		"07:00 SELL 79.20792079 @ 7.5 fee 5.94059406",
		"10:00 BUY 47.7291683 @ 12.2 fee 5.82295853",
		"10:00 SELL 47.7291683 @ 13 fee 6.20479188 (end of data)",
	}
	if got := ledgerLines(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ledger\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rep := r.Report("FIXTURE")
	for _, c := range []struct{ name, got, want string }{
		{"final equity", rep.FinalEquity, "614.27439612"},
		{"fees paid", rep.FeesPaid, "27.86933457"},                     // 9.9009901 + 5.94059406 + 5.82295853 + 6.20479188
		{"total return", rep.TotalReturn, "-0.3857256"},                // 614.27439612 / 1000 - 1, to 8 places
		{"buy and hold", rep.BuyAndHoldReturn, "0.3"},                  // 13 / 10 - 1
		{"first fill time", rep.Fills[0].Time, "2024-01-01T05:00:00Z"}, // the fill candle's open time
	} {
		if c.got != c.want {
			t.Errorf("%s = %s, want %s", c.name, c.got, c.want)
		}
	}
	if rep.Trades != 2 {
		t.Errorf("trades = %d, want 2", rep.Trades)
	}
}

func TestLedgerWithSlippage(t *testing.T) {
	// As above with 100 bps: buys pay open x 1.01, sells get open x 0.99.
	// Buy at 12.625: quantity 1000 / (12.625 x 1.01) -> 78.42368395, notional
	//   990.09900986875, fee 9.9009900986875 -> 9.9009901, cash 0.00000003125
	// Sell at 7.425: notional 582.29585332875, fee 5.8229585332875 -> 5.82295853,
	//   cash 576.47289483
	// Buy at 12.322: quantity 576.47289483 / (12.322 x 1.01) -> 46.32082798,
	//   notional 570.76524236956, fee 5.7076524236956 -> 5.70765242, cash 0.0000000404400
	// Sell at 13 x 0.99 = 12.87: notional 596.1490561026, fee 5.961490561026 -> 5.96149056
	//   cash 590.18756558304
	// Each candle spans 2% beyond its open and close, so the slipped prices
	// stay inside it (TestSlippageStaysInsideTheCandle caps them).
	bars := hourly(t, fixture...)
	for i := range bars {
		bars[i].High += bars[i].High / 50
		bars[i].Low -= bars[i].Low / 50
	}
	r := mustRun(t, bars, Params{Fast: 2, Slow: 3, Capital: 1000 * unit, FeeRate: 1_000_000, SlippageBps: 100})
	want := []string{
		"05:00 BUY 78.42368395 @ 12.625 fee 9.9009901",
		"07:00 SELL 78.42368395 @ 7.425 fee 5.82295853",
		"10:00 BUY 46.32082798 @ 12.322 fee 5.70765242",
		"10:00 SELL 46.32082798 @ 12.87 fee 5.96149056 (end of data)",
	}
	if got := ledgerLines(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ledger\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := r.FinalEquity(), "590.18756558304"; got != want {
		t.Errorf("final equity = %s, want %s", got, want)
	}
}

func TestSlippageStaysInsideTheCandle(t *testing.T) {
	// The fixture's candles span only their open and close: the 05:00 candle
	// opens at its high (12.5), so a buy slipped by 100 bps pays the high,
	// not 12.625; every fill lies in its candle's [low, high].
	bars := hourly(t, fixture...)
	r := mustRun(t, bars, Params{Fast: 2, Slow: 3, Capital: 1000 * unit, FeeRate: 1_000_000, SlippageBps: 100})
	if got := ledgerLines(r)[0]; got != "05:00 BUY 79.20792079 @ 12.5 fee 9.9009901" {
		t.Errorf("first fill %q, want the buy at the candle's high, 12.5", got)
	}
	byTime := map[int64]candles.Bar{}
	for _, b := range bars {
		byTime[b.Time] = b
	}
	for _, f := range r.Fills {
		b := byTime[f.Time]
		if f.Price < b.Low || f.Price > b.High {
			t.Errorf("fill %+v outside its candle [%d, %d]", f, b.Low, b.High)
		}
	}
}

func TestNoFillsWithoutACross(t *testing.T) {
	r := mustRun(t, hourly(t, "1/1", "1/2", "2/3", "3/4", "4/5", "5/6"), Params{Fast: 2, Slow: 3, Capital: 1000 * unit, FeeRate: 600_000})
	// Rising from the start: fast is above slow at t=2 already, so no cross ever happens.
	if len(r.Fills) != 0 || r.FinalEquity() != "1000" {
		t.Errorf("fills %v, final equity %s", ledgerLines(r), r.FinalEquity())
	}
}

func TestTooLittleCashBuysNothing(t *testing.T) {
	// 0.00000001 of cash cannot buy 10^-8 of a coin at 9.5.
	r := mustRun(t, hourly(t, fixture...), Params{Fast: 2, Slow: 3, Capital: 1, FeeRate: 0})
	if len(r.Fills) != 0 || r.FinalEquity() != "0.00000001" {
		t.Errorf("fills %v, final equity %s", ledgerLines(r), r.FinalEquity())
	}
}

func TestRunRefuses(t *testing.T) {
	bars := hourly(t, fixture...)
	ok := Params{Fast: 2, Slow: 3, Capital: unit, FeeRate: 0}
	for _, c := range []struct {
		name string
		bars []candles.Bar
		p    func(Params) Params
		want string
	}{
		{"fast not below slow", bars, func(p Params) Params { p.Fast = 3; return p }, "1 <= fast < slow"},
		{"fast 0", bars, func(p Params) Params { p.Fast = 0; return p }, "1 <= fast < slow"},
		{"no capital", bars, func(p Params) Params { p.Capital = 0; return p }, "capital must be above 0"},
		{"fee of 100%", bars, func(p Params) Params { p.FeeRate = unit; return p }, "fee rate"},
		{"negative slippage", bars, func(p Params) Params { p.SlippageBps = -1; return p }, "slippage"},
		{"no candles", nil, func(p Params) Params { return p }, "no candles"},
		{"negative close", append(hourly(t, "1/1"), candles.Bar{Time: t0.Add(time.Hour).UnixNano(), Close: -1}), func(p Params) Params { return p }, "negative or too large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Run(c.bars, c.p(ok)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
}
