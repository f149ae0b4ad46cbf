package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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

func optText(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	s := d.String()
	return &s
}

func optDecimal(s *string) (*decimal.Decimal, error) {
	if s == nil {
		return nil, nil
	}
	d, err := decimal.NewFromString(*s)
	return &d, err
}

func parseInto(dst *decimal.Decimal, s string) (err error) {
	*dst, err = decimal.NewFromString(s)
	return err
}

func optInto(dst **decimal.Decimal, s *string) (err error) {
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

// scanOrder reads one row of orderCols. An order stored before holds were
// kept (hold IS NULL) reads with a zero Hold.
func scanOrder(row pgRow) (domain.Order, error) {
	var o domain.Order
	var qty, filled, fee string
	var price, stop, avg, hold, trail *string
	var side, typ, status string
	err := row.Scan(&o.ID, &o.ClientOrderID, &o.Symbol, &side, &typ, &qty, &price, &stop, &filled, &avg,
		&fee, &hold, &o.GroupID, &o.ParentID, &status, &o.RejectReason, &o.Strategy, &o.UserID, &o.CreatedAt, &o.UpdatedAt, &trail, &o.StrategyVersion)
	if err != nil {
		return o, notFound(err, "Order not found")
	}
	o.Side, o.Type, o.Status = domain.Side(side), domain.OrderType(typ), domain.OrderStatus(status)
	o.CreatedAt, o.UpdatedAt = o.CreatedAt.UTC(), o.UpdatedAt.UTC()
	return o, firstErr(
		parseInto(&o.Quantity, qty), parseInto(&o.FilledQuantity, filled), parseInto(&o.Fee, fee), holdInto(&o.Hold, hold),
		optInto(&o.Price, price), optInto(&o.StopPrice, stop), optInto(&o.AvgFillPrice, avg), decodeTrail(&o.Trail, trail))
}

func decodeTrail(dst **domain.Trail, s *string) error {
	if s == nil {
		return nil
	}
	return domain.DecodeTrail(dst, *s)
}

// holdInto parses a stored hold; NULL (a legacy order) is zero.
func holdInto(dst *decimal.Decimal, s *string) error {
	if s == nil {
		*dst = decimal.Zero
		return nil
	}
	return parseInto(dst, *s)
}

// ApplyLedger implements domain.LedgerStore.
func (l ledger) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	// One round trip for the whole change: with group commit a change holds
	// many orders, and a round trip per row made the commit the slow part.
	// A fenced store's first statement is the fence check, in the same trip.
	s, b := l.s, &pgx.Batch{}
	epoch, first := s.epoch.Load(), 0
	if epoch != 0 {
		b.Queue(fenceCheck, epoch)
		first = 1
	}
	for _, o := range c.Orders {
		b.Queue(`INSERT INTO sandbox_orders (`+orderCols+`, account) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
			ON CONFLICT (id) DO UPDATE SET quantity = excluded.quantity, price = excluded.price, stop_price = excluded.stop_price, trail = excluded.trail,
			filled_quantity = excluded.filled_quantity, avg_fill_price = excluded.avg_fill_price, fee = excluded.fee,
			hold = excluded.hold, group_id = excluded.group_id, parent_id = excluded.parent_id,
			status = excluded.status, reject_reason = excluded.reject_reason, updated_at = excluded.updated_at`,
			o.ID, o.ClientOrderID, o.Symbol, string(o.Side), string(o.Type), o.Quantity.String(), optText(o.Price), optText(o.StopPrice),
			o.FilledQuantity.String(), optText(o.AvgFillPrice), o.Fee.String(), o.Hold.String(), o.GroupID, o.ParentID,
			string(o.Status), o.RejectReason, o.Strategy, o.UserID, o.CreatedAt, o.UpdatedAt, domain.EncodeTrail(o.Trail), o.StrategyVersion, l.account)
	}
	for _, f := range c.Fills {
		b.Queue(`INSERT INTO sandbox_fills (id, order_id, symbol, side, quantity, price, fee, liquidity, strategy, at, account)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, f.ID, f.OrderID, f.Symbol, string(f.Side), f.Quantity.String(), f.Price.String(),
			f.Fee.String(), f.Liquidity, f.Strategy, f.Time, l.account)
	}
	for _, bal := range c.Balances {
		b.Queue(`INSERT INTO sandbox_balances (account, currency, available, hold) VALUES ($1, $2, $3, $4)
			ON CONFLICT (account, currency) DO UPDATE SET available = excluded.available, hold = excluded.hold`,
			l.account, bal.Currency, bal.Available.String(), bal.Hold.String())
	}
	for _, p := range c.Positions {
		b.Queue(`INSERT INTO sandbox_positions (account, symbol, quantity, cost, realized) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (account, symbol) DO UPDATE SET quantity = excluded.quantity, cost = excluded.cost, realized = excluded.realized`,
			l.account, p.Symbol, p.Quantity.String(), p.Cost.String(), p.Realized.String())
	}
	for _, e := range c.Audit {
		queueAudit(b, e)
	}
	for _, n := range c.Notify {
		b.Queue(insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), n.CreatedAt)
	}
	return s.tx(ctx, func(tx pgx.Tx) error { // tx maps a lost connection to EUnavailable
		br := tx.SendBatch(ctx, b)
		defer br.Close()
		if first == 1 {
			if tag, err := br.Exec(); err != nil {
				return err
			} else if tag.RowsAffected() != 1 {
				return fenced(epoch) // the rest of the batch is rolled back with it
			}
			if s.afterFence != nil {
				s.afterFence()
			}
		}
		for i := 0; i < b.Len()-first; i++ {
			_, err := br.Exec()
			var pgErr *pgconn.PgError
			if i < len(c.Orders) && errors.As(err, &pgErr) && pgErr.Code == "23505" {
				return domain.Errorf(domain.EConflict, "Client order id %s is already used", c.Orders[i].ClientOrderID)
			} else if err != nil {
				return err
			}
		}
		return br.Close()
	})
}

// LedgerOrder implements domain.LedgerStore.
func (l ledger) LedgerOrder(ctx context.Context, id string) (domain.Order, error) {
	return scanOrder(l.s.db.QueryRow(ctx, `SELECT `+orderCols+` FROM sandbox_orders WHERE account = $1 AND id = $2`, l.account, id))
}

// LedgerOrderByClientID implements domain.LedgerStore. The condition matches
// the partial unique index sandbox_orders_user_client.
func (l ledger) LedgerOrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	return scanOrder(l.s.db.QueryRow(ctx, `SELECT `+orderCols+` FROM sandbox_orders
		WHERE account = $1 AND user_id = $2 AND client_order_id = $3 AND client_order_id <> ''`, l.account, userID, clientID))
}

// LedgerClientOrderIDs implements domain.LedgerStore, from the partial
// unique index sandbox_orders_user_client alone.
func (l ledger) LedgerClientOrderIDs(ctx context.Context, fn func(userID, clientID string)) error {
	rows, err := l.s.db.Query(ctx, `SELECT user_id, client_order_id FROM sandbox_orders WHERE account = $1 AND client_order_id <> ''`, l.account)
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
	if f.Limit <= 0 {
		f.Limit = 100
	}
	var since *time.Time
	if !f.Since.IsZero() {
		since = &f.Since
	}
	return l.queryOrders(ctx, `SELECT `+orderCols+` FROM sandbox_orders
		WHERE account = $5 AND ($1 = '' OR status = $1) AND ($2 = '' OR symbol = $2) AND ($4::timestamptz IS NULL OR created_at >= $4)
		ORDER BY created_at DESC, id DESC LIMIT $3`,
		string(f.Status), f.Symbol, f.Limit, since, l.account)
}

// LedgerLiveOrders implements domain.LedgerStore.
func (l ledger) LedgerLiveOrders(ctx context.Context) ([]domain.Order, error) {
	return l.queryOrders(ctx, `SELECT `+orderCols+` FROM sandbox_orders WHERE account = $1 AND status IN ('pending', 'open') ORDER BY created_at, id`, l.account)
}

func (l ledger) queryOrders(ctx context.Context, q string, args ...any) ([]domain.Order, error) {
	rows, err := l.s.db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Order{}
	for rows.Next() {
		o, err := scanOrder(rows.row())
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// LedgerFills implements domain.LedgerStore.
func (l ledger) LedgerFills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	since := f.Since
	if since.IsZero() {
		since = time.Unix(0, 0)
	}
	rows, err := l.s.db.Query(ctx, `SELECT id, order_id, symbol, side, quantity, price, fee, liquidity, strategy, at FROM sandbox_fills
		WHERE account = $5 AND at >= $1 AND ($2 = '' OR symbol = $2) ORDER BY at DESC, id DESC LIMIT $3 OFFSET $4`, since, f.Symbol, f.Limit, f.Offset, l.account)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Fill{}
	for rows.Next() {
		var fl domain.Fill
		var qty, price, fee, side string
		if err := rows.Scan(&fl.ID, &fl.OrderID, &fl.Symbol, &side, &qty, &price, &fee, &fl.Liquidity, &fl.Strategy, &fl.Time); err != nil {
			return nil, err
		}
		fl.Side, fl.Time = domain.Side(side), fl.Time.UTC()
		if err := firstErr(parseInto(&fl.Quantity, qty), parseInto(&fl.Price, price), parseInto(&fl.Fee, fee)); err != nil {
			return nil, err
		}
		out = append(out, fl)
	}
	return out, rows.Err()
}

// LedgerBalances implements domain.LedgerStore.
func (l ledger) LedgerBalances(ctx context.Context) ([]domain.Balance, error) {
	rows, err := l.s.db.Query(ctx, `SELECT currency, available, hold FROM sandbox_balances WHERE account = $1 ORDER BY currency`, l.account)
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
	rows, err := l.s.db.Query(ctx, `SELECT symbol, quantity, cost, realized FROM sandbox_positions WHERE account = $1 ORDER BY symbol`, l.account)
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
