package app

import (
	"context"

	"kestrel/domain"
	"kestrel/notify"
)

// openNotify builds the notification service; its secrets are sealed
// with the settings' key.
func (a *App) openNotify(sealer notify.Sealer, clock domain.Clock) {
	a.Notify = notify.New(a.Store, sealer, clock, a.cfg.NotifyOptions)
}

// notifyLoops queue events from the bus into the outbox and deliver from
// it. They run in the one process, or on the cluster's leader only (lead),
// so each event is queued and each message attempted by one instance.
func (a *App) notifyLoops() []func(context.Context) {
	return []func(context.Context){
		func(ctx context.Context) { a.Notify.Listen(ctx, a.Bus) },
		a.Notify.Run,
	}
}
