package ai

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// The hashes of SampleRequest's prompts (and of a request without data)
// as rendered before trade memory existed: with memory off every shipped
// version renders the same text, so answers recorded before it replay.
func TestMemoryOffLeavesPromptsUnchanged(t *testing.T) {
	want := map[string][2]string{
		"v1": {"b214905d60857b6a7d7c6037049c659a1f8e0005c798bf99e326692cf027e322", "87d3bdcc3b95e00c017f9cfff5d891acd13853752f7189136216e791a2a3d94a"},
		"v2": {"b9a3e6145158afb34c7d37a11b35efc54422a6683c2e65fa85fb14bb3e13366e", "0bd672393144e4c7466f3a10872ab86d6fdae9c9f62a4f875f9dc6641f916e88"},
		"":   {"b9a3e6145158afb34c7d37a11b35efc54422a6683c2e65fa85fb14bb3e13366e", "0bd672393144e4c7466f3a10872ab86d6fdae9c9f62a4f875f9dc6641f916e88"},
		// v3 without memory is v2's text byte for byte
		"v3": {"b9a3e6145158afb34c7d37a11b35efc54422a6683c2e65fa85fb14bb3e13366e", "0bd672393144e4c7466f3a10872ab86d6fdae9c9f62a4f875f9dc6641f916e88"},
	}
	for v, hashes := range want {
		full := SampleRequest()
		full.PromptVersion = v
		for i, r := range []Request{full, {Symbol: "ETH-USD", PromptVersion: v}} {
			m, err := Render(r)
			if err != nil {
				t.Fatal(err)
			}
			if m.Hash != hashes[i] {
				t.Errorf("%q request %d: hash %s, want %s:\n%s", v, i, m.Hash, hashes[i], m.Prompt)
			}
		}
	}
	if got := PromptVersion(SampleRequest()); got != "v2" {
		t.Errorf("the default without memory is %s, want v2", got)
	}
}

func memoryRequest(m *Memory) Request {
	r := SampleRequest()
	r.Memory = m
	return r
}

func TestMemorySectionListsTheTrades(t *testing.T) {
	m, err := Render(memoryRequest(SampleMemory()))
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "v3" {
		t.Errorf("rendered with %s, want v3 (memory on, no version pinned)", m.Version)
	}
	want := "Risk limits: max position 10% of the portfolio, stop loss 2%\n\n" +
		"Your own recent closed trades in BTC-USD (oldest first; P&L net of fees; the reasoning is what you said when you opened each):\n" +
		`- order-1: BUY 0.5 BTC-USD at 98 on 2025-01-01 02:00 UTC, closed at 101 on 2025-01-01 09:00 UTC, net P&L +1.40 USD (+2.85%); reasoning: "RSI 28 is oversold and the close is at the lower band"` + "\n" +
		`- order-2: BUY 0.5 BTC-USD at 102 on 2025-01-01 14:00 UTC, closed at 100 on 2025-01-01 20:00 UTC, net P&L -1.10 USD (-2.15%); reasoning: "The short SMA crossed above the long SMA"` + "\n\n" +
		"Answer with only this JSON object"
	if !strings.Contains(m.Prompt, want) {
		t.Errorf("the memory section is not as expected:\n%s", m.Prompt)
	}
	off, _ := Render(SampleRequest())
	if m.Hash == off.Hash || strings.Replace(m.Prompt, want, "Risk limits: max position 10% of the portfolio, stop loss 2%\n\nAnswer with only this JSON object", 1) != off.Prompt {
		t.Error("memory changes more than its own section")
	}
	empty, _ := Render(memoryRequest(&Memory{MaxTokens: 500}))
	if !strings.Contains(empty.Prompt, "opened each):\n- none yet\n\nAnswer") {
		t.Errorf("memory on without trades:\n%s", empty.Prompt)
	}
}

