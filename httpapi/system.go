package httpapi

import (
	"context"
	"net/http"
	"time"

	"kestrel/domain"
	"kestrel/httpapi/openapi"
)

type healthReport struct {
	Status        string            `json:"status"`
	Checks        map[string]string `json:"checks"`
	UptimeSeconds int64             `json:"uptime_seconds"`
	Timestamp     time.Time         `json:"timestamp"`
}

// health answers without a token: load balancers and the navigation's
// 'System Online' indicator poll it. It says no more than the status words:
// why is for signed-in users (/system/status).
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	db, _ := s.databaseHealth(ctx, "health")
	rep := healthReport{Status: db, Checks: map[string]string{"database": db}, Timestamp: s.d.Clock.Now()}
	rep.UptimeSeconds = int64(s.d.Clock.Now().Sub(s.d.Started).Seconds())
	ok(w, rep)
}

// databaseHealth grades the database: unhealthy when it does not answer a
// ping, degraded while a store that can refuse writes and still answer
// reads (SQLite on a full or read-only disk) has its writes failing, with
// that fault. Each poll does not log the fault: the refused writes did.
func (s *Server) databaseHealth(ctx context.Context, caller string) (string, *domain.WriteFault) {
	if err := s.d.Store.Ping(ctx); err != nil {
		logError(ctx, caller+": database ping failed", err)
		return "unhealthy", nil
	}
	if wh, ok := s.d.Store.(domain.WriteHealth); ok {
		if f, failing := wh.WriteFault(); failing {
			return "degraded", &f
		}
	}
	return "healthy", nil
}

func (s *Server) version(w http.ResponseWriter, r *http.Request) {
	ok(w, s.d.Build)
}

// openAPI serves the API's own description (public: it documents, it grants nothing).
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(openapi.JSON)
}
