package app

import (
	"strings"
	"testing"
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