// The budget keeps the newest trades: the oldest go first, the section
// says how many, and a lone trade over it keeps what of its reasoning fits.
func TestMemoryIsCutToTheBudget(t *testing.T) {
	var trades []Trade
	for i := range 10 {
		at := t0.Add(time.Duration(i) * 24 * time.Hour)
		trades = append(trades, Trade{ID: "o" + string(rune('a'+i)), Symbol: "BTC-USD", Side: domain.Buy, EntryTime: at, ExitTime: at.Add(time.Hour),
			Quantity: dec("1"), EntryPrice: dec("100"), ExitPrice: dec("101"), EntryCost: dec("100.1"), PnL: dec("0.8"),
			Reasoning: strings.Repeat("word ", 100)}) // 500 characters: cut to 280
	}
	lines, omitted := fitMemory(&Memory{Trades: trades, MaxTokens: 300})
	if len(lines) == 0 || omitted != 10-len(lines) || lines[len(lines)-1].ID != "oj" || lines[0].ID != "o"+string(rune('a'+omitted)) {
		t.Fatalf("kept %d trades (first %s), omitted %d", len(lines), lines[0].ID, omitted)
	}
	used := 0
	for _, l := range lines {
		used += EstimateTokens(l.Line)
		if n := len([]rune(l.Reasoning)); n > maxReasonRunes || !strings.HasSuffix(l.Reasoning, "…") {
			t.Errorf("reasoning of %d characters: %q", n, l.Reasoning)
		}
	}
	if used > 300 || used+EstimateTokens(viewTrade(trades[omitted-1], maxReasonRunes).Line) <= 300 {
		t.Errorf("%d tokens used of 300 with %d trades: one more would fit, or too many are kept", used, len(lines))
	}
	r := memoryRequest(&Memory{Trades: trades, MaxTokens: 300})
	p, _ := RenderPrompt(r)
	if !strings.Contains(p, "older trades left out to keep this section short") || strings.Contains(p, "- oa:") || !strings.Contains(p, "- oj:") {
		t.Errorf("the section does not show the cut:\n%s", p)
	}

	one, omitted := fitMemory(&Memory{Trades: trades, MaxTokens: 60})
	if len(one) != 1 || omitted != 9 || EstimateTokens(one[0].Line) > 60 || !strings.HasSuffix(one[0].Reasoning, "…") || one[0].ID != "oj" {
		t.Errorf("a lone trade over the budget: %+v, omitted %d", one, omitted)
	}
	none, omitted := fitMemory(&Memory{Trades: trades, MaxTokens: 10})
	if len(none) != 0 || omitted != 10 {
		t.Errorf("nothing fits 10 tokens, kept %+v", none)
	}
}

func TestMemoryReasoningIsOneLine(t *testing.T) {
	v := viewTrade(Trade{ID: "x", Symbol: "ETH-USD", Side: domain.Buy, EntryCost: decimal.Zero, PnL: dec("0.004"),
		Reasoning: "line one\n\n- line two\tand\r\nthree"}, maxReasonRunes)
	if v.Reasoning != "line one - line two and three" || strings.Contains(v.Line, "\n") {
		t.Errorf("reasoning %q, line %q", v.Reasoning, v.Line)
	}
	if v.PnL != "0.00" || v.PnLPct != "n/a" {
		t.Errorf("P&L %s (%s%%)", v.PnL, v.PnLPct)
	}
	if got := viewTrade(Trade{ID: "y", Symbol: "ETH-USD"}, maxReasonRunes).Line; !strings.HasSuffix(got, "reasoning: not recorded") {
		t.Errorf("a trade opened without a decision: %q", got)
	}
	if EstimateTokens("") != 0 || EstimateTokens("abcd") != 1 || EstimateTokens("abcde") != 2 || EstimateTokens("ééééé") != 2 {
		t.Error("EstimateTokens is not ceil(characters / 4)")
	}
}

// A custom template reads the memory's fields; v1 and v2 pinned ignore it.
func TestCustomTemplateReadsMemory(t *testing.T) {
	r := memoryRequest(SampleMemory())
	r.PromptTemplate = `{{define "system"}}s{{end}}M: {{if .MemoryOn}}{{range .Memory}}{{.ID}} {{.PnL}} {{.PnLPct}} {{.EntryTime}} | {{end}}{{.MemoryOmitted}}{{end}}`
	if err := CheckTemplate(r.PromptTemplate); err != nil {
		t.Fatal(err)
	}
	p, err := RenderPrompt(r)
	if err != nil {
		t.Fatal(err)
	}
	if p != "M: order-1 +1.40 +2.85 2025-01-01 02:00 UTC | order-2 -1.10 -2.15 2025-01-01 14:00 UTC | 0\n" {
		t.Errorf("rendered %q", p)
	}
	err = CheckTemplate(`{{define "system"}}s{{end}}{{range .Memory}}{{.Nope}}{{end}}`)
	if te, ok := err.(*TemplateError); !ok || !strings.Contains(te.Message, "in a remembered trade") {
		t.Errorf("an unknown trade field: %v", err)
	}
	r.PromptTemplate, r.PromptVersion = "", "v2"
	pinned, _ := Render(r)
	if off, _ := Render(SampleRequest()); pinned.Hash != off.Hash || pinned.Version != "v2" {
		t.Error("a request pinned to v2 shows the memory")
	}
}
