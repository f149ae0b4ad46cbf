package trading

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"kestrel/domain"
)

// Stop is the emergency stop. It halts automation and new risk: orders that
// add exposure are refused and resting ones (BUY limits and BUY stops) are
// cancelled. Protective stop-loss SELLs and other SELLs stay armed, and
// SELLs that reduce a position are still accepted. It returns the orders it
// cancelled.
func (s *Service) Stop(ctx context.Context, by, reason string) ([]domain.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if reason == "" {
		reason = "Emergency stop pressed"
	}
	h := HaltState{Active: true, By: by, At: s.d.Clock.Now(), Reason: reason}
	if err := s.saveHalt(ctx, h); err != nil {
		return nil, err
	}
	cancelled, err := s.cancelExposure(ctx)
	msg := fmt.Sprintf("Trading halted by %s; %d order(s) that added exposure cancelled; protective stops stay armed", by, len(cancelled))
	if err != nil {
		msg += "; some orders could not be cancelled: " + err.Error()
	}
	s.d.Alert(ctx, "critical", haltAlert, msg)
	slog.Warn("emergency stop", "by", by, "cancelled", len(cancelled), "err", err)
	return cancelled, err
}

// haltAlert is the title of the emergency stop's alert.
const haltAlert = "Emergency stop active"

// Resume lifts the emergency stop and resolves its alert, so no screen goes
// on saying the stop is active.
func (s *Service) Resume(ctx context.Context, by string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.saveHalt(ctx, HaltState{}); err != nil {
		return err
	}
	s.d.ResolveAlert(ctx, haltAlert, by)
	s.d.Alert(ctx, "medium", "Trading resumed", "Emergency stop lifted by "+by)
	slog.Info("trading resumed", "by", by)
	return nil
}

func (s *Service) saveHalt(ctx context.Context, h HaltState) error {
	b, _ := json.Marshal(h)
	if err := s.d.Store.PutValue(ctx, kvHalt, string(b)); err != nil {
		return err
	}
	s.hmu.Lock()
	s.halt = h
	s.hmu.Unlock()
	return nil
}

// cancelExposure cancels every live BUY order.
func (s *Service) cancelExposure(ctx context.Context) ([]domain.Order, error) {
	live, err := s.liveOrders(ctx)
	if err != nil {
		return nil, err
	}
	var cancelled []domain.Order
	var errs []string
	for _, o := range live {
		if o.Side != domain.Buy {
			continue
		}
		c, err := s.d.Exchange.CancelOrder(ctx, o.ID)
		if err != nil {
			errs = append(errs, o.ID+": "+domain.ErrorMessage(err))
			continue
		}
		cancelled = append(cancelled, c)
	}
	if len(errs) > 0 {
		return cancelled, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return cancelled, nil
}
