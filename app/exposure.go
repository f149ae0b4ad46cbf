package app

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"time"
)

// loopbackOnly reports whether addr (host:port) listens on loopback
// addresses only. An empty host, an unspecified address (0.0.0.0, ::) or a
// name that resolves to anything else listens beyond: the safe answer when
// in doubt is "exposed".
func loopbackOnly(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if host == "localhost" {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return false
		}
	}
	return true
}

// tlsConfig loads the configured certificate, or returns nil without one.
func tlsConfig(cfg Config) (*tls.Config, error) {
	if cfg.TLSCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("load TLS certificate and key: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// warnIfExposed says in the log what an exposed instance lacks.
func warnIfExposed(cfg Config, exposed, withTLS bool) {
	if !exposed {
		return
	}
	if !withTLS {
		slog.Warn("listening beyond loopback without TLS: passwords and session tokens cross the network in clear unless a TLS proxy is in front "+
			"(use --tls-cert and --tls-key, or see docs/SECURITY.md)", "addr", cfg.Addr, "component", "security")
	}
	if cfg.MetricsToken == "" {
		slog.Info("GET /metrics is closed because the server listens beyond loopback; set --metrics-token to scrape it", "component", "security")
	}
}
