// Command kestrel runs the Kestrel trading dashboard: the API, the realtime
// socket and the embedded web app, all in one process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"kestrel/app"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "kestrel:", err)
		os.Exit(exitCode(err))
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, stderr)
	case "user":
		return userCmd(ctx, args, stdin, stdout, stderr)
	case "backtest":
		return backtestCmd(args, stdin, stdout, stderr)
	case "sweep":
		return sweepCmd(args, stdin, stdout, stderr)
	case "rekey":
		return rekeyCmd(ctx, args, stdout, stderr)
	case "version":
		b := buildInfo()
		fmt.Fprintf(stdout, "kestrel %s (commit %s, built %s, %s)\n", b.Version, b.Commit, b.BuildTime, b.GoVersion)
		return nil
	case "help":
		return serve(ctx, []string{"-help"}, stderr)
	}
	return fmt.Errorf("unknown command %q (commands: serve, user, backtest, sweep, rekey, version)", cmd)
}

func serve(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("kestrel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := bindConfig(fs)
	pprofAddr := fs.String("pprof-addr", env("KESTREL_PPROF_ADDR", ""), "loopback address serving Go's profiler (/debug/pprof/), for measurements; empty: off [KESTREL_PPROF_ADDR]")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: kestrel [serve] [flags]
       kestrel user add --email E --name N [--role trader|operator] [--password P]
       kestrel backtest [--symbol S --from YYYY-MM-DD --to YYYY-MM-DD | --csv FILE] [flags] (kestrel backtest -h)
       kestrel sweep --strategy technical --grid rsi_period=7,14,21 --objective sharpe [flags] (kestrel sweep -h)
       kestrel rekey [--new-key K] (re-seal stored credentials under a new key; kestrel rekey -h)
       kestrel version

Serves the Kestrel API and web app. Every flag can also be set by the
environment variable shown; a flag wins over its variable.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	logLevel, book, err := setupLogging(cfg.LogLevel, stderr)
	if err != nil {
		return err
	}
	cfg.LogLevelVar, cfg.LogBook = logLevel, book
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	a, err := app.New(ctx, *cfg, buildInfo(), webUI())
	if err != nil {
		return err
	}
	if *pprofAddr != "" {
		stopProfiler, err := serveProfiler(*pprofAddr)
		if err != nil {
			a.Close()
			return err
		}
		defer stopProfiler()
	}
	runErr := a.Run(ctx)
	return errors.Join(runErr, a.Close())
}
