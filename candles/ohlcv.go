package candles

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
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
//
// The input is read whole (it is smaller than the bars it becomes), so the
// bars are allocated once, and a large input is parsed in parallel chunks.
func ReadOHLCV(r io.Reader) ([]Bar, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	header, data := nextLine(data)
	if len(bytes.TrimSpace(header)) == 0 && len(data) == 0 {
		return nil, fmt.Errorf("line 1: empty input, want a header row")
	}
	cols, err := headerColumns(header)
	if err != nil {
		return nil, fmt.Errorf("line 1: %w", err)
	}
	return cols.rows(data)
}

// readAll reads r whole, sized from the file when r is one.
func readAll(r io.Reader) ([]byte, error) {
	f, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return io.ReadAll(r)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return io.ReadAll(r)
	}
	data := make([]byte, 0, st.Size()+512) // room to see the end without growing
	for {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew: let append make room
		}
	}
}

// nextLine splits data after its first line (the newline dropped).
func nextLine(data []byte) (line, rest []byte) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i], data[i+1:]
	}
	return data, nil
}

func orderError(t, prev int64) error {
	if t == prev {
		return fmt.Errorf("duplicate time %s (rows must be sorted ascending by time, each time once)", formatNanos(t))
	}
	return fmt.Errorf("time %s is before the previous row's %s (rows must be sorted ascending by time)", formatNanos(t), formatNanos(prev))
}

// The role a column plays in a row.
const (
	ignored = iota
	timeCol
	openCol
	highCol
	lowCol
	closeCol
	volumeCol
)

var roleNames = [...]string{timeCol: "time", openCol: "open", highCol: "high", lowCol: "low", closeCol: "close", volumeCol: "volume"}

// columns maps each column of the header to its role.
type columns struct {
	roles    []int8
	timeName string // as the header spells it (time, timestamp, date or unix)
	need     int    // fields a row must have
}

var errBlank = fmt.Errorf("blank line")

func headerColumns(line []byte) (*columns, error) {
	line = bytes.TrimPrefix(line, []byte("\ufeff"))
	c := &columns{}
	seen := map[int8]bool{}
	for i, f := range bytes.Split(line, []byte{','}) {
		name := strings.ToLower(string(trimField(f)))
		role := roleOf(name)
		if role == timeCol && seen[timeCol] {
			role = ignored // the first time column wins
		}
		if role != ignored && seen[role] {
			return nil, fmt.Errorf("column %q appears twice in the header", name)
		}
		if role == timeCol {
			c.timeName = name
		}
		if role != ignored {
			seen[role], c.need = true, i+1
		}
		c.roles = append(c.roles, role)
	}
	if !seen[timeCol] {
		return nil, fmt.Errorf("missing time column: want one named time, timestamp, date or unix (header %q)", line)
	}
	for role := int8(openCol); role <= volumeCol; role++ {
		if !seen[role] {
			return nil, fmt.Errorf("missing column %q (header %q)", roleNames[role], line)
		}
	}
	c.roles = c.roles[:c.need]
	return c, nil
}

func roleOf(name string) int8 {
	switch name {
	case "time", "timestamp", "date", "unix":
		return timeCol
	}
	for role := int8(openCol); role <= volumeCol; role++ {
		if roleNames[role] == name {
			return role
		}
	}
	return ignored
}

// row parses one data line.
func (c *columns) row(line []byte) (Bar, error) {
	if b, ok := c.fastRow(line); ok {
		return b, nil
	}
	return c.carefulRow(line)
}

// carefulRow parses any row fastRow does not, and words the errors.
func (c *columns) carefulRow(line []byte) (Bar, error) {
	var b Bar
	if len(bytes.TrimSpace(line)) == 0 {
		return b, errBlank
	}
	if n := bytes.Count(line, []byte{','}) + 1; n < c.need {
		return b, fmt.Errorf("want at least %d fields, got %d", c.need, n)
	}
	for _, role := range c.roles {
		field := line
		if i := bytes.IndexByte(line, ','); i >= 0 {
			field, line = line[:i], line[i+1:]
		}
		if role != ignored {
			if err := b.set(role, trimField(field)); err != nil {
				return b, fmt.Errorf("column %q: %w", c.name(role), err)
			}
		}
	}
	return b, nil
}

func (c *columns) name(role int8) string {
	if role == timeCol {
		return c.timeName
	}
	return roleNames[role]
}

func (b *Bar) set(role int8, field []byte) (err error) {
	switch role {
	case timeCol:
		b.Time, err = parseTime(field)
	case openCol:
		b.Open, err = parseValue(field)
	case highCol:
		b.High, err = parseValue(field)
	case lowCol:
		b.Low, err = parseValue(field)
	case closeCol:
		b.Close, err = parseValue(field)
	case volumeCol:
		b.Volume, err = parseValue(field)
	}
	return err
}

// trimField drops surrounding blanks, a carriage return and double quotes.
func trimField(f []byte) []byte {
	f = bytes.TrimSpace(f)
	if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
		f = bytes.TrimSpace(f[1 : len(f)-1])
	}
	return f
}

// parseValue reads a non-negative decimal as value x 10^8. Plain digits
// with at most 8 decimals take the fast paths; exponents and longer
// fractions go through package decimal.
func parseValue(b []byte) (int64, error) {
	if n, ok := parseShortFixed(b); ok {
		return n, nil
	}
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

var pow10 = [...]int64{1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000}

// parseShortFixed is parseFixed for values below 10^10 (at most 10 digits
// before the point, 8 after), where no digit can overflow: one loop, no
// checks inside it. It refuses everything else.
func parseShortFixed(b []byte) (int64, bool) {
	var n int64
	i := 0
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		n = n*10 + int64(b[i]-'0')
	}
	whole, frac := i, 0
	if i < len(b) {
		if b[i] != '.' {
			return 0, false
		}
		for i++; i < len(b) && b[i]-'0' <= 9; i++ {
			n = n*10 + int64(b[i]-'0')
			frac++
		}
	}
	if i != len(b) || whole > 10 || frac > scale || whole+frac == 0 {
		return 0, false
	}
	return n * pow10[scale-frac], true
}
