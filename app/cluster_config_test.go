package app

import (
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/events"
)

func TestClusterConfigValidation(t *testing.T) {
	pg := "postgres://kestrel@db:5432/kestrel"
	for _, c := range []struct {
		name    string
		change  func(*Config)
		wantErr string
	}{
		{"one process needs no NATS", func(c *Config) {}, ""},
		{"cluster on PostgreSQL", func(c *Config) { c.DatabaseURL, c.NATSURL = pg, "nats://nats:4222" }, ""},
		{"cluster on SQLite", func(c *Config) { c.NATSURL = "nats://nats:4222" }, "needs a PostgreSQL database URL"},
		{"subject-breaking cluster name", func(c *Config) { c.DatabaseURL, c.NATSURL, c.ClusterName = pg, "nats://nats:4222", "a b" }, "cluster name"},
		{"odd instance id", func(c *Config) { c.DatabaseURL, c.NATSURL, c.InstanceID = pg, "nats://nats:4222", "web 1" }, "instance id"},
		{"tiny forward timeout", func(c *Config) { c.DatabaseURL, c.NATSURL, c.ForwardTimeout = pg, "nats://nats:4222", 0 }, "forward timeout"},
	} {
		cfg := Defaults()
		c.change(&cfg)
		err := cfg.Validate()
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want one about %q", c.name, err, c.wantErr)
		}
	}
}

// TestFollowerReloadsThePeakOnFillsOnly: a burst of trade updates makes a
// follower read the portfolio history again only when one of them is a
// fill; resting and cancelled orders move no value.
func TestFollowerReloadsThePeakOnFillsOnly(t *testing.T) {
	upd := func(fill bool) events.Event {
		u := domain.TradeUpdate{Order: domain.Order{ID: "o"}}
		if fill {
			u.Fill = &domain.Fill{ID: "f"}
		}
		return events.Event{Topic: events.TopicTradeUpdate, Data: u}
	}
	for _, c := range []struct {
		name  string
		first events.Event
		rest  []events.Event
		want  bool
	}{
		{"one resting order", upd(false), nil, false},
		{"resting orders", upd(false), []events.Event{upd(false), upd(false)}, false},
		{"a fill first", upd(true), []events.Event{upd(false)}, true},
		{"a fill last", upd(false), []events.Event{upd(false), upd(true)}, true},
		{"an update of another shape", events.Event{Data: "?"}, nil, true},
	} {
		ch := make(chan events.Event, 8)
		for _, e := range c.rest {
			ch <- e
		}
		if got := drainFills(c.first, ch); got != c.want || len(ch) != 0 {
			t.Errorf("%s: filled %v with %d left queued, want %v and none", c.name, got, len(ch), c.want)
		}
	}
}
