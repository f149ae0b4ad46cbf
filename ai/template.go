package ai

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	texttemplate "text/template"
	"text/template/parse"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// A strategy may carry its own prompt template (Request.PromptTemplate):
// the same language and data as the shipped ones, edited by an operator.
// It runs on the server on every decision, so it is bounded: its size, the
// rendered text, the strings its functions build, and its loops (range
// only over the data's lists, never nested; no {{template}} calls, which
// could recurse or fan out). Within those bounds a render takes at most a
// few milliseconds whatever the text.
const (
	// MaxTemplateBytes bounds a custom template's text (the shipped one is
	// about 1.3 KB).
	MaxTemplateBytes = 16 << 10
	// MaxRenderedBytes bounds each rendered message; a template that
	// writes more fails to render.
	MaxRenderedBytes = 32 << 10
	// maxFuncBytes bounds each string a template function returns, so a
	// variable doubled again and again fails instead of filling memory.
	maxFuncBytes = 16 << 10
)

// CustomVersion names a custom template in decisions: custom: and the
// first 12 hex digits of the text's SHA-256.
func CustomVersion(text string) string { return "custom:" + HashPrompt(text)[:12] }

// TemplateError is why a custom template does not parse or render, with
// where (line and column from 1; 0 when the parser does not say).
type TemplateError struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func (e *TemplateError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("Line %d, column %d: %s", e.Line, e.Column, e.Message)
	case e.Line > 0:
		return fmt.Sprintf("Line %d: %s", e.Line, e.Message)
	}
	return e.Message
}

// customName is a custom template's name in the parser's messages.
const customName = "prompt"

// where finds "template: prompt:LINE[:COL]: " in the parser's and the
// executor's messages.
var where = regexp.MustCompile(`template: ` + customName + `:(\d+)(?::(\d+))?: (?:executing "[^"]*" at )?`)

// templateError turns a parse or execution error into a TemplateError.
func templateError(err error) *TemplateError {
	var te *TemplateError
	if errors.As(err, &te) {
		return te
	}
	msg := err.Error()
	out := &TemplateError{}
	if m := where.FindStringSubmatchIndex(msg); m != nil {
		out.Line, _ = strconv.Atoi(msg[m[2]:m[3]])
		if m[4] >= 0 {
			out.Column, _ = strconv.Atoi(msg[m[4]:m[5]])
			out.Column++ // the executor counts bytes from 0
		}
		msg = msg[m[1]:]
	}
	msg = strings.TrimPrefix(msg, "render prompt "+customName+": ")
	out.Message = strings.NewReplacer("in type ai.promptData", "in the prompt data",
		"in type ai.namedValue", "in an indicator (it has .Name and .Value)",
		"in type ai.memoryTrade", "in a remembered trade (see .Memory)").Replace(msg)
	return out
}

// CheckTemplate parses a custom template with the shipped templates'
// parser (missingkey=error, a "system" block required) and renders both
// messages for a full sample request (trade memory included) and for an
// empty one (no candles, indicators, position or memory), so a field that
// does not exist or a pipeline that fails on either is found before it is
// saved. The error is a *TemplateError.
func CheckTemplate(text string) error {
	t, err := customTemplate(text)
	if err != nil {
		return err
	}
	full := SampleRequest()
	full.Memory = SampleMemory()
	for _, r := range []Request{full, {Symbol: "BTC-USD"}} {
		for _, block := range []string{"", "system"} {
			out, err := execute(t, block, r)
			if err != nil {
				return templateError(err)
			}
			if block == "" && strings.TrimSpace(out) == "" {
				return &TemplateError{Message: "The template renders an empty prompt: write the message to the model outside the system block"}
			}
		}
	}
	return nil
}

// custom caches parsed custom templates by text: a backtest renders one for
// every candle. Parsed templates are safe to execute concurrently.
var custom = struct {
	sync.Mutex
	m map[string]*texttemplate.Template
}{m: map[string]*texttemplate.Template{}}

