// Command coinbasefake serves the fake Coinbase exchange on its own, for
// end-to-end tests and demos: a fresh CDP key each run (EC P-256 by
// default, --key ed25519 for CDP's default kind), an account funded
// with USD, prices and candle history from Kestrel's embedded Coinbase
// candles (shifted so the newest ends now), a ticker and heartbeat every
// second, a ten-level level2 book around each price, 90 days of history.
// It prints one JSON line with its URLs and the key, then serves.
// POST /fake/price {"symbol","price"} moves a market (unauthenticated: a
// test control, not part of Coinbase's API).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/coinbase/coinbasefake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	usd := flag.String("usd", "100000", "USD the account starts with")
	kind := flag.String("key", "ecdsa", "kind of the CDP key it issues: ecdsa (a PEM) or ed25519 (base64)")
	flag.Parse()
	if _, err := decimal.NewFromString(*usd); err != nil {
		log.Fatalf("--usd: %v", err)
	}
	kinds := map[string]coinbasefake.KeyKind{"ecdsa": coinbasefake.ECDSA, "ed25519": coinbasefake.Ed25519}
	if kinds[*kind] == "" {
		log.Fatalf("--key: %q is not ecdsa or ed25519", *kind)
	}
	key, err := coinbasefake.NewKey(kinds[*kind], "organizations/kestrel-fake/apiKeys/"+fmt.Sprint(time.Now().UnixNano()))
	if err != nil {
		log.Fatal(err)
	}
	fake := coinbasefake.New(key.Name, key.Public)
	fake.Deposit("USD", *usd)
	var mu sync.Mutex
	prices := map[string]string{}
	for _, sym := range domain.Symbols {
		s, err := candles.Load(sym)
		if err != nil {
			log.Fatalf("candles %s: %v", sym, err)
		}
		last := s.Candle(s.Len() - 1)
		shift := time.Now().UTC().Truncate(candles.Width).Sub(last.Time)
		from := max(0, s.Len()-90*96) // 90 days of 15-minute history (backfills page through it)
		cs := make([]domain.Candle, 0, s.Len()-from)
		for i := from; i < s.Len(); i++ {
			c := s.Candle(i)
			c.Time = c.Time.Add(shift)
			cs = append(cs, c)
		}
		fake.SetCandles(sym, cs)
		prices[sym] = last.Close.String()
		fake.SetPrice(sym, prices[sym])
		setBook(fake, sym, last.Close)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", fake.Handler())
	mux.HandleFunc("POST /fake/price", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Symbol, Price string }
		mu.Lock()
		defer mu.Unlock()
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || prices[in.Symbol] == "" {
			http.Error(w, "want {\"symbol\": a known product, \"price\": a decimal}", http.StatusBadRequest)
			return
		}
		if _, err := decimal.NewFromString(in.Price); err != nil {
			http.Error(w, "price is not a decimal", http.StatusBadRequest)
			return
		}
		prices[in.Symbol] = in.Price
		fake.SetPrice(in.Symbol, in.Price)
		setBook(fake, in.Symbol, decimal.RequireFromString(in.Price))
		w.WriteHeader(http.StatusNoContent)
	})
	base := "http://" + ln.Addr().String()
	out, _ := json.Marshal(map[string]string{"api_url": base, "ws_url": "ws://" + ln.Addr().String() + "/ws", "key_name": key.Name, "secret": key.Secret})
	fmt.Println(string(out))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			fake.Heartbeat(n)
			mu.Lock()
			for _, sym := range domain.Symbols {
				fake.SetPrice(sym, prices[sym]) // Coinbase sends a ticker on every trade; the fake at least once a second
			}
			mu.Unlock()
		}
	}()
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); _ = srv.Close() }()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

// setBook gives sym a level2 book around price: ten levels a side, one
// basis point apart, sizes growing away from the touch (fixed numbers, so
// a test can read them back).
func setBook(fake *coinbasefake.Fake, sym string, price decimal.Decimal) {
	step := price.Mul(decimal.RequireFromString("0.0001"))
	places := int32(2)
	if price.LessThan(decimal.NewFromInt(10)) {
		places = 4
	}
	var bids, asks []coinbasefake.Level
	for i := 1; i <= 10; i++ {
		off := step.Mul(decimal.NewFromInt(int64(i)))
		size := decimal.NewFromFloat(0.05).Mul(decimal.NewFromInt(int64(i))).String()
		bids = append(bids, coinbasefake.Level{Price: price.Sub(off).Round(places).String(), Size: size})
		asks = append(asks, coinbasefake.Level{Price: price.Add(off).Round(places).String(), Size: size})
	}
	fake.SetBook(sym, bids, asks)
}
