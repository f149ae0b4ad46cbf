package promotion

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/marketdata"
	"kestrel/strategy"
)

// DriftReporter makes the drift reports of paper stages (Deps.Drift) from
// what the stages stored, backtests and the stored candles.
type DriftReporter struct {
	Store interface {
		Evaluations(ctx context.Context, f domain.EvaluationFilter) ([]domain.Evaluation, error)
		domain.LedgerAccounts
	}
	// Config is a strategy's configuration at a version.
	Config    func(ctx context.Context, name string, version int) (strategy.Config, error)
	Backtests interface {
		Start(ctx context.Context, a backtest.Ask, o backtest.RunOptions) (backtest.Report, error)
	}
	History interface {
		Candles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) (marketdata.Window, error)
	}
	// Market is what the paper venue trades on now: replay or coinbase.
	Market func() string
	// ReplayDataTime is the data time the replay showed at a market time.
	ReplayDataTime func(time.Time) time.Time
}

// maxDriftRows bounds what one report reads of a stage's evaluations and
// fills (per symbol and per side).
const maxDriftRows = 100_000

// Report makes a paper stage's drift report: a backtest of the same
// version over the window of candles the stage evaluated, per symbol,
// joined with the stage's evaluations and fills.
func (r DriftReporter) Report(ctx context.Context, p domain.Promotion) (DriftReport, error) {
	cfg, err := r.Config(ctx, p.Strategy, p.Version)
	if err != nil {
		return DriftReport{}, err
	}
	rep := DriftReport{Promotion: p, Market: p.Market, Timeframe: cfg.Timeframe, Symbols: []SymbolDrift{}}
	now := r.Market()
	if rep.Market == "" {
		rep.Market = now
	}
	toData := func(m time.Time) time.Time { return m }
	if rep.Market == "replay" {
		toData = r.ReplayDataTime
	}
	evs, err := r.Store.Evaluations(ctx, domain.EvaluationFilter{Account: p.Account, Strategy: p.Strategy, Limit: maxDriftRows})
	if err != nil {
		return DriftReport{}, err
	}
	if len(evs) == 0 {
		rep.Notes = []string{"The paper stage has not evaluated a closed candle yet: there is no window to backtest."}
		return rep, nil
	}
	w := domain.Granularity(cfg.Timeframe).Duration()
	from, to := evs[0].CandleTime, evs[0].CandleTime
	for _, e := range evs {
		from, to = minTime(from, e.CandleTime), maxTime(to, e.CandleTime)
	}
	to = to.Add(w)
	offset := from.Sub(toData(from)) // market time minus data time (constant inside one loop of the replay)
	dFrom, dTo := from.Add(-offset), to.Add(-offset)
	rep.From, rep.To, rep.DataFrom, rep.DataTo = &from, &to, &dFrom, &dTo
	ledger := r.Store.LedgerFor(p.Account)
	for _, sym := range cfg.Symbols {
		in := DriftInput{Symbol: sym, Width: w, Backtest: map[time.Time]Decision{}}
		for _, e := range evs {
			if e.Symbol == sym {
				in.Paper = append(in.Paper, e)
			}
		}
		if in.PaperFills, err = ledger.LedgerFills(ctx, domain.FillFilter{Symbol: sym, Limit: maxDriftRows}); err != nil {
			return DriftReport{}, err
		}
		// One candle past the window: a backtest evaluates a candle at the
		// next one's open, as the paper stage evaluates it once it closed.
		ask := backtest.Ask{StrategyName: p.Strategy, Symbol: sym, StartDate: dFrom.Format(time.RFC3339), EndDate: dTo.Add(w).Format(time.RFC3339),
			InitialCapital: p.StartingUSD, StrategyVersion: p.Version}
		bt, err := r.Backtests.Start(ctx, ask, backtest.RunOptions{Discard: true, AnyLength: true, Decision: func(c time.Time, d string, conf float64) {
			in.Backtest[c.Add(offset)] = Decision{Decision: d, Confidence: conf}
		}})
		why := ""
		if err != nil {
			if code := domain.ErrorCode(err); code != domain.EInvalid && code != domain.ENotFound {
				return DriftReport{}, err
			}
			why, in.Backtest = "No backtest of this window: "+domain.ErrorMessage(err), nil
		}
		for _, f := range bt.Fills {
			f.Time = f.Time.Add(offset)
			in.BacktestFills = append(in.BacktestFills, f)
		}
		in.Mark = r.lastClose(ctx, sym, domain.Granularity(cfg.Timeframe), dTo.Add(-w), dTo)
		d := DriftOf(in)
		d.Error = why
		rep.Symbols = append(rep.Symbols, d)
	}
	rep.Notes = Notes(rep)
	if now != rep.Market {
		rep.Notes = append(rep.Notes, fmt.Sprintf("The paper stage began on the %s market and the paper venue now trades on the %s one: the backtest follows where it began, so the candles it evaluated since the change were not the ones compared.", rep.Market, now))
	}
	return rep, nil
}

// lastClose is the close of the stored candle opening in [from, to), or nil.
func (r DriftReporter) lastClose(ctx context.Context, sym string, g domain.Granularity, from, to time.Time) *decimal.Decimal {
	win, err := r.History.Candles(ctx, sym, g, from, to)
	if err != nil || len(win.Candles) == 0 {
		return nil
	}
	c := win.Candles[len(win.Candles)-1].Close
	return &c
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
