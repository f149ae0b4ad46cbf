// Package candles ships the real historical candles the sandbox market replays
// and backtests run on (see data/README.md for their provenance), and reads them.
package candles

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

//go:generate go run ./packgen

//go:embed data/*.kcp
var files embed.FS

// Width of every shipped candle.
const Width = 15 * time.Minute

// Series is one symbol's candles, ascending by open time, gaps left out.
// They are held packed (see packed.go) as fixed-point integers (8 decimal
// places, exactly what the data carries) rather than decimals, and each
// candle is turned back into decimals when it is read.
type Series struct {
	Symbol string
	p      *packed
}

type row struct {
	t                  int64 // open time, Unix seconds
	o, h, l, c, volume int64 // value x 10^8
}

const scale = 8

// NewSeries holds cs (ascending, Width apart or more, on the Width grid, as
// Parse returns the shipped data) compactly. Values with more than 8
// decimal places are refused: they would not round-trip.
func NewSeries(symbol string, cs []domain.Candle) (*Series, error) {
	rows := make([]row, len(cs))
	for i, c := range cs {
		r := row{t: c.Time.Unix()}
		for _, f := range []struct {
			dst *int64
			v   decimal.Decimal
		}{{&r.o, c.Open}, {&r.h, c.High}, {&r.l, c.Low}, {&r.c, c.Close}, {&r.volume, c.Volume}} {
			shifted := f.v.Shift(scale)
			if !shifted.IsInteger() || shifted.Abs().GreaterThan(decimal.New(1, 18)) {
				return nil, fmt.Errorf("%s %s: %s does not fit 8 decimal places", symbol, c.Time.Format(time.RFC3339), f.v)
			}
			*f.dst = shifted.IntPart()
		}
		rows[i] = r
	}
	b, err := pack(rows)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", symbol, err)
	}
	p, err := unpackSeries(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", symbol, err)
	}
	return &Series{Symbol: symbol, p: p}, nil
}

// Len is the number of candles.
func (s *Series) Len() int { return s.p.n }

// Candle returns the i-th candle.
func (s *Series) Candle(i int) domain.Candle { return candleOf(s.p.row(i)) }

func candleOf(r row) domain.Candle {
	return domain.Candle{Time: time.Unix(r.t, 0).UTC(), Open: decimal.New(r.o, -scale), High: decimal.New(r.h, -scale),
		Low: decimal.New(r.l, -scale), Close: decimal.New(r.c, -scale), Volume: decimal.New(r.volume, -scale)}
}

// First and End bound the data: the first open time and the last candle's close time.
func (s *Series) First() time.Time { return time.Unix(s.p.marks[0].t, 0).UTC() }

// End is the close time of the last candle.
func (s *Series) End() time.Time { return time.Unix(s.p.row(s.p.n-1).t, 0).UTC().Add(Width) }

// At returns the candle opening at t, if the data has one.
func (s *Series) At(t time.Time) (domain.Candle, bool) {
	if t.Nanosecond() != 0 {
		return domain.Candle{}, false
	}
	if _, r, ok := s.p.seek(t.Unix()); ok && r.t == t.Unix() {
		return candleOf(r), true
	}
	return domain.Candle{}, false
}

// Index is the position of the first candle opening at or after t.
func (s *Series) Index(t time.Time) int {
	u := t.Unix()
	if t.Nanosecond() > 0 {
		u++ // a candle at u would open before t
	}
	return s.p.index(u)
}

// Before returns the last candle opening before t (for holding a price over a gap).
func (s *Series) Before(t time.Time) (domain.Candle, bool) {
	i := s.Index(t)
	if i == 0 {
		return domain.Candle{}, false
	}
	return s.Candle(i - 1), true
}

var (
	mu     sync.Mutex
	loaded = map[string]*loadOnce{}
)

type loadOnce struct {
	once   sync.Once
	series *Series
	err    error
}

// Symbols with shipped data.
func Symbols() []string { return []string{"BTC-USD", "ETH-USD", "ADA-USD", "SOL-USD"} }

// Prefetch starts parsing every shipped symbol, each on its own goroutine,
// and returns at once: a server start calls it first so the parsing (most
// of a restart's time) overlaps opening the store, and the symbols share
// the cores instead of being read one after another. Load then waits for
// the parse in flight.
func Prefetch() {
	for _, sym := range Symbols() {
		go func() { _, _ = Load(sym) }()
	}
}

