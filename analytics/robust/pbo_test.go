package robust

import (
	"math"
	"math/rand/v2"
	"testing"
)

// matrix cuts each trial's returns into s blocks.
func matrix(returns [][]float64, s int) [][]Block {
	out := make([][]Block, len(returns))
	for i, r := range returns {
		out[i] = Blocks(r, s)
	}
	return out
}

func noise(rng *rand.Rand, n int, mean float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = mean + rng.NormFloat64()*0.01
	}
	return out
}

// A trial that beats every other in every block is the in-sample best of
// every combination and the out-of-sample best too: PBO 0.
func TestPBODominantTrial(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const periods = 320
	rs := [][]float64{}
	for range 9 {
		rs = append(rs, noise(rng, periods, 0))
	}
	rs = append(rs, noise(rng, periods, 0.05)) // five standard deviations a period above the rest
	p, err := ComputePBO(matrix(rs, 16), periods)
	if err != nil {
		t.Fatal(err)
	}
	if p.Probability != 0 || p.Combinations != 12870 || p.Blocks != 16 || p.Trials != 10 || p.Periods != periods {
		t.Fatalf("dominant trial: %+v", p)
	}
	// Its rank out of sample is always the top: w = 10/11.
	if want := math.Log(10.0); math.Abs(p.Logits.Min-want) > 1e-12 || math.Abs(p.Logits.Max-want) > 1e-12 {
		t.Fatalf("logits %+v, want all %v", p.Logits, want)
	}
}

// Trial i is excellent in block i and poor in every other: whichever half
// of the blocks is in sample, its best trial (one whose good block is in
// sample) holds only poor blocks out of sample, where the trials whose
// good block fell there beat it. Best in sample, worst out of sample by
// construction: PBO 1.
func TestPBOBestInSampleWorstOut(t *testing.T) {
	const s, per = 8, 4
	rs := make([][]float64, s)
	for i := range s {
		for b := range s {
			block := []float64{-1, -2, -1, -2}
			if b == i {
				block = []float64{2, 1, 2, 1}
			}
			rs[i] = append(rs[i], block...)
		}
	}
	p, err := ComputePBO(matrix(rs, s), s*per)
	if err != nil {
		t.Fatal(err)
	}
	if p.Probability != 1 || p.Combinations != 70 || p.Logits.Max > 0 {
		t.Fatalf("best in, worst out: %+v", p)
	}
}

// Trials of pure noise with one distribution: which one wins in sample
// says nothing of out of sample, so the chosen trial lands below the
// median half the time. Over 20 seeded matrices of 16 trials the mean PBO
// is within 0.1 of one half.
func TestPBONoiseNearHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const periods, matrices = 480, 20
	sum := 0.0
	for range matrices {
		rs := make([][]float64, 16)
		for i := range rs {
			rs[i] = noise(rng, periods, 0)
		}
		p, err := ComputePBO(matrix(rs, 16), periods)
		if err != nil {
			t.Fatal(err)
		}
		sum += p.Probability
	}
	mean := sum / matrices
	t.Logf("mean PBO of noise: %.3f", mean)
	if math.Abs(mean-0.5) > 0.1 {
		t.Fatalf("mean PBO of noise = %v, want about 0.5", mean)
	}
}

func TestPBORefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	one := [][]float64{noise(rng, 100, 0)}
	if _, err := ComputePBO(matrix(one, 16), 100); err == nil {
		t.Fatal("one trial gave a PBO")
	}
	two := [][]float64{noise(rng, 20, 0), noise(rng, 20, 0)}
	if _, err := ComputePBO(matrix(two, 16), 20); err == nil {
		t.Fatal("20 periods in 16 blocks gave a PBO")
	}
	for _, s := range []int{0, 3, 18} {
		if CheckBlocks(s, 1000) == "" {
			t.Errorf("%d blocks accepted", s)
		}
	}
	if CheckBlocks(16, 32) != "" || CheckBlocks(16, 31) == "" {
		t.Error("16 blocks need 32 periods")
	}
}

func TestCombinationsAndBlocks(t *testing.T) {
	if Combinations(16, 8) != 12870 || Combinations(2, 1) != 2 || Combinations(4, 2) != 6 {
		t.Fatal("C(n, k)")
	}
	// 10 returns in 4 blocks: [0,2), [2,5), [5,7), [7,10).
	bs := Blocks([]float64{1, 1, 2, 2, 2, 3, 3, 4, 4, 4}, 4)
	want := []Block{{2, 2, 2}, {3, 6, 12}, {2, 6, 18}, {3, 12, 48}}
	for i := range want {
		if bs[i] != want[i] {
			t.Fatalf("Blocks = %v, want %v", bs, want)
		}
	}
}
