package ai

import "fmt"

// Thresholds of the built-in analyst's signals.
const (
	rsiOversold   = 30
	rsiOverbought = 70
	momentumPct   = 1.0 // candles' return, in percent, that counts as a trend
)

// signals lists the votes whose inputs are present, in a fixed order.
func signals(r Request) []vote {
	var out []vote
	in := r.Indicators
	if rsi, ok := in["rsi"]; ok {
		out = append(out, rsiVote(rsi))
	}
	short, okS := in["sma_short"]
	long, okL := in["sma_long"]
	if okS && okL {
		out = append(out, smaVote(short, long))
	}
	if h, ok := in["macd_hist"]; ok {
		out = append(out, sign(h, fmt.Sprintf("MACD histogram %s", num(h))))
	}
	lo, okLo := in["bb_lower"]
	up, okUp := in["bb_upper"]
	if p := price(r); okLo && okUp && p.IsPositive() {
		out = append(out, bandVote(p.InexactFloat64(), lo, up))
	}
	if s := summarise(r); s.count >= 2 {
		out = append(out, momentumVote(s))
	}
	return out
}

func rsiVote(rsi float64) vote {
	switch {
	case rsi < rsiOversold:
		return vote{1, fmt.Sprintf("RSI %s is oversold (<%d)", num(rsi), rsiOversold)}
	case rsi > rsiOverbought:
		return vote{-1, fmt.Sprintf("RSI %s is overbought (>%d)", num(rsi), rsiOverbought)}
	}
	return vote{0, fmt.Sprintf("RSI %s is neutral", num(rsi))}
}

func smaVote(short, long float64) vote {
	switch {
	case short > long:
		return vote{1, fmt.Sprintf("short SMA %s is above long SMA %s", num(short), num(long))}
	case short < long:
		return vote{-1, fmt.Sprintf("short SMA %s is below long SMA %s", num(short), num(long))}
	}
	return vote{0, fmt.Sprintf("short and long SMA are equal at %s", num(short))}
}

// sign votes with x's sign.
func sign(x float64, what string) vote {
	switch {
	case x > 0:
		return vote{1, what + " is positive"}
	case x < 0:
		return vote{-1, what + " is negative"}
	}
	return vote{0, what + " is flat"}
}

func bandVote(p, lo, up float64) vote {
	switch {
	case p <= lo:
		return vote{1, fmt.Sprintf("price %s is at or below the lower Bollinger band %s", num(p), num(lo))}
	case p >= up:
		return vote{-1, fmt.Sprintf("price %s is at or above the upper Bollinger band %s", num(p), num(up))}
	}
	return vote{0, fmt.Sprintf("price %s is inside the Bollinger bands %s-%s", num(p), num(lo), num(up))}
}

func momentumVote(s candleSummary) vote {
	text := fmt.Sprintf("return over %d candles %+.2f%%", s.count, s.returnPct)
	switch {
	case s.returnPct > momentumPct:
		return vote{1, text}
	case s.returnPct < -momentumPct:
		return vote{-1, text}
	}
	return vote{0, text + " is flat"}
}
