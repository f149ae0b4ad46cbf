package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/smtp"
	"strconv"
	"strings"
	"time"
)

// SMTP is the mail server email channels send through (the settings'
// system.notifications); Host "" means email is off.
type SMTP struct {
	Host     string
	Port     int
	Security string // starttls | tls (implicit, e.g. port 465)
	User     string
	Password string
	From     string
	// TLS, when set, is the TLS configuration to use (tests trust their
	// own certificate with it); nil: the system's roots, verifying Host.
	TLS *tls.Config
}

// ValidEmail reports whether s is a single bare email address.
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && len(s) <= 254
}

// sendMail sends one plain-text message to to through cfg. TLS is always
// used: STARTTLS (refused if the server does not offer it) or implicit TLS;
// a password is never sent in the clear.
func sendMail(ctx context.Context, cfg SMTP, to, subject, body string, at time.Time, id string) error {
	if cfg.Host == "" {
		return permanent{errors.New("email is not set up: the settings name no mail server (system.notifications.smtpHost)")}
	}
	tlsCfg := cfg.TLS
	if tlsCfg == nil {
		tlsCfg = &tls.Config{ServerName: cfg.Host, MinVersion: tls.VersionTLS12}
	}
	addr := net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port))
	deadline := time.Now().Add(SendTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	dialer := &net.Dialer{Deadline: deadline}
	var conn net.Conn
	var err error
	if cfg.Security == "tls" {
		conn, err = tls.DialWithDialer(dialer, "tcp", addr, tlsCfg)
	} else {
		conn, err = dialer.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return fmt.Errorf("mail server not reached: %w", err)
	}
	_ = conn.SetDeadline(deadline)
	c, err := smtp.NewClient(conn, cfg.Host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("mail server: %w", err)
	}
	defer c.Close()
	if cfg.Security != "tls" {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return permanent{errors.New("the mail server does not offer STARTTLS (set security to tls for implicit TLS)")}
		}
		if err := c.StartTLS(tlsCfg); err != nil {
			return fmt.Errorf("mail server STARTTLS: %w", err)
		}
	}
	if cfg.User != "" {
		if err := c.Auth(smtp.PlainAuth("", cfg.User, cfg.Password, cfg.Host)); err != nil {
			return permanent{fmt.Errorf("mail server refused the login: %w", err)}
		}
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return permanent{fmt.Errorf("the from address %q is not valid", cfg.From)}
	}
	if err := c.Mail(from.Address); err != nil {
		return fmt.Errorf("mail server refused the sender: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("mail server refused the recipient: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("mail server: %w", err)
	}
	if _, err := w.Write(message(from.String(), to, subject, body, at, id, cfg.Host)); err != nil {
		return fmt.Errorf("mail server: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mail server did not accept the message: %w", err)
	}
	return c.Quit()
}

// message is an RFC 5322 message: headers, then the body as UTF-8 text
// with CRLF line ends (the DATA writer dot-stuffs it).
func message(from, to, subject, body string, at time.Time, id, host string) []byte {
	var b bytes.Buffer
	h := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	h("From", from)
	h("To", to)
	h("Subject", mime.QEncoding.Encode("utf-8", subject))
	h("Date", at.UTC().Format(time.RFC1123Z))
	h("Message-ID", "<"+id+"@"+host+">")
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "8bit")
	b.WriteString("\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	b.WriteString("\r\n")
	return b.Bytes()
}
