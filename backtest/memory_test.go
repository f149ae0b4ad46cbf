package backtest_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"kestrel/ai"
	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/strategy"
)

// trader is a model that buys when flat and sells when holding, giving
// the price as its reason; it keeps every prompt it was sent.
type trader struct{ prompts []string }

func (*trader) Name() string             { return "openai" }
func (*trader) ModelLabel(string) string { return "m" }
func (p *trader) Decide(_ context.Context, r ai.Request) (ai.Decision, error) {
	m, err := ai.Render(r)
	if err != nil {
		return ai.Decision{}, err
	}
	p.prompts = append(p.prompts, m.Prompt)
	d := ai.Decision{Decision: ai.Buy, Confidence: 0.9, Reasoning: "buying at " + r.Price.String(), Prompt: m.Prompt, PromptHash: m.Hash, TemplateVersion: m.Version}
	if r.Position.IsPositive() {
		d.Decision, d.Reasoning = ai.Sell, "selling at "+r.Price.String()
	}
	return d, nil
}

// closeAt is candle i's price (open = close): up and down, wins and losses.
func closeAt(i int) string { return fmt.Sprint(100 + (i*7)%13) }

func memoryRun(t *testing.T, trades int) ([]string, backtest.Result) {
	t.Helper()
	cfg := strategy.Default(domain.StrategyAI, "remembers")
	if trades > 0 {
		cfg.Memory = &strategy.MemoryParams{Trades: trades, MaxTokens: 4000}
	}
	p := &trader{}
	s, err := strategy.Builder(strategy.AIDeps{Provider: func() (ai.Provider, error) { return p, nil }})(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var cs []domain.Candle
	for i := range 40 {
		px := closeAt(i)
		cs = append(cs, bar(i, px, px, px, px))
	}
	req := request(s, cs, nil)
	req.Config = cfg
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return p.prompts, res
}

var memoryLine = regexp.MustCompile(`(?m)^- (o-\d+): BUY [\d.]+ BTC-USD at ([\d.]+) on ([\d-]+ [\d:]+) UTC, closed at ([\d.]+) on .*; reasoning: "buying at ([\d.]+)"$`)

// A backtest's memory is its own trades so far, rebuilt from its fills:
// two runs send the same prompts, every remembered trade is one of the
// run's, with the reasoning its opening answer gave, and memory off sends
// the prompts a run sent before memory existed.
func TestBacktestMemoryIsItsOwnTrades(t *testing.T) {
	first, res := memoryRun(t, 3)
	again, _ := memoryRun(t, 3)
	if len(first) < 30 || strings.Join(first, "\x00") != strings.Join(again, "\x00") {
		t.Fatalf("%d prompts, then %d: the runs differ", len(first), len(again))
	}
	if !strings.Contains(first[0], "opened each):\n- none yet\n") {
		t.Fatalf("the first prompt remembers something:\n%s", first[0])
	}
	trades := map[string]backtest.Trade{}
	for _, tr := range res.Trades {
		trades[tr.EntryTime.Format("2006-01-02 15:04")+" "+tr.EntryPrice.String()] = tr
	}
	seen := map[string]bool{}
	for i, p := range first {
		lines := memoryLine.FindAllStringSubmatch(p, -1)
		if n := strings.Count(p, "\n- o-"); n != len(lines) || n > 3 {
			t.Fatalf("prompt %d: %d remembered trades, %d as expected:\n%s", i, n, len(lines), p)
		}
		for _, l := range lines {
			tr, ok := trades[l[3]+" "+l[2]]
			if !ok || tr.ExitPrice.String() != l[4] {
				t.Errorf("prompt %d remembers a trade the run did not make: %s", i, l[0])
			}
			// the answer came at the close of the candle before the one it filled in
			at, _ := time.Parse("2006-01-02 15:04", l[3])
			if before := int(at.Sub(t0)/time.Hour) - 1; l[5] != closeAt(before) {
				t.Errorf("prompt %d: the reasoning of %s is not its opening answer's: %s", i, l[1], l[0])
			}
			seen[l[1]] = true
		}
	}
	if last := memoryLine.FindAllStringSubmatch(first[len(first)-1], -1); len(last) != 3 || len(seen) < 10 {
		t.Errorf("the last prompt remembers %d trades; %d distinct over the run", len(last), len(seen))
	}

	off, resOff := memoryRun(t, 0)
	if len(off) != len(first) || len(resOff.Trades) != len(res.Trades) {
		t.Fatalf("memory changed the run: %d prompts, %d trades", len(off), len(resOff.Trades))
	}
	section := regexp.MustCompile(`\n\nYour own recent closed trades[^\n]*(\n- [^\n]*)+`)
	for i, p := range off {
		if strings.Contains(p, "closed trades") || section.ReplaceAllString(first[i], "") != p {
			t.Fatalf("memory off, prompt %d:\n%s\nmemory on:\n%s", i, p, first[i])
		}
	}
}
