package sqlcore

import (
	"context"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// The sandbox ledger's reads. Its writes stay with each engine: SQLite's
// prepared statements behind the one writer, PostgreSQL's batched and fenced
// commits.

// Ledger is the sandbox's books of one account as read by both engines:
// every query is scoped to it.
type Ledger struct {
	c       *Core
	account string
}

// Ledger returns account's books ("" is the main account).
func (c *Core) Ledger(account string) Ledger { return Ledger{c, account} }

// LedgerWrites are what an engine does its own way for one account's books.
type LedgerWrites struct {
	// Apply commits a change to account's books.
	Apply func(ctx context.Context, account string, c domain.LedgerChange) error
	// OrderByClientID, when set, replaces the core's read (SQLite prepares
	// it: placing an order reads it).
	OrderByClientID func(ctx context.Context, account, userID, clientID string) (domain.Order, error)
}

// Books is one account's ledger as a store hands it out (LedgerFor): the
// core's reads and the engine's writes.
type Books struct {
	Ledger
	w LedgerWrites
}

// Books returns account's books written through w.
func (c *Core) Books(account string, w LedgerWrites) Books { return Books{c.Ledger(account), w} }

// ApplyLedger implements domain.LedgerStore.
func (b Books) ApplyLedger(ctx context.Context, ch domain.LedgerChange) error {
	return b.w.Apply(ctx, b.account, ch)
}

// LedgerOrderByClientID implements domain.LedgerStore.
func (b Books) LedgerOrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	if b.w.OrderByClientID != nil {
		return b.w.OrderByClientID(ctx, b.account, userID, clientID)
	}
	return b.Ledger.LedgerOrderByClientID(ctx, userID, clientID)
}

// OrderCols are the columns ScanOrder reads, in its order.
const OrderCols = `id, client_order_id, symbol, side, type, quantity, price, stop_price, filled_quantity, avg_fill_price,
	fee, hold, group_id, parent_id, status, reject_reason, strategy, user_id, created_at, updated_at, trail, strategy_version`

// ScanOrder reads one row of OrderCols (a Ledger's method, not the Store's:
// the stores' fault tests call every Store method answering an error).
func (l Ledger) ScanOrder(row Row) (domain.Order, error) { return l.c.scanOrder(row) }

// scanOrder reads one row of OrderCols. An order stored before holds were
// kept (hold IS NULL) reads with a zero Hold.
func (c *Core) scanOrder(row Row) (domain.Order, error) {
	var o domain.Order
	var qty, filled, fee string
	var price, stop, avg, hold, trail *string
	var side, typ, status string
	err := row.Scan(&o.ID, &o.ClientOrderID, &o.Symbol, &side, &typ, &qty, &price, &stop, &filled, &avg,
		&fee, &hold, &o.GroupID, &o.ParentID, &status, &o.RejectReason, &o.Strategy, &o.UserID,
		c.d.TimeDest(&o.CreatedAt), c.d.TimeDest(&o.UpdatedAt), &trail, &o.StrategyVersion)
	if err != nil {
		return o, c.notFound(err, "Order not found")
	}
	o.Side, o.Type, o.Status = domain.Side(side), domain.OrderType(typ), domain.OrderStatus(status)
	o.CreatedAt, o.UpdatedAt = utc(o.CreatedAt), utc(o.UpdatedAt)
	if hold == nil {
		zero := "0"
		hold = &zero
	}
	return o, firstErr(
		parseInto(&o.Quantity, qty), parseInto(&o.FilledQuantity, filled), parseInto(&o.Fee, fee), parseInto(&o.Hold, *hold),
		optInto(&o.Price, price), optInto(&o.StopPrice, stop), optInto(&o.AvgFillPrice, avg), decodeTrail(&o.Trail, trail))
}

func decodeTrail(dst **domain.Trail, s *string) error {
	if s == nil {
		return nil
	}
	return domain.DecodeTrail(dst, *s)
}

func parseInto(dst *decimal.Decimal, s string) (err error) {
	*dst, err = decimal.NewFromString(s)
	return err
}

func optInto(dst **decimal.Decimal, s *string) (err error) {
	*dst, err = DecimalOf(s)
	return err
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// LedgerOrder implements domain.LedgerStore.
func (l Ledger) LedgerOrder(ctx context.Context, id string) (domain.Order, error) {
	return l.c.scanOrder(l.c.r.QueryRow(ctx, `SELECT `+OrderCols+` FROM sandbox_orders WHERE account = $1 AND id = $2`, l.account, id))
}

// OrderByClientIDSQL reads an order by its owner and client id: account,
// user, client id. Its condition matches the partial unique index
// sandbox_orders_user_client.
const OrderByClientIDSQL = `SELECT ` + OrderCols + ` FROM sandbox_orders
	WHERE account = $1 AND user_id = $2 AND client_order_id = $3 AND client_order_id <> ''`

// LedgerOrderByClientID implements domain.LedgerStore.
func (l Ledger) LedgerOrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	return l.c.scanOrder(l.c.r.QueryRow(ctx, OrderByClientIDSQL, l.account, userID, clientID))
}

// LedgerClientOrderIDs implements domain.LedgerStore, from the partial
// unique index sandbox_orders_user_client alone.
func (l Ledger) LedgerClientOrderIDs(ctx context.Context, fn func(userID, clientID string)) error {
	rows, err := l.c.r.Query(ctx, `SELECT user_id, client_order_id FROM sandbox_orders WHERE account = $1 AND client_order_id <> ''`, l.account)
	if err != nil {
		return err
	}
	defer rows.Close()
	var user, cid string
	for rows.Next() {
		if err := rows.Scan(&user, &cid); err != nil {
			return err
		}
		fn(user, cid)
	}
	return rows.Err()
}

