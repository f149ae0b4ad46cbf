package notify_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"math/big"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/notify"
)

// smtpServer is a minimal SMTP server speaking enough of RFC 5321 for a
// real client: EHLO, STARTTLS (RFC 3207) or implicit TLS, AUTH PLAIN (only
// once TLS is up), MAIL, RCPT, DATA, QUIT. It keeps each message.
type smtpServer struct {
	ln       net.Listener
	cert     tls.Certificate
	implicit bool
	user     string
	pass     string
	mu       sync.Mutex
	mails    []mailGot
}

type mailGot struct {
	from, to string
	data     string
	tls      bool
	authed   bool
}

func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	mustNil(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	mustNil(t, err)
	leaf, err := x509.ParseCertificate(der)
	mustNil(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

func newSMTPServer(t *testing.T, implicit bool) (*smtpServer, *x509.CertPool) {
	cert, pool := selfSigned(t)
	s := &smtpServer{cert: cert, implicit: implicit, user: "kestrel", pass: "mail-pass"}
	var err error
	if implicit {
		s.ln, err = tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	} else {
		s.ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	mustNil(t, err)
	t.Cleanup(func() { s.ln.Close() })
	go func() {
		for {
			c, err := s.ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s, pool
}

func (s *smtpServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *smtpServer) got() []mailGot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]mailGot(nil), s.mails...)
}

func (s *smtpServer) serve(c net.Conn) {
	defer func() { c.Close() }()
	tp := textproto.NewConn(c)
	secure, authed := s.implicit, false
	var cur mailGot
	tp.PrintfLine("220 fake.smtp ESMTP ready")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			lines := []string{"250-fake.smtp"}
			if !secure {
				lines = append(lines, "250-STARTTLS")
			} else {
				lines = append(lines, "250-AUTH PLAIN")
			}
			lines = append(lines, "250 8BITMIME")
			for _, l := range lines {
				tp.PrintfLine("%s", l)
			}
		case "STARTTLS":
			if secure {
				tp.PrintfLine("503 already secure")
				continue
			}
			tp.PrintfLine("220 go ahead")
			tc := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{s.cert}})
			if tc.Handshake() != nil {
				return
			}
			c, tp, secure = tc, textproto.NewConn(tc), true
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			raw, err := base64.StdEncoding.DecodeString(resp)
			if !secure || mech != "PLAIN" || err != nil || string(raw) != "\x00"+s.user+"\x00"+s.pass {
				tp.PrintfLine("535 authentication failed")
				continue
			}
			authed = true
			tp.PrintfLine("235 ok")
		case "MAIL":
			if !authed {
				tp.PrintfLine("530 authentication required")
				continue
			}
			addr, _, _ := strings.Cut(strings.TrimPrefix(arg, "FROM:"), " ") // then parameters, e.g. BODY=8BITMIME
			cur = mailGot{from: strings.Trim(addr, "<>"), tls: secure, authed: authed}
			tp.PrintfLine("250 ok")
		case "RCPT":
			cur.to = strings.Trim(strings.TrimPrefix(arg, "TO:"), "<>")
			tp.PrintfLine("250 ok")
		case "DATA":
			tp.PrintfLine("354 end with .")
			b, err := bufio.NewReader(tp.DotReader()).ReadString(0)
			if err != nil && b == "" {
				return
			}
			cur.data = b
			s.mu.Lock()
			s.mails = append(s.mails, cur)
			s.mu.Unlock()
			tp.PrintfLine("250 queued")
		case "QUIT":
			tp.PrintfLine("221 bye")
			return
		default:
			tp.PrintfLine("502 not implemented")
		}
	}
}

// digestAccount is an account with known figures.
type digestAccount struct{ from time.Time }

func (a *digestAccount) PnLSince(_ context.Context, from time.Time) (decimal.Decimal, decimal.Decimal, error) {
	a.from = from
	return decimal.RequireFromString("-123.456"), decimal.RequireFromString("99876.544"), nil
}

func (a *digestAccount) FillsSince(_ context.Context, from time.Time) ([]domain.Fill, error) {
	return []domain.Fill{
		{Side: domain.Buy, Quantity: decimal.RequireFromString("0.5"), Price: decimal.RequireFromString("60000"), Fee: decimal.RequireFromString("180"), Time: from.Add(time.Hour)},
		{Side: domain.Sell, Quantity: decimal.RequireFromString("0.25"), Price: decimal.RequireFromString("61000"), Fee: decimal.RequireFromString("91.5"), Time: from.Add(2 * time.Hour)},
		{Side: domain.Buy, Quantity: decimal.RequireFromString("1"), Price: decimal.RequireFromString("1"), Time: from.Add(-time.Minute)}, // before the window
	}, nil
}

func (a *digestAccount) OpenRisk(context.Context) ([]domain.Position, int, error) {
	return []domain.Position{{Symbol: "BTC-USD", Quantity: decimal.RequireFromString("0.25"), CurrentPrice: decimal.RequireFromString("59000"),
		CurrentValue: decimal.RequireFromString("14750"), UnrealizedPnL: decimal.RequireFromString("-250")}}, 2, nil
}

