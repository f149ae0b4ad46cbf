package notify

import (
	"context"
	"log/slog"
	"time"

	"kestrel/domain"
)

// FillVenue is an exchange whose fills are made outside Kestrel's store
// (Coinbase): no Kestrel commit holds a fill there, so its notification
// cannot ride one. FollowFills records instead which fills it has queued.
type FillVenue interface {
	// Name keys the venue's checkpoint and fill ids.
	Name() string
	// Updates are the venue's order changes as it sees them, in order,
	// none dropped (domain.Exchange.Updates).
	Updates(ctx context.Context) <-chan domain.TradeUpdate
	// FillUpdates lists the fills made at or after since, oldest first,
	// each as the update of its order.
	FillUpdates(ctx context.Context, since time.Time) ([]domain.TradeUpdate, error)
}

// FillWindow is how long a venue's fill is news. A first start looks back
// this far, a restart after a longer stop no further: older fills are not
// notified (they are in the trade history). It matches the outbox's retry
// window and the Coinbase adapter's own horizon (coinbase.DefaultSeenFor).
const FillWindow = 24 * time.Hour

// fillSlack is how far before its checkpoint each catch-up looks again, for
// a fill the venue lists late; fills seen twice are queued once.
const fillSlack = 5 * time.Minute

// catchUpEvery spaces the catch-ups after the first: they keep the
// checkpoint near now and queue whatever the live path missed.
const catchUpEvery = time.Minute

// FollowFills queues the notification of each of v's fills once: the fills
// v reports as they happen, and, at start and every minute, those it lists
// since the stored checkpoint (what a crash between seeing a fill and
// queuing it, a stop, or a lost update left out). Each is committed with
// the record that it was queued (NotifyStore.CommitVenueFills), so one seen
// twice, by a resync and the user channel or by two instances, is queued
// once. Run it where the venue runs (the cluster's leader), until ctx ends.
func (s *Service) FollowFills(ctx context.Context, v FillVenue) {
	ups := v.Updates(ctx) // before the first catch-up: no fill falls between the two
	s.catchUp(ctx, v)
	t := time.NewTicker(catchUpEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case u, ok := <-ups:
			if !ok {
				return
			}
			if _, err := s.CommitFills(ctx, v.Name(), drainUpdates(u, ups)); err != nil && ctx.Err() == nil {
				slog.Warn("fill notifications not queued; the next catch-up queues them", "venue", v.Name(), "err", err, "component", "notify")
			}
		case <-t.C:
			s.catchUp(ctx, v)
		}
	}
}

func (s *Service) catchUp(ctx context.Context, v FillVenue) {
	if _, err := s.CatchUpFills(ctx, v); err != nil && ctx.Err() == nil {
		slog.Warn("fill notifications: catching up failed; will retry", "venue", v.Name(), "err", err, "component", "notify")
	}
}

// drainUpdates is first and whatever else is waiting behind it.
func drainUpdates(first domain.TradeUpdate, ch <-chan domain.TradeUpdate) []domain.TradeUpdate {
	out := []domain.TradeUpdate{first}
	for {
		select {
		case u, ok := <-ch:
			if !ok {
				return out
			}
			out = append(out, u)
		default:
			return out
		}
	}
}

// CatchUpFills queues the fills v lists since its checkpoint (less
// fillSlack; a first start: FillWindow back) that were not queued, and
// moves the checkpoint to the time of the listing, in one transaction. It
// returns how many it queued.
func (s *Service) CatchUpFills(ctx context.Context, v FillVenue) (int, error) {
	now := s.clock.Now()
	mark, err := s.store.VenueFillMark(ctx, v.Name())
	if err != nil {
		return 0, err
	}
	since := mark.Add(-fillSlack)
	if floor := now.Add(-FillWindow); mark.IsZero() || since.Before(floor) {
		since = floor
	}
	ups, err := v.FillUpdates(ctx, since)
	if err != nil {
		return 0, err
	}
	return s.commitFills(ctx, v.Name(), ups, now)
}

// CommitFills queues the events of the fills among ups not queued before.
func (s *Service) CommitFills(ctx context.Context, venue string, ups []domain.TradeUpdate) (int, error) {
	return s.commitFills(ctx, venue, ups, time.Time{})
}

// commitFills commits the events of ups' fills, each once, and moves the
// venue's checkpoint to mark (zero: leaves it). Fills older than
// FillWindow are history, and the record of them is dropped: nothing looks
// that far back again.
func (s *Service) commitFills(ctx context.Context, venue string, ups []domain.TradeUpdate, mark time.Time) (int, error) {
	now := s.clock.Now()
	horizon := now.Add(-FillWindow)
	var fills []domain.VenueFill
	for _, u := range ups {
		if u.Fill == nil || u.Fill.ID == "" {
			continue
		}
		made := u.Fill.Time
		if made.IsZero() {
			made = now
		}
		if made.Before(horizon) {
			continue
		}
		n, ok := s.Committed(u) // an owner who routes no order event gets none
		if !ok {
			continue
		}
		n.ID = "evt_" + venue + "_" + u.Fill.ID // one fill, one event, whoever saw it
		fills = append(fills, domain.VenueFill{ID: u.Fill.ID, Time: made, Event: n})
	}
	if len(fills) == 0 && mark.IsZero() {
		return 0, nil
	}
	n, err := s.store.CommitVenueFills(ctx, domain.VenueFills{Venue: venue, Fills: fills, Mark: mark, Forget: horizon.Add(-fillSlack)})
	if n > 0 {
		s.WakeRouting()
	}
	return n, err
}
