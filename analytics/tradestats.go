package analytics

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// TradingStats is the Trading Performance tab: every fill booked at average
// cost per symbol gives the realized P&L of each exit (daily, monthly, total,
// drawdown); a trade is a round trip closed within the period (RoundTrips),
// which the counts, win rate, averages, profit factor and Sharpe ratio use.
// Figures that need trades are null without them.
type TradingStats struct {
	TotalTrades   int              `json:"totalTrades"`
	WinningTrades int              `json:"winningTrades"`
	LosingTrades  int              `json:"losingTrades"`
	WinRate       *float64         `json:"winRate"` // percent, 1 decimal
	TotalPnL      *decimal.Decimal `json:"totalPnL"`
	AverageWin    *decimal.Decimal `json:"averageWin"`
	AverageLoss   *decimal.Decimal `json:"averageLoss"` // negative
	ProfitFactor  *float64         `json:"profitFactor"`
	WinLossRatio  *float64         `json:"winLossRatio"`
	SharpeRatio   *float64         `json:"sharpeRatio"`
	MaxDrawdown   *decimal.Decimal `json:"maxDrawdown"` // USD
	TotalVolume   decimal.Decimal  `json:"totalVolume"`
	// AverageTradeSize is the mean notional of the period's fills (buys and sells).
	AverageTradeSize   *decimal.Decimal `json:"averageTradeSize"`
	DailyPnL           []DailyPnL       `json:"dailyPnL"`
	TradeDistribution  []SizeBucket     `json:"tradeDistribution"`
	MonthlyPerformance []MonthPnL       `json:"monthlyPerformance"`
}

// DailyPnL is one UTC day's realized P&L and the period's running total.
type DailyPnL struct {
	Date       string          `json:"date"`
	PnL        decimal.Decimal `json:"pnl"`
	Cumulative decimal.Decimal `json:"cumulative"`
}

// SizeBucket counts the period's fills whose notional is in a range.
type SizeBucket struct {
	Range string `json:"range"`
	Count int    `json:"count"`
}

// MonthPnL is one calendar month's (UTC) realized P&L and closing trades.
type MonthPnL struct {
	Month  string          `json:"month"`
	PnL    decimal.Decimal `json:"pnl"`
	Trades int             `json:"trades"`
}

// SizeRanges are the trade size buckets, [lower, upper) in USD notional.
var SizeRanges = []struct {
	Label string
	Lower decimal.Decimal
}{
	{"<$100", decimal.Zero}, {"$100-$500", decimal.NewFromInt(100)}, {"$500-$1K", decimal.NewFromInt(500)},
	{"$1K-$5K", decimal.NewFromInt(1000)}, {"$5K-$10K", decimal.NewFromInt(5000)}, {">=$10K", decimal.NewFromInt(10000)},
}

func dp(d decimal.Decimal) *decimal.Decimal { return &d }

