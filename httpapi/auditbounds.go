package httpapi

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"kestrel/domain"
)

// Audit text comes partly from unauthenticated requests (a failed login's
// email), so every field is bounded and printable: an entry is at most a
// couple of kilobytes whatever was sent.
const (
	maxAuditActor  = 254 // the longest email address
	maxAuditAction = 200
	maxAuditDetail = 500
	maxAuditRemote = 64
)

// boundAudit is e with its text fields sanitized and truncated.
func boundAudit(e domain.AuditEntry) domain.AuditEntry {
	e.Actor = auditText(e.Actor, maxAuditActor)
	e.Action = auditText(e.Action, maxAuditAction)
	e.Detail = auditText(e.Detail, maxAuditDetail)
	e.Remote = auditText(e.Remote, maxAuditRemote)
	e.RequestID = auditText(e.RequestID, maxAuditRemote)
	return e
}

// auditText replaces control characters and invalid UTF-8 (a forged line
// break in a log viewer) and cuts s to at most max bytes, marking the cut.
func auditText(s string, max int) string {
	clean := strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
	if len(clean) <= max {
		return clean
	}
	const mark = "…(truncated)"
	cut := max - len(mark)
	for cut > 0 && !utf8.RuneStart(clean[cut]) {
		cut--
	}
	return clean[:cut] + mark
}

// skipAudit leaves this request out of the audit log: a repeated
// rate-limit refusal, whose first refusal in the window was recorded.
func skipAudit(ctx context.Context) {
	if n, ok := ctx.Value(keyAudit).(*auditNote); ok {
		n.skip = true
	}
}
