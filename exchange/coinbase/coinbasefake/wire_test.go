package coinbasefake

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// Every documented sample payload decodes strictly into the fake's own type
// (no field the fake does not know) and encodes back to the same JSON (no
// field renamed, retyped or dropped): the fake speaks Coinbase's documented
// shapes, whatever the adapter believes.
func TestWireTypesMatchCoinbaseSamples(t *testing.T) {
	samples := map[string]func() any{
		"list_accounts.json": func() any { return &AccountsPage{} }, "create_order.json": func() any { return &CreateOrderResponse{} },
		"cancel_orders.json": func() any { return &CancelResponse{} }, "get_order.json": func() any { return &OrderEnvelope{} },
		"list_orders.json": func() any { return &OrdersPage{} }, "list_fills.json": func() any { return &FillsPage{} },
		"get_product.json": func() any { return &Product{} }, "list_products.json": func() any { return &ProductsPage{} },
		"get_candles.json": func() any { return &CandlesPage{} }, "market_trades.json": func() any { return &MarketTradesPage{} },
	}
	events := map[string]func() any{
		"ws_heartbeats.json": func() any { return &WSHeartbeat{} }, "ws_candles.json": func() any { return &WSCandlesEvent{} },
		"ws_market_trades.json": func() any { return &WSTradesEvent{} }, "ws_ticker.json": func() any { return &WSTickerEvent{} },
		"ws_user.json": func() any { return &WSUserEvent{} }, "ws_level2.json": func() any { return &WSLevel2Event{} },
	}
	for name, fresh := range samples {
		roundTrip(t, name, readSample(t, name), fresh())
	}
	for name, fresh := range events {
		raw := readSample(t, name)
		var env WSEnvelope
		roundTrip(t, name, raw, &env)
		for _, ev := range env.Events {
			roundTrip(t, name+" event", ev, fresh())
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.json"))
	if len(files) != len(samples)+len(events) {
		t.Fatalf("%d sample files, %d checked", len(files), len(samples)+len(events))
	}
}

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func roundTrip(t *testing.T, name string, raw []byte, into any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	back, _ := json.Marshal(into)
	var want, got any
	_ = json.Unmarshal(raw, &want)
	_ = json.Unmarshal(back, &got)
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%s: encoded differently\nsample %s\nfake   %s", name, compact(raw), back)
	}
}

func compact(raw []byte) string {
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return b.String()
}