// The daily digest goes out at its time, once, by email through a mail
// server that needs STARTTLS and a login; implicit TLS works too.
func TestDailyDigestArrivesByEmail(t *testing.T) {
	for _, mode := range []string{"starttls", "tls"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			srv, pool := newSMTPServer(t, mode == "tls")
			f := newFixture(t, t.TempDir())
			f.clock.t = time.Date(2026, 5, 2, 7, 31, 0, 0, time.UTC)
			smtpCfg := notify.SMTP{Host: "127.0.0.1", Port: srv.port(), Security: mode, User: "kestrel", Password: "mail-pass", From: "Kestrel <kestrel@example.com>",
				TLS: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}}
			svc := notify.New(f.store, f.sealer, f.clock, notify.Options{FirstRetry: time.Second, Window: time.Hour,
				Servers: func() notify.Servers { return notify.Servers{SMTP: smtpCfg, DigestTime: "07:30"} }})
			kind, to := domain.NotifyEmail, "trader@example.com"
			ch, err := svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("Inbox"), Address: &to})
			mustNil(t, err)
			_, err = svc.SetRouting(ctx, "u1", domain.NotifyRouting{Routes: map[string][]string{notify.DailyDigest: {ch.ID}}, MinSeverity: domain.SeverityLow})
			mustNil(t, err)
			// Before the first run the digest is marked as sent up to the previous day's time.
			mustNil(t, f.store.PutValue(ctx, "notify.digest.last", "2026-05-01T07:30:00Z"))

			acct := &digestAccount{}
			queued, err := svc.SendDigestIfDue(ctx, f.store, acct)
			mustNil(t, err)
			if !queued || !acct.from.Equal(time.Date(2026, 5, 1, 7, 30, 0, 0, time.UTC)) {
				t.Fatalf("queued %v, window from %v", queued, acct.from)
			}
			if again, err := svc.SendDigestIfDue(ctx, f.store, acct); err != nil || again {
				t.Fatalf("a second digest for the same time: %v, %v", again, err)
			}
			_, err = svc.DeliverDue(ctx)
			mustNil(t, err)
			mails := srv.got()
			if len(mails) != 1 {
				log, _ := svc.Deliveries(ctx, "u1", "", 5)
				t.Fatalf("mail server got %d messages; log %+v", len(mails), log)
			}
			m := mails[0]
			if !m.tls || !m.authed || m.from != "kestrel@example.com" || m.to != to {
				t.Fatalf("envelope %+v", m)
			}
			for _, want := range []string{"Subject: Kestrel: Daily digest", "To: trader@example.com", "2026-05-01 07:30 to 2026-05-02 07:30 (UTC)",
				"P&L: -123.46 USD (portfolio value now 99876.54 USD)", "Trades: 2 (bought 30000.00 USD, sold 15250.00 USD, fees 271.50 USD)",
				"Open risk: 1 position(s) worth 14750.00 USD, unrealized -250.00 USD; 2 live order(s)", "BTC-USD 0.25 at 59000"} {
				if !strings.Contains(m.data, want) {
					t.Errorf("mail lacks %q:\n%s", want, m.data)
				}
			}
		})
	}
}

// A wrong password is a permanent failure named in the log; an email
// channel needs a valid address.
func TestEmailFailuresAreNamed(t *testing.T) {
	ctx := context.Background()
	srv, pool := newSMTPServer(t, false)
	f := newFixture(t, t.TempDir())
	smtpCfg := notify.SMTP{Host: "127.0.0.1", Port: srv.port(), Security: "starttls", User: "kestrel", Password: "wrong", From: "kestrel@example.com",
		TLS: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}}
	svc := notify.New(f.store, f.sealer, f.clock, notify.Options{Servers: func() notify.Servers { return notify.Servers{SMTP: smtpCfg} }})
	kind := domain.NotifyEmail
	ch, err := svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("Inbox"), Address: ptr("me@example.com")})
	mustNil(t, err)
	d, err := svc.SendTest(ctx, ch.NotifyChannel)
	mustNil(t, err)
	if d.Status != domain.NotifyFailed || !strings.Contains(d.LastError, "refused the login") {
		t.Fatalf("wrong password: %+v", d)
	}
	_, err = svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("x"), Address: ptr("not an address")})
	var de *domain.Error
	if !asDomainError(err, &de) || de.Fields["address"] == "" {
		t.Fatalf("bad address: %v", err)
	}
}

func TestDigestDueOncePerScheduledTime(t *testing.T) {
	day := func(h, m int) time.Time { return time.Date(2026, 5, 2, h, m, 0, 0, time.UTC) }
	if at, due := notify.DigestDue(day(7, 29), "07:30", day(7, 30).Add(-24*time.Hour)); due {
		t.Fatalf("before its time: due at %v", at)
	}
	if at, due := notify.DigestDue(day(7, 30), "07:30", day(7, 30).Add(-24*time.Hour)); !due || !at.Equal(day(7, 30)) {
		t.Fatalf("at its time: %v %v", at, due)
	}
	if _, due := notify.DigestDue(day(23, 0), "07:30", day(7, 30)); due {
		t.Fatal("due again the same day")
	}
	if at, due := notify.DigestDue(day(3, 0), "07:30", time.Time{}); !due || !at.Equal(day(7, 30).Add(-24*time.Hour)) {
		t.Fatalf("before today's time, the due one is yesterday's: %v %v", at, due)
	}
	if _, due := notify.DigestDue(day(8, 0), "7h", time.Time{}); due {
		t.Fatal("a malformed time is never due")
	}
}
