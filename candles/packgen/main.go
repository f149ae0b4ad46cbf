// Command packgen packs the shipped candle CSVs (candles/data/*-15m.csv.gz)
// into the form the binary embeds (*.kcp beside them); `go generate
// ./candles` runs it from the candles directory. The packed files are
// committed, and candles' tests check them against the CSVs.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kestrel/candles"
)

func main() {
	paths, err := filepath.Glob(filepath.Join("data", "*-15m.csv.gz"))
	if err == nil && len(paths) == 0 {
		err = fmt.Errorf("no data/*-15m.csv.gz here (run from the candles directory)")
	}
	for _, p := range paths {
		if err != nil {
			break
		}
		err = packOne(p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "packgen:", err)
		os.Exit(1)
	}
}

func packOne(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	packed, err := candles.PackCSV(zr)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	out := strings.TrimSuffix(path, ".csv.gz") + ".kcp"
	if err := os.WriteFile(out, packed, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d bytes (%d gzip CSV)\n", out, len(packed), len(raw))
	return nil
}
