package httpapi

import (
	"context"
	"os"
	"testing"
	"time"

	"kestrel/ai/spend"
	"kestrel/alert"
	"kestrel/auth"
	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/httpapi/ws"
	"kestrel/jobs"
	"kestrel/marketdata"
	"kestrel/notify"
	"kestrel/promotion"
	"kestrel/settings"
	"kestrel/strategy"
	"kestrel/trading"
)

func TestDumpRouteTable(t *testing.T) {
	out := os.Getenv("ROUTE_TABLE_OUT")
	if out == "" {
		t.Skip()
	}
	type md struct{ domain.MarketData }
	type dg struct{ notify.DigestAccount }
	type pf struct{ domain.PortfolioStore }
	s := New(Deps{Auth: &auth.Service{}, Market: md{}, OrderBook: func(string) OrderBook { return OrderBook{} },
		History: &marketdata.History{}, Backfills: &marketdata.Backfiller{}, Hub: &ws.Hub{}, Trading: &trading.Service{},
		Strategies: &strategy.Engine{}, Promotions: &promotion.Service{}, Spend: &spend.Book{}, Backtests: &backtest.Service{},
		Jobs: &jobs.Runner{}, Disk: func(context.Context) error { return nil }, Notify: &notify.Service{},
		Digest: dg{}, Portfolio: pf{}, Alerts: &alert.Service{}, MarketAge: func() time.Duration { return 0 },
		Settings: &settings.Service{}, ExchangeTest: func(context.Context, settings.Exchange) (string, error) { return "", nil },
		Logs:    func(context.Context, string, string, int) ([]domain.LogEntry, error) { return nil, nil },
		Restart: func(context.Context, string) error { return nil }})
	var b []byte
	for _, r := range s.Routes() {
		b = append(b, r.Method+" "+r.Path+" "+r.Access+" token="+r.Token+"\n"...)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
