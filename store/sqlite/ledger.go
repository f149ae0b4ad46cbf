package sqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

// LedgerFor implements domain.LedgerAccounts: the core reads the books,
// SQLite writes them. The Store's own LedgerStore methods are the main
// account's ("").
func (s *Store) LedgerFor(account string) domain.LedgerStore {
	return s.Books(account, sqlcore.LedgerWrites{Apply: s.applyLedger, OrderByClientID: s.orderByClientID})
}

// ApplyLedger implements domain.LedgerStore for the main account.
func (s *Store) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	return s.applyLedger(ctx, "", c)
}

// LedgerOrderByClientID implements domain.LedgerStore for the main account.
func (s *Store) LedgerOrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	return s.orderByClientID(ctx, "", userID, clientID)
}

func optText(d *decimal.Decimal) sql.NullString {
	if d == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: d.String(), Valid: true}
}

// The ledger's writes, prepared once (prepareWriter).
const (
	upsertOrder = `INSERT INTO sandbox_orders (` + sqlcore.OrderCols + `, account) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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

// applyLedger commits c to account's books in the writer's group commit.
func (s *Store) applyLedger(ctx context.Context, account string, c domain.LedgerChange) error {
	// The driver watches a cancellable context with a goroutine per
	// statement; a local commit cannot usefully be interrupted (SQLite's own
	// busy timeout bounds waiting for the lock), so the journal's statements
	// run without one.
	ctx = context.WithoutCancel(ctx)
	return s.ledgerCommit(ctx, func(tx *sql.Tx) error {
		for _, o := range c.Orders {
			err := s.txExec(ctx, tx, upsertOrder,
				o.ID, o.ClientOrderID, o.Symbol, string(o.Side), string(o.Type), o.Quantity.String(), optText(o.Price), optText(o.StopPrice),
				o.FilledQuantity.String(), optText(o.AvgFillPrice), o.Fee.String(), o.Hold.String(), o.GroupID, o.ParentID,
				string(o.Status), o.RejectReason, o.Strategy, o.UserID, ms(o.CreatedAt), ms(o.UpdatedAt), domain.EncodeTrail(o.Trail), o.StrategyVersion, account)
			if err != nil && strings.Contains(err.Error(), "UNIQUE") {
				return domain.Errorf(domain.EConflict, "Client order id %s is already used", o.ClientOrderID)
			} else if err != nil {
				return err
			}
		}
		for _, f := range c.Fills {
			if err := s.txExec(ctx, tx, insertFill, f.ID, f.OrderID, f.Symbol, string(f.Side), f.Quantity.String(), f.Price.String(),
				f.Fee.String(), f.Liquidity, f.Strategy, ms(f.Time), account); err != nil {
				return err
			}
		}
		for _, b := range c.Balances {
			if err := s.txExec(ctx, tx, upsertBalance,
				account, b.Currency, b.Available.String(), b.Hold.String()); err != nil {
				return err
			}
		}
		for _, p := range c.Positions {
			if err := s.txExec(ctx, tx, upsertPosition,
				account, p.Symbol, p.Quantity.String(), p.Cost.String(), p.Realized.String()); err != nil {
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

// orderByClientID reads an order of account by its client id, through a
// statement prepared once: placing an order reads it.
func (s *Store) orderByClientID(ctx context.Context, account, userID, clientID string) (domain.Order, error) {
	st, err := s.prepared(ctx, s.r, sqlcore.OrderByClientIDSQL)
	if err != nil {
		return domain.Order{}, err
	}
	return s.Ledger(account).ScanOrder(st.QueryRowContext(ctx, account, userID, clientID))
}
