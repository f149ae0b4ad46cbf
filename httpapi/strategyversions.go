package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"kestrel/strategy"
)

// Strategy versions, in the spec's /strategy/<what>/{name} style: every
// saved configuration is an immutable, numbered version; saving makes the
// new one active and activating an older one rolls back (package strategy).
func (s *Server) strategyVersionRoutes() {
	s.api("GET /api/strategy/versions/{name}", signedIn.withToken(tokenRead), s.strategyVersions)
	s.api("POST /api/strategy/versions/{name}", operatorOnly, s.saveStrategyVersion)
	s.api("GET /api/strategy/versions/{name}/{version}", signedIn.withToken(tokenRead), s.strategyVersion)
	s.api("POST /api/strategy/versions/{name}/{version}/activate", operatorOnly, s.activateStrategyVersion)
}

func (s *Server) strategyVersions(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	vs, err := s.d.Strategies.Versions(r.Context(), name)
	if err != nil {
		fail(w, r, err)
		return
	}
	c, err := s.d.Strategies.Get(name)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"strategy": name, "active_version": c.Version, "versions": vs, "count": len(vs)})
}

// versionParam reads {version}: a positive whole number.
func versionParam(r *http.Request) (int, error) {
	n, err := strconv.Atoi(r.PathValue("version"))
	if err != nil || n < 1 {
		return 0, fieldErr("version", "Version must be a positive whole number")
	}
	return n, nil
}

func (s *Server) strategyVersion(w http.ResponseWriter, r *http.Request) {
	n, err := versionParam(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	v, err := s.d.Strategies.VersionOf(r.Context(), r.PathValue("name"), n)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, v)
}

// saveStrategyVersion stores {params, note, parent} as a new version and
// activates it: params in the configuration's own shape laid over the
// parent version (the active one when parent is omitted or 0).
func (s *Server) saveStrategyVersion(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Params json.RawMessage `json:"params"`
		Note   string          `json:"note"`
		Parent int             `json:"parent"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	name := r.PathValue("name")
	c, err := s.d.Strategies.SaveVersion(r.Context(), name, in.Params, strategy.Meta{By: userFrom(r.Context()).Email, Note: in.Note, Parent: in.Parent})
	if err != nil {
		fail(w, r, err)
		return
	}
	v, err := s.d.Strategies.VersionOf(r.Context(), name, c.Version)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("saved version %d of strategy %s (from version %d)", c.Version, name, v.Parent))
	writeJSON(w, http.StatusCreated, envelope{Success: true, Data: map[string]any{"version": v, "config": c}})
}

// activateStrategyVersion makes a stored version the running configuration
// (roll back or forward); nothing is rewritten.
func (s *Server) activateStrategyVersion(w http.ResponseWriter, r *http.Request) {
	n, err := versionParam(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	name := r.PathValue("name")
	prev, err := s.d.Strategies.Get(name)
	if err != nil {
		fail(w, r, err)
		return
	}
	c, err := s.d.Strategies.Activate(r.Context(), name, n)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", fmt.Sprintf("activated version %d of strategy %s (was version %d)", n, name, prev.Version))
	ok(w, map[string]any{"strategy": name, "active_version": c.Version, "previous_version": prev.Version, "config": c})
}
