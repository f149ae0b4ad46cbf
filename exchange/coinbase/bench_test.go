package coinbase_test

import (
	"fmt"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

// BenchmarkSign is the ES256 JWT every REST request carries.
func BenchmarkSign(b *testing.B) {
	creds, err := coinbasefake.NewKey(coinbasefake.ECDSA, "organizations/bench/apiKeys/k")
	if err != nil {
		b.Fatal(err)
	}
	k, err := coinbase.ParseKey(creds.Name, creds.Secret)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k.Sign(now, "GET api.coinbase.com/api/v3/brokerage/accounts"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlaceMarketOrder is one market order through the adapter and the
// fake over loopback HTTP: create, read back, fills; the adapter's own
// overhead with Coinbase's network latency taken out.
func BenchmarkPlaceMarketOrder(b *testing.B) {
	r := newRig(b, 5*time.Second)
	r.fake.Deposit("USD", "1000000000")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{ClientOrderID: fmt.Sprint("bench-", i), Symbol: "BTC-USD", Side: domain.Buy,
			Type: domain.Market, Quantity: d("0.001")}); err != nil {
			b.Fatal(err)
		}
	}
}
