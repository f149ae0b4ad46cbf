package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var (
	_ domain.LedgerStore    = (*Store)(nil)
	_ domain.LedgerAccounts = (*Store)(nil)
)

// ledger is the sandbox's books of one account: every statement is scoped
// to it. The Store's own LedgerStore methods are the main account's ("").
type ledger struct {
	s       *Store
	account string
}

// LedgerFor implements domain.LedgerAccounts.
func (s *Store) LedgerFor(account string) domain.LedgerStore { return ledger{s, account} }

func (s *Store) main() ledger { return ledger{s, ""} }

// ApplyLedger implements domain.LedgerStore for the main account.
func (s *Store) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	return s.main().ApplyLedger(ctx, c)
}

// LedgerOrder implements domain.LedgerStore for the main account.
func (s *Store) LedgerOrder(ctx context.Context, id string) (domain.Order, error) {
	return s.main().LedgerOrder(ctx, id)
}

// LedgerOrderByClientID implements domain.LedgerStore for the main account.
func (s *Store) LedgerOrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	return s.main().LedgerOrderByClientID(ctx, userID, clientID)
}

// LedgerClientOrderIDs implements domain.LedgerStore for the main account.
func (s *Store) LedgerClientOrderIDs(ctx context.Context, fn func(userID, clientID string)) error {
	return s.main().LedgerClientOrderIDs(ctx, fn)
}

// LedgerOrders implements domain.LedgerStore for the main account.
func (s *Store) LedgerOrders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	return s.main().LedgerOrders(ctx, f)
}

// LedgerLiveOrders implements domain.LedgerStore for the main account.
func (s *Store) LedgerLiveOrders(ctx context.Context) ([]domain.Order, error) {
	return s.main().LedgerLiveOrders(ctx)
}

// LedgerFills implements domain.LedgerStore for the main account.
func (s *Store) LedgerFills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	return s.main().LedgerFills(ctx, f)
}

// LedgerBalances implements domain.LedgerStore for the main account.
func (s *Store) LedgerBalances(ctx context.Context) ([]domain.Balance, error) {
	return s.main().LedgerBalances(ctx)
}

// LedgerPositions implements domain.LedgerStore for the main account.
func (s *Store) LedgerPositions(ctx context.Context) ([]domain.PositionBook, error) {
	return s.main().LedgerPositions(ctx)
}

const orderCols = `id, client_order_id, symbol, side, type, quantity, price, stop_price, filled_quantity, avg_fill_price,
	fee, hold, group_id, parent_id, status, reject_reason, strategy, user_id, created_at, updated_at, trail, strategy_version`

func optText(d *decimal.Decimal) sql.NullString {
	if d == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: d.String(), Valid: true}
}

func optDecimal(s sql.NullString) (*decimal.Decimal, error) {
	if !s.Valid {
		return nil, nil
	}
	d, err := decimal.NewFromString(s.String)
	return &d, err
}

// scanOrder reads one row of orderCols. An order stored before holds were
// kept (hold IS NULL) reads with a zero Hold.
func scanOrder(row interface{ Scan(...any) error }) (domain.Order, error) {
	var o domain.Order
	var qty, filled, fee string
	var price, stop, avg, hold, trail sql.NullString
	var created, updated int64
	err := row.Scan(&o.ID, &o.ClientOrderID, &o.Symbol, &o.Side, &o.Type, &qty, &price, &stop, &filled, &avg,
		&fee, &hold, &o.GroupID, &o.ParentID, &o.Status, &o.RejectReason, &o.Strategy, &o.UserID, &created, &updated, &trail, &o.StrategyVersion)
	if errors.Is(err, sql.ErrNoRows) {
		return o, domain.Errorf(domain.ENotFound, "Order not found")
	}
	if err != nil {
		return o, err
	}
	o.CreatedAt, o.UpdatedAt = fromMS(created), fromMS(updated)
	return o, firstErr(
		parseInto(&o.Quantity, qty), parseInto(&o.FilledQuantity, filled), parseInto(&o.Fee, fee), holdInto(&o.Hold, hold),
		optInto(&o.Price, price), optInto(&o.StopPrice, stop), optInto(&o.AvgFillPrice, avg), domain.DecodeTrail(&o.Trail, trail.String))
}

// holdInto parses a stored hold; NULL (a legacy order) is zero.
func holdInto(dst *decimal.Decimal, s sql.NullString) error {
	if !s.Valid {
		*dst = decimal.Zero
		return nil
	}
	return parseInto(dst, s.String)
}

