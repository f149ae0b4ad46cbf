package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"kestrel/auth"
	"kestrel/domain"
	"kestrel/settings"
)

func (s *Server) settingsRoutes() {
	s.api("GET /api/settings", signedIn, s.getSettings)
	s.api("PUT /api/settings", signedIn, s.putSettings)
	s.api("POST /api/settings/validate", signedIn, s.validateSettings)
	s.api("POST /api/settings/reset", signedIn, s.resetSettings)
	s.api("GET /api/settings/export", signedIn, s.exportSettings)
	s.api("POST /api/settings/export", operatorOnly, s.exportSecrets)
	s.api("POST /api/settings/import", signedIn, s.importSettings)
	s.api("GET /api/settings/options", signedIn, s.settingsOptions)
	s.api("POST /api/settings/test-connection", operatorOnly, s.testConnection)
}

// settingsReply is what every settings call answers with.
type settingsReply struct {
	Settings   settings.Settings `json:"settings"`
	Validation settings.Result   `json:"validation"`
	Effects    map[string]string `json:"effects"`
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request, st settings.Settings, res settings.Result, err error) {
	if err != nil {
		if domain.ErrorCode(err) == domain.EInvalid && !res.IsValid && res.Errors != nil {
			// Keep the full validation result so the screen can list errors and warnings.
			failWith(w, r, err, settingsReply{Settings: st, Validation: res, Effects: s.d.SettingsEffects})
			return
		}
		fail(w, r, err)
		return
	}
	ok(w, settingsReply{Settings: st, Validation: res, Effects: s.d.SettingsEffects})
}

func (s *Server) getSettings(w http.ResponseWriter, r *http.Request) {
	st, err := s.d.Settings.Get(r.Context(), userFrom(r.Context()).ID)
	s.reply(w, r, st, settings.Validate(&st), err)
}

// decodeSettings reads a settings document over the user's current one, so
// omitted keys keep their values.
func (s *Server) decodeSettings(r *http.Request) (settings.Settings, error) {
	cur, err := s.d.Settings.Get(r.Context(), userFrom(r.Context()).ID)
	if err != nil {
		return cur, err
	}
	if err := decode(r, &cur); err != nil {
		return cur, err
	}
	return cur, nil
}

func (s *Server) putSettings(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	prev, err := s.d.Settings.Get(r.Context(), u.ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	// The document over the current one, and optionally the operator's
	// password: with it, a stored secret follows a change of its endpoint
	// (settings.SaveConfirmed); without it, the secret is cleared.
	next := prev
	in := struct {
		*settings.Settings
		Password string `json:"password,omitempty"`
	}{Settings: &next}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	save := s.d.Settings.Save
	if in.Password != "" {
		if err := s.d.Auth.VerifyPassword(r.Context(), u, clientAddr(r), in.Password); err != nil {
			if auth.IsRepeatRefusal(err) {
				skipAudit(r.Context())
			}
			noteAudit(r.Context(), "", "", "settings save refused: wrong password")
			fail(w, r, err)
			return
		}
		save = s.d.Settings.SaveConfirmed
	}
	st, res, err := save(r.Context(), u, next)
	if err == nil {
		noteAudit(r.Context(), "", "", "saved settings"+venueSwitch(prev, st)+endpointChanges(prev, st, in.Password != ""))
	}
	s.reply(w, r, st, res, err)
}

// endpointChanges names a change of an address a stored secret goes to
// ("; AI endpoint openai api.openai.com -> openai 10.0.0.5:8080 (API token
// cleared)"), so the audit log shows where a secret could now be sent.
func endpointChanges(prev, next settings.Settings, confirmed bool) string {
	var out string
	secret := func(before, after, name string) string {
		switch {
		case before == "" && after == "":
			return ""
		case after == "":
			return " (" + name + " cleared)"
		case after != before:
			return " (new " + name + ")"
		case confirmed:
			return " (" + name + " kept: password given)"
		}
		return ""
	}
	pa, na := prev.API.AI, next.API.AI
	if pa.Provider != na.Provider || pa.BaseURL != na.BaseURL {
		out += "; AI endpoint " + aiEndpoint(pa) + " -> " + aiEndpoint(na) + secret(pa.APIToken, na.APIToken, "API token")
	}
	pn, nn := prev.System.Notifications, next.System.Notifications
	if pn.SMTPHost != nn.SMTPHost {
		out += "; SMTP host " + orNone(pn.SMTPHost) + " -> " + orNone(nn.SMTPHost) + secret(pn.SMTPPassword, nn.SMTPPassword, "SMTP password")
	}
	return out
}

// aiEndpoint is the AI provider and the host of its base URL, if any.
func aiEndpoint(a settings.AIProvider) string {
	p := orNone(a.Provider)
	if a.BaseURL == "" {
		return p
	}
	if u, err := url.Parse(a.BaseURL); err == nil && u.Host != "" {
		return p + " " + u.Host
	}
	return p + " " + a.BaseURL
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// venueSwitch names a change of where prices come from or where orders go
// ("; market data replay -> coinbase"), so the audit log shows the switch
// itself, not only that settings were saved.
func venueSwitch(prev, next settings.Settings) string {
	var out string
	if a, b := prev.API.MarketData.Source, next.API.MarketData.Source; a != b {
		out += "; market data " + a + " -> " + b
	}
	if a, b := prev.API.Exchange.Provider, next.API.Exchange.Provider; a != b {
		out += "; venue " + a + " -> " + b
	}
	return out
}

func (s *Server) validateSettings(w http.ResponseWriter, r *http.Request) {
	next, err := s.decodeSettings(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, settings.Validate(&next))
}

func (s *Server) resetSettings(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Section string `json:"section"`
	}
	if r.ContentLength != 0 {
		if err := decode(r, &in); err != nil {
			fail(w, r, err)
			return
		}
	}
	st, res, err := s.d.Settings.Reset(r.Context(), userFrom(r.Context()), in.Section)
	if err == nil {
		noteAudit(r.Context(), "", "", "reset settings "+in.Section)
	}
	s.reply(w, r, st, res, err)
}

func (s *Server) exportSettings(w http.ResponseWriter, r *http.Request) {
	if withSecrets, _ := strconv.ParseBool(r.URL.Query().Get("include_secrets")); withSecrets {
		fail(w, r, fieldErr("include_secrets", "Secrets are exported only by POST /api/settings/export with your password (operators)"))
		return
	}
	f, err := s.d.Settings.Export(r.Context(), userFrom(r.Context()), false)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, f)
}

