package smacross

import "fmt"

var errOverflow = fmt.Errorf("an amount is too large for the ledger's 128-bit arithmetic")

// buy spends all the cash at price (the open, before slippage, which never
// takes it above the candle's high):
// quantity = cash / (price x (1 + fee)) rounded down to 10^-8, fee = price x
// quantity x fee rate rounded half-up to 10^-8, cash -= price x quantity + fee.
// When the cash buys less than 10^-8 nothing is bought.
func (l *ledger) buy(t, open, high int64) error {
	price, err := slipped(open, l.r.SlippageBps)
	if err != nil {
		return err
	}
	price = min(price, max(high, open))
	if l.cash.negative() {
		return nil
	}
	// quantity x 10^8 = cash16 x 10^8 / (price8 x (10^8 + fee8)); dividing in
	// two steps floors the same as dividing once.
	scaled, ok := l.cash.mul(unit)
	if !ok {
		return errOverflow
	}
	q, ok := scaled.div(uint64(price)).div(unit + uint64(l.r.FeeRate)).int64()
	if !ok {
		return errOverflow
	}
	if q == 0 {
		return nil
	}
	notional := mul64(uint64(price), uint64(q)) // x 10^16, exact
	fee, err := feeOn(notional, l.r.FeeRate)
	if err != nil {
		return err
	}
	l.cash = l.cash.sub(notional).sub(mul64(uint64(fee), cashUnit))
	l.qty = q
	l.record(Fill{Side: Buy, Time: t, Price: price, Quantity: q, Fee: fee})
	return nil
}

// sell sells the whole position at price (before slippage, which never takes
// it below the candle's low): cash += price x quantity - fee, the fee rounded
// as for a buy.
func (l *ledger) sell(t, at, low int64, endOfData bool) error {
	price, err := slipped(at, -l.r.SlippageBps)
	if err != nil {
		return err
	}
	price = max(price, min(low, at))
	notional := mul64(uint64(price), uint64(l.qty))
	fee, err := feeOn(notional, l.r.FeeRate)
	if err != nil {
		return err
	}
	l.cash = l.cash.add(notional).sub(mul64(uint64(fee), cashUnit))
	l.record(Fill{Side: Sell, Time: t, Price: price, Quantity: l.qty, Fee: fee, EndOfData: endOfData})
	l.qty = 0
	return nil
}

func (l *ledger) record(f Fill) {
	l.r.Fills = append(l.r.Fills, f)
	l.r.FeesPaid += f.Fee
}

// feeOn is notional (x 10^16) x rate (x 10^8), rounded half-up to 10^-8.
func feeOn(notional u128, rate int64) (int64, error) {
	p, ok := notional.mul(uint64(rate))
	if !ok {
		return 0, errOverflow
	}
	fee, ok := p.add(u128{0, unit * unit / 2}).div(unit * unit).int64()
	if !ok {
		return 0, errOverflow
	}
	return fee, nil
}

// slipped moves price by bps basis points (positive: a buy pays more,
// negative: a sell gets less), rounded half-up to 10^-8.
func slipped(price, bps int64) (int64, error) {
	if bps == 0 {
		return price, nil
	}
	v, ok := mul64(uint64(price), uint64(10_000+bps)).add(u128{0, 5_000}).div(10_000).int64()
	if !ok {
		return 0, errOverflow
	}
	return v, nil
}
