package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

// LedgerFor implements domain.LedgerAccounts: the core reads the books,
// PostgreSQL writes them (batched, fenced). The Store's own LedgerStore
// methods are the main account's ("").
func (s *Store) LedgerFor(account string) domain.LedgerStore {
	return s.Books(account, sqlcore.LedgerWrites{Apply: s.applyLedger})
}

// ApplyLedger implements domain.LedgerStore for the main account.
func (s *Store) ApplyLedger(ctx context.Context, c domain.LedgerChange) error {
	return s.applyLedger(ctx, "", c)
}

// applyLedger commits c to account's books.
func (s *Store) applyLedger(ctx context.Context, account string, c domain.LedgerChange) error {
	// One round trip for the whole change: with group commit a change holds
	// many orders, and a round trip per row made the commit the slow part.
	// A fenced store's first statement is the fence check, in the same trip.
	b := &pgx.Batch{}
	epoch, first := s.epoch.Load(), 0
	if epoch != 0 {
		b.Queue(fenceCheck, epoch)
		first = 1
	}
	for _, o := range c.Orders {
		b.Queue(`INSERT INTO sandbox_orders (`+sqlcore.OrderCols+`, account) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
			ON CONFLICT (id) DO UPDATE SET quantity = excluded.quantity, price = excluded.price, stop_price = excluded.stop_price, trail = excluded.trail,
			filled_quantity = excluded.filled_quantity, avg_fill_price = excluded.avg_fill_price, fee = excluded.fee,
			hold = excluded.hold, group_id = excluded.group_id, parent_id = excluded.parent_id,
			status = excluded.status, reject_reason = excluded.reject_reason, updated_at = excluded.updated_at`,
			o.ID, o.ClientOrderID, o.Symbol, string(o.Side), string(o.Type), o.Quantity.String(), sqlcore.DecimalText(o.Price), sqlcore.DecimalText(o.StopPrice),
			o.FilledQuantity.String(), sqlcore.DecimalText(o.AvgFillPrice), o.Fee.String(), o.Hold.String(), o.GroupID, o.ParentID,
			string(o.Status), o.RejectReason, o.Strategy, o.UserID, o.CreatedAt, o.UpdatedAt, domain.EncodeTrail(o.Trail), o.StrategyVersion, account)
	}
	for _, f := range c.Fills {
		b.Queue(`INSERT INTO sandbox_fills (id, order_id, symbol, side, quantity, price, fee, liquidity, strategy, at, account)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, f.ID, f.OrderID, f.Symbol, string(f.Side), f.Quantity.String(), f.Price.String(),
			f.Fee.String(), f.Liquidity, f.Strategy, f.Time, account)
	}
	for _, bal := range c.Balances {
		b.Queue(`INSERT INTO sandbox_balances (account, currency, available, hold) VALUES ($1, $2, $3, $4)
			ON CONFLICT (account, currency) DO UPDATE SET available = excluded.available, hold = excluded.hold`,
			account, bal.Currency, bal.Available.String(), bal.Hold.String())
	}
	for _, p := range c.Positions {
		b.Queue(`INSERT INTO sandbox_positions (account, symbol, quantity, cost, realized) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (account, symbol) DO UPDATE SET quantity = excluded.quantity, cost = excluded.cost, realized = excluded.realized`,
			account, p.Symbol, p.Quantity.String(), p.Cost.String(), p.Realized.String())
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
