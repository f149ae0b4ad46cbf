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

// Div is a.Div(b) (see Plus): the quotient rounded half away from zero to
// decimal.DivisionPrecision (16) places, on exponent -16.
func Div(a, b decimal.Decimal) decimal.Decimal {
	const places = 16
	if decimal.DivisionPrecision != places || a.NumDigits() > 18 || b.NumDigits() > 18 || b.IsZero() {
		return a.Div(b)
	}
	x, y := a.CoefficientInt64(), b.CoefficientInt64()
	neg := (x < 0) != (y < 0)
	ux, uy := abs64(x), abs64(y)
	// a / b = x / y x 10^(ea - eb): the quotient x 10^16 is x x 10^e / y
	e := int64(a.Exponent()) - int64(b.Exponent()) + places
	var hi, lo uint64
	switch {
	case e >= 0 && e < int64(len(pow10)):
		hi, lo = bits.Mul64(ux, pow10[e])
	case e < 0 && -e < int64(len(pow10)):
		h, l := bits.Mul64(uy, pow10[-e])
		if h != 0 {
			return a.Div(b)
		}
		lo, uy = ux, l
	default:
		return a.Div(b)
	}
	if hi >= uy {
		return a.Div(b) // the quotient needs more than 64 bits
	}
	q, r := bits.Div64(hi, lo, uy)
	if r >= uy-r { // 2r >= y: half away from zero
		q++
	}
	if q >= 1<<62 {
		return a.Div(b)
	}
	v := int64(q)
	if neg {
		v = -v
	}
	return decimal.New(v, -places)
}

// Floor is a.Floor() (see Plus): on exponent 0.
func Floor(a decimal.Decimal) decimal.Decimal {
	if a.Exponent() >= 0 || a.NumDigits() > 18 {
		return a.Floor()
	}
	c, k := a.CoefficientInt64(), -int64(a.Exponent())
	if k > 18 { // |c| < 10^18 <= 10^k: the floor is 0 or -1
		if c < 0 {
			return decimal.New(-1, 0)
		}
		return decimal.New(0, 0)
	}
	p := int64(pow10[k])
	q := c / p
	if c%p != 0 && c < 0 {
		q-- // towards minus infinity
	}
	return decimal.New(q, 0)
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

var pow10 = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// DivFloor is a.Div(b).Floor() (see Plus): the quotient rounded half away
// from zero to 16 places, then down to a whole number, on exponent 0 (a
// quantity in steps: its quotient at 16 places needs more than 64 bits).
func DivFloor(a, b decimal.Decimal) decimal.Decimal {
	const places = 16
	if decimal.DivisionPrecision != places || a.NumDigits() > 18 || b.NumDigits() > 18 || b.IsZero() {
		return a.Div(b).Floor()
	}
	x, y := a.CoefficientInt64(), b.CoefficientInt64()
	neg := (x < 0) != (y < 0)
	ux, uy := abs64(x), abs64(y)
	e := int64(a.Exponent()) - int64(b.Exponent()) + places
	var hi, lo uint64
	switch {
	case e >= 0 && e < int64(len(pow10)):
		hi, lo = bits.Mul64(ux, pow10[e])
	case e < 0 && -e < int64(len(pow10)):
		h, l := bits.Mul64(uy, pow10[-e])
		if h != 0 {
			return a.Div(b).Floor()
		}
		lo, uy = ux, l
	default:
		return a.Div(b).Floor()
	}
	// Q = round(hi:lo / y), in 128 bits
	qhi, r1 := hi/uy, hi%uy
	qlo, r := bits.Div64(r1, lo, uy)
	if r >= uy-r {
		var c uint64
		qlo, c = bits.Add64(qlo, 1, 0)
		qhi += c
	}
	// Q / 10^16, whole
	if qhi >= pow10[places] {
		return a.Div(b).Floor()
	}
	f, rem := bits.Div64(qhi, qlo, pow10[places])
	if f >= 1<<62 {
		return a.Div(b).Floor()
	}
	v := int64(f)
	if neg {
		v = -v
		if rem != 0 {
			v-- // towards minus infinity
		}
	}
	return decimal.New(v, 0)
}
