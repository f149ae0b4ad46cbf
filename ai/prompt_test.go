package ai

import (
	"strings"
	"testing"
)

func TestRenderPrompt(t *testing.T) {
	r := sampleRequest()
	r.Position, r.AvgPrice, r.PromptVersion = dec("0.25"), dec("99.5"), "v1"
	p, err := RenderPrompt(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Decide whether to BUY, SELL or HOLD BTC-USD now.",
		"Market (4 closed candles, oldest first)",
		"first close 100, last close 103, return 3.00%",
		"highest high 104, lowest low 99",
		"last closes: 100, 101, 102, 103",
		"- macd_hist: 0.4000\n- rsi: 55.00\n- sma_long: 100.00",
		"Position: 0.25 BTC at an average price of 99.5",
		"Risk limits: max position 10% of the portfolio, stop loss 2%",
		`{"decision":"BUY|SELL|HOLD","confidence":0.0-1.0,`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	again, _ := RenderPrompt(r)
	if HashPrompt(again) != HashPrompt(p) || len(HashPrompt(p)) != 64 {
		t.Error("the same request must render the same prompt and hash")
	}
}

func TestRenderPromptWithoutData(t *testing.T) {
	p, err := RenderPrompt(Request{Symbol: "ETH-USD"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"first close n/a", "- none available", "(nothing held: SELL is not possible)", "Risk limits: not given"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
}

func TestBrokenTemplateIsAnError(t *testing.T) {
	for name, text := range map[string]string{
		"syntax":    "{{.Symbol",
		"no system": "{{.Symbol}}",
	} {
		if _, err := parseTemplate("v9", text); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	tmpl, err := parseTemplate("v9", `{{define "system"}}s{{end}}{{.NoSuchField}}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := execute(tmpl, "", sampleRequest()); err == nil || !strings.Contains(err.Error(), "render prompt v9") {
		t.Errorf("unknown field: %v", err)
	}
}

// v2 states the candles' width; v1 still renders as it did, so its
// recordings stay replayable, and the two never share a hash.
func TestPromptV2StatesTheTimeframe(t *testing.T) {
	r := sampleRequest()
	r.Timeframe = "FIFTEEN_MINUTE"
	v2, err := RenderPrompt(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v2, "Market (4 closed 15-minute candles (FIFTEEN_MINUTE), oldest first)") {
		t.Errorf("v2 does not state the width:\n%s", v2)
	}
	r.PromptVersion = "v1"
	v1, err := RenderPrompt(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v1, "Market (4 closed candles, oldest first)") || HashPrompt(v1) == HashPrompt(v2) {
		t.Errorf("v1 changed or shares v2's hash:\n%s", v1)
	}
	r.PromptVersion = "v0"
	if _, err := RenderPrompt(r); err == nil {
		t.Error("an unknown version rendered")
	}
	for g, want := range map[string]string{"ONE_DAY": "1-day", "SIX_HOUR": "6-hour", "ONE_MINUTE": "1-minute", "": ""} {
		if got := width(g); got != want {
			t.Errorf("width(%q) = %q, want %q", g, got, want)
		}
	}
}
