package notify

import (
	"encoding/json"
	"fmt"
	"strings"
)

// titles name each event for people (chat and email), in the catalogue's words.
var titles = map[string]string{
	OrderFilled: "Order filled", OrderPartiallyFilled: "Order partly filled", OrderRejected: "Order rejected",
	ProtectiveTriggered: "Stop-loss or take-profit filled", EmergencyStop: "Emergency stop", TradingResumed: "Trading resumed",
	RiskLimitReached: "Risk limit reached", StrategyError: "Strategy alert", MarketStale: "Market data stale",
	ExchangeDisconnected: "Exchange alert", BacktestFinished: "Backtest finished", SystemAlert: "System alert", Test: "Test notification",
	DailyDigest: "Daily digest", TokenCreated: "API token created",
}

// Title is the event type's name for people.
func Title(typ string) string {
	if t, ok := titles[typ]; ok {
		return t
	}
	return typ
}

// Text is m as plain text for a person (Telegram, email): what happened,
// from the message's own data, and the event type for reference.
func Text(m Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Kestrel: %s", Title(m.Type))
	if m.Severity == "high" || m.Severity == "critical" {
		fmt.Fprintf(&b, " (%s)", m.Severity)
	}
	b.WriteString("\n")
	b.WriteString(detail(m))
	if m.Count > 1 {
		fmt.Fprintf(&b, "\n%d events of this kind in this burst; this one is the first.", m.Count)
	}
	fmt.Fprintf(&b, "\n[%s · %s]", m.Type, m.Timestamp.UTC().Format("2006-01-02 15:04:05 UTC"))
	return b.String()
}

// detail is the body line of m's text from its data.
func detail(m Message) string {
	switch m.Type {
	case OrderFilled, OrderPartiallyFilled, OrderRejected, ProtectiveTriggered:
		var d OrderData
		if json.Unmarshal(m.Data, &d) != nil {
			break
		}
		o := d.Order
		s := fmt.Sprintf("%s %s %s %s", strings.ToUpper(string(o.Side)), o.Quantity.String(), o.Symbol, strings.ReplaceAll(string(o.Type), "_", " "))
		if d.Fill != nil {
			s += fmt.Sprintf(": %s at %s (fee %s)", d.Fill.Quantity.String(), d.Fill.Price.String(), d.Fill.Fee.String())
		}
		if m.Type == OrderRejected && o.RejectReason != "" {
			s += ": " + o.RejectReason
		}
		return s + "\nOrder " + o.ID
	case BacktestFinished:
		var d JobData
		if json.Unmarshal(m.Data, &d) != nil {
			break
		}
		s := fmt.Sprintf("Backtest %s %s", d.JobID, d.Status)
		if d.Error != "" {
			s += ": " + d.Error
		}
		return s
	case DailyDigest:
		var d DigestData
		if json.Unmarshal(m.Data, &d) == nil {
			return d.Text()
		}
	case Test:
		var d map[string]string
		if json.Unmarshal(m.Data, &d) == nil && d["message"] != "" {
			return d["message"] + " (channel " + d["channel"] + ")"
		}
	default:
		var d AlertData
		if json.Unmarshal(m.Data, &d) == nil && (d.Title != "" || d.Message != "") {
			return strings.TrimSpace(d.Title + ": " + d.Message)
		}
	}
	return string(m.Data)
}
