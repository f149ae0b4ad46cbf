package research

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"kestrel/analytics/robust"
	"kestrel/backtest"
	"kestrel/domain"
)

// pboKey is the metrics key under which a trial keeps its period returns
// cut into the sweep's blocks (robust.Blocks) for the sweep's PBO; a
// sweep's answer shows the metrics without it.
const pboKey = "pbo_returns"

// pboReturns is what a trial keeps for the PBO: its number of period
// returns and their blocks.
type pboReturns struct {
	Periods int            `json:"periods"`
	Blocks  []robust.Block `json:"blocks"`
}

// Blocks is the sweep's number of PBO blocks S (robust.DefaultBlocks
// when the ask leaves it out).
func (a Ask) Blocks() int {
	if a.PBOBlocks == 0 {
		return robust.DefaultBlocks
	}
	return a.PBOBlocks
}

// TrialMetrics is a whole-period trial's metrics (Metrics) with its period
// returns (the equity curve's, after the capital, as the report's Sharpe
// ratio reads them) from the candle opening at from on (the sweep's common
// time grid when its trials start at other candles; zero: all) cut into
// the sweep's blocks.
func TrialMetrics(r backtest.Result, a Ask, from time.Time) (json.RawMessage, error) {
	m, err := Metrics(r)
	if err != nil {
		return nil, err
	}
	capital, curve := r.InitialEquity, r.EquityCurve
	for len(curve) > 0 && curve[0].Time.Before(from) {
		capital, curve = curve[0].Equity.Decimal(), curve[1:]
	}
	rets := curveReturns(capital, curve)
	s := a.Blocks()
	if s < robust.MinBlocks || s > robust.MaxBlocks {
		return m, nil // Check refuses it; a stored ask is never so
	}
	blocks, err := json.Marshal(pboReturns{Periods: len(rets), Blocks: robust.Blocks(rets, s)})
	if err != nil {
		return nil, err
	}
	var o map[string]json.RawMessage
	if err := json.Unmarshal(m, &o); err != nil {
		return nil, err
	}
	o[pboKey] = blocks
	return json.Marshal(o)
}

// shown is a trial's metrics as a sweep answers them: without its blocks.
func shown(m json.RawMessage) json.RawMessage {
	if !bytes.Contains(m, []byte(`"`+pboKey+`"`)) {
		return m
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(m, &o) != nil {
		return m
	}
	delete(o, pboKey)
	out, err := json.Marshal(o)
	if err != nil {
		return m
	}
	return out
}

// PBO is the probability of backtest overfitting of a sweep's trials
// (robust.ComputePBO over each trial's blocks, ranked by their Sharpe
// ratio whatever the sweep's objective); nil and the reason when there is
// no figure: fewer than 2 trials, too few periods for the blocks, or
// trials stored without their returns.
func PBO(ts []domain.SweepTrial) (*robust.PBO, string) {
	blocks := make([][]robust.Block, 0, len(ts))
	periods := -1
	for _, t := range ts {
		var x struct {
			R *pboReturns `json:"pbo_returns"`
		}
		if json.Unmarshal(t.Metrics, &x) != nil || x.R == nil {
			return nil, "The trials were stored without their period returns (a sweep run before the PBO was computed): run it again for the figure"
		}
		if periods >= 0 && x.R.Periods != periods {
			return nil, "The trials' return series differ in length: they share no common time grid"
		}
		periods = x.R.Periods
		blocks = append(blocks, x.R.Blocks)
	}
	p, err := robust.ComputePBO(blocks, max(periods, 0))
	if err != nil {
		return nil, upper(err.Error())
	}
	return p, ""
}

func upper(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// pboMemo keeps the PBO of finished sweeps by id and trial count: the
// C(S, S/2) combinations over every trial are worth computing once.
var pboMemo = struct {
	sync.Mutex
	m map[string]pboAnswer
}{m: map[string]pboAnswer{}}

type pboAnswer struct {
	p    *robust.PBO
	note string
}

// PBOOf is PBO for a stored sweep, remembered by its id and the number of
// trials (a finished sweep's trials no longer change).
func PBOOf(id string, ts []domain.SweepTrial) (*robust.PBO, string) {
	key := fmt.Sprintf("%s/%d", id, len(ts))
	pboMemo.Lock()
	a, ok := pboMemo.m[key]
	pboMemo.Unlock()
	if ok {
		return a.p, a.note
	}
	p, note := PBO(ts)
	pboMemo.Lock()
	if len(pboMemo.m) >= 64 {
		clear(pboMemo.m)
	}
	pboMemo.m[key] = pboAnswer{p, note}
	pboMemo.Unlock()
	return p, note
}
