package analytics

import (
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

func decs(ss ...string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		out[i] = dec(s)
	}
	return out
}

func TestMaxDrawdown(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []decimal.Decimal
		want   string
	}{
		{"empty", nil, "0"},
		{"one point", decs("100000"), "0"},
		{"flat", decs("100000", "100000", "100000"), "0"},
		{"rising", decs("100", "110", "120"), "0"},
		{"100,000 -> 120,000 -> 90,000 is 25% below the peak", decs("100000", "120000", "90000", "130000", "104000"), "0.25"},
		{"the deeper of two falls from a later peak", decs("100", "90", "200", "150"), "0.25"},
		{"a fall from the first point", decs("100", "99.5"), "0.005"},
		{"a third, to 16 places", decs("300", "200"), "0.3333333333333333"},
		{"to nothing", decs("100", "0"), "1"},
		{"below zero", decs("100", "-10"), "1.1"},
		{"while the peak is not positive there is no fraction", decs("0", "-5", "10", "5"), "0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) { eq(t, "max drawdown", MaxDrawdown(tc.values), tc.want) })
	}
}

func TestReturns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []decimal.Decimal
		want   []float64
	}{
		{"empty", nil, []float64{}},
		{"one point", decs("100"), []float64{}},
		{"flat", decs("100", "100", "100"), []float64{0, 0}},
		{"up 10% then down 50%", decs("100", "110", "55"), []float64{0.1, -0.5}},
		{"exact in decimal: 3 -> 3.3 is 10%", decs("3", "3.3"), []float64{0.1}},
		{"a period from zero has no return", decs("0", "5", "10"), []float64{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Returns(tc.values)
			if got == nil || len(got) != len(tc.want) {
				t.Fatalf("Returns = %#v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("return %d = %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestSharpe(t *testing.T) {
	for _, tc := range []struct {
		name           string
		returns        []float64
		periodsPerYear float64
		want           float64
	}{
		{"empty", nil, 252, 0},
		{"one return", []float64{0.01}, 252, 0},
		{"flat: no variation", []float64{0, 0, 0}, 252, 0},
		{"constant 10%: no variation, though a float mean misses it", []float64{0.1, 0.1, 0.1}, 252, 0},
		{"no periods per year", []float64{0.01, -0.01}, 0, 0},
		// mean 0.005, s = sqrt(0.0005/3), so mean/s = sqrt(0.15).
		{"one period a year", []float64{0.01, -0.01, 0.02, 0}, 1, math.Sqrt(0.15)},
		{"252 trading days", []float64{0.01, -0.01, 0.02, 0}, 252, math.Sqrt(0.15 * 252)},
		{"losing", []float64{-0.01, 0.01, -0.02, 0}, 1, -math.Sqrt(0.15)},
		{"mean zero", []float64{0.01, -0.01}, 252, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Sharpe(tc.returns, tc.periodsPerYear)
			if math.IsNaN(got) || math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Sharpe = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSharpeOfASeries(t *testing.T) {
	// 100 -> 101 -> 99.99 -> 101.9898 -> 101.9898: returns 1%, -1%, 2%, 0%.
	got := Sharpe(Returns(decs("100", "101", "99.99", "101.9898", "101.9898")), 365)
	if want := math.Sqrt(0.15 * 365); math.Abs(got-want) > 1e-12 {
		t.Errorf("Sharpe = %v, want %v", got, want)
	}
}

func TestSortinoCAGRCalmar(t *testing.T) {
	// Returns +10%, -5%, +10%, -5%: mean 0.025, downside sqrt((0.0025+0.0025)/4) = 0.035355...
	got := Sortino([]float64{0.1, -0.05, 0.1, -0.05}, 1)
	if math.Abs(got-0.025/math.Sqrt(0.005/4)) > 1e-12 {
		t.Fatalf("Sortino %v", got)
	}
	if Sortino([]float64{0.1, 0.2}, 365) != 0 || Sortino(nil, 365) != 0 {
		t.Fatal("Sortino without a losing period must be 0")
	}
	// Doubling in two years: sqrt(2) - 1 a year.
	if c := CAGR(decimal.NewFromInt(100), decimal.NewFromInt(200), 2); math.Abs(c-(math.Sqrt2-1)) > 1e-12 {
		t.Fatalf("CAGR %v", c)
	}
	if CAGR(decimal.NewFromInt(100), decimal.Zero, 1) != -1 || CAGR(decimal.Zero, decimal.NewFromInt(1), 1) != 0 {
		t.Fatal("CAGR edges")
	}
	if Calmar(0.2, 0.1) != 2 || Calmar(0.2, 0) != 0 {
		t.Fatal("Calmar")
	}
}
