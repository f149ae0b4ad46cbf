package smacross

import (
	"math"
	"testing"
)

func TestU128(t *testing.T) {
	big := mul64(math.MaxUint64, 10) // 184467440737095516150
	if got, want := big.decimal(0), "184467440737095516150"; got != want {
		t.Errorf("mul64 = %s, want %s", got, want)
	}
	if got, want := big.div(7).decimal(0), "26352491533870788021"; got != want {
		t.Errorf("div = %s, want %s", got, want)
	}
	if got, want := big.add(u128{0, 5}).sub(u128{0, 155}).decimal(2), "1844674407370955160"; got != want {
		t.Errorf("add/sub = %s, want %s", got, want)
	}
	if got, want := (u128{}).sub(u128{0, 5}).decimal(8), "-0.00000005"; got != want {
		t.Errorf("negative = %s, want %s", got, want)
	}
	if got, want := (u128{0, 12_5000_0000}).decimal(8), "12.5"; got != want {
		t.Errorf("decimal = %s, want %s", got, want)
	}
	if _, ok := big.mul(math.MaxUint64); ok {
		t.Error("overflowing mul reported ok")
	}
	if p, ok := big.mul(3); !ok || p.decimal(0) != "553402322211286548450" {
		t.Errorf("mul = %s, %v", p.decimal(0), ok)
	}
	if _, ok := big.int64(); ok {
		t.Error("int64 of a 128-bit value reported ok")
	}
}

func TestFormatFixed(t *testing.T) {
	for v, want := range map[int64]string{0: "0", 1: "0.00000001", 100_000_000: "1", 1_250_000_000: "12.5", -5: "-0.00000005",
		-1_234_567_890_123: "-12345.67890123", math.MaxInt64: "92233720368.54775807", math.MinInt64: "-92233720368.54775808"} {
		if got := FormatFixed(v); got != want {
			t.Errorf("FormatFixed(%d) = %s, want %s", v, got, want)
		}
	}
}
