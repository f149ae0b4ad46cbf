package candles

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// ParseOHLCV reads any OHLCV CSV with a header row (see ReadOHLCV) into candles.
func ParseOHLCV(r io.Reader) ([]domain.Candle, error) {
	bars, err := ReadOHLCV(r)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Candle, len(bars))
	for i, b := range bars {
		out[i] = b.Candle()
	}
	return out, nil
}

// ReadOHLCV reads an OHLCV CSV into fixed-point bars, without building decimals.
//
// The first line is a header naming the columns, case-insensitively and in
// any order: a time column (the first one named time, timestamp, date or
// unix) and open, high, low, close and volume; other columns are ignored.
// Times are Unix seconds or Unix milliseconds (told apart by magnitude: below
// 10^11 is seconds), or ISO 8601 / RFC 3339 (2024-05-01T13:00:00Z, with an
// offset or a fraction of a second; without an offset it is UTC), or a plain
// date (2024-05-01, midnight UTC). Values are non-negative decimals; digits
// beyond the 8th decimal place (float noise such as 63857.300000000003) are
// rounded half-up. Fields may be quoted but may not contain commas. Rows must
// be sorted ascending by time without duplicates; blank lines are skipped.
// Every error names the line it was found on.
func ReadOHLCV(r io.Reader) ([]Bar, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("line 1: %w", err)
		}
		return nil, fmt.Errorf("line 1: empty input, want a header row")
	}
	cols, err := headerColumns(sc.Bytes())
	if err != nil {
		return nil, fmt.Errorf("line 1: %w", err)
	}
	out := make([]Bar, 0, 1024)
	fields := make([][]byte, 0, 16)
	for line := 2; sc.Scan(); line++ {
		b, err := cols.row(sc.Bytes(), fields)
		if err == errBlank {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if n := len(out); n > 0 && b.Time <= out[n-1].Time {
			return nil, fmt.Errorf("line %d: %w", line, orderError(b.Time, out[n-1].Time))
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("after line %d: %w", len(out)+1, err)
	}
	return out, nil
}

func orderError(t, prev int64) error {
	if t == prev {
		return fmt.Errorf("duplicate time %s (rows must be sorted ascending by time, each time once)", formatNanos(t))
	}
	return fmt.Errorf("time %s is before the previous row's %s (rows must be sorted ascending by time)", formatNanos(t), formatNanos(prev))
}

// columns holds the index of each column ReadOHLCV needs.
type columns struct {
	time, open, high, low, close, volume int
	names                                [6]string
	need                                 int // fields a row must have
}

var errBlank = fmt.Errorf("blank line")

func headerColumns(line []byte) (*columns, error) {
	line = bytes.TrimPrefix(line, []byte("\ufeff"))
	c := &columns{time: -1, open: -1, high: -1, low: -1, close: -1, volume: -1}
	dst := map[string]*int{"open": &c.open, "high": &c.high, "low": &c.low, "close": &c.close, "volume": &c.volume}
	for i, f := range bytes.Split(line, []byte{','}) {
		name := strings.ToLower(string(trimField(f)))
		switch name {
		case "time", "timestamp", "date", "unix":
			if c.time < 0 {
				c.time, c.names[0] = i, name
			}
		case "open", "high", "low", "close", "volume":
			if *dst[name] >= 0 {
				return nil, fmt.Errorf("column %q appears twice in the header", name)
			}
			*dst[name] = i
		}
	}
	if c.time < 0 {
		return nil, fmt.Errorf("missing time column: want one named time, timestamp, date or unix (header %q)", line)
	}
	for _, name := range []string{"open", "high", "low", "close", "volume"} {
		if *dst[name] < 0 {
			return nil, fmt.Errorf("missing column %q (header %q)", name, line)
		}
	}
	c.names = [6]string{c.names[0], "open", "high", "low", "close", "volume"}
	c.need = max(c.time, c.open, c.high, c.low, c.close, c.volume) + 1
	return c, nil
}

// row parses one data line; fields is scratch space reused between rows.
func (c *columns) row(line []byte, fields [][]byte) (Bar, error) {
	var b Bar
	if len(bytes.TrimSpace(line)) == 0 {
		return b, errBlank
	}
	fields = splitFields(line, fields[:0])
	if len(fields) < c.need {
		return b, fmt.Errorf("want at least %d fields, got %d", c.need, len(fields))
	}
	t, err := parseTime(trimField(fields[c.time]))
	if err != nil {
		return b, fmt.Errorf("column %q: %w", c.names[0], err)
	}
	b.Time = t
	for i, v := range [5]struct {
		col int
		dst *int64
	}{{c.open, &b.Open}, {c.high, &b.High}, {c.low, &b.Low}, {c.close, &b.Close}, {c.volume, &b.Volume}} {
		if *v.dst, err = parseValue(trimField(fields[v.col])); err != nil {
			return b, fmt.Errorf("column %q: %w", c.names[i+1], err)
		}
	}
	return b, nil
}

func splitFields(line []byte, fields [][]byte) [][]byte {
	for {
		i := bytes.IndexByte(line, ',')
		if i < 0 {
			return append(fields, line)
		}
		fields = append(fields, line[:i])
		line = line[i+1:]
	}
}

// trimField drops surrounding blanks, a carriage return and double quotes.
func trimField(f []byte) []byte {
	f = bytes.TrimSpace(f)
	if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
		f = bytes.TrimSpace(f[1 : len(f)-1])
	}
	return f
}

// parseValue reads a non-negative decimal as value x 10^8. The common case
// (plain digits, at most 8 decimals) takes the fast path; exponents and
// longer fractions go through package decimal.
func parseValue(b []byte) (int64, error) {
	if n, err := parseFixed(b); err == nil {
		return n, nil
	}
	if len(b) == 0 {
		return 0, fmt.Errorf("empty value")
	}
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", b)
	}
	// A huge exponent would make rounding build a huge number.
	if len(b) > 100 || !d.IsZero() && (d.Exponent() < -100 || d.Exponent() > 18) {
		return 0, fmt.Errorf("%q is out of range", b)
	}
	if d.IsNegative() {
		return 0, fmt.Errorf("%q is negative", b)
	}
	shifted := d.Round(scale).Shift(scale)
	if shifted.GreaterThanOrEqual(decimal.New(1, 18)) {
		return 0, fmt.Errorf("%q is too large", b)
	}
	return shifted.IntPart(), nil
}
