package httpapi

import (
	"context"
	"net/http"
	"time"

	"kestrel/httpapi/openapi"
)

type healthReport struct {
	Status        string            `json:"status"`
	Checks        map[string]string `json:"checks"`
	UptimeSeconds int64             `json:"uptime_seconds"`
	Timestamp     time.Time         `json:"timestamp"`
}

// health answers without a token: load balancers and the navigation's
// 'System Online' indicator poll it.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	rep := healthReport{Status: "healthy", Checks: map[string]string{"database": "healthy"}, Timestamp: s.d.Clock.Now()}
	if err := s.d.Store.Ping(ctx); err != nil {
		logError(ctx, "health: database ping failed", err)
		rep.Status, rep.Checks["database"] = "unhealthy", "unhealthy"
	}
	rep.UptimeSeconds = int64(s.d.Clock.Now().Sub(s.d.Started).Seconds())
	ok(w, rep)
}

func (s *Server) version(w http.ResponseWriter, r *http.Request) {
	ok(w, s.d.Build)
}

// openAPI serves the API's own description (public: it documents, it grants nothing).
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(openapi.JSON)
}