func parseInto(dst *decimal.Decimal, s string) (err error) {
	*dst, err = decimal.NewFromString(s)
	return err
}

func optInto(dst **decimal.Decimal, s sql.NullString) (err error) {
	*dst, err = optDecimal(s)
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

// The ledger's writes, prepared once (prepareWriter).
const (
	upsertOrder = `INSERT INTO sandbox_orders (` + orderCols + `, account) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET quantity = excluded.quantity, price = excluded.price, stop_price = excluded.stop_price, trail = excluded.trail,
		filled_quantity = excluded.filled_quantity, avg_fill_price = excluded.avg_fill_price, fee = excluded.fee,
		hold = excluded.hold, group_id = excluded.group_id, parent_id = excluded.parent_id,
		status = excluded.status, reject_reason = excluded.reject_reason, updated_at = excluded.updated_at`
	insertFill = `INSERT INTO sandbox_fills (id, order_id, symbol, side, quantity, price, fee, liquidity, strategy, at, account)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	upsertBalance = `INSERT INTO sandbox_balances (account, currency, available, hold) VALUES (?, ?, ?, ?)
		ON CONFLICT (account, currency) DO UPDATE SET available = excluded.available, hold = excluded.hold`
	upsertPosition = `INSERT INTO sandbox_positions (account, symbol, quantity, cost, realized) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (account, symbol) DO UPDATE SET quantity = excluded.quantity, cost = excluded.cost, realized = excluded.realized`
)

func (l ledger) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	// The driver watches a cancellable context with a goroutine per
	// statement; a local commit cannot usefully be interrupted (SQLite's own
	// busy timeout bounds waiting for the lock), so the journal's statements
	// run without one.
	ctx = context.WithoutCancel(ctx)
	s := l.s
	return s.ledgerCommit(ctx, func(tx *sql.Tx) error {
		for _, o := range c.Orders {
			err := s.txExec(ctx, tx, upsertOrder,
				o.ID, o.ClientOrderID, o.Symbol, string(o.Side), string(o.Type), o.Quantity.String(), optText(o.Price), optText(o.StopPrice),
				o.FilledQuantity.String(), optText(o.AvgFillPrice), o.Fee.String(), o.Hold.String(), o.GroupID, o.ParentID,
				string(o.Status), o.RejectReason, o.Strategy, o.UserID, ms(o.CreatedAt), ms(o.UpdatedAt), domain.EncodeTrail(o.Trail), o.StrategyVersion, l.account)
			if err != nil && strings.Contains(err.Error(), "UNIQUE") {
				return domain.Errorf(domain.EConflict, "Client order id %s is already used", o.ClientOrderID)
			} else if err != nil {
				return err
			}
		}
		for _, f := range c.Fills {
			if err := s.txExec(ctx, tx, insertFill, f.ID, f.OrderID, f.Symbol, string(f.Side), f.Quantity.String(), f.Price.String(),
				f.Fee.String(), f.Liquidity, f.Strategy, ms(f.Time), l.account); err != nil {
				return err
			}
		}
		for _, b := range c.Balances {
			if err := s.txExec(ctx, tx, upsertBalance,
				l.account, b.Currency, b.Available.String(), b.Hold.String()); err != nil {
				return err
			}
		}
		for _, p := range c.Positions {
			if err := s.txExec(ctx, tx, upsertPosition,
				l.account, p.Symbol, p.Quantity.String(), p.Cost.String(), p.Realized.String()); err != nil {
				return err
			}
		}
		for _, e := range c.Audit {
			if err := s.insertAudit(ctx, tx, e); err != nil {
				return err
			}
		}
		for _, n := range c.Notify {
			if err := s.txExec(ctx, tx, insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), ms(n.CreatedAt)); err != nil {
				return err
			}
		}
		return nil
	})
}

// LedgerOrder implements domain.LedgerStore.
func (l ledger) LedgerOrder(ctx context.Context, id string) (domain.Order, error) {
	return scanOrder(l.s.r.QueryRowContext(ctx, `SELECT `+orderCols+` FROM sandbox_orders WHERE account = ? AND id = ?`, l.account, id))
}

// LedgerOrderByClientID implements domain.LedgerStore. The condition matches
// the partial unique index sandbox_orders_user_client.
func (l ledger) LedgerOrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	st, err := l.s.prepared(ctx, l.s.r, `SELECT `+orderCols+` FROM sandbox_orders
		WHERE account = ? AND user_id = ? AND client_order_id = ? AND client_order_id <> ''`)
	if err != nil {
		return domain.Order{}, err
	}
	return scanOrder(st.QueryRowContext(ctx, l.account, userID, clientID))
}

// LedgerClientOrderIDs implements domain.LedgerStore, from the partial
// unique index sandbox_orders_user_client alone.
func (l ledger) LedgerClientOrderIDs(ctx context.Context, fn func(userID, clientID string)) error {
	rows, err := l.s.r.QueryContext(ctx, `SELECT user_id, client_order_id FROM sandbox_orders WHERE account = ? AND client_order_id <> ''`, l.account)
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

// LedgerOrders implements domain.LedgerStore.
func (l ledger) LedgerOrders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	q, args := `SELECT `+orderCols+` FROM sandbox_orders WHERE account = ?`, []any{l.account}
	if f.Status != "" {
		q, args = q+` AND status = ?`, append(args, string(f.Status))
	}
	if f.Symbol != "" {
		q, args = q+` AND symbol = ?`, append(args, f.Symbol)
	}
	if !f.Since.IsZero() {
		q, args = q+` AND created_at >= ?`, append(args, ms(f.Since))
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	return l.queryOrders(ctx, q+` ORDER BY created_at DESC, rowid DESC LIMIT ?`, append(args, f.Limit)...)
}

// LedgerLiveOrders implements domain.LedgerStore.
func (l ledger) LedgerLiveOrders(ctx context.Context) ([]domain.Order, error) {
	return l.queryOrders(ctx, `SELECT `+orderCols+` FROM sandbox_orders WHERE account = ? AND status IN ('pending', 'open') ORDER BY created_at, rowid`, l.account)
}

func (l ledger) queryOrders(ctx context.Context, q string, args ...any) ([]domain.Order, error) {
	rows, err := l.s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Order{}
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// LedgerFills implements domain.LedgerStore.
func (l ledger) LedgerFills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	q, args := `SELECT id, order_id, symbol, side, quantity, price, fee, liquidity, strategy, at FROM sandbox_fills WHERE account = ? AND at >= ?`, []any{l.account, ms(f.Since)}
	if f.Symbol != "" {
		q, args = q+` AND symbol = ?`, append(args, f.Symbol)
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	rows, err := l.s.r.QueryContext(ctx, q+` ORDER BY at DESC, rowid DESC LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Fill{}
	for rows.Next() {
		var fl domain.Fill
		var qty, price, fee string
		var at int64
		if err := rows.Scan(&fl.ID, &fl.OrderID, &fl.Symbol, &fl.Side, &qty, &price, &fee, &fl.Liquidity, &fl.Strategy, &at); err != nil {
			return nil, err
		}
		fl.Time = fromMS(at)
		if err := firstErr(parseInto(&fl.Quantity, qty), parseInto(&fl.Price, price), parseInto(&fl.Fee, fee)); err != nil {
			return nil, err
		}
		out = append(out, fl)
	}
	return out, rows.Err()
}

// LedgerBalances implements domain.LedgerStore.
func (l ledger) LedgerBalances(ctx context.Context) ([]domain.Balance, error) {
	rows, err := l.s.r.QueryContext(ctx, `SELECT currency, available, hold FROM sandbox_balances WHERE account = ? ORDER BY currency`, l.account)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Balance{}
	for rows.Next() {
		var b domain.Balance
		var avail, hold string
		if err := rows.Scan(&b.Currency, &avail, &hold); err != nil {
			return nil, err
		}
		if err := firstErr(parseInto(&b.Available, avail), parseInto(&b.Hold, hold)); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// LedgerPositions implements domain.LedgerStore.
func (l ledger) LedgerPositions(ctx context.Context) ([]domain.PositionBook, error) {
	rows, err := l.s.r.QueryContext(ctx, `SELECT symbol, quantity, cost, realized FROM sandbox_positions WHERE account = ? ORDER BY symbol`, l.account)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.PositionBook{}
	for rows.Next() {
		var p domain.PositionBook
		var qty, cost, realized string
		if err := rows.Scan(&p.Symbol, &qty, &cost, &realized); err != nil {
			return nil, err
		}
		if err := firstErr(parseInto(&p.Quantity, qty), parseInto(&p.Cost, cost), parseInto(&p.Realized, realized)); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
