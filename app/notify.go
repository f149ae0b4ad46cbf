package app

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/notify"
)

// openNotify builds the notification service; its secrets are sealed
// with the settings' key.
func (a *App) openNotify(sealer notify.Sealer, clock domain.Clock) {
	opt := a.cfg.NotifyOptions
	if opt.TelegramURL == "" {
		opt.TelegramURL = a.cfg.TelegramAPIURL
	}
	if opt.Servers == nil {
		opt.Servers = func() notify.Servers {
			n := a.Settings.Platform().System.Notifications
			return notify.Servers{TelegramURL: n.TelegramAPIURL, DigestTime: n.DigestTime, SMTP: notify.SMTP{Host: n.SMTPHost, Port: n.SMTPPort,
				Security: n.SMTPSecurity, User: n.SMTPUser, Password: n.SMTPPassword, From: n.SMTPFrom}, AllowLoopback: n.AllowLoopbackTargets}
		}
	}
	if opt.Flags == nil {
		opt.Flags = func(ctx context.Context, owner string) (notify.Flags, error) {
			st, err := a.Settings.Get(ctx, owner)
			n := st.UI.Notifications
			return notify.Flags{Trades: n.Trades, Alerts: n.Alerts, System: n.System, Email: n.Email, Push: n.Push}, err
		}
	}
	if opt.Active == nil {
		opt.Active = func(ctx context.Context, owner string) (bool, error) {
			u, err := a.Store.UserByID(ctx, owner)
			if domain.ErrorCode(err) == domain.ENotFound {
				return false, nil // a deleted account
			}
			return err == nil && !u.Disabled, err
		}
	}
	a.Notify = notify.New(a.Store, sealer, clock, opt)
	a.Alerts.OnRaise(notify.CommittedAlert) // an alert's notification is committed with it
}

// notifyLoops queue events from the bus into the outbox and deliver from
// it. They run in the one process, or on the cluster's leader only (lead),
// so each event is queued and each message attempted by one instance.
func (a *App) notifyLoops() []func(context.Context) {
	return []func(context.Context){
		func(ctx context.Context) { a.Notify.Listen(ctx, a.Bus) },
		a.Notify.Run,
		a.Notify.RunRouting,
		func(ctx context.Context) { a.Notify.RunDigest(ctx, a.Store, digestAccount{a}) },
	}
}

// digestAccount is the account as the daily digest reads it: the trading
// service's portfolio history and valuation, the exchange's fills and
// live orders.
type digestAccount struct{ a *App }

func (d digestAccount) PnLSince(ctx context.Context, from time.Time) (decimal.Decimal, decimal.Decimal, error) {
	return d.a.Trading.PnLSince(ctx, from)
}

func (d digestAccount) FillsSince(ctx context.Context, from time.Time) ([]domain.Fill, error) {
	return d.a.Exchange.Fills(ctx, domain.FillFilter{Since: from, Limit: 1_000_000})
}

func (d digestAccount) OpenRisk(ctx context.Context) ([]domain.Position, int, error) {
	p, err := d.a.Trading.Portfolio(ctx)
	if err != nil {
		return nil, 0, err
	}
	n := 0
	for _, st := range []domain.OrderStatus{domain.StatusOpen, domain.StatusPending} {
		os, err := d.a.Exchange.Orders(ctx, domain.OrderFilter{Status: st, Limit: 100_000})
		if err != nil {
			return nil, 0, err
		}
		n += len(os)
	}
	return p.Positions, n, nil
}
