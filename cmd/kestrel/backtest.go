package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"kestrel/app"
	"kestrel/backtest/smacross"
	"kestrel/candles"
	"kestrel/domain"
)

const backtestUsage = `Usage: kestrel backtest [--strategy sma-cross|technical|ai|hybrid] [--symbol BTC-USD] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                        [--granularity FIFTEEN_MINUTE] [--csv FILE] [--capital 10000] [--fee 0.006]
                        [--slippage-bps 0] [--fast 10] [--slow 20] [--json]

Backtests the sma-cross reference strategy (backtest/smacross documents its
exact rules), or the technical, AI (built-in analyst) or hybrid strategy with
their default settings through the server's backtest engine (signals fill at
the next open at the ask or bid, stops at their price; every fill within its
candle's low and high), over the shipped
candles of a symbol, from --from to --to
inclusive (whole UTC days; default all of the history), or over any OHLCV CSV
with a header row (--csv FILE, "-" for standard input). Prints a text report,
or the full result with every fill as JSON (--json). Bad flags or input exit
with status 2.

`

// backtestOptions are the parsed flags of kestrel backtest.
type backtestOptions struct {
	strategy, symbol, from, to, csv string
	granularity                     domain.Granularity
	params                          smacross.Params
	json                            bool
}

// backtestCmd runs `kestrel backtest`; errors it returns for bad flags or
// input carry exit status 2.
func backtestCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o, err := parseBacktestFlags(args, stderr)
	if err != nil {
		return err
	}
	bars, name, err := o.load(stdin)
	if err != nil {
		return badInput(err)
	}
	if o.strategy != "sma-cross" {
		return runStrategyBacktest(o, bars, name, stdout)
	}
	r, err := smacross.Run(bars, o.params)
	if err != nil {
		return badInput(err)
	}
	w := bufio.NewWriterSize(stdout, 64*1024)
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(r.Report(name))
	} else {
		err = writeTextReport(w, r.Report(name), o.width())
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

func parseBacktestFlags(args []string, stderr io.Writer) (*backtestOptions, error) {
	fs := flag.NewFlagSet("kestrel backtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, backtestUsage); fs.PrintDefaults() }
	o := &backtestOptions{}
	var granularity, capital, fee string
	var slippage int64
	fs.StringVar(&o.strategy, "strategy", "sma-cross", "sma-cross (the reference), or technical, ai or hybrid with their default settings")
	fs.StringVar(&o.symbol, "symbol", "BTC-USD", "symbol of the shipped candles: BTC-USD, ETH-USD, SOL-USD, ADA-USD")
	fs.StringVar(&o.from, "from", "", "first day, YYYY-MM-DD (default: the start of the shipped data)")
	fs.StringVar(&o.to, "to", "", "last day, included, YYYY-MM-DD (default: the end of the shipped data)")
	fs.StringVar(&granularity, "granularity", string(domain.FifteenMinute), "candle width for the shipped data: FIFTEEN_MINUTE, THIRTY_MINUTE, ONE_HOUR, TWO_HOUR, SIX_HOUR or ONE_DAY")
	fs.StringVar(&o.csv, "csv", "", `OHLCV CSV file with a header row instead of the shipped data ("-": standard input)`)
	fs.StringVar(&capital, "capital", "10000", "starting cash in the quote currency")
	fs.StringVar(&fee, "fee", app.Defaults().TakerFee, "fee rate per fill (default: the sandbox taker fee)")
	fs.Int64Var(&slippage, "slippage-bps", 0, "slippage in basis points: sma-cross buys pay open x (1 + bps/10000) and sells get open x (1 - bps/10000); technical, ai and hybrid pay it beyond the ask and bid (the live half-spread around the open), every fill within its candle's low and high")
	fs.IntVar(&o.params.Fast, "fast", 10, "fast SMA length in candles")
	fs.IntVar(&o.params.Slow, "slow", 20, "slow SMA length in candles")
	fs.BoolVar(&o.json, "json", false, "print the full result as JSON")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, err
		}
		return nil, badInput(err)
	}
	if fs.NArg() > 0 {
		return nil, badInput(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.granularity = domain.Granularity(granularity)
	o.params.SlippageBps = slippage
	if err := o.check(set, capital, fee); err != nil {
		return nil, badInput(err)
	}
	return o, nil
}

// check validates the flags together and reads the amounts.
func (o *backtestOptions) check(set map[string]bool, capital, fee string) error {
	if _, product := strategyKinds[o.strategy]; o.strategy != "sma-cross" && !product {
		return fmt.Errorf("strategy %s: use sma-cross, technical, ai or hybrid here (a named instance with its own settings is backtested by the server: POST /api/backtests)", o.strategy)
	}
	if o.csv != "" {
		for _, name := range []string{"symbol", "from", "to", "granularity"} {
			if set[name] {
				return fmt.Errorf("--%s applies to the shipped candles; with --csv the file is used as it is", name)
			}
		}
	}
	if d := o.granularity.Duration(); d < candles.Width || d%candles.Width != 0 {
		return fmt.Errorf("granularity %q: the shipped candles are 15-minute, use FIFTEEN_MINUTE, THIRTY_MINUTE, ONE_HOUR, TWO_HOUR, SIX_HOUR or ONE_DAY", o.granularity)
	}
	var err error
	if o.params.Capital, err = smacross.ParseFixed(capital); err != nil {
		return fmt.Errorf("--capital: %w", err)
	}
	if o.params.FeeRate, err = smacross.ParseFixed(fee); err != nil {
		return fmt.Errorf("--fee: %w", err)
	}
	return nil
}

func (o *backtestOptions) width() string {
	if o.csv != "" {
		return "CSV"
	}
	return string(o.granularity)
}

// load returns the candles to test and a name for them.
func (o *backtestOptions) load(stdin io.Reader) ([]candles.Bar, string, error) {
	if o.csv != "" {
		return loadCSV(o.csv, stdin)
	}
	s, err := candles.Load(o.symbol)
	if err != nil {
		return nil, "", fmt.Errorf("--symbol %s: %w (shipped: %v)", o.symbol, err, candles.Symbols())
	}
	from, to, err := o.period(s)
	if err != nil {
		return nil, "", err
	}
	bars := s.Bars(from, to)
	if o.granularity != domain.FifteenMinute {
		bars = candles.Aggregate(bars, o.granularity.Duration())
	}
	if len(bars) == 0 {
		return nil, "", fmt.Errorf("no %s candles from %s to %s (the data covers %s to %s)", o.symbol,
			from.Format(time.DateOnly), to.Add(-time.Nanosecond).Format(time.DateOnly), s.First().Format(time.DateOnly), s.End().Format(time.DateOnly))
	}
	return bars, o.symbol, nil
}

// period is [from, to) for the day flags: to is the day after --to.
func (o *backtestOptions) period(s *candles.Series) (time.Time, time.Time, error) {
	from, to := s.First(), s.End()
	var err error
	if o.from != "" {
		if from, err = time.Parse(time.DateOnly, o.from); err != nil {
			return from, to, fmt.Errorf("--from %q: want YYYY-MM-DD", o.from)
		}
	}
	if o.to != "" {
		if to, err = time.Parse(time.DateOnly, o.to); err != nil {
			return from, to, fmt.Errorf("--to %q: want YYYY-MM-DD", o.to)
		}
		to = to.AddDate(0, 0, 1)
	}
	if !from.Before(to) {
		return from, to, fmt.Errorf("empty period: --from %s is after --to %s", from.Format(time.DateOnly), to.Add(-time.Nanosecond).Format(time.DateOnly))
	}
	return from, to, nil
}

func loadCSV(path string, stdin io.Reader) ([]candles.Bar, string, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		r = f
	}
	bars, err := candles.ReadOHLCV(r)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if len(bars) == 0 {
		return nil, "", fmt.Errorf("%s: no candles after the header", path)
	}
	return bars, filepath.Base(path), nil
}
