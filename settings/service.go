package settings

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"kestrel/domain"
)

const (
	kvPlatform = "settings.platform"
	kvUIPrefix = "settings.ui."
)

// ChangeFunc is told about every saved change of the platform sections.
type ChangeFunc func(ctx context.Context, old, new Settings, by domain.User)

// Service stores settings and tells the running system about changes.
type Service struct {
	kv     domain.KVStore
	sealer *Sealer
	clock  domain.Clock

	mu        sync.RWMutex
	platform  Settings // api, trading, system with plaintext secrets (memory only)
	listeners []ChangeFunc
	// EmergencyStop reports the live halt state, which the settings mirror.
	EmergencyStop func() bool
}

// NewService loads the stored platform settings (or the defaults).
func NewService(ctx context.Context, kv domain.KVStore, sealer *Sealer, clock domain.Clock) (*Service, error) {
	s := &Service{kv: kv, sealer: sealer, clock: clock, platform: Defaults()}
	raw, err := kv.GetValue(ctx, kvPlatform)
	switch {
	case domain.ErrorCode(err) == domain.ENotFound:
		return s, nil
	case err != nil:
		return nil, err
	}
	p := Defaults()
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return nil, fmt.Errorf("stored settings are corrupt: %w", err)
	}
	if err := s.openSecrets(&p); err != nil {
		return nil, err
	}
	s.platform = p
	return s, nil
}

// OnChange registers a listener for platform changes (called after saving).
func (s *Service) OnChange(fn ChangeFunc) { s.listeners = append(s.listeners, fn) }

// Platform returns the current platform settings with plaintext secrets, for
// the server's own use (never for responses).
func (s *Service) Platform() Settings {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.platform
}

// Get returns the settings a user sees: platform sections with secrets masked,
// their own ui section, all merged over defaults.
func (s *Service) Get(ctx context.Context, userID string) (Settings, error) {
	out := s.Platform()
	ui, err := s.userUI(ctx, userID)
	if err != nil {
		return out, err
	}
	out.UI = ui
	if s.EmergencyStop != nil {
		out.Trading.Automation.EmergencyStop = s.EmergencyStop()
	}
	maskSecrets(&out)
	return out, nil
}

func (s *Service) userUI(ctx context.Context, userID string) (UI, error) {
	ui := DefaultUI()
	raw, err := s.kv.GetValue(ctx, kvUIPrefix+userID)
	if domain.ErrorCode(err) == domain.ENotFound {
		return ui, nil
	}
	if err != nil {
		return ui, err
	}
	if err := json.Unmarshal([]byte(raw), &ui); err != nil {
		return DefaultUI(), nil // a corrupt personal section falls back to defaults
	}
	return ui, nil
}

// Save validates next and stores it. Errors block the save (an invalid domain
// error carrying the result); warnings are returned with the saved settings.
// Traders may change only their ui section.
func (s *Service) Save(ctx context.Context, by domain.User, next Settings) (Settings, Result, error) {
	return s.save(ctx, by, next, false)
}

// SaveConfirmed is Save by an operator who gave their password with the
// change: a stored secret follows its endpoint to a new address.
func (s *Service) SaveConfirmed(ctx context.Context, by domain.User, next Settings) (Settings, Result, error) {
	return s.save(ctx, by, next, true)
}

func (s *Service) save(ctx context.Context, by domain.User, next Settings, confirmed bool) (Settings, Result, error) {
	s.mu.Lock()
	old := s.platform
	keptFrom := s.restoreMaskedSecrets(&next, old)
	var dropped []Issue
	if !confirmed {
		dropped = dropMovedSecrets(&next, old, keptFrom)
	}
	next.Version = Version
	if s.EmergencyStop != nil && by.Role != domain.RoleOperator {
		// The halt is shown in the document; a trader echoing it back changes nothing.
		next.Trading.Automation.EmergencyStop = old.Trading.Automation.EmergencyStop
	}
	res := Validate(&next)
	res.Warnings = append(res.Warnings, dropped...)
	if !confirmed && movesTelegramTokens(next, old) {
		res.Errors = append(res.Errors, Issue{Field: "system.notifications.telegramApiUrl", Severity: "error", Message: TelegramMoveMessage})
		res.IsValid = false
	}
	if !res.IsValid {
		s.mu.Unlock()
		return next, res, &domain.Error{Code: domain.EInvalid, Message: "Settings have " + fmt.Sprint(len(res.Errors)) + " error(s)", Fields: issueFields(res.Errors)}
	}
	platformChanged := !samePlatform(old, next)
	if platformChanged && by.Role != domain.RoleOperator {
		s.mu.Unlock()
		return next, res, domain.Errorf(domain.EForbidden, "Only operators can change platform settings (api, trading, system); your UI preferences can be saved on their own")
	}
	now := s.clock.Now().UTC().Format(time.RFC3339)
	if platformChanged {
		next.LastUpdated = now
		if err := s.storePlatform(ctx, next); err != nil {
			s.mu.Unlock()
			return next, res, err
		}
		s.platform = withoutUI(next)
	}
	s.mu.Unlock()
	// The platform change is stored and in force: the running system hears
	// of it now, even when storing the UI part fails below (a retry would
	// find the platform unchanged and tell nobody).
	if platformChanged {
		for _, fn := range s.listeners {
			fn(ctx, old, s.Platform(), by)
		}
	}
	uiJSON, _ := json.Marshal(next.UI)
	if err := s.kv.PutValue(ctx, kvUIPrefix+by.ID, string(uiJSON)); err != nil {
		return next, res, err
	}
	out, err := s.Get(ctx, by.ID)
	out.LastUpdated = now
	return out, res, err
}

