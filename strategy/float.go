package strategy

import "github.com/shopspring/decimal"

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// Float is d.InexactFloat64() (the float64 nearest d) without its big.Rat:
// a coefficient below 10^15 and a power of ten up to 10^22 are both exact
// float64s, so one IEEE multiplication or division rounds the exact value
// once, to nearest, as big.Rat does. Other values take the exact route.
func Float(d decimal.Decimal) float64 {
	if d.NumDigits() <= 15 {
		if x, ok := FixedFloat(d.CoefficientInt64(), d.Exponent()); ok {
			return x
		}
	}
	return d.InexactFloat64()
}

// FixedFloat is Float of coef x 10^exp, for a caller that holds the
// decimal's coefficient already; ok is false (use Float) when the
// coefficient is 10^15 or more in size or the exponent beyond +-22.
func FixedFloat(coef int64, exp int32) (float64, bool) {
	if exp < -22 || exp > 22 || coef >= 1e15 || coef <= -1e15 {
		return 0, false
	}
	c := float64(coef)
	if exp < 0 {
		return c / pow10[-exp], true
	}
	return c * pow10[exp], true
}
