package promotion

import (
	"context"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
)

// The drift report (docs/ANALYTICS.md, "Drift report") compares what a
// paper stage did with a backtest of the same version over the same
// window, decision by decision: joined on (symbol, candle time), the open
// time of the closed candle each side evaluated.

// Decision is one side's evaluation of a candle.
type Decision struct {
	Decision   string  `json:"decision"`
	Confidence float64 `json:"confidence"`
}

// PaperDecision is the paper stage's evaluation, with what became of it.
type PaperDecision struct {
	Decision
	Executed bool   `json:"executed"`
	Reason   string `json:"reason,omitempty"`
	OrderID  string `json:"order_id,omitempty"`
}

// FillSummary is the fills of one decision on one side: total quantity,
// their volume-weighted price and the fees.
type FillSummary struct {
	Side     domain.Side     `json:"side"`
	Time     time.Time       `json:"time"`
	Quantity decimal.Decimal `json:"quantity"`
	Price    decimal.Decimal `json:"price"`
	Fee      decimal.Decimal `json:"fee"`
	Fills    int             `json:"fills"`
}

// DriftRow is one candle either side evaluated.
type DriftRow struct {
	CandleTime time.Time      `json:"candle_time"`
	Paper      *PaperDecision `json:"paper"`    // null: the paper stage did not evaluate it
	Backtest   *Decision      `json:"backtest"` // null: the backtest did not
	// Agree: both evaluated it and decided the same.
	Agree        bool         `json:"agree"`
	PaperFill    *FillSummary `json:"paper_fill"`
	BacktestFill *FillSummary `json:"backtest_fill"`
	// SlippageBps is the paper fill's price against the backtest's, in
	// basis points, positive when paper did worse (paid more on a BUY,
	// got less on a SELL); null unless both filled.
	SlippageBps *decimal.Decimal `json:"slippage_bps"`
}

// SideTotals sums one side's decisions and fills over the window.
type SideTotals struct {
	Evaluations int             `json:"evaluations"`
	Buys        int             `json:"buy_signals"`
	Sells       int             `json:"sell_signals"`
	Fills       int             `json:"fills"`
	Bought      decimal.Decimal `json:"bought_quantity"`
	Sold        decimal.Decimal `json:"sold_quantity"`
	Fees        decimal.Decimal `json:"fees"`
	// NetCash is what the fills paid and received: sales minus purchases
	// minus fees.
	NetCash      decimal.Decimal `json:"net_cash"`
	OpenQuantity decimal.Decimal `json:"open_quantity"` // bought - sold
	// PnL is NetCash plus the open quantity valued at the mark (the close
	// of the window's last candle); null without a mark.
	PnL *decimal.Decimal `json:"pnl"`
}

// OtherFill is a fill no evaluation of the window explains: a protective
// order's (stop-loss, take-profit), or the backtest's own.
type OtherFill struct {
	Side     domain.Side     `json:"side"`
	Time     time.Time       `json:"time"`
	Quantity decimal.Decimal `json:"quantity"`
	Price    decimal.Decimal `json:"price"`
	Fee      decimal.Decimal `json:"fee"`
	Reason   string          `json:"reason"`
}

// SymbolDrift is the report of one symbol.
type SymbolDrift struct {
	Symbol string `json:"symbol"`
	// Error says why this symbol has no backtest side (no candles stored
	// for the window, say); the paper side is still shown.
	Error    string     `json:"error,omitempty"`
	Rows     []DriftRow `json:"rows"`
	Paper    SideTotals `json:"paper"`
	Backtest SideTotals `json:"backtest"`
	// Compared: candles both evaluated; Agreed: of them, the same decision.
	Compared     int `json:"compared"`
	Agreed       int `json:"agreed"`
	OnlyPaper    int `json:"only_paper"`
	OnlyBacktest int `json:"only_backtest"`
	// MeanSlippageBps is the mean of the rows' slippage (null: none).
	MeanSlippageBps *decimal.Decimal `json:"mean_slippage_bps"`
	PaperOther      []OtherFill      `json:"paper_other_fills"`
	BacktestOther   []OtherFill      `json:"backtest_other_fills"`
	Mark            *decimal.Decimal `json:"mark"`
}

// DriftInput is what one symbol's report is made of; times are in the
// paper stage's market time (the backtest's already shifted to it).
type DriftInput struct {
	Symbol        string
	Width         time.Duration // the timeframe: a signal fills at the next open
	Paper         []domain.Evaluation
	PaperFills    []domain.Fill
	Backtest      map[time.Time]Decision
	BacktestFills []backtest.Fill
	Mark          *decimal.Decimal
}