// customTemplate parses text as a custom template, or says why it cannot
// be one (a *TemplateError).
func customTemplate(text string) (*texttemplate.Template, error) {
	custom.Lock()
	t, ok := custom.m[text]
	custom.Unlock()
	if ok {
		return t, nil
	}
	if len(text) > MaxTemplateBytes {
		return nil, &TemplateError{Message: fmt.Sprintf("The template is %d bytes; at most %d are allowed", len(text), MaxTemplateBytes)}
	}
	t, err := newTemplate(customName, boundedFuncs).Parse(text)
	if err != nil {
		return nil, templateError(err)
	}
	if t.Lookup("system") == nil {
		return nil, &TemplateError{Message: `No system block: define the system message with {{define "system"}}...{{end}}`}
	}
	for _, d := range t.Templates() {
		if err := bounded(text, d.Tree.Root, 0); err != nil {
			return nil, err
		}
	}
	custom.Lock()
	if len(custom.m) >= 64 { // versions in use are few; drafts come and go
		clear(custom.m)
	}
	custom.m[text] = t
	custom.Unlock()
	return t, nil
}

// bounded refuses what could make a render run long: {{template}} calls
// and a range over anything but one of the data's fields, or inside
// another range.
func bounded(text string, n parse.Node, ranges int) error {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return nil
		}
		for _, c := range n.Nodes {
			if err := bounded(text, c, ranges); err != nil {
				return err
			}
		}
	case *parse.TemplateNode:
		return refuse(text, n.Pos, `{{template}} and {{block}} are not allowed in a custom prompt ({{define "system"}} is how the system message is written)`)
	case *parse.RangeNode:
		if ranges > 0 {
			return refuse(text, n.Pos, "A range inside another range is not allowed in a custom prompt")
		}
		if !overData(n.Pipe) {
			return refuse(text, n.Pos, "A range may only go over one of the data's lists, such as .Indicators or .LastCloses")
		}
		if err := bounded(text, n.List, ranges+1); err != nil {
			return err
		}
		return bounded(text, n.ElseList, ranges)
	case *parse.IfNode:
		return branches(text, n.List, n.ElseList, ranges)
	case *parse.WithNode:
		return branches(text, n.List, n.ElseList, ranges)
	}
	return nil
}

func branches(text string, list, elseList *parse.ListNode, ranges int) error {
	if err := bounded(text, list, ranges); err != nil {
		return err
	}
	return bounded(text, elseList, ranges)
}

// overData says whether a range's pipeline is a field of the data (.X or
// $.X): lists the request bounds, never a number the template makes up.
func overData(p *parse.PipeNode) bool {
	if p == nil || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return false
	}
	switch a := p.Cmds[0].Args[0].(type) {
	case *parse.FieldNode:
		return true
	case *parse.VariableNode:
		return len(a.Ident) > 1 && a.Ident[0] == "$"
	}
	return false
}

func refuse(text string, pos parse.Pos, msg string) *TemplateError {
	line := 1 + strings.Count(text[:min(int(pos), len(text))], "\n")
	col := int(pos) - strings.LastIndex(text[:min(int(pos), len(text))], "\n")
	return &TemplateError{Line: line, Column: col, Message: msg}
}

// boundedFuncs replace the builtins that build strings with ones that
// stop at maxFuncBytes, checked before the text is built (issue 33, item
// 10): the strings they are given are measured first, and printf caps each
// verb's width and precision and builds its output verb by verb.
var boundedFuncs = texttemplate.FuncMap{
	"join": func(s []string, sep string) (string, error) {
		n := len(sep) * max(len(s)-1, 0)
		for _, x := range s {
			n += len(x)
		}
		if n > maxFuncBytes {
			return "", tooLong(n)
		}
		return capped(strings.Join(s, sep))
	},
	"print":   func(a ...any) (string, error) { return built(a, func() string { return fmt.Sprint(a...) }) },
	"printf":  boundedPrintf,
	"println": func(a ...any) (string, error) { return built(a, func() string { return fmt.Sprintln(a...) }) },
	"html": func(a ...any) (string, error) {
		return built(a, func() string { return texttemplate.HTMLEscapeString(fmt.Sprint(a...)) })
	},
	"js": func(a ...any) (string, error) {
		return built(a, func() string { return texttemplate.JSEscapeString(fmt.Sprint(a...)) })
	},
	"urlquery": func(a ...any) (string, error) {
		return built(a, func() string { return url.QueryEscape(fmt.Sprint(a...)) })
	},
}

// maxPrintfWidth caps a printf verb's width and precision (%08.2f is
// fine; %0200000000d would build 200 MB before any check).
const maxPrintfWidth = maxFuncBytes