// Load returns a symbol's series, reading and parsing it once per process.
func Load(symbol string) (*Series, error) {
	mu.Lock()
	l, ok := loaded[symbol]
	if !ok {
		l = &loadOnce{}
		loaded[symbol] = l
	}
	mu.Unlock()
	l.once.Do(func() { l.series, l.err = parseFile(symbol) })
	return l.series, l.err
}

func parseFile(symbol string) (*Series, error) {
	raw, err := files.ReadFile("data/" + symbol + "-15m.kcp")
	if err != nil {
		return nil, domain.Errorf(domain.ENotFound, "No historical data for %s", symbol)
	}
	p, err := unpackSeries(raw)
	if err != nil {
		return nil, fmt.Errorf("%s candles: %w", symbol, err)
	}
	return &Series{Symbol: symbol, p: p}, nil
}

// Parse reads `date,open,high,low,close,volume` CSV (with its header line).
func Parse(r interface{ Read([]byte) (int, error) }) ([]domain.Candle, error) {
	sc := bufio.NewScanner(r)
	out := make([]domain.Candle, 0, 75_000)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue
		}
		c, err := parseLine(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if n := len(out); n > 0 && !c.Time.After(out[n-1].Time) {
			return nil, fmt.Errorf("line %d: time %s is not after the previous candle", line, c.Time)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

func parseLine(b []byte) (domain.Candle, error) {
	var c domain.Candle
	f := bytes.Split(b, []byte{','})
	if len(f) != 6 {
		return c, fmt.Errorf("want 6 fields, got %d", len(f))
	}
	t, err := time.Parse(time.RFC3339, string(f[0]))
	if err != nil {
		return c, err
	}
	c.Time = t.UTC()
	vals := []*decimal.Decimal{&c.Open, &c.High, &c.Low, &c.Close, &c.Volume}
	for i, v := range vals {
		if *v, err = decimal.NewFromString(string(f[i+1])); err != nil {
			return c, fmt.Errorf("field %d: %w", i+2, err)
		}
	}
	return c, nil
}

// parseRows reads the shipped CSV straight into fixed-point rows, without
// building decimals: the process parses about 300,000 candles at start.
func parseRows(r interface{ Read([]byte) (int, error) }) ([]row, error) {
	sc := bufio.NewScanner(r)
	out := make([]row, 0, 75_000)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 {
			continue
		}
		f := bytes.Split(sc.Bytes(), []byte{','})
		if len(f) != 6 {
			return nil, fmt.Errorf("line %d: want 6 fields, got %d", line, len(f))
		}
		t, err := time.Parse(time.RFC3339, string(f[0]))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		rw := row{t: t.Unix()}
		for i, dst := range []*int64{&rw.o, &rw.h, &rw.l, &rw.c, &rw.volume} {
			if *dst, err = parseFixed(f[i+1]); err != nil {
				return nil, fmt.Errorf("line %d field %d: %w", line, i+2, err)
			}
		}
		if n := len(out); n > 0 && rw.t <= out[n-1].t {
			return nil, fmt.Errorf("line %d: time %s is not after the previous candle", line, t)
		}
		out = append(out, rw)
	}
	return out, sc.Err()
}

// parseFixed reads a non-negative decimal with at most 8 decimal places as value x 10^8.
func parseFixed(b []byte) (int64, error) {
	var n int64
	frac := -1
	for _, ch := range b {
		switch {
		case ch == '.' && frac < 0:
			frac = 0
		case ch >= '0' && ch <= '9':
			if frac >= 0 {
				if frac == scale {
					return 0, fmt.Errorf("%q has more than 8 decimal places", b)
				}
				frac++
			}
			if n > (1<<63-1)/10-9 {
				return 0, fmt.Errorf("%q is too large", b)
			}
			n = n*10 + int64(ch-'0')
		default:
			return 0, fmt.Errorf("%q is not a number", b)
		}
	}
	if len(b) == 0 || frac == 0 && len(b) == 1 {
		return 0, fmt.Errorf("empty number")
	}
	if frac < 0 {
		frac = 0
	}
	for ; frac < scale; frac++ {
		n *= 10
	}
	return n, nil
}
