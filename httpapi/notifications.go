package httpapi

import (
	"log/slog"
	"net/http"

	"kestrel/domain"
	"kestrel/notify"
)

func (s *Server) notificationRoutes() {
	s.api("GET /api/notifications/channels", signedIn, s.listNotifyChannels)
	s.api("POST /api/notifications/channels", signedIn, s.createNotifyChannel)
	s.api("PATCH /api/notifications/channels/{id}", signedIn, s.updateNotifyChannel)
	s.api("DELETE /api/notifications/channels/{id}", signedIn, s.deleteNotifyChannel)
	s.api("POST /api/notifications/channels/{id}/test", signedIn, s.testNotifyChannel)
	s.api("GET /api/notifications/routing", signedIn, s.getNotifyRouting)
	s.api("PUT /api/notifications/routing", signedIn, s.putNotifyRouting)
	s.api("GET /api/notifications/deliveries", signedIn, s.listNotifyDeliveries)
	s.api("GET /api/notifications/push/key", signedIn, s.pushKey)
	if s.d.Digest != nil {
		s.api("GET /api/notifications/digest", signedIn, s.previewDigest)
	}
}

// previewDigest is the daily digest for the 24 hours before now, as it
// would be sent (the account is the platform's, as on the dashboard).
func (s *Server) previewDigest(w http.ResponseWriter, r *http.Request) {
	d, err := notify.BuildDigest(r.Context(), s.d.Digest, s.d.Clock.Now().UTC())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, d)
}

// pushKey is the VAPID public key a browser subscribes with
// (applicationServerKey), made the first time anyone asks.
func (s *Server) pushKey(w http.ResponseWriter, r *http.Request) {
	k, err := s.d.Notify.PushKey(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]string{"public_key": k})
}

func (s *Server) listNotifyChannels(w http.ResponseWriter, r *http.Request) {
	l, err := s.d.Notify.Channels(r.Context(), userFrom(r.Context()).ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, l)
}

func (s *Server) createNotifyChannel(w http.ResponseWriter, r *http.Request) {
	var in notify.ChannelInput
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	c, err := s.d.Notify.CreateChannel(r.Context(), userFrom(r.Context()).ID, in)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "notification channel "+c.ID)
	created(w, c)
}

func (s *Server) updateNotifyChannel(w http.ResponseWriter, r *http.Request) {
	var in notify.ChannelInput
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	c, err := s.d.Notify.UpdateChannel(r.Context(), userFrom(r.Context()).ID, r.PathValue("id"), in)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "notification channel "+c.ID)
	ok(w, c)
}

func (s *Server) deleteNotifyChannel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.d.Notify.DeleteChannel(r.Context(), userFrom(r.Context()).ID, id); err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "notification channel "+id)
	ok(w, map[string]string{"id": id, "status": "deleted"})
}

// testNotifyChannel sends a notification.test message now and answers
// what the receiver did (delivered, or failed and why); a test is not retried.
func (s *Server) testNotifyChannel(w http.ResponseWriter, r *http.Request) {
	c, err := s.d.Notify.Channel(r.Context(), userFrom(r.Context()).ID, r.PathValue("id"))
	if err != nil {
		fail(w, r, err)
		return
	}
	d, err := s.d.Notify.SendTest(r.Context(), c)
	if err != nil {
		fail(w, r, err)
		return
	}
	if d.LastError != "" {
		slog.WarnContext(r.Context(), "notification test not delivered", "channel", c.ID, "kind", c.Kind, "owner", c.Owner,
			"err", d.LastError, "request_id", requestID(r.Context()), "component", "notify")
	}
	if userFrom(r.Context()).Role != domain.RoleOperator {
		d = notify.OwnersView(d)
	}
	ok(w, d)
}

// notifyRoutingView is the routing and the catalogue it chooses from.
type notifyRoutingView struct {
	domain.NotifyRouting
	EventTypes []string `json:"event_types"`
}

func (s *Server) getNotifyRouting(w http.ResponseWriter, r *http.Request) {
	rt, err := s.d.Notify.Routing(r.Context(), userFrom(r.Context()).ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, notifyRoutingView{rt, notify.Types})
}

func (s *Server) putNotifyRouting(w http.ResponseWriter, r *http.Request) {
	var in domain.NotifyRouting
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	rt, err := s.d.Notify.SetRouting(r.Context(), userFrom(r.Context()).ID, in)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, notifyRoutingView{rt, notify.Types})
}

// listNotifyDeliveries is the delivery log, newest first: the caller's
// own, or (?scope=all, operators only) every user's, e.g. with
// ?status=failed for everyone's failures.
func (s *Server) listNotifyDeliveries(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	owner := u.ID
	switch scope := r.URL.Query().Get("scope"); scope {
	case "", "mine":
	case "all":
		if u.Role != domain.RoleOperator {
			fail(w, r, domain.Errorf(domain.EForbidden, "Only operators can see every user's deliveries"))
			return
		}
		owner = ""
	default:
		fail(w, r, &domain.Error{Code: domain.EInvalid, Message: "Check the highlighted fields", Fields: map[string]string{"scope": "Use mine or all"}})
		return
	}
	status := r.URL.Query().Get("status")
	switch status {
	case "", domain.NotifyPending, domain.NotifyDelivered, domain.NotifyFailed:
	default:
		fail(w, r, &domain.Error{Code: domain.EInvalid, Message: "Check the highlighted fields", Fields: map[string]string{"status": "Use pending, delivered or failed"}})
		return
	}
	limit, err := intQuery(r, "limit", 100, 1, 500)
	if err != nil {
		fail(w, r, err)
		return
	}
	l, err := s.d.Notify.Deliveries(r.Context(), owner, status, limit)
	if err != nil {
		fail(w, r, err)
		return
	}
	if u.Role != domain.RoleOperator {
		for i := range l {
			l[i] = notify.OwnersView(l[i])
		}
	}
	ok(w, l)
}
