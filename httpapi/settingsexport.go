package httpapi

import (
	"net/http"

	"kestrel/auth"
)

// exportSecrets is the plaintext export: the exported settings file with
// the exchange key and secret and the AI token in clear. It is a POST (so
// the audit log records it) for operators, who must enter their password
// again: a stolen session alone cannot take the keys away.
func (s *Server) exportSecrets(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Password string `json:"password"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	u := userFrom(r.Context())
	if err := s.d.Auth.VerifyPassword(r.Context(), u, clientAddr(r), in.Password); err != nil {
		if auth.IsRepeatRefusal(err) {
			skipAudit(r.Context())
		}
		noteAudit(r.Context(), "", "", "plaintext settings export refused")
		fail(w, r, err)
		return
	}
	f, err := s.d.Settings.Export(r.Context(), u, true)
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "exported settings with secrets in plaintext (exchange key and secret, AI token)")
	ok(w, f)
}