// Reset restores defaults: the whole document, or one section (api, trading,
// ui, system). Secrets are cleared with the api section.
func (s *Service) Reset(ctx context.Context, by domain.User, section string) (Settings, Result, error) {
	cur := s.Platform()
	cur.UI, _ = s.userUI(ctx, by.ID)
	d := Defaults()
	switch section {
	case "", "all":
		cur = d
	case "api":
		cur.API = d.API
	case "trading":
		cur.Trading = d.Trading
	case "ui":
		cur.UI = d.UI
	case "system":
		cur.System = d.System
	default:
		return cur, Result{}, &domain.Error{Code: domain.EInvalid, Message: "Unknown settings section: " + section, Fields: map[string]string{"section": "Use api, trading, ui, system or all"}}
	}
	s.KeepHalt(&cur)
	return s.Save(ctx, by, cur)
}

// KeepHalt keeps an active emergency stop on in next: resetting or importing
// settings must never lift it; only switching it off (or Resume) does.
func (s *Service) KeepHalt(next *Settings) {
	if s.EmergencyStop != nil && s.EmergencyStop() {
		next.Trading.Automation.EmergencyStop = true
	}
}

// ExportFile is the spec's exported settings file.
type ExportFile struct {
	Settings   Settings `json:"settings"`
	ExportDate string   `json:"exportDate"`
	Version    string   `json:"version"`
	Checksum   string   `json:"checksum"`
}

// Export returns the user's settings as a file; secrets are left out unless asked for.
func (s *Service) Export(ctx context.Context, by domain.User, includeSecrets bool) (ExportFile, error) {
	st, err := s.Get(ctx, by.ID)
	if err != nil {
		return ExportFile{}, err
	}
	if includeSecrets && by.Role == domain.RoleOperator {
		p := s.Platform()
		st.API.Exchange.APIKey, st.API.Exchange.APISecret, st.API.AI.APIToken = p.API.Exchange.APIKey, p.API.Exchange.APISecret, p.API.AI.APIToken
		st.System.Notifications.SMTPPassword = p.System.Notifications.SMTPPassword
	} else {
		st.API.Exchange.APIKey, st.API.Exchange.APISecret, st.API.AI.APIToken = "", "", ""
		st.System.Notifications.SMTPPassword = ""
	}
	return ExportFile{Settings: st, ExportDate: s.clock.Now().UTC().Format(time.RFC3339), Version: Version, Checksum: Checksum(st)}, nil
}

// Checksum is the first 16 characters of the base64 form of the settings' SHA-256.
func Checksum(st Settings) string {
	b, _ := json.Marshal(st)
	sum := sha256.Sum256(b)
	return base64.StdEncoding.EncodeToString(sum[:])[:16]
}

func (s *Service) storePlatform(ctx context.Context, p Settings) error {
	sealed := withoutUI(p)
	var err error
	if err = sealSecrets(s.sealer, &sealed); err != nil {
		return err
	}
	b, err := json.Marshal(sealed)
	if err != nil {
		return err
	}
	return s.kv.PutValue(ctx, kvPlatform, string(b))
}

func (s *Service) openSecrets(p *Settings) error { return openSecrets(s.sealer, p) }