// built is build() once the strings among a are known to fit.
func built(a []any, build func() string) (string, error) {
	n := 0
	for _, x := range a {
		if s, ok := x.(string); ok {
			n += len(s)
		}
	}
	if n > maxFuncBytes {
		return "", tooLong(n)
	}
	return capped(build())
}

func tooLong(n int) error {
	return fmt.Errorf("a function would build a text of at least %d bytes; at most %d are allowed", n, maxFuncBytes)
}

// boundedPrintf is fmt.Sprintf built one verb at a time: each verb's width
// and precision at most maxPrintfWidth, the text so far at most
// maxFuncBytes. Argument indexes ([n]) and widths from arguments (*) are
// refused: each verb takes the next argument.
func boundedPrintf(format string, a ...any) (string, error) {
	if len(format) > maxFuncBytes {
		return "", tooLong(len(format))
	}
	var out strings.Builder
	next := 0
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			out.WriteString(format[i:])
			break
		}
		out.WriteString(format[i : i+j])
		i += j
		// flags, width, precision, verb
		k := i + 1
		for k < len(format) && strings.IndexByte("+-# 0", format[k]) >= 0 {
			k++
		}
		width, k := digits(format, k)
		prec := 0
		if k < len(format) && format[k] == '.' {
			prec, k = digits(format, k+1)
		}
		if k >= len(format) {
			out.WriteString("%!(NOVERB)") // as fmt says it
			break
		}
		if format[k] == '[' || format[k] == '*' {
			return "", errors.New("printf in a template takes no argument indexes ([n]) or widths from arguments (*)")
		}
		if width > maxPrintfWidth || prec > maxPrintfWidth {
			return "", fmt.Errorf("printf width and precision are at most %d", maxPrintfWidth)
		}
		_, size := utf8.DecodeRuneInString(format[k:])
		verb := format[i : k+size]
		i = k + size
		switch {
		case verb == "%%":
			out.WriteByte('%')
			continue
		case next < len(a):
			if s, ok := a[next].(string); ok && len(s) > maxFuncBytes {
				return "", tooLong(len(s))
			}
			out.WriteString(fmt.Sprintf(verb, a[next]))
			next++
		default:
			out.WriteString("%!" + format[k:i] + "(MISSING)") // as fmt says it
		}
		if out.Len() > maxFuncBytes {
			return "", tooLong(out.Len())
		}
	}
	if next < len(a) { // as fmt says it
		out.WriteString("%!(EXTRA ")
		for n, x := range a[next:] {
			if n > 0 {
				out.WriteString(", ")
			}
			if x == nil {
				out.WriteString("<nil>")
				continue
			}
			out.WriteString(reflect.TypeOf(x).String() + "=" + fmt.Sprint(x))
		}
		out.WriteString(")")
	}
	return capped(out.String())
}

// digits reads a decimal number at format[k:] (saturating well above any
// cap) and returns it and the index after it.
func digits(format string, k int) (int, int) {
	n := 0
	for k < len(format) && format[k] >= '0' && format[k] <= '9' {
		if n < 1<<30 {
			n = n*10 + int(format[k]-'0')
		}
		k++
	}
	return n, k
}

func capped(s string) (string, error) {
	if len(s) > maxFuncBytes {
		return "", fmt.Errorf("a function built a text of %d bytes; at most %d are allowed", len(s), maxFuncBytes)
	}
	return s, nil
}

// boundedWriter fails a render that writes more than max bytes.
type boundedWriter struct {
	bytes.Buffer
	max int
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	if w.Len()+len(p) > w.max {
		return 0, fmt.Errorf("the rendered message is longer than %d bytes", w.max)
	}
	return w.Buffer.Write(p)
}

// ShippedTemplate is a shipped template's text without its leading
// comment (which is about the file, not the prompt): where an operator
// starts a custom template from. It renders exactly what the file does.
func ShippedTemplate(version string) (string, error) {
	raw, err := promptFiles.ReadFile("prompts/" + version + ".tmpl")
	if err != nil {
		return "", fmt.Errorf("unknown prompt template version %q", version)
	}
	text := string(raw)
	if strings.HasPrefix(text, "{{- /*") {
		if _, rest, ok := strings.Cut(text, "*/ -}}"); ok {
			text = strings.TrimLeft(rest, "\n")
		}
	}
	return text, nil
}

