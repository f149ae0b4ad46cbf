package replay

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
)

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// wallFor returns the wall time (speed 1) whose market slot replays data candle dt.
func wallFor(r *Replay, dt time.Time) time.Time {
	return dt.Add(r.period * 2) // two loops later: the same data time
}

func newReplay(t testing.TB, at time.Time, seed int64) (*Replay, *clock) {
	c := &clock{t: at}
	r, err := New(Options{Clock: c, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return r, c
}

func TestWalkRespectsCandle(t *testing.T) {
	for _, sym := range candles.Symbols() {
		s, _ := candles.Load(sym)
		for i := 0; i < s.Len(); i += 397 {
			c := s.Candle(i)
			w := newWalk(7, sym, c, candles.PriceIncrement(sym))
			if !w.points[0].Equal(c.Open) || !w.points[stepsPerCandle].Equal(c.Close) {
				t.Fatalf("%s %v: walk starts %v ends %v, want %v %v", sym, c.Time, w.points[0], w.points[stepsPerCandle], c.Open, c.Close)
			}
			hitH, hitL := false, false
			for _, p := range w.points {
				if p.GreaterThan(c.High) || p.LessThan(c.Low) {
					t.Fatalf("%s %v: %v outside [%v, %v]", sym, c.Time, p, c.Low, c.High)
				}
				hitH = hitH || p.Equal(c.High)
				hitL = hitL || p.Equal(c.Low)
			}
			if !hitH || !hitL {
				t.Fatalf("%s %v: high hit %v, low hit %v", sym, c.Time, hitH, hitL)
			}
		}
	}
}

func TestSeedMakesPathRepeatable(t *testing.T) {
	s, _ := candles.Load("BTC-USD")
	c := s.Candle(1000)
	a := newWalk(1, "BTC-USD", c, decimal.New(1, -2))
	b := newWalk(1, "BTC-USD", c, decimal.New(1, -2))
	d := newWalk(2, "BTC-USD", c, decimal.New(1, -2))
	same := func(x, y *walk) bool {
		for i := range x.points {
			if !x.points[i].Equal(y.points[i]) {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Fatal("same seed, different path")
	}
	if same(a, d) {
		t.Fatal("different seeds gave the same path")
	}
}

func TestReplayMapsWallTimeToRealCandles(t *testing.T) {
	s, _ := candles.Load("ETH-USD")
	data := s.Candle(5000)
	r, c := newReplay(t, time.Time{}, 1)
	c.t = wallFor(r, data.Time).Add(15*time.Minute - time.Second)
	if c.t.Hour() != data.Time.Hour() || c.t.Minute() != 44 {
		t.Fatalf("time of day not preserved: %v vs %v", c.t, data.Time)
	}
	price, _, err := r.PriceAt("ETH-USD", c.t.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	next := s.Candle(5001)
	if !price.Equal(next.Open) {
		t.Fatalf("price at the next slot's open = %v, want %v", price, next.Open)
	}
	hist, err := r.Candles(context.Background(), "ETH-USD", domain.FifteenMinute, time.Time{}, time.Time{}, 3)
	if err != nil || len(hist) != 3 {
		t.Fatalf("candles = %v, %v", hist, err)
	}
	if h := hist[1]; !h.Open.Equal(s.Candle(4999).Open) || !h.Close.Equal(s.Candle(4999).Close) || !h.Volume.Equal(s.Candle(4999).Volume) {
		t.Fatalf("history candle = %+v, want data %+v", h, s.Candle(4999))
	}
	live := hist[2]
	cur, _, _ := r.PriceAt("ETH-USD", c.t)
	if !live.Close.Equal(cur) || !live.Open.Equal(data.Open) {
		t.Fatalf("live candle = %+v, want open %v close %v", live, data.Open, cur)
	}
}

func TestGapHoldsPriceWithoutVolume(t *testing.T) {
	r, c := newReplay(t, time.Time{}, 1)
	gap := time.Date(2025, 10, 25, 17, 0, 0, 0, time.UTC)
	c.t = wallFor(r, gap)
	price, vol, err := r.PriceAt("BTC-USD", c.t)
	prev, _ := r.series["BTC-USD"].Before(gap)
	if err != nil || !price.Equal(prev.Close) || !vol.IsZero() {
		t.Fatalf("in the gap: %v %v %v, want %v and no volume", price, vol, err, prev.Close)
	}
	hist, _ := r.Candles(context.Background(), "BTC-USD", domain.FifteenMinute, c.t.Add(-time.Hour), c.t, 10)
	for _, h := range hist {
		if !h.Time.Before(c.t.Add(-time.Hour).Add(2 * time.Hour)) {
			continue
		}
		if _, ok := r.series["BTC-USD"].At(r.dataTime(h.Time)); !ok {
			t.Fatalf("history invented a candle at %v", h.Time)
		}
	}
}

func TestLoopWrapsToStart(t *testing.T) {
	r, _ := newReplay(t, time.Time{}, 1)
	if got := r.dataTime(r.first.Add(r.period)); !got.Equal(r.first) {
		t.Fatalf("data time after one period = %v, want %v", got, r.first)
	}
	if r.period%(24*time.Hour) != 0 || r.period < 700*24*time.Hour {
		t.Fatalf("period = %v", r.period)
	}
}

func TestHourlyCandlesAggregate(t *testing.T) {
	r, c := newReplay(t, time.Date(2026, 11, 22, 14, 7, 30, 0, time.UTC), 1)
	cs, err := r.Candles(context.Background(), "BTC-USD", domain.OneHour, time.Time{}, time.Time{}, 100)
	if err != nil || len(cs) < 95 || len(cs) > 100 {
		t.Fatalf("got %d candles, %v", len(cs), err)
	}
	for i := 1; i < len(cs); i++ {
		if !cs[i].Time.After(cs[i-1].Time) || cs[i].Time.Minute() != 0 {
			t.Fatalf("not ascending hourly: %v then %v", cs[i-1].Time, cs[i].Time)
		}
	}
	lastHour := cs[len(cs)-1]
	if !lastHour.Time.Equal(time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)) {
		t.Fatalf("last candle at %v, want the live 14:00 candle", lastHour.Time)
	}
	price, _, _ := r.PriceAt("BTC-USD", c.t)
	if !lastHour.Close.Equal(price) {
		t.Fatalf("live close %v, price %v", lastHour.Close, price)
	}
	q, _ := r.Candles(context.Background(), "BTC-USD", domain.FifteenMinute, lastHour.Time, lastHour.Time.Add(time.Hour), 10)
	sum := decimal.Zero
	for _, x := range q {
		sum = sum.Add(x.Volume)
	}
	if !sum.Equal(lastHour.Volume) {
		t.Fatalf("hour volume %v != sum of its quarters %v", lastHour.Volume, sum)
	}
	if _, err := r.Candles(context.Background(), "BTC-USD", "TEN_MINUTE", time.Time{}, time.Time{}, 1); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("bad granularity err = %v", err)
	}
}

func TestMinuteCandlesComeFromThePath(t *testing.T) {
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r, c := newReplay(t, start, 1)
	for i := 0; i < 130; i++ {
		c.t = start.Add(time.Duration(i) * time.Second)
		r.Step(c.t)
	}
	ctx := context.Background()
	// History before the process ran exists too: a whole 15-minute slot in minutes.
	slotStart := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	one, _ := r.Candles(ctx, "SOL-USD", domain.OneMinute, slotStart, slotStart.Add(15*time.Minute), 100)
	fifteen, _ := r.Candles(ctx, "SOL-USD", domain.FifteenMinute, slotStart, slotStart.Add(15*time.Minute), 1)
	if len(one) != 15 || len(fifteen) != 1 {
		t.Fatalf("1m candles %d, 15m %d", len(one), len(fifteen))
	}
	q := fifteen[0]
	hi, lo := one[0].High, one[0].Low
	for i, m := range one {
		hi, lo = decimal.Max(hi, m.High), decimal.Min(lo, m.Low)
		if i > 0 && !m.Open.Equal(one[i-1].Close) {
			t.Fatalf("minute %d opens at %s, the previous closed at %s", i, m.Open, one[i-1].Close)
		}
	}
	if !one[0].Open.Equal(q.Open) || !one[14].Close.Equal(q.Close) || !hi.Equal(q.High) || !lo.Equal(q.Low) {
		t.Fatalf("minutes %s-%s %s/%s do not make the slot %+v", one[0].Open, one[14].Close, hi, lo, q)
	}
	// The live minute ends at the current price; 5-minute candles agree with the minutes.
	live, _ := r.Candles(ctx, "SOL-USD", domain.OneMinute, time.Time{}, time.Time{}, 3)
	price, _, _ := r.PriceAt("SOL-USD", r.Now())
	if len(live) != 3 || !live[2].Time.Equal(start.Add(2*time.Minute)) || !live[2].Close.Equal(price) {
		t.Fatalf("live minutes %+v, price %s", live, price)
	}
	five, _ := r.Candles(ctx, "SOL-USD", domain.FiveMinute, time.Time{}, time.Time{}, 1)
	if len(five) != 1 || !five[0].Close.Equal(live[2].Close) || !five[0].Time.Equal(start) {
		t.Fatalf("5m candles = %+v", five)
	}
	tk, err := r.Ticker("SOL-USD")
	if err != nil || tk.Bid.GreaterThan(tk.Price) || tk.Ask.LessThan(tk.Price) || !tk.Volume24h.IsPositive() {
		t.Fatalf("ticker = %+v, %v", tk, err)
	}
	st, _ := r.Stats("SOL-USD")
	if !st.Last.Equal(tk.Price) || st.High.LessThan(st.Low) || !st.Volume.Equal(tk.Volume24h) {
		t.Fatalf("stats = %+v vs ticker %+v", st, tk)
	}
	if _, err := r.Ticker("DOGE-USD"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("unknown symbol err = %v", err)
	}
}

func TestSlowSubscriberDoesNotBlock(t *testing.T) {
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r, c := newReplay(t, start, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_ = r.Subscribe(ctx) // never read
	fast := r.Subscribe(ctx)
	got := 0
	for i := 0; i < 300; i++ {
		c.t = start.Add(time.Duration(i) * time.Second)
		r.Step(c.t)
		for len(fast) > 0 {
			<-fast
			got++
		}
	}
	if got != 300*4 || r.Dropped() == 0 {
		t.Fatalf("fast got %d of 1200, dropped %d", got, r.Dropped())
	}
}

func BenchmarkStep(b *testing.B) {
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r, _ := newReplay(b, start, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Step(start.Add(time.Duration(i) * time.Second))
	}
	b.ReportMetric(float64(4*b.N)/b.Elapsed().Seconds(), "ticks/s")
}

func TestPathIsExportedAndRepeatable(t *testing.T) {
	c := domain.Candle{Time: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Open: decimal.RequireFromString("100"),
		High: decimal.RequireFromString("110"), Low: decimal.RequireFromString("95"), Close: decimal.RequireFromString("105")}
	a, b := Path(1, "BTC-USD", c, decimal.New(1, -2)), Path(1, "BTC-USD", c, decimal.New(1, -2))
	if len(a) != 901 || !a[0].Equal(c.Open) || !a[900].Equal(c.Close) {
		t.Fatalf("path: %d points, open %s, close %s", len(a), a[0], a[900])
	}
	lo, hi := a[0], a[0]
	for i := range a {
		if !a[i].Equal(b[i]) {
			t.Fatalf("point %d differs between runs", i)
		}
		lo, hi = decimal.Min(lo, a[i]), decimal.Max(hi, a[i])
	}
	if !lo.Equal(c.Low) || !hi.Equal(c.High) {
		t.Fatalf("path range %s-%s, candle %s-%s", lo, hi, c.Low, c.High)
	}
}

func TestRangeCoversEverySecondBetweenTicks(t *testing.T) {
	r, clk := newReplay(t, time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC), 1)
	from := r.Now()
	clk.t = clk.t.Add(2 * time.Minute)
	to := r.Now()
	lo, hi, ok := r.Range("BTC-USD", from, to)
	if !ok {
		t.Fatal("no range")
	}
	for m := from.Add(time.Second); !m.After(to); m = m.Add(time.Second) {
		p, _, _ := r.PriceAt("BTC-USD", m)
		if p.LessThan(lo) || p.GreaterThan(hi) {
			t.Fatalf("price %s at %s outside the range %s-%s", p, m, lo, hi)
		}
	}
}

// The ticker is computed once per symbol and market second; a read later in
// the same second carries its own time, and the next second's read follows
// the path.
func TestTickerCachedPerMarketSecond(t *testing.T) {
	r, c := newReplay(t, time.Date(2026, 5, 1, 12, 0, 7, 100_000_000, time.UTC), 1)
	for i := 0; i < 40; i++ {
		for _, sym := range []string{"BTC-USD", "ADA-USD"} {
			got, err := r.Ticker(sym)
			if err != nil {
				t.Fatal(err)
			}
			want, err := r.ticker(sym, r.Now())
			if err != nil {
				t.Fatal(err)
			}
			if !got.Price.Equal(want.Price) || !got.Bid.Equal(want.Bid) || !got.Ask.Equal(want.Ask) || !got.Volume24h.Equal(want.Volume24h) || !got.Time.Equal(want.Time) {
				t.Fatalf("%s at %s: cached %+v, computed %+v", sym, c.t, got, want)
			}
		}
		c.t = c.t.Add(300 * time.Millisecond) // several reads per second, across 12 seconds
	}
}
