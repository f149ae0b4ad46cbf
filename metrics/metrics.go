// Package metrics exposes Kestrel's Prometheus metrics on their own registry.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors the application updates.
type Metrics struct {
	Registry       *prometheus.Registry
	Requests       *prometheus.CounterVec
	Latency        *prometheus.HistogramVec
	Orders         *prometheus.CounterVec
	Fills          *prometheus.CounterVec
	DatabaseErrors prometheus.Counter
}

// New registers every collector; values read from live state at scrape time
// are added with Gauge and Counter.
func New() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kestrel_http_requests_total", Help: "HTTP requests by route pattern, method and status code."},
			[]string{"route", "method", "code"}),
		Latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "kestrel_http_request_duration_seconds", Help: "HTTP request latency by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}, []string{"route", "method"}),
		Orders: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kestrel_orders_total", Help: "Order state changes by type and resulting status."},
			[]string{"type", "status"}),
		Fills: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kestrel_fills_total", Help: "Fills by symbol and side."},
			[]string{"symbol", "side"}),
		DatabaseErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "kestrel_database_errors_total", Help: "Failed database health checks and writes."}),
	}
	r.MustRegister(m.Requests, m.Latency, m.Orders, m.Fills, m.DatabaseErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Gauge registers a level (it may go up and down) read from f at scrape time.
func (m *Metrics) Gauge(name, help string, f func() float64) {
	m.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
}

// Counter registers a count read from f at scrape time. f must never
// decrease while the process runs: Prometheus reads a decrease as a restart.
func (m *Metrics) Counter(name, help string, f func() float64) {
	m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

// Observe records one request. route is the mux pattern, never the raw path,
// so label cardinality stays bounded.
func (m *Metrics) Observe(route, method string, code int, d time.Duration) {
	m.Requests.WithLabelValues(route, method, strconv.Itoa(code)).Inc()
	m.Latency.WithLabelValues(route, method).Observe(d.Seconds())
}
