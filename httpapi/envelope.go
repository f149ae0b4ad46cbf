// Package httpapi is Kestrel's REST API: routes, the JSON envelope, middleware
// and the one error-to-status mapper.
package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"kestrel/domain"
)

// envelope is every API response: {success, data, error}.
type envelope struct {
	Success bool       `json:"success"`
	Data    any        `json:"data,omitempty"`
	Error   *errorBody `json:"error,omitempty"`
}

type errorBody struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
	// Gates are a refused promotion's gates, each with the figure it
	// required and the one seen (409 from the promotion routes).
	Gates []domain.Gate `json:"gates,omitempty"`
}

// statusFor is the one place an error code becomes an HTTP status.
func statusFor(code string) int {
	switch code {
	case domain.EInvalid:
		return http.StatusBadRequest
	case domain.EUnauthorized:
		return http.StatusUnauthorized
	case domain.EForbidden:
		return http.StatusForbidden
	case domain.ENotFound:
		return http.StatusNotFound
	case domain.EConflict:
		return http.StatusConflict
	case domain.ETooLarge:
		return http.StatusRequestEntityTooLarge
	case domain.ERejected:
		return http.StatusUnprocessableEntity
	case domain.ETooMany:
		return http.StatusTooManyRequests
	case domain.EUnavailable:
		return http.StatusServiceUnavailable
	case domain.ENoSpace:
		return http.StatusInsufficientStorage
	case domain.EUnknownOutcome:
		return http.StatusGatewayTimeout
	default:
		return http.StatusInternalServerError
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// ok writes a success envelope around data.
func ok(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusOK, envelope{Success: true, Data: data})
}

// answer writes a call's result: data, or the error through fail.
func answer(w http.ResponseWriter, r *http.Request, data any, err error) {
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, data)
}

// created writes a 201 success envelope around data.
func created(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusCreated, envelope{Success: true, Data: data})
}

// badGateway marks a failure of the service a request asked on the
// caller's behalf (the AI provider's answer): answered 502, its code and
// message unchanged.
type badGateway struct{ err *domain.Error }

func (b badGateway) Error() string { return b.err.Error() }
func (b badGateway) Unwrap() error { return b.err }

// gateRefusal is a promotion refused by its gates: a 409 conflict that
// lists each gate with the figure it required and the one seen.
type gateRefusal struct {
	err   *domain.Error
	gates []domain.Gate
}

func (g gateRefusal) Error() string { return g.err.Error() }
func (g gateRefusal) Unwrap() error { return g.err }

// fail writes the error envelope. Internal errors are logged with their detail
// and shown to the client only as a generic message.
func fail(w http.ResponseWriter, r *http.Request, err error) {
	failWith(w, r, err, nil)
}

// failWith is fail with data beside the error: what the request recorded
// or checked before it failed (the stored AI decision, the settings and
// their validation). Every error answer goes through here.
func failWith(w http.ResponseWriter, r *http.Request, err error, data any) {
	var de *domain.Error
	if !errors.As(err, &de) {
		slog.ErrorContext(r.Context(), "request failed", "err", err, "method", r.Method, "path", r.URL.Path, "request_id", requestID(r.Context()))
		de = &domain.Error{Code: domain.EInternal, Message: "Internal server error"}
	} else if de.Cause != nil { // e.g. a 503: the client sees the message, the operator why
		slog.WarnContext(r.Context(), "request refused", "code", de.Code, "err", de.Cause, "method", r.Method, "path", r.URL.Path, "request_id", requestID(r.Context()))
	}
	status := statusFor(de.Code)
	if errors.As(err, new(badGateway)) {
		status = http.StatusBadGateway
	}
	if status == http.StatusUnauthorized {
		challenge(w, r)
	}
	body := &errorBody{Code: de.Code, Message: de.Message, Fields: de.Fields}
	var gr gateRefusal
	if errors.As(err, &gr) {
		body.Gates = gr.gates
	}
	writeJSON(w, status, envelope{Data: data, Error: body})
}

// realm is the realm of the API's bearer challenge.
const realm = "kestrel"

// challenge sets the bearer challenge every 401 carries (RFC 9110 section
// 11.6.1, RFC 6750 section 3), unless the handler set its own (/metrics
// has its realm). A request that sent a bearer token is told it was not
// accepted.
func challenge(w http.ResponseWriter, r *http.Request) {
	if w.Header().Get("WWW-Authenticate") != "" {
		return
	}
	c := `Bearer realm="` + realm + `"`
	if bearerToken(r) != "" {
		c += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", c)
}

// decode reads a JSON body into dst, rejecting unknown fields, trailing data
// and bodies over the size limit with a 400 (413 for size).
func decode(r *http.Request, dst any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return domain.Errorf(domain.EInvalid, "Request body must contain a single JSON object")
	}
	return nil
}

func decodeError(err error) error {
	var maxErr *http.MaxBytesError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &maxErr):
		return domain.Errorf(domain.ETooLarge, "Request body too large (limit %d bytes)", maxErr.Limit)
	case errors.Is(err, io.EOF):
		return domain.Errorf(domain.EInvalid, "Request body is empty")
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return domain.Errorf(domain.EInvalid, "Request body is not valid JSON")
	case errors.As(err, &typeErr):
		return &domain.Error{Code: domain.EInvalid, Message: "Field " + typeErr.Field + " has the wrong type",
			Fields: map[string]string{typeErr.Field: "Wrong type"}}
	default:
		// e.g. `json: unknown field "x"`
		return domain.Errorf(domain.EInvalid, "Invalid request body: %s", trimJSONPrefix(err.Error()))
	}
}

func trimJSONPrefix(s string) string {
	const p = "json: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
