package analytics

import (
	"testing"
	"time"

	"kestrel/domain"
)

func TestTradingStats(t *testing.T) {
	at := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339, s); return tm }
	fill := func(side domain.Side, qty, px, fee, when string) domain.Fill {
		return domain.Fill{Symbol: "BTC-USD", Side: side, Quantity: dec(qty), Price: dec(px), Fee: dec(fee), Time: at(when)}
	}
	fills := []domain.Fill{
		fill(domain.Sell, "1", "100", "0", "2024-02-01T09:00:00Z"), // -51 (cost 151)
		fill(domain.Buy, "1", "100", "1", "2024-01-10T00:00:00Z"),  // before the period: cost only
		fill(domain.Buy, "1", "200", "1", "2024-01-20T00:00:00Z"),  // cost 302 for 2
		fill(domain.Sell, "1", "200", "1", "2024-01-31T23:00:00Z"), // 200 - 1 - 151 = 48
	}
	st := TradingStatsOf(fills, at("2024-01-15T00:00:00Z"))
	// One round trip (flat on Jan 10 to flat on Feb 1): -100 -1 -200 -1 +200 -1 +100 = -3.
	if st.TotalTrades != 1 || st.WinningTrades != 0 || st.LosingTrades != 1 {
		t.Fatalf("counts %+v", st)
	}
	near(t, "win rate", st.WinRate, 0)
	eq(t, "total (realized by the period's exits)", *st.TotalPnL, "-3")
	if st.AverageWin != nil || st.WinLossRatio != nil || st.SharpeRatio != nil {
		t.Errorf("no win, one trip: %+v", st)
	}
	eq(t, "avg loss", *st.AverageLoss, "-3")
	near(t, "profit factor", st.ProfitFactor, 0)
	eq(t, "max drawdown", *st.MaxDrawdown, "51")
	eq(t, "volume", st.TotalVolume, "500") // 200 + 200 + 100, the buy before the period left out
	eq(t, "average size", *st.AverageTradeSize, "166.67")
	if len(st.DailyPnL) != 2 || st.DailyPnL[0].Date != "2024-01-31" || st.DailyPnL[1].Cumulative.String() != "-3" || st.DailyPnL[1].PnL.String() != "-51" {
		t.Errorf("daily %+v", st.DailyPnL)
	}
	if len(st.MonthlyPerformance) != 2 || st.MonthlyPerformance[0].Month != "2024-01" || st.MonthlyPerformance[0].PnL.String() != "48" ||
		st.MonthlyPerformance[0].Trades != 0 || st.MonthlyPerformance[1].Trades != 1 {
		t.Errorf("monthly %+v", st.MonthlyPerformance)
	}
	if len(st.TradeDistribution) != len(SizeRanges) || st.TradeDistribution[1].Count != 3 {
		t.Errorf("distribution %+v", st.TradeDistribution)
	}
}

func TestTradingStatsWithoutTrades(t *testing.T) {
	st := TradingStatsOf(nil, time.Time{})
	if st.WinRate != nil || st.TotalPnL != nil || st.SharpeRatio != nil || st.ProfitFactor != nil || st.AverageTradeSize != nil ||
		st.DailyPnL == nil || len(st.DailyPnL) != 0 || st.TradeDistribution == nil || len(st.TradeDistribution) != 0 || !st.TotalVolume.IsZero() {
		t.Fatalf("no trades: %+v", st)
	}
	// Only wins: no loss, so no profit factor or win/loss ratio.
	st = TradingStatsOf([]domain.Fill{
		{Symbol: "ETH-USD", Side: domain.Buy, Quantity: dec("1"), Price: dec("10")},
		{Symbol: "ETH-USD", Side: domain.Sell, Quantity: dec("1"), Price: dec("11"), Time: time.Unix(1, 0)},
	}, time.Time{})
	if st.ProfitFactor != nil || st.WinLossRatio != nil || st.AverageLoss != nil || st.SharpeRatio != nil || *st.WinRate != 100 {
		t.Fatalf("only wins: %+v", st)
	}
}