// DriftOf joins one symbol's two sides.
func DriftOf(in DriftInput) SymbolDrift {
	out := SymbolDrift{Symbol: in.Symbol, Rows: []DriftRow{}, PaperOther: []OtherFill{}, BacktestOther: []OtherFill{}, Mark: in.Mark}
	byOrder := map[string][]domain.Fill{}
	for _, f := range in.PaperFills {
		byOrder[f.OrderID] = append(byOrder[f.OrderID], f)
	}
	rows := map[time.Time]*DriftRow{}
	row := func(t time.Time) *DriftRow {
		if r, ok := rows[t]; ok {
			return r
		}
		r := &DriftRow{CandleTime: t}
		rows[t] = r
		return r
	}
	usedOrder := map[string]bool{}
	for _, e := range in.Paper {
		r := row(e.CandleTime)
		r.Paper = &PaperDecision{Decision: Decision{e.Decision, e.Confidence}, Executed: e.Executed, Reason: e.Reason, OrderID: e.OrderID}
		if fs := byOrder[e.OrderID]; e.OrderID != "" && len(fs) > 0 {
			r.PaperFill, usedOrder[e.OrderID] = summarisePaper(fs), true
		}
	}
	for t, d := range in.Backtest {
		r := row(t)
		b := d
		r.Backtest = &b
	}
	signal := map[time.Time][]backtest.Fill{}
	for _, f := range in.BacktestFills {
		if f.Reason == "signal" {
			signal[f.Time] = append(signal[f.Time], f)
		} else {
			out.BacktestOther = append(out.BacktestOther, OtherFill{f.Side, f.Time, f.Quantity, f.Price, f.Fee, f.Reason})
		}
	}
	for t, fs := range signal {
		if r, ok := rows[t.Add(-in.Width)]; ok && r.Backtest != nil {
			r.BacktestFill = summariseBacktest(fs)
			continue
		}
		for _, f := range fs {
			out.BacktestOther = append(out.BacktestOther, OtherFill{f.Side, f.Time, f.Quantity, f.Price, f.Fee, f.Reason})
		}
	}
	for _, f := range in.PaperFills {
		if !usedOrder[f.OrderID] {
			out.PaperOther = append(out.PaperOther, OtherFill{f.Side, f.Time, f.Quantity, f.Price, f.Fee, "not from an evaluation of the window (a protective order)"})
		}
	}
	var slips []decimal.Decimal
	for _, r := range rows {
		switch {
		case r.Paper != nil && r.Backtest != nil:
			out.Compared++
			if r.Agree = r.Paper.Decision.Decision == r.Backtest.Decision; r.Agree {
				out.Agreed++
			}
		case r.Paper != nil:
			out.OnlyPaper++
		default:
			out.OnlyBacktest++
		}
		if r.PaperFill != nil && r.BacktestFill != nil && r.PaperFill.Side == r.BacktestFill.Side && r.BacktestFill.Price.IsPositive() {
			s := r.PaperFill.Price.Sub(r.BacktestFill.Price).Div(r.BacktestFill.Price).Mul(decimal.NewFromInt(10000))
			if r.PaperFill.Side == domain.Sell {
				s = s.Neg()
			}
			s = s.Round(2)
			r.SlippageBps = &s
			slips = append(slips, s)
		}
		out.Rows = append(out.Rows, *r)
	}
	sort.Slice(out.Rows, func(i, j int) bool { return out.Rows[i].CandleTime.Before(out.Rows[j].CandleTime) })
	if len(slips) > 0 {
		sum := decimal.Zero
		for _, s := range slips {
			sum = sum.Add(s)
		}
		m := sum.Div(decimal.NewFromInt(int64(len(slips)))).Round(2)
		out.MeanSlippageBps = &m
	}
	out.Paper = paperTotals(in.Paper, in.PaperFills, in.Mark)
	out.Backtest = backtestTotals(in.Backtest, in.BacktestFills, in.Mark)
	return out
}

func summarisePaper(fs []domain.Fill) *FillSummary {
	s := &FillSummary{Side: fs[0].Side, Time: fs[0].Time}
	notional := decimal.Zero
	for _, f := range fs {
		s.Quantity, s.Fee, s.Fills = s.Quantity.Add(f.Quantity), s.Fee.Add(f.Fee), s.Fills+1
		notional = notional.Add(f.Quantity.Mul(f.Price))
		if f.Time.Before(s.Time) {
			s.Time = f.Time
		}
	}
	if s.Quantity.IsPositive() {
		s.Price = notional.Div(s.Quantity).Round(8)
	}
	return s
}

func summariseBacktest(fs []backtest.Fill) *FillSummary {
	ds := make([]domain.Fill, len(fs))
	for i, f := range fs {
		ds[i] = domain.Fill{Side: f.Side, Time: f.Time, Quantity: f.Quantity, Price: f.Price, Fee: f.Fee}
	}
	return summarisePaper(ds)
}