// importSettings accepts the exported file ({settings, exportDate, version,
// checksum}) and saves its settings section through the normal validation.
// A secret the file leaves blank or masked keeps its stored value.
func (s *Server) importSettings(w http.ResponseWriter, r *http.Request) {
	var raw struct {
		Settings   json.RawMessage `json:"settings"`
		ExportDate string          `json:"exportDate"`
		Version    string          `json:"version"`
		Checksum   string          `json:"checksum"`
	}
	if err := decode(r, &raw); err != nil || len(raw.Settings) == 0 || raw.Settings[0] != '{' {
		fail(w, r, domain.Errorf(domain.EInvalid, "Invalid settings file format"))
		return
	}
	cur, err := s.d.Settings.Get(r.Context(), userFrom(r.Context()).ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	prev := cur
	// A file from an older build may hold settings no longer offered:
	// they are dropped; any other unknown key makes the file invalid.
	doc, err := settings.DropRetired(raw.Settings)
	if err != nil {
		fail(w, r, domain.Errorf(domain.EInvalid, "Invalid settings file format"))
		return
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cur); err != nil {
		fail(w, r, domain.Errorf(domain.EInvalid, "Invalid settings file format"))
		return
	}
	s.d.Settings.KeepHalt(&cur)
	kept := s.d.Settings.KeepStoredSecrets(&cur)
	st, res, err := s.d.Settings.Save(r.Context(), userFrom(r.Context()), cur)
	if err != nil {
		s.reply(w, r, st, res, err)
		return
	}
	kept = slices.DeleteFunc(kept, res.Cleared) // its endpoint moved: cleared, not kept
	noteAudit(r.Context(), "", "", "imported settings exported "+raw.ExportDate+endpointChanges(prev, st, false))
	ok(w, importReply{settingsReply: settingsReply{Settings: st, Validation: res, Effects: s.d.SettingsEffects}, KeptSecrets: kept})
}

// importReply is an import's answer: the settings as saved and the secrets
// kept from before because the file left them blank or masked.
type importReply struct {
	settingsReply
	KeptSecrets []string `json:"keptSecrets"`
}

func (s *Server) settingsOptions(w http.ResponseWriter, r *http.Request) {
	ok(w, map[string]any{
		"themeModes": settings.ThemeModes, "fontSizes": settings.FontSizes,
		"chartTypes": settings.ChartTypes, "timeframes": settings.Timeframes,
		"currencies": settings.Currencies, "decimalPlaces": settings.DecimalChoices, "dateFormats": settings.DateFormats,
		"timeFormats": settings.TimeFormats, "separators": settings.Separators, "timezones": settings.Timezones,
		"logLevels": settings.LogLevels, "aiModels": settings.AIModels,
		"orderTypes": settings.OrderTypes, "exchangeProviders": settings.ExchangeKinds,
		"marketSources": settings.MarketSources, "aiProviders": settings.AIKinds,
	})
}

// testConnection tries a provider with the entered settings (or, where the
// entry is the mask, the stored secret). An exchange is asked for its
// accounts with the entered key (exchangeConnection); the AI provider is
// asked a real question (aiConnection).
func (s *Server) testConnection(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Provider string          `json:"provider"` // exchange | ai
		Settings json.RawMessage `json:"settings"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	cur, err := s.d.Settings.Get(r.Context(), userFrom(r.Context()).ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	api := cur.API
	if len(in.Settings) > 0 && string(in.Settings) != "null" {
		if err := json.Unmarshal(in.Settings, &api); err != nil {
			fail(w, r, fieldErr("settings", "Settings must be the api section"))
			return
		}
	}
	switch in.Provider {
	case "exchange":
		if api.Exchange.Provider == "sandbox" || api.Exchange.Provider == "" {
			ok(w, connection{"sandbox", "Connected", "The built-in sandbox exchange is running"})
			return
		}
		ok(w, s.exchangeConnection(r.Context(), api.Exchange))
	case "ai":
		c, err := s.aiConnection(r.Context(), api.AI)
		if err != nil {
			fail(w, r, err)
			return
		}
		ok(w, c)
	default:
		fail(w, r, fieldErr("provider", "Provider must be exchange or ai"))
	}
}

// connection is a connection test's answer.
type connection struct {
	Provider string `json:"provider"`
	Status   string `json:"status"` // Connected | Failed
	Message  string `json:"message"`
}
