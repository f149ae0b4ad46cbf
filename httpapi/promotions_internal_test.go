package httpapi

import (
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

type pricedMarket struct {
	domain.MarketData
	prices map[string]string
}

func (m pricedMarket) Ticker(symbol string) (domain.Ticker, error) {
	p, ok := m.prices[symbol]
	if !ok {
		return domain.Ticker{}, domain.Errorf(domain.ENotFound, "no price")
	}
	return domain.Ticker{Symbol: symbol, Price: decimal.RequireFromString(p)}, nil
}

// A paper account's equity: USD as it is, every other balance (held part
// too) at the last price, to the cent; no value at all when a price is
// missing, never a partial sum.
func TestPaperAccountEquity(t *testing.T) {
	s := &Server{d: Deps{Market: pricedMarket{prices: map[string]string{"BTC-USD": "60000.10", "ETH-USD": "3000"}}}}
	bal := func(cur, avail, hold string) domain.Balance {
		return domain.Balance{Currency: cur, Available: decimal.RequireFromString(avail), Hold: decimal.RequireFromString(hold)}
	}
	// 7,998.67 + 0.01302389 x 60,000.10 (781.4347...) + 0 ETH = 8,780.10
	got := s.valueOf([]domain.Balance{bal("USD", "7998.67", "0"), bal("BTC", "0.01", "0.00302389"), bal("ETH", "0", "0")})
	if got == nil || got.String() != "8780.1" {
		t.Fatalf("equity = %v, want 8780.10", got)
	}
	if got := s.valueOf([]domain.Balance{bal("USD", "1", "0"), bal("SOL", "2", "0")}); got != nil {
		t.Fatalf("equity with no SOL price = %v, want none", got)
	}
}