// totals adds up fills as cash: what they paid and received, fees, and the
// quantity still held, valued at the mark.
func totals(t *SideTotals, fills []domain.Fill, mark *decimal.Decimal) {
	t.Fills = len(fills)
	for _, f := range fills {
		v := f.Quantity.Mul(f.Price)
		if f.Side == domain.Buy {
			t.Bought, t.NetCash = t.Bought.Add(f.Quantity), t.NetCash.Sub(v)
		} else {
			t.Sold, t.NetCash = t.Sold.Add(f.Quantity), t.NetCash.Add(v)
		}
		t.Fees = t.Fees.Add(f.Fee)
	}
	t.NetCash = t.NetCash.Sub(t.Fees)
	t.OpenQuantity = t.Bought.Sub(t.Sold)
	if mark != nil {
		p := t.NetCash.Add(t.OpenQuantity.Mul(*mark)).Round(8)
		t.PnL = &p
	}
}

func paperTotals(evs []domain.Evaluation, fills []domain.Fill, mark *decimal.Decimal) SideTotals {
	t := SideTotals{Evaluations: len(evs)}
	for _, e := range evs {
		countSignal(&t, e.Decision)
	}
	totals(&t, fills, mark)
	return t
}

// backtestTotals leaves out the backtest's closing fill at the end of the
// data (the paper stage has none): its open quantity is valued at the mark
// like the paper stage's.
func backtestTotals(ds map[time.Time]Decision, fills []backtest.Fill, mark *decimal.Decimal) SideTotals {
	t := SideTotals{Evaluations: len(ds)}
	for _, d := range ds {
		countSignal(&t, d.Decision)
	}
	var fs []domain.Fill
	for _, f := range fills {
		if f.Reason != "end_of_data" {
			fs = append(fs, domain.Fill{Side: f.Side, Time: f.Time, Quantity: f.Quantity, Price: f.Price, Fee: f.Fee})
		}
	}
	totals(&t, fs, mark)
	return t
}

func countSignal(t *SideTotals, d string) {
	switch d {
	case "BUY":
		t.Buys++
	case "SELL":
		t.Sells++
	}
}

// DriftReport is a paper stage against a backtest of the same version
// over the same window.
type DriftReport struct {
	Promotion domain.Promotion `json:"promotion"`
	// From and To are the window in the paper stage's market time: from
	// the first candle it evaluated to the end of the last (null before
	// its first evaluation).
	From *time.Time `json:"from"`
	To   *time.Time `json:"to"`
	// Market is what the paper stage traded on: replay or coinbase.
	Market string `json:"market"`
	// DataFrom and DataTo are the window the backtest read in the candle
	// store: on the replay, the real dates of the history it replayed.
	DataFrom  *time.Time    `json:"data_from"`
	DataTo    *time.Time    `json:"data_to"`
	Timeframe string        `json:"timeframe"`
	Symbols   []SymbolDrift `json:"symbols"`
	// Notes explain where the differences come from, as far as the figures
	// tell (docs/ANALYTICS.md).
	Notes []string `json:"notes"`
}

// Drift reports a stage of the strategy against a backtest of its window.
func (s *Service) Drift(ctx context.Context, name, id string) (DriftReport, error) {
	p, err := s.Get(ctx, name, id)
	if err != nil {
		return DriftReport{}, err
	}
	if p.Stage != domain.StagePaper {
		return DriftReport{}, domain.Errorf(domain.EInvalid, "A drift report compares a paper stage with a backtest; this is a %s stage", p.Stage)
	}
	if s.d.Drift == nil {
		return DriftReport{}, domain.Errorf(domain.EUnavailable, "Drift reports are not available on this server")
	}
	return s.d.Drift(ctx, p)
}

// Notes says where a report's differences come from.
func Notes(r DriftReport) []string {
	notes := []string{
		"Fills: the backtest fills a signal at the next candle's open with the live half-spread and its fees; the paper stage's market order fills at the price when the engine placed it, after the candle closed.",
	}
	if r.Market == "replay" {
		notes = append(notes, "Data: the paper stage traded on the replay, whose 15-minute and wider candles are the stored history shifted to the present; the backtest reads the same history at its real dates ("+
			"data_from to data_to). Its one- and five-minute candles are cut from generated paths on both sides.")
	} else {
		notes = append(notes, "Data: the paper stage saw Coinbase's live ticks; the backtest reads the candles stored for the window, which a backfill may have filled or repaired since. Decisions that differ on the same candle come from different candles.")
	}
	symbols, compared, agreed, onlyPaper, onlyBT := 0, 0, 0, 0, 0
	for _, s := range r.Symbols {
		symbols++
		compared, agreed, onlyPaper, onlyBT = compared+s.Compared, agreed+s.Agreed, onlyPaper+s.OnlyPaper, onlyBT+s.OnlyBacktest
	}
	if symbols > 1 {
		notes = append(notes, "Sizing: the paper stage's symbols share one account, the backtest runs each symbol alone on the whole starting balance, so quantities differ even where decisions agree.")
	}
	if onlyPaper+onlyBT > 0 {
		notes = append(notes, "Candles only one side evaluated: the paper stage evaluates a candle once it has closed while it runs (not while the server was down or before it started), the backtest every candle of the window after its warm-up.")
	}
	if compared > agreed {
		notes = append(notes, "Different decisions on the same candle: the two sides read different candles (see Data) or different positions (a decision depends on what is held).")
	}
	return notes
}
