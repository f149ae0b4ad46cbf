package analytics

import (
	"math"
	"testing"
)

// The deflated Sharpe ratio against the numerical example of Bailey and
// López de Prado (2014), computed independently in Python with the
// standard library's NormalDist:
//
//	from statistics import NormalDist; import math
//	Z, g = NormalDist(), 0.5772156649015329
//	N, V, T, sk, ku = 100, 0.5/250, 1250, -3, 10   # V: annualised 0.5, daily
//	sr = 2.5/math.sqrt(250)                           # annualised 2.5, daily
//	sr0 = math.sqrt(V)*((1-g)*Z.inv_cdf(1-1/N) + g*Z.inv_cdf(1-1/(N*math.e)))
//	Z.cdf((sr-sr0)*math.sqrt(T-1)/math.sqrt(1-sk*sr+(ku-1)/4*sr*sr))
//
// sr0 = 0.11317200186513214 (1.7894 annualised), DSR = 0.9003968344493904;
// the paper reports 0.9004.
func TestDeflatedSharpeWorkedExample(t *testing.T) {
	sr0 := ExpectedMaxSharpe(100, 0.5/250)
	if math.Abs(sr0-0.11317200186513214) > 1e-9 {
		t.Fatalf("expected max Sharpe = %v, want 0.113172", sr0)
	}
	m := Moments{N: 1250, Sharpe: 2.5 / math.Sqrt(250), Skewness: -3, Kurtosis: 10, Defined: true}
	if got := DeflatedSharpe(m, 100, 0.5/250); math.Abs(got-0.9003968344493904) > 1e-9 {
		t.Fatalf("DSR = %v, want 0.900397", got)
	}
	// One trial: nothing was selected, the benchmark is zero and the DSR is
	// the probabilistic Sharpe ratio against zero.
	if got, want := DeflatedSharpe(m, 1, 0.5/250), ProbabilisticSharpe(m.Sharpe, 0, 1250, -3, 10); got != want || got <= 0.9004 {
		t.Fatalf("DSR of one trial = %v, want PSR %v", got, want)
	}
	if !math.IsNaN(ProbabilisticSharpe(0.1, 0, 1, 0, 3)) {
		t.Fatal("PSR of one return must be undefined")
	}
}

// Moments against Python (population m3/m2^1.5 and m4/m2^2; the Sharpe
// ratio over the sample deviation):
//
//	rs=[0.01,-0.02,0.015,0.003,-0.007,0.02]; n=len(rs); m=sum(rs)/n
//	m2,m3,m4=[sum((r-m)**k for r in rs)/n for k in (2,3,4)]
//	m/math.sqrt(m2*n/(n-1)), m3/m2**1.5, m4/m2**2
//
// = 0.23495754365121369, -0.5201680337911296, 2.0009762465624727.
func TestReturnMoments(t *testing.T) {
	m := ReturnMoments([]float64{0.01, -0.02, 0.015, 0.003, -0.007, 0.02})
	for _, c := range []struct{ got, want float64 }{{m.Sharpe, 0.23495754365121369}, {m.Skewness, -0.5201680337911296}, {m.Kurtosis, 2.0009762465624727}} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Fatalf("moments = %+v", m)
		}
	}
	if m.N != 6 || !m.Defined {
		t.Fatalf("moments = %+v", m)
	}
	if flat := ReturnMoments([]float64{0, 0, 0}); flat.Defined {
		t.Fatalf("flat returns have no Sharpe ratio: %+v", flat)
	}
	// The per-period Sharpe ratio is the annualised one's numerator.
	rs := []float64{0.01, -0.02, 0.015, 0.003, -0.007, 0.02}
	if math.Abs(m.Sharpe*math.Sqrt(8760)-Sharpe(rs, 8760)) > 1e-9 {
		t.Fatal("per-period Sharpe differs from Sharpe / sqrt(periods per year)")
	}
}
