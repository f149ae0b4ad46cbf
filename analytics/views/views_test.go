package views

import (
	"errors"
	"testing"
	"time"

	"kestrel/domain"
)

// A query defaults to 30 days and refuses a symbol the market does not list,
// naming the field.
func TestParseQuery(t *testing.T) {
	now := time.Date(2026, 5, 31, 12, 0, 0, 0, time.UTC)
	q, err := ParseQuery("", "", now, []string{"BTC-USD"})
	if err != nil || q.Period != "30d" || !q.Since.Before(now) || !q.Now.Equal(now) {
		t.Fatalf("default: %+v %v", q, err)
	}
	_, err = ParseQuery("7d", "DOGE-USD", now, []string{"BTC-USD"})
	var de *domain.Error
	if domain.ErrorCode(err) != domain.EInvalid || !errors.As(err, &de) || de.Fields["symbol"] != "Unknown symbol DOGE-USD" {
		t.Fatalf("unknown symbol: %v", err)
	}
}

// Failed decisions are counted apart; rates and the mean confidence are
// over the others, to four places.
func TestAIPerformanceOf(t *testing.T) {
	p := AIPerformanceOf([]domain.Evaluation{
		{Decision: "BUY", Confidence: 0.9, Executed: true},
		{Decision: "HOLD", Confidence: 0.5},
		{Decision: "SELL", Confidence: 0.6},
		{Error: "timeout"},
	})
	if p.TotalDecisions != 3 || p.FailedDecisions != 1 || p.ExecutedDecisions != 1 || p.ExecutionRate != 0.3333 ||
		p.AvgConfidence != 0.6667 || p.DecisionDistribution["HOLD"] != 1 {
		t.Fatalf("%+v", p)
	}
	if avg, last := Signals(nil); avg != 0 || last != nil {
		t.Fatalf("no signals: %v %v", avg, last)
	}
}