// restoreMaskedSecrets keeps stored secrets where the client sent the mask
// back, and reports which (by secretFields' index).
func (s *Service) restoreMaskedSecrets(next *Settings, old Settings) (kept []bool) {
	nf, of := secretFields(next), secretFields(&old)
	kept = make([]bool, len(nf))
	for i := range nf {
		if IsMask(*nf[i]) {
			*nf[i] = *of[i]
			kept[i] = *of[i] != ""
		}
	}
	return kept
}

// secretEndpoints are the secrets sent to an address the settings name:
// secretFields' index and the endpoint the secret goes to.
var secretEndpoints = []struct {
	field    int
	endpoint func(*Settings) string
	what     string
}{
	{2, func(p *Settings) string { return p.API.AI.Provider + " " + p.API.AI.BaseURL }, "the AI provider or its base URL"},
	{3, func(p *Settings) string { return p.System.Notifications.SMTPHost }, "the SMTP host"},
}

// dropMovedSecrets clears a stored secret kept (sent masked or left out)
// with a change of the endpoint it goes to, so a stolen session cannot
// send the AI token or the SMTP password to a host of its choice by saving
// a new address (issue 33, item 6); a new secret entered with the change,
// or the operator's password (SaveConfirmed), keeps it. Each cleared secret
// is a warning of the save.
func dropMovedSecrets(next *Settings, old Settings, kept []bool) []Issue {
	var out []Issue
	nf := secretFields(next)
	for _, e := range secretEndpoints {
		if !kept[e.field] || e.endpoint(next) == e.endpoint(&old) {
			continue
		}
		*nf[e.field] = ""
		out = append(out, Issue{Field: SecretNames[e.field], Severity: "warning",
			Message: secretCleared + e.what + " changed; enter it again, or give your password with the change to keep it"})
	}
	return out
}

// TelegramMoveMessage refuses a new Telegram API URL saved without the
// operator's password.
const TelegramMoveMessage = "Every Telegram channel's bot token is sent to this address: give your password with the change"

// movesTelegramTokens reports a change of the Telegram API URL to another
// host than Telegram's own: every user's bot token (kept in their channels,
// not in the settings, so it cannot be cleared as the AI token is) would go
// to it, so a stolen session alone may not make it (issue 33, item 6).
// Going back to Telegram's own API (empty) needs nothing.
func movesTelegramTokens(next, old Settings) bool {
	n := next.System.Notifications.TelegramAPIURL
	return n != "" && n != old.System.Notifications.TelegramAPIURL
}

const secretCleared = "The saved secret was cleared because "

// Cleared reports whether a save's result says the secret name was
// cleared because its endpoint moved.
func (r Result) Cleared(name string) bool {
	for _, w := range r.Warnings {
		if w.Field == name && strings.HasPrefix(w.Message, secretCleared) {
			return true
		}
	}
	return false
}

func secretFields(p *Settings) []*string {
	return []*string{&p.API.Exchange.APIKey, &p.API.Exchange.APISecret, &p.API.AI.APIToken, &p.System.Notifications.SMTPPassword}
}

// SecretNames are the settings keys of secretFields, in the same order:
// each sealed value is bound to its name.
var SecretNames = []string{"api.exchange.apiKey", "api.exchange.apiSecret", "api.ai.apiToken", "system.notifications.smtpPassword"}

// KeepStoredSecrets puts the stored secret back wherever next leaves one
// blank or masked (an exported file leaves them out) and returns the keys
// it kept, so an import never erases a key the file does not carry.
func (s *Service) KeepStoredSecrets(next *Settings) []string {
	stored := s.Platform()
	nf, of := secretFields(next), secretFields(&stored)
	kept := []string{}
	for i := range nf {
		if (*nf[i] == "" || IsMask(*nf[i])) && *of[i] != "" {
			// The mask: Save puts the stored value back, and clears it
			// when the file moves its endpoint (dropMovedSecrets).
			*nf[i] = Mask(*of[i])
			kept = append(kept, SecretNames[i])
		}
	}
	return kept
}

func maskSecrets(p *Settings) {
	for _, f := range secretFields(p) {
		*f = Mask(*f)
	}
}

func withoutUI(p Settings) Settings {
	p.UI = UI{}
	return p
}

func samePlatform(a, b Settings) bool {
	return reflect.DeepEqual(a.API, b.API) && reflect.DeepEqual(a.Trading, b.Trading) && reflect.DeepEqual(a.System, b.System)
}

func issueFields(issues []Issue) map[string]string {
	m := map[string]string{}
	for _, i := range issues {
		if _, dup := m[i.Field]; !dup {
			m[i.Field] = i.Message
		}
	}
	return m
}
