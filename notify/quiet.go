package notify

import (
	"context"
	"time"
	_ "time/tzdata" // quiet hours name IANA zones; the binary must not depend on the host's zoneinfo

	"kestrel/domain"
)

// Flags are a user's ui.notifications switches as routing reads them.
type Flags struct {
	Trades bool // order events (fills, rejections, protective orders)
	Alerts bool // alert events (emergency stop and resume, risk, strategy, market data, exchange)
	System bool // system alerts, finished backtests, the daily digest
	Email  bool // email channels
	Push   bool // web push channels
}

// AllOn is every switch on (a user who never saved settings has the
// spec's defaults, which the app reads; tests and tools use this).
var AllOn = Flags{Trades: true, Alerts: true, System: true, Email: true, Push: true}

// group is the ui.notifications switch that governs an event type.
func (f Flags) allows(typ string) bool {
	switch typ {
	case OrderFilled, OrderPartiallyFilled, OrderRejected, ProtectiveTriggered:
		return f.Trades
	case EmergencyStop, TradingResumed, RiskLimitReached, StrategyError, MarketStale, ExchangeDisconnected:
		return f.Alerts
	case SystemAlert, BacktestFinished, DailyDigest:
		return f.System
	}
	return true
}

// flags is owner's switches (all on when the app gives none, or on error:
// a settings read that fails must not silence a trader's notifications).
func (s *Service) flags(ctx context.Context, owner string) Flags {
	if s.opt.Flags == nil {
		return AllOn
	}
	f, err := s.opt.Flags(ctx, owner)
	if err != nil {
		return AllOn
	}
	return f
}

// quietUntil is when r's quiet hours around t end, or the zero time when t
// is outside them (or none are set).
func quietUntil(r domain.NotifyRouting, t time.Time) time.Time {
	if r.QuietFrom == "" || r.QuietTo == "" {
		return time.Time{}
	}
	loc, err := time.LoadLocation(r.QuietTimezone)
	if err != nil || r.QuietTimezone == "" {
		loc = time.UTC
	}
	from, err1 := time.Parse("15:04", r.QuietFrom)
	to, err2 := time.Parse("15:04", r.QuietTo)
	if err1 != nil || err2 != nil || r.QuietFrom == r.QuietTo {
		return time.Time{}
	}
	lt := t.In(loc)
	at := func(day time.Time, hm time.Time) time.Time {
		return time.Date(day.Year(), day.Month(), day.Day(), hm.Hour(), hm.Minute(), 0, 0, loc)
	}
	// The quiet period that began most recently at or before t.
	start := at(lt, from)
	if start.After(lt) {
		start = at(lt.AddDate(0, 0, -1), from)
	}
	end := at(start, to)
	if !end.After(start) {
		end = at(start.AddDate(0, 0, 1), to)
	}
	if lt.Before(end) {
		return end
	}
	return time.Time{}
}

// ValidQuietHours says what is wrong with a routing's quiet hours ("" when usable).
func validQuietHours(r domain.NotifyRouting) map[string]string {
	f := map[string]string{}
	if (r.QuietFrom == "") != (r.QuietTo == "") {
		f["quiet_to"] = "Give both ends of the quiet hours, or neither"
	}
	for k, v := range map[string]string{"quiet_from": r.QuietFrom, "quiet_to": r.QuietTo} {
		if _, err := time.Parse("15:04", v); v != "" && (err != nil || len(v) != 5) {
			f[k] = "Use HH:MM, e.g. 22:00"
		}
	}
	if r.QuietFrom != "" && r.QuietFrom == r.QuietTo {
		f["quiet_to"] = "The quiet hours end when they start: leave both empty for none"
	}
	if r.QuietTimezone != "" {
		if _, err := time.LoadLocation(r.QuietTimezone); err != nil {
			f["quiet_timezone"] = "Unknown time zone (use an IANA name, e.g. Europe/Berlin)"
		}
	}
	return f
}
