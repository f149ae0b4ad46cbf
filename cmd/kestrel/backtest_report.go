package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/shopspring/decimal"

	"kestrel/backtest/smacross"
)

// writeTextReport prints the summary a person reads; --json has every fill.
// width names the candles: a granularity, or CSV for a file.
func writeTextReport(w io.Writer, r smacross.Report, width string) error {
	_, err := fmt.Fprintf(w, `sma-cross %d/%d on %s, %s candles from %s to %s (%d candles)
capital %s, fee %s per fill, slippage %d bps

fills          %d (%d round trips)
final equity   %s
total return   %s
buy and hold   %s (first open to last close, no fees)
fees paid      %s
`, r.Fast, r.Slow, r.Symbol, width, r.Start, r.End, r.Candles,
		r.InitialCapital, percent(r.FeeRate, 4, false), r.SlippageBps,
		len(r.Fills), r.Trades, r.FinalEquity, percent(r.TotalReturn, 2, true), percent(r.BuyAndHoldReturn, 2, true), r.FeesPaid)
	return err
}

// percent writes a fraction as a percentage to places decimals, with a plus
// sign when signed and positive.
func percent(fraction string, places int32, signed bool) string {
	d, err := decimal.NewFromString(fraction)
	if err != nil {
		return fraction
	}
	s := d.Shift(2).Round(places).String() + "%"
	if signed && d.IsPositive() {
		s = "+" + s
	}
	return s
}

// exitError carries the process's exit status with the error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// badInput marks err as the user's to fix: exit status 2.
func badInput(err error) error { return &exitError{code: 2, err: err} }

// exitCode is the status main exits with for err.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}
