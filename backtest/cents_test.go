package backtest

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// Cents writes what decimal.Decimal writes for the same amount, and reads it back.
func TestCentsIsDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := []int64{0, 1, 5, 10, 50, 99, 100, 101, 110, -1, -10, -100, -105, 1000000, 1<<62 - 1, -(1 << 62)}
	for range 100000 {
		vals = append(vals, r.Int64N(1<<40)-1<<39)
	}
	for _, v := range vals {
		d := decimal.New(v, -2)
		got, _ := json.Marshal(Cents(v))
		want, _ := json.Marshal(d)
		if string(got) != string(want) || Cents(v).String() != d.String() {
			t.Fatalf("%d: %s, decimal %s", v, got, want)
		}
		var back Cents
		if err := json.Unmarshal(got, &back); err != nil || back != Cents(v) {
			t.Fatalf("%d: read back %d, %v", v, back, err)
		}
	}
}