// shippedTexts are the shipped templates by their text as ShippedTemplate
// gives it (where an editor starts): a template left as shipped is that
// version, not a custom one.
var shippedTexts = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for _, v := range TemplateVersions {
		if text, err := ShippedTemplate(v); err == nil {
			out[text] = v
		}
	}
	return out
})

// TemplateField is one value a template can use, as the editor lists it.
type TemplateField struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// TemplateFields are promptData's fields (a test keeps the two equal).
var TemplateFields = []TemplateField{
	{".Symbol", "The product asked about, e.g. BTC-USD"},
	{".Base", "Its base currency, e.g. BTC"},
	{".Count", "How many closed candles the model is shown (the context length)"},
	{".Width", `The candles' width in words, e.g. 1-hour ("" when unknown)`},
	{".Timeframe", "The candles' granularity, e.g. ONE_HOUR"},
	{".FirstClose", "The first candle's close (n/a without candles)"},
	{".LastClose", "The last candle's close"},
	{".High", "The highest high of the candles"},
	{".Low", "The lowest low of the candles"},
	{".ReturnPct", "Last close against first, in percent, 2 decimals"},
	{".LastCloses", `The last 5 closes, oldest first (a list: {{join .LastCloses ", "}})`},
	{".Price", "The price when the prompt was built"},
	{".Indicators", "A list of {.Name, .Value} sorted by name (rsi, sma_short, macd, bb_upper, ...)"},
	{".Position", "The base quantity held"},
	{".Held", "Whether anything is held (true or false)"},
	{".AvgPrice", "The average entry price of what is held"},
	{".Limits", `The risk limits in one line ("" when not given)`},
	{".MemoryOn", "Whether trade memory is on (memory.trades above 0)"},
	{".Memory", "The strategy's own recent closed trades in this symbol that fit the memory budget, oldest first: a list of {.ID (the order that opened it), .Symbol, .Side, .EntryTime, .ExitTime, .Quantity, .EntryPrice, .ExitPrice, .PnL (net of fees), .PnLPct, .Reasoning (what the opening decision said), .Line (all of it in one line, as v3 shows it)}; empty when memory is off"},
	{".MemoryOmitted", "How many older trades were left out to fit the memory budget"},
}

// SampleRequest is a request with every field set: what a template is
// checked against before it is saved.
func SampleRequest() Request {
	t0 := time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)
	var cs []domain.Candle
	for i, c := range []int64{100, 101, 99, 102, 104, 103} {
		p := decimal.NewFromInt(c)
		cs = append(cs, domain.Candle{Time: t0.Add(time.Duration(i) * time.Hour), Open: p, Close: p,
			High: p.Add(decimal.NewFromInt(1)), Low: p.Sub(decimal.NewFromInt(1)), Volume: decimal.NewFromInt(10)})
	}
	return Request{Symbol: "BTC-USD", Timeframe: "ONE_HOUR", Candles: cs, Price: decimal.NewFromInt(103),
		Indicators: map[string]float64{"rsi": 55, "sma_short": 102, "sma_long": 100, "macd": 0.8, "macd_signal": 0.4, "macd_hist": 0.4,
			"bb_upper": 110, "bb_middle": 100, "bb_lower": 90},
		Position: decimal.RequireFromString("0.5"), AvgPrice: decimal.NewFromInt(100), Limits: "max position 10% of the portfolio, stop loss 2%"}
}

// SampleMemory is a trade memory of two trades (a win and a loss), for
// checking and previewing templates.
func SampleMemory() *Memory {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	d := decimal.RequireFromString
	return &Memory{MaxTokens: 500, Trades: []Trade{
		{ID: "order-1", Symbol: "BTC-USD", Side: domain.Buy, EntryTime: t0.Add(2 * time.Hour), ExitTime: t0.Add(9 * time.Hour),
			Quantity: d("0.5"), EntryPrice: d("98"), ExitPrice: d("101"), EntryCost: d("49.05"), PnL: d("1.40"),
			Reasoning: "RSI 28 is oversold and the close is at the lower band"},
		{ID: "order-2", Symbol: "BTC-USD", Side: domain.Buy, EntryTime: t0.Add(14 * time.Hour), ExitTime: t0.Add(20 * time.Hour),
			Quantity: d("0.5"), EntryPrice: d("102"), ExitPrice: d("100"), EntryCost: d("51.05"), PnL: d("-1.10"),
			Reasoning: "The short SMA crossed above the long SMA"},
	}}
}
