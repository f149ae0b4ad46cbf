package smacross

import (
	"math/big"
	"math/bits"
	"strings"
)

// u128 is a 128-bit two's-complement integer: cash kept to 16 decimal places
// (an 8-decimal price times an 8-decimal quantity is exact there) needs more
// than 64 bits. Only the operations the ledger uses are here.
type u128 struct{ hi, lo uint64 }

func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (a u128) add(b u128) u128 {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, carry)
	return u128{hi, lo}
}

func (a u128) sub(b u128) u128 {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
}

func (a u128) negative() bool { return a.hi>>63 == 1 }

// mul multiplies a non-negative a by m; ok is false when the product needs
// more than 127 bits.
func (a u128) mul(m uint64) (u128, bool) {
	h1, lo := bits.Mul64(a.lo, m)
	h2, l2 := bits.Mul64(a.hi, m)
	hi, carry := bits.Add64(h1, l2, 0)
	return u128{hi, lo}, h2 == 0 && carry == 0 && hi>>63 == 0
}

// div divides a non-negative a by d > 0.
func (a u128) div(d uint64) u128 {
	qhi, r := a.hi/d, a.hi%d
	qlo, _ := bits.Div64(r, a.lo, d)
	return u128{qhi, qlo}
}

// int64 returns a as an int64; ok is false when it does not fit.
func (a u128) int64() (int64, bool) {
	return int64(a.lo), a.hi == 0 && a.lo>>63 == 0
}

// decimal formats a, a value x 10^-places, exactly, without trailing zeros.
func (a u128) decimal(places int) string {
	neg := a.negative()
	if neg {
		a = u128{}.sub(a)
	}
	n := new(big.Int).SetUint64(a.hi)
	n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(a.lo))
	s := n.String()
	if len(s) <= places {
		s = strings.Repeat("0", places-len(s)+1) + s
	}
	whole, frac := s[:len(s)-places], strings.TrimRight(s[len(s)-places:], "0")
	if frac != "" {
		whole += "." + frac
	}
	if neg && whole != "0" {
		whole = "-" + whole
	}
	return whole
}
