// Package spend prices AI decisions and keeps each provider inside its
// monthly budget. A decision's cost is its tokens (the provider's usage
// report) times the model's price per million tokens (api.ai.pricing),
// computed in decimal when the decision is made; a model without a price has
// an unknown cost (nil), never 0. The built-in analyst costs nothing. A
// provider whose calendar month (UTC) of recorded decisions has cost its
// budget (api.ai.monthlyBudget) is not asked again that month. Shadow
// models' decisions count like the live model's, labelled as shadows.
package spend

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Price is a model's price in USD per million tokens.
type Price struct {
	Input, Output decimal.Decimal
}

// Book prices decisions and reads what they cost.
type Book struct {
	// Prices by model name; Budgets in USD per provider (absent: no cap).
	Prices  func() map[string]Price
	Budgets func() map[string]decimal.Decimal
	// Usage lists recorded AI decisions in [since, until), oldest first.
	Usage func(ctx context.Context, since, until time.Time) ([]domain.AIUsage, error)
	Now   func() time.Time
}

var million = decimal.NewFromInt(1_000_000)

// Builtin is the built-in analyst's provider name: it runs in-process, free.
const Builtin = "builtin"

// Cost is the USD cost of a call's tokens: priced by the model the provider
// reported, else by the configured model option; nil when neither has a
// price.
func (b *Book) Cost(provider string, models []string, in, out int) *decimal.Decimal {
	if provider == Builtin {
		z := decimal.Zero
		return &z
	}
	prices := b.Prices()
	for _, m := range models {
		if p, ok := prices[m]; ok && m != "" {
			c := p.Input.Mul(decimal.NewFromInt(int64(in))).Add(p.Output.Mul(decimal.NewFromInt(int64(out)))).Div(million)
			return &c
		}
	}
	return nil
}

// MonthStart is the first instant of t's calendar month, UTC.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// Paused says why provider may not be asked now: its month's spend has
// reached its budget ("" when it may). Unpriced decisions add nothing (their
// cost is unknown), so the figure is what is known to have been spent.
func (b *Book) Paused(ctx context.Context, provider string) (string, error) {
	budget, ok := b.Budgets()[provider]
	if !ok {
		return "", nil
	}
	now := b.Now()
	us, err := b.Usage(ctx, MonthStart(now), now.Add(time.Millisecond))
	if err != nil {
		return "", err
	}
	spent := decimal.Zero
	for _, u := range us {
		if u.Provider == provider && u.Cost != nil {
			spent = spent.Add(*u.Cost)
		}
	}
	if spent.LessThan(budget) {
		return "", nil
	}
	return fmt.Sprintf("the %s monthly AI budget of $%s is spent ($%s since %s)", provider, budget.String(), spent.StringFixed(6), MonthStart(now).Format("2006-01-02")), nil
}

// Totals is what a set of decisions used. Cost is nil when any of them had
// no price (the known part is KnownCost, the count UnpricedDecisions).
type Totals struct {
	Decisions         int              `json:"decisions"`
	InputTokens       int              `json:"input_tokens"`
	OutputTokens      int              `json:"output_tokens"`
	Cost              *decimal.Decimal `json:"cost"`
	KnownCost         decimal.Decimal  `json:"known_cost"`
	UnpricedDecisions int              `json:"unpriced_decisions"`
	// The shadow models' part of the above (their calls are paid like
	// any other, and count toward the budget): decisions and known cost.
	ShadowDecisions int             `json:"shadow_decisions"`
	ShadowCost      decimal.Decimal `json:"shadow_cost"`
}

func (t *Totals) add(u domain.AIUsage) {
	t.Decisions++
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	if u.Shadow {
		t.ShadowDecisions++
		if u.Cost != nil {
			t.ShadowCost = t.ShadowCost.Add(*u.Cost)
		}
	}
	if u.Cost == nil {
		t.UnpricedDecisions++
		return
	}
	t.KnownCost = t.KnownCost.Add(*u.Cost)
}

