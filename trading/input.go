package trading

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Amount is a decimal read from JSON that never fails to decode: a number or
// numeric string sets it, anything else marks it invalid, so validation can
// answer with the spec's message instead of a generic decode error.
type Amount struct {
	Set   bool
	Valid bool
	D     decimal.Decimal
}

// UnmarshalJSON implements json.Unmarshaler.
func (a *Amount) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	a.Set = true
	var s string
	if len(b) > 0 && b[0] == '"' {
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
	} else {
		s = string(b)
	}
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err == nil {
		a.Valid, a.D = true, d
	}
	return nil
}

// positive reports a set, valid, strictly positive amount.
func (a Amount) positive() bool { return a.Set && a.Valid && a.D.IsPositive() }

// Spec messages (section 5, Trading form).
const (
	msgSymbol    = "Symbol is required"
	msgQuantity  = "Valid quantity is required"
	msgPrice     = "Valid price is required for limit orders"
	msgStopPrice = "Valid stop price is required for stop orders"
)

// ExecuteRequest is POST /trading/execute: {symbol, action, quantity, order_type, strategy}.
type ExecuteRequest struct {
	Symbol        string `json:"symbol"`
	Action        string `json:"action"`
	Quantity      Amount `json:"quantity"`
	OrderType     string `json:"order_type"`
	Strategy      string `json:"strategy"`
	Price         Amount `json:"price"`
	ClientOrderID string `json:"client_order_id"`
}

// LimitRequest is POST /trading/orders/limit.
type LimitRequest struct {
	Symbol        string `json:"symbol"`
	Side          string `json:"side"`
	Quantity      Amount `json:"quantity"`
	Price         Amount `json:"price"`
	Strategy      string `json:"strategy"`
	ClientOrderID string `json:"client_order_id"`
}

// StopLossRequest is POST /trading/orders/stop-loss.
type StopLossRequest struct {
	Symbol        string `json:"symbol"`
	Side          string `json:"side"`
	Quantity      Amount `json:"quantity"`
	StopPrice     Amount `json:"stop_price"`
	Strategy      string `json:"strategy"`
	ClientOrderID string `json:"client_order_id"`
}

// ModifyRequest is PUT /trading/orders/{id}: at least one of quantity, price.
type ModifyRequest struct {
	Quantity Amount `json:"quantity"`
	Price    Amount `json:"price"`
}

// validator gathers field errors in the order fields appear on the form.
type validator struct {
	fields map[string]string
	order  []string
}

func (v *validator) add(field, msg string) {
	if v.fields == nil {
		v.fields = map[string]string{}
	}
	if _, dup := v.fields[field]; !dup {
		v.fields[field] = msg
		v.order = append(v.order, field)
	}
}

func (v *validator) err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return domain.FieldErrors(v.fields, v.order...)
}

func (v *validator) symbol(raw string, known []string) string {
	sym := strings.ToUpper(strings.TrimSpace(raw))
	switch {
	case sym == "":
		v.add("symbol", msgSymbol)
	case !contains(known, sym):
		v.add("symbol", "Unknown symbol: "+raw)
	}
	return sym
}

func (v *validator) side(field, raw string) domain.Side {
	s := domain.Side(strings.ToUpper(strings.TrimSpace(raw)))
	if s != domain.Buy && s != domain.Sell {
		v.add(field, "Side must be BUY or SELL")
	}
	return s
}

func (v *validator) quantity(a Amount) decimal.Decimal {
	if !a.positive() {
		v.add("quantity", msgQuantity)
	} else if !a.D.Mod(domain.QuantityStep).IsZero() {
		v.add("quantity", "Quantity must be a multiple of 0.00000001")
	}
	return a.D
}

func (v *validator) price(field string, a Amount, msg string) *decimal.Decimal {
	if !a.positive() {
		v.add(field, msg)
		return nil
	}
	if !a.D.Mod(domain.PriceStep).IsZero() {
		v.add(field, "Price must be a multiple of 0.01")
	}
	d := a.D
	return &d
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