// LedgerOrders implements domain.LedgerStore: newest first.
func (l Ledger) LedgerOrders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	a := args{l.account}
	q := `SELECT ` + OrderCols + ` FROM sandbox_orders WHERE account = $1`
	if f.Status != "" {
		q += ` AND status = ` + a.add(string(f.Status))
	}
	if f.Symbol != "" {
		q += ` AND symbol = ` + a.add(f.Symbol)
	}
	if !f.Since.IsZero() {
		q += ` AND created_at >= ` + a.add(l.c.d.Time(f.Since))
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	q += ` ORDER BY created_at DESC, ` + l.c.insertOrder() + ` DESC LIMIT ` + a.add(f.Limit)
	return queryAll(ctx, l.c.r, l.c.scanOrder, q, a...)
}

// LedgerLiveOrders implements domain.LedgerStore: oldest first.
func (l Ledger) LedgerLiveOrders(ctx context.Context) ([]domain.Order, error) {
	return queryAll(ctx, l.c.r, l.c.scanOrder, `SELECT `+OrderCols+` FROM sandbox_orders WHERE account = $1 AND status IN ('pending', 'open')
		ORDER BY created_at, `+l.c.insertOrder(), l.account)
}

// LedgerFills implements domain.LedgerStore: newest first.
func (l Ledger) LedgerFills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	a := args{l.account}
	q := `SELECT id, order_id, symbol, side, quantity, price, fee, liquidity, strategy, at FROM sandbox_fills WHERE account = $1`
	if !f.Since.IsZero() {
		q += ` AND at >= ` + a.add(l.c.d.Time(f.Since))
	}
	if f.Symbol != "" {
		q += ` AND symbol = ` + a.add(f.Symbol)
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	q += ` ORDER BY at DESC, ` + l.c.insertOrder() + ` DESC LIMIT ` + a.add(f.Limit) + ` OFFSET ` + a.add(f.Offset)
	return queryAll(ctx, l.c.r, func(r Row) (domain.Fill, error) {
		var fl domain.Fill
		var qty, price, fee, side string
		if err := r.Scan(&fl.ID, &fl.OrderID, &fl.Symbol, &side, &qty, &price, &fee, &fl.Liquidity, &fl.Strategy, l.c.d.TimeDest(&fl.Time)); err != nil {
			return fl, err
		}
		fl.Side, fl.Time = domain.Side(side), utc(fl.Time)
		return fl, firstErr(parseInto(&fl.Quantity, qty), parseInto(&fl.Price, price), parseInto(&fl.Fee, fee))
	}, q, a...)
}

// LedgerBalances implements domain.LedgerStore.
func (l Ledger) LedgerBalances(ctx context.Context) ([]domain.Balance, error) {
	return queryAll(ctx, l.c.r, func(r Row) (domain.Balance, error) {
		var b domain.Balance
		var avail, hold string
		if err := r.Scan(&b.Currency, &avail, &hold); err != nil {
			return b, err
		}
		return b, firstErr(parseInto(&b.Available, avail), parseInto(&b.Hold, hold))
	}, `SELECT currency, available, hold FROM sandbox_balances WHERE account = $1 ORDER BY currency`, l.account)
}

// LedgerPositions implements domain.LedgerStore.
func (l Ledger) LedgerPositions(ctx context.Context) ([]domain.PositionBook, error) {
	return queryAll(ctx, l.c.r, func(r Row) (domain.PositionBook, error) {
		var p domain.PositionBook
		var qty, cost, realized string
		if err := r.Scan(&p.Symbol, &qty, &cost, &realized); err != nil {
			return p, err
		}
		return p, firstErr(parseInto(&p.Quantity, qty), parseInto(&p.Cost, cost), parseInto(&p.Realized, realized))
	}, `SELECT symbol, quantity, cost, realized FROM sandbox_positions WHERE account = $1 ORDER BY symbol`, l.account)
}

// The main account's reads, for the Store's own LedgerStore methods.

// LedgerOrder implements domain.LedgerStore for the main account.
func (c *Core) LedgerOrder(ctx context.Context, id string) (domain.Order, error) {
	return c.Ledger("").LedgerOrder(ctx, id)
}

// LedgerOrderByClientID implements domain.LedgerStore for the main account.
func (c *Core) LedgerOrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	return c.Ledger("").LedgerOrderByClientID(ctx, userID, clientID)
}

// LedgerClientOrderIDs implements domain.LedgerStore for the main account.
func (c *Core) LedgerClientOrderIDs(ctx context.Context, fn func(userID, clientID string)) error {
	return c.Ledger("").LedgerClientOrderIDs(ctx, fn)
}

// LedgerOrders implements domain.LedgerStore for the main account.
func (c *Core) LedgerOrders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	return c.Ledger("").LedgerOrders(ctx, f)
}

// LedgerLiveOrders implements domain.LedgerStore for the main account.
func (c *Core) LedgerLiveOrders(ctx context.Context) ([]domain.Order, error) {
	return c.Ledger("").LedgerLiveOrders(ctx)
}

// LedgerFills implements domain.LedgerStore for the main account.
func (c *Core) LedgerFills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	return c.Ledger("").LedgerFills(ctx, f)
}

// LedgerBalances implements domain.LedgerStore for the main account.
func (c *Core) LedgerBalances(ctx context.Context) ([]domain.Balance, error) {
	return c.Ledger("").LedgerBalances(ctx)
}

// LedgerPositions implements domain.LedgerStore for the main account.
func (c *Core) LedgerPositions(ctx context.Context) ([]domain.PositionBook, error) {
	return c.Ledger("").LedgerPositions(ctx)
}