// TradingStatsOf books every fill (any order; earlier ones set the cost of
// later sells) and reports the fills at or after since.
func TradingStatsOf(fills []domain.Fill, since time.Time) TradingStats {
	sorted := inTimeOrder(fills)
	st := TradingStats{DailyPnL: []DailyPnL{}, TradeDistribution: []SizeBucket{}, MonthlyPerformance: []MonthPnL{}}
	books := map[string]domain.PositionBook{}
	var gross, lost, cum, peak, maxDD decimal.Decimal
	fillCount := 0
	buckets := make([]int, len(SizeRanges))
	for _, f := range sorted {
		b, ok := books[f.Symbol]
		if !ok {
			b = domain.NewPositionBook(f.Symbol)
		}
		next := b.Apply(f)
		books[f.Symbol] = next
		if f.Time.Before(since) {
			continue
		}
		notional := f.Quantity.Mul(f.Price)
		st.TotalVolume = st.TotalVolume.Add(notional)
		fillCount++
		for i := len(SizeRanges) - 1; i >= 0; i-- {
			if notional.GreaterThanOrEqual(SizeRanges[i].Lower) {
				buckets[i]++
				break
			}
		}
		if f.Side != domain.Sell {
			continue
		}
		gain := next.Realized.Sub(b.Realized)
		cum = cum.Add(gain)
		peak = decimal.Max(peak, cum)
		maxDD = decimal.Max(maxDD, peak.Sub(cum))
		day, month := f.Time.UTC().Format("2006-01-02"), f.Time.UTC().Format("2006-01")
		if n := len(st.DailyPnL); n > 0 && st.DailyPnL[n-1].Date == day {
			st.DailyPnL[n-1].PnL = st.DailyPnL[n-1].PnL.Add(gain)
		} else {
			st.DailyPnL = append(st.DailyPnL, DailyPnL{Date: day, PnL: gain})
		}
		if n := len(st.MonthlyPerformance); n > 0 && st.MonthlyPerformance[n-1].Month == month {
			st.MonthlyPerformance[n-1].PnL = st.MonthlyPerformance[n-1].PnL.Add(gain)
		} else {
			st.MonthlyPerformance = append(st.MonthlyPerformance, MonthPnL{Month: month, PnL: gain})
		}
	}
	trips := TripsSince(RoundTrips(fills), since)
	for _, t := range trips {
		month := t.ExitTime.UTC().Format("2006-01")
		i := sort.Search(len(st.MonthlyPerformance), func(i int) bool { return st.MonthlyPerformance[i].Month >= month })
		if i < len(st.MonthlyPerformance) && st.MonthlyPerformance[i].Month == month {
			st.MonthlyPerformance[i].Trades++
		}
		switch {
		case t.Won():
			gross = gross.Add(t.NetPnL)
		case t.NetPnL.IsNegative():
			lost = lost.Add(t.NetPnL.Neg())
		}
	}
	wl := WinLossOf(trips)
	st.TotalTrades, st.WinningTrades, st.LosingTrades = wl.Total, wl.Won, wl.Lost
	running := decimal.Zero
	for i := range st.DailyPnL {
		running = running.Add(st.DailyPnL[i].PnL)
		st.DailyPnL[i].PnL, st.DailyPnL[i].Cumulative = st.DailyPnL[i].PnL.Round(2), running.Round(2)
	}
	for i := range st.MonthlyPerformance {
		st.MonthlyPerformance[i].PnL = st.MonthlyPerformance[i].PnL.Round(2)
	}
	st.TotalVolume = st.TotalVolume.Round(2)
	if fillCount > 0 {
		st.AverageTradeSize = dp(st.TotalVolume.Div(decimal.NewFromInt(int64(fillCount))).Round(2))
		for i, r := range SizeRanges {
			st.TradeDistribution = append(st.TradeDistribution, SizeBucket{Range: r.Label, Count: buckets[i]})
		}
	}
	if len(st.DailyPnL) > 0 {
		st.TotalPnL = dp(cum.Round(2))
		st.MaxDrawdown = dp(maxDD.Round(2))
	}
	if st.TotalTrades == 0 {
		return st
	}
	st.WinRate = F(wl.WinRate)
	if st.WinningTrades > 0 {
		st.AverageWin = dp(gross.Div(decimal.NewFromInt(int64(st.WinningTrades))).Round(2))
	}
	if st.LosingTrades > 0 {
		st.AverageLoss = dp(lost.Neg().Div(decimal.NewFromInt(int64(st.LosingTrades))).Round(2))
		if lost.IsPositive() {
			st.ProfitFactor = F(gross.Div(lost).Round(4).InexactFloat64())
		}
		if st.WinningTrades > 0 {
			st.WinLossRatio = F(decimal.NewFromInt(int64(st.WinningTrades)).Div(decimal.NewFromInt(int64(st.LosingTrades))).Round(4).InexactFloat64())
		}
	}
	if returns := tripReturns(trips); len(returns) >= 2 && !constant(returns) {
		st.SharpeRatio = F(Sharpe(returns, 1))
	}
	return st
}
