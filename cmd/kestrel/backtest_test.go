package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kestrel/backtest/smacross"
)

// The fixture of backtest/smacross's hand-computed ledger, as a CSV.
const fixtureCSV = `timestamp,open,high,low,close,volume
2024-01-01T00:00:00Z,10,10,10,10,1
2024-01-01T01:00:00Z,10,10,9,9,1
2024-01-01T02:00:00Z,9,9,8,8,1
2024-01-01T03:00:00Z,8.5,9,8.5,9,1
2024-01-01T04:00:00Z,9,12,9,12,1
2024-01-01T05:00:00Z,12.5,12.5,11,11,1
2024-01-01T06:00:00Z,11,11,8,8,1
2024-01-01T07:00:00Z,7.5,7.5,7,7,1
2024-01-01T08:00:00Z,7,9,7,9,1
2024-01-01T09:00:00Z,9.5,12,9.5,12,1
2024-01-01T10:00:00Z,12.2,13,12.2,13,1
`

func runCLI(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"backtest"}, args...), strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestBacktestCSVAsJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fixture.csv")
	if err := os.WriteFile(path, []byte(fixtureCSV), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "", "--csv", path, "--fast", "2", "--slow", "3", "--capital", "1000", "--fee", "0.01", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep smacross.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got, want := rep.FinalEquity, "614.27439612"; got != want {
		t.Errorf("final_equity = %s, want %s", got, want)
	}
	if len(rep.Fills) != 4 || rep.Fills[0] != (smacross.FillReport{Side: "BUY", Time: "2024-01-01T05:00:00Z", Price: "12.5", Quantity: "79.20792079", Fee: "9.9009901"}) ||
		!rep.Fills[3].EndOfData {
		t.Errorf("fills = %+v", rep.Fills)
	}
	if rep.Symbol != "fixture.csv" || rep.Candles != 11 {
		t.Errorf("symbol %q, candles %d", rep.Symbol, rep.Candles)
	}
}

func TestBacktestCSVFromStdinAsText(t *testing.T) {
	out, _, err := runCLI(t, fixtureCSV, "--csv", "-", "--fast", "2", "--slow", "3", "--capital", "1000", "--fee", "0.01")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sma-cross 2/3 on -, CSV candles", "fills          4 (2 round trips)", "final equity   614.27439612",
		"total return   -38.57%", "buy and hold   +30%", "fees paid      27.86933457", "fee 1% per fill"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestBacktestShippedCandles(t *testing.T) {
	out, _, err := runCLI(t, "", "--symbol", "ETH-USD", "--from", "2025-01-01", "--to", "2025-01-31", "--granularity", "ONE_HOUR")
	if err != nil {
		t.Fatal(err)
	}
	// 31 days of hours, the fee defaulting to the sandbox taker fee.
	for _, want := range []string{"sma-cross 10/20 on ETH-USD, ONE_HOUR candles from 2025-01-01T00:00:00Z to 2025-01-31T23:00:00Z (744 candles)",
		"capital 10000, fee 0.6% per fill"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestBacktestRefuses(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.csv")
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("time,open,high,low,close,volume\n1714000000,1,1,1,1,1\n1714000060,1,1,x,1,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"an unknown strategy", []string{"--strategy", "my_rsi"}, "strategy my_rsi: use sma-cross, technical, ai or hybrid here (a named instance with its own settings is backtested by the server: POST /api/backtests)"},
		{"unknown flag", []string{"--bogus"}, "flag provided but not defined"},
		{"stray argument", []string{"BTC-USD"}, `unexpected argument "BTC-USD"`},
		{"csv and symbol", []string{"--csv", bad, "--symbol", "ETH-USD"}, "--symbol applies to the shipped candles"},
		{"bad CSV line", []string{"--csv", bad}, `bad.csv: line 3: column "low": "x" is not a number`},
		{"missing file", []string{"--csv", missing}, "no such file"},
		{"unknown symbol", []string{"--symbol", "DOGE-USD"}, "--symbol DOGE-USD"},
		{"bad date", []string{"--from", "2025-13-01"}, `--from "2025-13-01": want YYYY-MM-DD`},
		{"empty period", []string{"--from", "2025-02-01", "--to", "2025-01-01"}, "empty period: --from 2025-02-01 is after --to 2025-01-01"},
		{"before the data", []string{"--to", "2020-01-01"}, "empty period: --from 2024-04-18 is after --to 2020-01-01"},
		{"no data in the period", []string{"--from", "2020-01-01", "--to", "2020-01-31"}, "no BTC-USD candles from 2020-01-01 to 2020-01-31"},
		{"finer than the data", []string{"--granularity", "FIVE_MINUTE"}, "the shipped candles are 15-minute"},
		{"bad capital", []string{"--capital", "ten"}, `--capital: "ten" is not a number`},
		{"fee too precise", []string{"--fee", "0.0000000001"}, "--fee: \"0.0000000001\" has more than 8 decimal places"},
		{"slow not above fast", []string{"--fast", "20", "--slow", "10"}, "1 <= fast < slow"},
		{"no capital", []string{"--capital", "0"}, "capital must be above 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, _, err := runCLI(t, "", c.args...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if code := exitCode(err); code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing", out)
			}
		})
	}
}

func TestBacktestHelp(t *testing.T) {
	_, stderr, err := runCLI(t, "", "-h")
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr, "Usage: kestrel backtest") {
		t.Errorf("err %v, stderr %q", err, stderr)
	}
}

// The product's strategies run through the server's backtest engine.
func TestBacktestRunsTheProductStrategies(t *testing.T) {
	for _, s := range []string{"technical", "hybrid"} {
		var out, errOut bytes.Buffer
		err := backtestCmd([]string{"--strategy", s, "--symbol", "ETH-USD", "--from", "2025-01-01", "--to", "2025-03-15", "--granularity", "ONE_HOUR", "--json"},
			strings.NewReader(""), &out, &errOut)
		if err != nil {
			t.Fatalf("%s: %v (%s)", s, err, errOut.String())
		}
		var res struct {
			Status      string `json:"status"`
			Candles     int    `json:"candles"`
			FinalEquity string `json:"final_equity"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Status != "completed" || res.Candles < 900 || res.FinalEquity == "" {
			t.Fatalf("%s: %+v %v", s, res, err)
		}
	}
}

// The text report of a product strategy says what its buy and hold
// figure pays (the spread, slippage and fees, as a trade), and the help
// says where each path's slippage applies.
func TestBacktestTextSaysWhatBuyAndHoldPays(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := backtestCmd([]string{"--strategy", "technical", "--symbol", "ETH-USD", "--from", "2025-01-01", "--to", "2025-03-15", "--granularity", "ONE_HOUR"},
		strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("%v (%s)", err, errOut.String())
	}
	if s := out.String(); strings.Contains(s, "no fees") || !strings.Contains(s, "(first open to last close, paying the spread, slippage and fees as a trade does)") {
		t.Errorf("report:\n%s", s)
	}
	_, stderr, _ := runCLI(t, "", "-h")
	if strings.Contains(stderr, "buys pay open x (1 + bps/10000), sells") || !strings.Contains(stderr, "beyond the ask and bid") {
		t.Errorf("help:\n%s", stderr)
	}
}
