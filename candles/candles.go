// Package candles ships the real historical candles the sandbox market replays
// and backtests run on (see data/README.md for their provenance), and reads them.
package candles

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

//go:embed data/*.csv.gz
var files embed.FS

// Width of every shipped candle.
const Width = 15 * time.Minute

// Series is one symbol's candles, ascending by open time, gaps left out.
type Series struct {
	Symbol  string
	Candles []domain.Candle
}

// First and End bound the data: the first open time and the last candle's close time.
func (s *Series) First() time.Time { return s.Candles[0].Time }

// End is the close time of the last candle.
func (s *Series) End() time.Time { return s.Candles[len(s.Candles)-1].Time.Add(Width) }

// At returns the candle opening at t, if the data has one.
func (s *Series) At(t time.Time) (domain.Candle, bool) {
	i := s.Index(t)
	if i < len(s.Candles) && s.Candles[i].Time.Equal(t) {
		return s.Candles[i], true
	}
	return domain.Candle{}, false
}

// Index is the position of the first candle opening at or after t.
func (s *Series) Index(t time.Time) int {
	return sort.Search(len(s.Candles), func(i int) bool { return !s.Candles[i].Time.Before(t) })
}

// Before returns the last candle opening before t (for holding a price over a gap).
func (s *Series) Before(t time.Time) (domain.Candle, bool) {
	i := s.Index(t)
	if i == 0 {
		return domain.Candle{}, false
	}
	return s.Candles[i-1], true
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
	raw, err := files.ReadFile("data/" + symbol + "-15m.csv.gz")
	if err != nil {
		return nil, domain.Errorf(domain.ENotFound, "No historical data for %s", symbol)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s candles: %w", symbol, err)
	}
	defer zr.Close()
	cs, err := Parse(zr)
	if err != nil {
		return nil, fmt.Errorf("%s candles: %w", symbol, err)
	}
	return &Series{Symbol: symbol, Candles: cs}, nil
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