func (t *Totals) close() {
	if t.UnpricedDecisions == 0 {
		c := t.KnownCost
		t.Cost = &c
	}
}

// Day is one UTC day's totals.
type Day struct {
	Day string `json:"day"` // YYYY-MM-DD
	Totals
}

// Strategy is one strategy's totals.
type Strategy struct {
	Strategy string `json:"strategy"`
	Totals
}

// Provider is one provider's month and budget.
type Provider struct {
	Provider string `json:"provider"`
	// Month is this calendar month's totals (the budget's period).
	Month  Totals           `json:"month"`
	Budget *decimal.Decimal `json:"budget"` // nil: no budget
	// Paused: the month's known spend has reached the budget; AI decisions
	// on this provider are recorded as "paused: budget" without a call.
	Paused bool `json:"paused"`
}

// Report is the spend view: what AI decisions used in [From, To), per day
// and per strategy, with each provider's month against its budget.
type Report struct {
	From           time.Time  `json:"from"`
	To             time.Time  `json:"to"`
	Total          Totals     `json:"total"`
	Days           []Day      `json:"days"`
	Strategies     []Strategy `json:"strategies"`
	Providers      []Provider `json:"providers"`
	UnpricedModels []string   `json:"unpriced_models"`
	MonthStart     time.Time  `json:"month_start"`
}

// Report adds up the decisions of [from, to) and the current month.
func (b *Book) Report(ctx context.Context, from, to time.Time) (Report, error) {
	r := Report{From: from.UTC(), To: to.UTC(), Days: []Day{}, Strategies: []Strategy{}, Providers: []Provider{}, UnpricedModels: []string{}}
	us, err := b.Usage(ctx, from, to)
	if err != nil {
		return r, err
	}
	days, strats := map[string]*Day{}, map[string]*Strategy{}
	unpriced := map[string]bool{}
	for _, u := range us {
		r.Total.add(u)
		d := u.Time.UTC().Format("2006-01-02")
		if days[d] == nil {
			days[d] = &Day{Day: d}
		}
		days[d].add(u)
		if strats[u.Strategy] == nil {
			strats[u.Strategy] = &Strategy{Strategy: u.Strategy}
		}
		strats[u.Strategy].add(u)
		if u.Cost == nil {
			unpriced[u.Provider+" "+u.Model] = true
		}
	}
	r.Total.close()
	for _, d := range days {
		d.close()
		r.Days = append(r.Days, *d)
	}
	sort.Slice(r.Days, func(i, j int) bool { return r.Days[i].Day < r.Days[j].Day })
	for _, s := range strats {
		s.close()
		r.Strategies = append(r.Strategies, *s)
	}
	sort.Slice(r.Strategies, func(i, j int) bool { return r.Strategies[i].Strategy < r.Strategies[j].Strategy })
	for m := range unpriced {
		r.UnpricedModels = append(r.UnpricedModels, m)
	}
	sort.Strings(r.UnpricedModels)

	// Each provider's month, against its budget.
	now := b.Now()
	r.MonthStart = MonthStart(now)
	month, err := b.Usage(ctx, r.MonthStart, now.Add(time.Millisecond))
	if err != nil {
		return r, err
	}
	provs := map[string]*Provider{}
	budgets := b.Budgets()
	for p, v := range budgets {
		v := v
		provs[p] = &Provider{Provider: p, Budget: &v}
	}
	for _, u := range month {
		if provs[u.Provider] == nil {
			provs[u.Provider] = &Provider{Provider: u.Provider}
		}
		provs[u.Provider].Month.add(u)
	}
	for _, p := range provs {
		p.Month.close()
		p.Paused = p.Budget != nil && !p.Month.KnownCost.LessThan(*p.Budget)
		r.Providers = append(r.Providers, *p)
	}
	sort.Slice(r.Providers, func(i, j int) bool { return r.Providers[i].Provider < r.Providers[j].Provider })
	return r, nil
}
