package sqlcore

import "github.com/shopspring/decimal"

// DecimalText is the argument for a nullable decimal column: its text, or
// NULL for nil.
func DecimalText(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	t := d.String()
	return &t
}

// DecimalOf reads a nullable decimal column scanned as text (NULL: nil).
func DecimalOf(s *string) (*decimal.Decimal, error) {
	if s == nil {
		return nil, nil
	}
	d, err := decimal.NewFromString(*s)
	if err != nil {
		return nil, err
	}
	return &d, nil
}
