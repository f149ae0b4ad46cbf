package robust

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Bounds of the number of blocks S a sweep's periods are cut into.
const (
	DefaultBlocks = 16
	MinBlocks     = 2
	MaxBlocks     = 16 // C(16, 8) = 12,870 combinations
	// MinBlockPeriods is the fewest returns a block may hold.
	MinBlockPeriods = 2
)

// Block is the sufficient statistics of one block of a trial's period
// returns: how many, their sum and their sum of squares. The Sharpe ratio
// of any union of blocks follows from them.
type Block [3]float64

// Blocks cuts returns into s blocks of (nearly) even length, block b
// holding returns [b*T/s, (b+1)*T/s).
func Blocks(returns []float64, s int) []Block {
	t := len(returns)
	out := make([]Block, s)
	for b := range s {
		for _, r := range returns[b*t/s : (b+1)*t/s] {
			out[b][0]++
			out[b][1] += r
			out[b][2] += r * r
		}
	}
	return out
}

// Logits summarises the distribution of the combinations' logits.
type Logits struct {
	Min    float64 `json:"min"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
}

// PBO is the probability of backtest overfitting by combinatorially
// symmetric cross-validation (Bailey, Borwein, López de Prado and Zhu,
// 2015).
type PBO struct {
	// Probability is the share of combinations whose in-sample best trial
	// ranks at or below the median out of sample (logit <= 0).
	Probability float64 `json:"probability"`
	// Blocks is S; Combinations C(S, S/2); Trials and Periods the
	// matrix's columns and rows.
	Blocks       int    `json:"blocks"`
	Combinations int    `json:"combinations"`
	Trials       int    `json:"trials"`
	Periods      int    `json:"periods"`
	Objective    string `json:"objective"` // sharpe: of the per-period returns, not annualised
	Logits       Logits `json:"logits"`
}

// Combinations is C(n, k).
func Combinations(n, k int) int {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
	}
	return c
}

// CheckBlocks says why s cannot cut periods returns, "" when it can.
func CheckBlocks(s, periods int) string {
	switch {
	case s < MinBlocks || s > MaxBlocks || s%2 != 0:
		return fmt.Sprintf("The number of blocks must be even, from %d to %d", MinBlocks, MaxBlocks)
	case periods < s*MinBlockPeriods:
		return fmt.Sprintf("Too few periods (%d) for %d blocks of at least %d returns each", periods, s, MinBlockPeriods)
	}
	return ""
}

// ComputePBO is the PBO of trials given as their blocks (every trial cut
// into the same S blocks of one common time grid of periods returns). For
// each of the C(S, S/2) ways to choose half the blocks as in-sample (the
// rest out of sample), the trial with the highest in-sample Sharpe ratio
// (the earliest on a tie) is ranked among all trials out of sample
// (rank 1 the worst, ties sharing their mean rank); its relative rank
// w = rank / (N + 1) gives the logit ln(w / (1 - w)). The error says why
// there is no figure.
func ComputePBO(trials [][]Block, periods int) (*PBO, error) {
	n := len(trials)
	if n < 2 {
		return nil, fmt.Errorf("PBO needs at least 2 trials with their returns (%d here)", n)
	}
	s := len(trials[0])
	for _, t := range trials {
		if len(t) != s {
			return nil, fmt.Errorf("the trials were cut into different numbers of blocks")
		}
	}
	if why := CheckBlocks(s, periods); why != "" {
		return nil, fmt.Errorf("%s", why)
	}
	total := make([]Block, n)
	for i, t := range trials {
		for _, b := range t {
			total[i] = add(total[i], b)
		}
	}
	// Each combination's complement is a combination too: the in-sample
	// half of one is the out-of-sample half of the other. The halves
	// holding block 0 name one of each pair; a trial's Sharpe ratios of
	// both halves serve both.
	var halves [][]int
	comb := make([]int, s/2-1)
	for i := range comb {
		comb[i] = i + 1
	}
	for {
		halves = append(halves, append([]int{0}, comb...))
		if !next(comb, s-1, 1) {
			break
		}
	}
	logits := make([]float64, 2*len(halves))
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(halves))
	for w := range workers {
		wg.Go(func() {
			in, out := make([]float64, n), make([]float64, n)
			for c := w; c < len(halves); c += workers {
				for i, t := range trials {
					var b Block
					for _, k := range halves[c] {
						b = add(b, t[k])
					}
					in[i], out[i] = sharpeOrder(b), sharpeOrder(sub(total[i], b))
				}
				logits[2*c], logits[2*c+1] = logit(in, out), logit(out, in)
			}
		})
	}
	wg.Wait()
	p := &PBO{Blocks: s, Combinations: len(logits), Trials: n, Periods: periods, Objective: "sharpe"}
	over, sum := 0, 0.0
	for _, l := range logits {
		if l <= 0 {
			over++
		}
		sum += l
	}
	p.Probability = float64(over) / float64(len(logits))
	slices.Sort(logits)
	p.Logits = Logits{Min: logits[0], P25: Quantile(logits, 0.25), Median: Quantile(logits, 0.5), P75: Quantile(logits, 0.75),
		Max: logits[len(logits)-1], Mean: sum / float64(len(logits))}
	return p, nil
}

// logit is ln(w / (1 - w)) of the out-of-sample relative rank w of the
// trial best in sample (the earliest on a tie): its rank among the N
// trials' out-of-sample figures (1 the worst, ties sharing their mean
// rank) over N + 1.
func logit(in, out []float64) float64 {
	best := 0
	for i, x := range in {
		if x > in[best] {
			best = i
		}
	}
	below, ties := 0, 0
	for i, x := range out {
		switch {
		case i == best:
		case x < out[best]:
			below++
		case x == out[best]:
			ties++
		}
	}
	w := (float64(below) + 1 + float64(ties)/2) / float64(len(out)+1)
	return math.Log(w / (1 - w))
}

// next advances comb to the next combination of len(comb) numbers from
// lo..lo+n-1 in lexicographic order; false after the last.
func next(comb []int, n, lo int) bool {
	k := len(comb)
	i := k - 1
	for i >= 0 && comb[i] == lo+n-k+i {
		i--
	}
	if i < 0 {
		return false
	}
	comb[i]++
	for j := i + 1; j < k; j++ {
		comb[j] = comb[j-1] + 1
	}
	return true
}

func add(a, b Block) Block { return Block{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func sub(a, b Block) Block { return Block{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// sharpeOrder orders blocks' returns as their Sharpe ratio (mean over
// the sample standard deviation) does, without the square root: the
// signed square mean x |mean| / variance rises with it. 0 when the
// returns do not vary (a trial that never traded).
func sharpeOrder(b Block) float64 {
	n := b[0]
	if n < 2 {
		return 0
	}
	mean := b[1] / n
	v := (b[2] - n*mean*mean) / (n - 1)
	if v <= 1e-30 {
		return 0
	}
	return mean * math.Abs(mean) / v
}
