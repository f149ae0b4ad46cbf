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
	if exp := d.Exponent(); exp >= -22 && exp <= 22 && d.NumDigits() <= 15 {
		c := float64(d.CoefficientInt64())
		if exp < 0 {
			return c / pow10[-exp]
		}
		return c * pow10[exp]
	}
	return d.InexactFloat64()
}
