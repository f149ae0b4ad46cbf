package httpapi

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

// TrailingStopRequest is POST /trading/orders/trailing-stop: a stop-loss
// payload whose stop_price is replaced by the trail.
type TrailingStopRequest struct {
	Symbol          string `json:"symbol"`
	Side            string `json:"side"`
	Quantity        Amount `json:"quantity"`
	TrailPercent    Amount `json:"trail_percent"`
	TrailAmount     Amount `json:"trail_amount"`
	ActivationPrice Amount `json:"activation_price"`
	Strategy        string `json:"strategy"`
	ClientOrderID   string `json:"client_order_id"`
}

// ModifyRequest is PUT /trading/orders/{id}: at least one of quantity,
// price (a limit's price, or a stop's stop price as the spec has it) or
// stop_price (stop orders only, named as the stop-loss payload names it).
type ModifyRequest struct {
	Quantity  Amount `json:"quantity"`
	Price     Amount `json:"price"`
	StopPrice Amount `json:"stop_price"`
}

// dec is an amount as the gateway takes it: nil when absent, zero when not a
// number (so the gateway answers with the spec's message).
func (a Amount) dec() decimal.Decimal {
	if !a.Set || !a.Valid {
		return decimal.Zero
	}
	return a.D
}

// ptr is an optional amount: nil when absent; a non-number reads as zero,
// which the gateway refuses with the spec's message.
func (a Amount) ptr() *decimal.Decimal {
	if !a.Set {
		return nil
	}
	d := a.dec()
	return &d
}

// orderRequest builds the gateway's request; the gateway validates it.
func orderRequest(userID, clientID, symbol, side string, typ domain.OrderType, qty Amount, strategy string) domain.OrderRequest {
	return domain.OrderRequest{ClientOrderID: strings.TrimSpace(clientID), Symbol: symbol, Side: domain.Side(side), Type: typ,
		Quantity: qty.dec(), Strategy: strategy, UserID: userID}
}

// refuseStrategyName refuses a manual order's strategy label that is a
// strategy's name (compared without case or surrounding spaces): such an
// order would count in that strategy's figures and its AI trade memory.
// Other labels, position_close included, stay free text.
func (s *Server) refuseStrategyName(label string) error {
	label = strings.TrimSpace(label)
	if label == "" || s.d.Strategies == nil {
		return nil
	}
	for _, c := range s.d.Strategies.List() {
		if strings.EqualFold(c.Name, label) {
			return fieldErr("strategy", "\""+c.Name+"\" is a strategy's name; a manual order cannot use it")
		}
	}
	return nil
}
