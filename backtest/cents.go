package backtest

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// Cents is an exact amount in whole cents (the equity curve's unit: it is
// rounded to cents). JSON writes it as a decimal string, as decimal.Decimal
// would ("10000.5"), so a curve point holds no pointer and costs no
// allocation.
type Cents int64

// Decimal is c as a decimal.
func (c Cents) Decimal() decimal.Decimal { return decimal.New(int64(c), -2) }

// String is the decimal form without trailing zeros.
func (c Cents) String() string { return string(c.append(nil)) }

// MarshalJSON writes the decimal form as a JSON string.
func (c Cents) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 24), '"')
	return append(c.append(b), '"'), nil
}

// UnmarshalJSON reads a decimal string or number (stored runs read back).
func (c *Cents) UnmarshalJSON(b []byte) error {
	var d decimal.Decimal
	if err := d.UnmarshalJSON(b); err != nil {
		return err
	}
	*c = Cents(d.Shift(2).Round(0).IntPart())
	return nil
}

func (c Cents) append(b []byte) []byte {
	v := int64(c)
	u := uint64(v)
	if v < 0 {
		b, u = append(b, '-'), uint64(-v)
	}
	b = strconv.AppendUint(b, u/100, 10)
	switch f := u % 100; {
	case f == 0:
	case f%10 == 0:
		b = append(b, '.', byte('0'+f/10))
	default:
		b = append(b, '.', byte('0'+f/10), byte('0'+f%10))
	}
	return b
}
