package domain

import (
	"math/bits"

	"github.com/shopspring/decimal"
)

// Plus, Minus, Times and Neg are a.Add(b), a.Sub(b), a.Mul(b) and
// a.Neg(), the same value and the same shape (coefficient and exponent),
// in 64-bit integers when the coefficients fit (at most 18 digits, and
// the result too): the ledger's quantities, prices, fees and balances
// always do, and each decimal operation on big integers allocates. Any
// other operands take the decimal way.
func Plus(a, b decimal.Decimal) decimal.Decimal {
	if b.IsZero() && b.Exponent() >= a.Exponent() && !a.IsZero() {
		return a // a + 0 on a's exponent: a itself (decimals are values)
	}
	if a.IsZero() && a.Exponent() >= b.Exponent() && !b.IsZero() {
		return b
	}
	if x, y, e, ok := aligned(a, b); ok {
		return decimal.New(x+y, e) // each below 10^18: no overflow
	}
	return a.Add(b)
}

// Minus is a.Sub(b) (see Plus).
func Minus(a, b decimal.Decimal) decimal.Decimal {
	if b.IsZero() && b.Exponent() >= a.Exponent() && !a.IsZero() {
		return a
	}
	if x, y, e, ok := aligned(a, b); ok {
		return decimal.New(x-y, e)
	}
	return a.Sub(b)
}

// Times is a.Mul(b) (see Plus).
func Times(a, b decimal.Decimal) decimal.Decimal {
	if a.NumDigits() <= 18 && b.NumDigits() <= 18 {
		x, y := a.CoefficientInt64(), b.CoefficientInt64()
		neg := (x < 0) != (y < 0)
		ux, uy := uint64(x), uint64(y)
		if x < 0 {
			ux = uint64(-x)
		}
		if y < 0 {
			uy = uint64(-y)
		}
		hi, lo := bits.Mul64(ux, uy)
		if e := int64(a.Exponent()) + int64(b.Exponent()); hi == 0 && lo < 1<<62 && e == int64(int32(e)) {
			p := int64(lo)
			if neg {
				p = -p
			}
			return decimal.New(p, int32(e))
		}
	}
	return a.Mul(b)
}

// Neg is a.Neg() (see Plus).
func Neg(a decimal.Decimal) decimal.Decimal {
	if a.NumDigits() <= 18 {
		return decimal.New(-a.CoefficientInt64(), a.Exponent())
	}
	return a.Neg()
}

// aligned are a's and b's coefficients on the smaller of their exponents
// (as Add and Sub rescale them), when both fit below 10^18 there.
func aligned(a, b decimal.Decimal) (x, y int64, e int32, ok bool) {
	if a.NumDigits() > 18 || b.NumDigits() > 18 {
		return 0, 0, 0, false
	}
	x, y = a.CoefficientInt64(), b.CoefficientInt64()
	ea, eb := a.Exponent(), b.Exponent()
	for ; ea > eb; ea-- {
		if x >= 1e17 || x <= -1e17 {
			return 0, 0, 0, false
		}
		x *= 10
	}
	for ; eb > ea; eb-- {
		if y >= 1e17 || y <= -1e17 {
			return 0, 0, 0, false
		}
		y *= 10
	}
	return x, y, ea, true
}

// Round is a.Round(places) (see Plus): half away from zero, on exponent
// -places.
func Round(a decimal.Decimal, places int32) decimal.Decimal {
	if a.Exponent() == -places || a.NumDigits() > 18 {
		return a.Round(places)
	}
	c, e, t := a.CoefficientInt64(), a.Exponent(), -places-1
	for ; e > t; e-- { // rescale up, exactly
		if c >= 1e17 || c <= -1e17 {
			return a.Round(places)
		}
		c *= 10
	}
	for ; e < t; e++ { // rescale down, truncating towards zero
		c /= 10
	}
	if c < 0 {
		c -= 5
	} else {
		c += 5
	}
	return decimal.New(c/10, -places)
}

// Cmp is a.Cmp(b) (see Plus): -1, 0 or +1, without rescaling on the heap
// when the coefficients fit.
func Cmp(a, b decimal.Decimal) int {
	if x, y, _, ok := aligned(a, b); ok {
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return a.Cmp(b)
}

// Min is decimal.Min(a, b): the smaller, a when they are equal.
func Min(a, b decimal.Decimal) decimal.Decimal {
	if Cmp(b, a) < 0 {
		return b
	}
	return a
}
