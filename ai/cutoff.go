package ai

import (
	"strings"
	"time"
)

// TrainingCutoffs are the published training-data cutoffs of the models the
// settings offer and of the models that really answer for them, by name
// (owner prefix and case ignored). A backtest over a period before a model's
// cutoff is warned about: the model may remember the prices. Where a vendor
// gives a "reliable knowledge" date and a later "training data" date, the
// later one is listed (it is the last data the model could have seen).
//
//	model             cutoff      source
//	gpt-4.1-nano      2024-06-01  OpenAI model page (the whole gpt-4.1 family)
//	gpt-4.1           2024-06-01  OpenAI model page
//	gpt-4-turbo       2023-12-01  OpenAI model page
//	claude-4-sonnet   2025-03-01  Anthropic models overview (training data, March 2025)
//	claude-3-sonnet   2023-08-01  Anthropic models overview
//	llama-2-70b-chat  2023-07-01  Llama 2 model card (fine-tuning data up to July 2023)
//
// Months are as precise as the sources are; the first of the month stands
// for the month.
var TrainingCutoffs = map[string]time.Time{
	"gpt-4.1-nano":     day(2024, 6),
	"gpt-4.1":          day(2024, 6),
	"gpt-4-turbo":      day(2023, 12),
	"claude-4-sonnet":  day(2025, 3),
	"claude-3-sonnet":  day(2023, 8),
	"llama-2-70b-chat": day(2023, 7),
	"llama-2-70b":      day(2023, 7),
}

func day(y int, m time.Month) time.Time { return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC) }

// TrainingCutoff is the cutoff of a model as a provider labels it (e.g.
// openai/gpt-4.1-nano or gpt-4.1-nano); ok is false for a model the table
// does not know.
func TrainingCutoff(model string) (time.Time, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	t, ok := TrainingCutoffs[m]
	return t, ok
}
