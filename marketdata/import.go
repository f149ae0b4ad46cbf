package marketdata

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"kestrel/candles"
	"kestrel/domain"
)

// ShippedSource is the source recorded for the candles shipped in the binary.
const ShippedSource = "coinbase (shipped)"

// Imported says what an import did.
type Imported struct {
	Candles  int           // rows written
	Symbols  []string      // symbols that were imported (already complete ones are skipped)
	Duration time.Duration // wall time of the whole import
}

// ImportShipped stores the shipped candles of every symbol the store does
// not hold yet (see the package doc).
func ImportShipped(ctx context.Context, st domain.CandleStore) (Imported, error) {
	began := time.Now()
	var out Imported
	for _, sym := range candles.Symbols() {
		s, err := candles.Load(sym)
		if err != nil {
			return out, err
		}
		// The check reads the series' two ends; the bars are built only to be
		// written (building them at every start took most of a restart's time
		// after the parse).
		done, err := complete(ctx, st, sym, s)
		if err != nil {
			return out, err
		}
		if done {
			continue
		}
		bars := s.Bars(s.First(), s.End())
		n, err := st.InsertCandles(ctx, sym, domain.FifteenMinute, ShippedSource, rows(bars))
		if err != nil {
			return out, fmt.Errorf("import %s candles: %w", sym, err)
		}
		out.Candles += n
		out.Symbols = append(out.Symbols, sym)
	}
	out.Duration = time.Since(began)
	return out, nil
}

// complete reports whether the store already holds the shipped candles of
// sym: its stored history reaches from the first shipped candle to the
// last. A symbol is imported in one transaction, whole or not at all, and
// the import is the first thing a start writes, so the two ends stand for
// everything in between; reading them costs two index lookups, where
// counting the rows would read them all at every start.
func complete(ctx context.Context, st domain.CandleStore, sym string, s *candles.Series) (bool, error) {
	if s.Len() == 0 {
		return true, nil
	}
	first, last, err := st.CandleBounds(ctx, sym, domain.FifteenMinute)
	if domain.ErrorCode(err) == domain.ENotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !first.After(s.First()) && !last.Before(s.End().Add(-candles.Width)), nil
}

func rows(bars []candles.Bar) []domain.CandleRow {
	out := make([]domain.CandleRow, len(bars))
	for i, b := range bars {
		out[i] = domain.CandleRow{Time: time.Unix(0, b.Time).UTC(), Open: fixed(b.Open), High: fixed(b.High), Low: fixed(b.Low),
			Close: fixed(b.Close), Volume: fixed(b.Volume)}
	}
	return out
}

// fixed writes a value held x 10^8 as the shortest exact decimal text, the
// form decimal.Decimal's String gives (no trailing zeros, no exponent),
// without building a decimal for each of the million values an import writes.
func fixed(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	digits := strconv.FormatInt(v, 10)
	for len(digits) < 9 {
		digits = "0" + digits
	}
	whole, frac := digits[:len(digits)-8], digits[len(digits)-8:]
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	s := whole
	if frac != "" {
		s += "." + frac
	}
	if neg && s != "0" {
		s = "-" + s
	}
	return s
}
