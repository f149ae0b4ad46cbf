package app_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/app"
	"kestrel/auth"
	"kestrel/httpapi"
)

// lockedBuffer collects log output written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func captureLogs(t *testing.T) *lockedBuffer {
	buf := &lockedBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return buf
}

func status(t *testing.T, c *http.Client, method, url, token string) (int, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header
}

type setupState struct {
	NeedsFirstOperator   bool `json:"needs_first_operator"`
	FirstOperatorFromCLI bool `json:"first_operator_from_cli"`
}

// Bound beyond loopback without TLS: a warning in the log, /metrics closed
// without a token, and the first visitor cannot make themself operator:
// the screens are told so, and the first operator comes from the CLI.
func TestExposedInstance(t *testing.T) {
	logs := captureLogs(t)
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.Addr = "0.0.0.0:0" })
	if !strings.Contains(logs.String(), "listening beyond loopback without TLS") {
		t.Errorf("no warning about the exposed bind; log:\n%s", logs)
	}
	if code, _ := status(t, http.DefaultClient, "GET", s.url+"/metrics", ""); code != http.StatusForbidden {
		t.Errorf("/metrics without a token on an exposed bind: %d, want 403", code)
	}

	var st setupState
	s.into(s.do("GET", "/api/auth/setup", "", ""), &st)
	if !st.NeedsFirstOperator || !st.FirstOperatorFromCLI {
		t.Fatalf("setup = %+v", st)
	}
	r := s.do("POST", "/api/auth/register", "", `{"email":"first@example.com","name":"F","password":"first-visitor-pass"}`)
	if r.Status != http.StatusForbidden || !strings.Contains(r.Error.Message, "kestrel user add") {
		t.Fatalf("first self-registration on an exposed bind: %+v", r)
	}
	if n, _ := s.app.Store.CountUsers(context.Background()); n != 0 {
		t.Fatalf("the refused registration created %d account(s)", n)
	}
	// What `kestrel user add --role operator` does.
	if _, err := s.app.Auth.CreateUser(context.Background(), auth.NewUser{Email: "ops@example.com", Name: "Ops", Password: "cli-made-operator", Role: "operator"}); err != nil {
		t.Fatal(err)
	}
	s.login("ops@example.com", "cli-made-operator")
	s.into(s.do("GET", "/api/auth/setup", "", ""), &st)
	if st.NeedsFirstOperator {
		t.Fatalf("setup after the first operator = %+v", st)
	}
	if r := s.do("POST", "/api/auth/register", "", `{"email":"second@example.com","name":"S","password":"second-visitor-pass"}`); r.Status != http.StatusForbidden || strings.Contains(r.Error.Message, "kestrel user add") {
		t.Fatalf("later registration follows the usual switch: %+v", r)
	}
}

// With a metrics token, an exposed /metrics opens to that token only.
func TestExposedMetricsWithToken(t *testing.T) {
	const token = "scrape-token-0123456789"
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.Addr, c.MetricsToken = "0.0.0.0:0", token })
	if code, _ := status(t, http.DefaultClient, "GET", s.url+"/metrics", ""); code != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %d, want 401", code)
	}
	if code, _ := status(t, http.DefaultClient, "GET", s.url+"/metrics", token); code != http.StatusOK {
		t.Errorf("/metrics with the token: %d, want 200", code)
	}
}

// On loopback nothing changes: /metrics is open, the first account becomes
// operator, no warning.
func TestLoopbackInstance(t *testing.T) {
	logs := captureLogs(t)
	s := start(t, t.TempDir())
	if code, _ := status(t, http.DefaultClient, "GET", s.url+"/metrics", ""); code != http.StatusOK {
		t.Errorf("/metrics on loopback: %d, want 200", code)
	}
	var st setupState
	s.into(s.do("GET", "/api/auth/setup", "", ""), &st)
	if !st.NeedsFirstOperator || st.FirstOperatorFromCLI {
		t.Fatalf("setup = %+v", st)
	}
	s.accounts()
	if strings.Contains(logs.String(), "beyond loopback") {
		t.Errorf("warning on a loopback bind:\n%s", logs)
	}
}

// --tls-cert and --tls-key serve HTTPS, with HSTS; one without the other is refused.
func TestServesTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	logs := captureLogs(t)
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.Addr, c.TLSCert, c.TLSKey = "0.0.0.0:0", certFile, keyFile })
	if !strings.HasPrefix(s.url, "https://") {
		t.Fatalf("URL %s, want https", s.url)
	}
	if strings.Contains(logs.String(), "without TLS") {
		t.Errorf("TLS instance warned of no TLS:\n%s", logs)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}}}
	code, h := status(t, client, "GET", strings.Replace(s.url, "0.0.0.0", "127.0.0.1", 1)+"/api/system/health", "")
	if code != http.StatusOK || h.Get("Strict-Transport-Security") != "max-age=31536000" {
		t.Fatalf("health over TLS: %d, HSTS %q", code, h.Get("Strict-Transport-Security"))
	}
	// Plain HTTP on the TLS port is not served (Go's TLS server answers it with a 400).
	if res, err := http.Get(strings.Replace(s.url, "https://0.0.0.0", "http://127.0.0.1", 1) + "/api/system/health"); err == nil {
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Fatal("plain HTTP served on the TLS port")
		}
	}

	cfg := app.Defaults()
	cfg.Addr, cfg.DataDir, cfg.TLSCert = "127.0.0.1:0", t.TempDir(), certFile
	if _, err := app.New(context.Background(), cfg, httpapi.BuildInfo{}, nil); err == nil || !strings.Contains(err.Error(), "--tls-key") {
		t.Fatalf("certificate without key: %v", err)
	}
}

func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kestrel test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}
