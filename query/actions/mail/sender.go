package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
	mailsmtp "github.com/wneessen/go-mail/smtp"
)

const (
	// dialTimeout bounds the TCP connect and, for smtps://, the TLS
	// handshake, whatever ctx allows.
	dialTimeout = 30 * time.Second
	// stepTimeout bounds each SMTP exchange, so that a server that stops
	// answering cannot hold a Send whose ctx has no deadline forever.
	stepTimeout = 30 * time.Second
)

// Sender delivers Messages to one SMTP server. It is safe for concurrent
// use: each Send opens a connection of its own and closes it again, which is
// plenty for the few messages an action run sends.
type Sender struct {
	ep   endpoint
	tls  *tls.Config
	helo string
	// mailer writes MAIL FROM, RCPT TO and DATA on a connection that Send
	// has opened, greeted, encrypted and logged in itself; doing those steps
	// here is what lets an error say which of them failed.
	mailer *gomail.Client
}

// SenderOption changes how NewSender sets a Sender up.
type SenderOption func(*senderSettings)

type senderSettings struct {
	tls *tls.Config
}

// WithTLSConfig sets the TLS settings, e.g. RootCAs that trust a test's own
// certificate. The Sender keeps a clone; an empty ServerName becomes the
// URL's host, and the URL's insecure=1 turns verification off on top.
func WithTLSConfig(c *tls.Config) SenderOption {
	return func(s *senderSettings) { s.tls = c }
}

// NewSender makes a Sender for an SMTP URL:
//
//	smtp://[user[:pass]@]host:port           STARTTLS when the server offers it
//	smtp+starttls://[user[:pass]@]host:port  STARTTLS required
//	smtps://[user[:pass]@]host:port          TLS from the first byte
//
// with ?insecure=1 to skip certificate verification (for loopback tests
// only). A user and password log in with AUTH PLAIN, or LOGIN when the
// server offers only that; the password goes only over TLS or to localhost.
// An error names the part of the URL that is wrong and never quotes it.
func NewSender(smtpURL string, opts ...SenderOption) (*Sender, error) {
	ep, err := parseSMTPURL(smtpURL)
	if err != nil {
		return nil, err
	}
	var set senderSettings
	for _, opt := range opts {
		opt(&set)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if set.tls != nil {
		cfg = set.tls.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = ep.host
	}
	if ep.insecure {
		cfg.InsecureSkipVerify = true
	}
	// EHLO names this machine, as a mail client does.
	helo, _ := os.Hostname()
	if helo == "" {
		helo = "localhost"
	}
	// go-mail's own NOOP before and RSET after each message would only cost
	// round trips on a connection that carries one message.
	mailer, err := gomail.NewClient(ep.host, gomail.WithoutNoop(), gomail.WithoutRset(), gomail.WithTimeout(stepTimeout))
	if err != nil {
		return nil, fmt.Errorf("new sender: %w", err)
	}
	return &Sender{ep: ep, tls: cfg, helo: helo, mailer: mailer}, nil
}

// String names the server without the password, so that printing a Sender
// cannot leak it.
func (s *Sender) String() string {
	scheme := [...]string{tlsOpportunistic: "smtp", tlsRequired: "smtp+starttls", tlsImplicit: "smtps"}[s.ep.mode]
	return fmt.Sprintf("mail.Sender(%s://%s)", scheme, s.ep.addr())
}

// GoString is String, for %#v.
func (s *Sender) GoString() string { return s.String() }

// Send delivers m over a connection of its own. ctx bounds the whole call;
// on top, the connect has a 30 s limit and each SMTP exchange another 30 s.
// Use Permanent on the error to know whether trying again can help.
func (s *Sender) Send(ctx context.Context, m Message) error {
	msg, err := m.compose()
	if err != nil {
		if m.MessageID != "" {
			err = fmt.Errorf("%s: %w", m.MessageID, err)
		}
		return &sendError{step: "message", permanent: true, err: err}
	}
	conn, step, err := s.dial(ctx)
	if err != nil {
		return s.fail(ctx, step, err)
	}
	defer conn.Close()
	// Closing the connection when ctx ends unblocks whatever read or write
	// is under way, so the deadline and cancellation of ctx hold in every
	// step, including those inside go-mail.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	// The clock is read only for socket deadlines, which net wants as
	// instants; nothing of it ends up in the message.
	if err := conn.SetDeadline(time.Now().Add(stepTimeout)); err != nil {
		return s.fail(ctx, "greeting", err)
	}
	c, err := mailsmtp.NewClient(conn, s.ep.host)
	if err != nil {
		return s.fail(ctx, "greeting", err)
	}
	for _, st := range []struct {
		name string
		run  func() error
	}{
		{"hello", func() error { return c.Hello(s.helo) }},
		{"starttls", func() error { return s.startTLS(c) }},
		{"auth", func() error { return s.login(c) }},
	} {
		if err := c.UpdateDeadline(stepTimeout); err != nil {
			return s.fail(ctx, st.name, err)
		}
		if err := st.run(); err != nil {
			return s.fail(ctx, st.name, err)
		}
	}
	if err := s.mailer.SendWithSMTPClient(c, msg); err != nil && !msg.IsDelivered() {
		e := refusal(s.ep.addr(), err)
		if cause := context.Cause(ctx); cause != nil {
			e.err = fmt.Errorf("%w: %w", cause, e.err)
		}
		return e
	}
	// The server took the message when it answered the DATA; a QUIT that
	// fails afterwards changes nothing about that, so its error is dropped
	// rather than have an outbox send the message twice.
	_ = c.Quit()
	return nil
}

// dial connects and, for smtps://, does the TLS handshake; it returns the
// step that failed.
func (s *Sender) dial(ctx context.Context) (net.Conn, string, error) {
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", s.ep.addr())
	if err != nil {
		return nil, "dial", err
	}
	if s.ep.mode != tlsImplicit {
		return conn, "", nil
	}
	hctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	tc := tls.Client(conn, s.tls)
	if err := tc.HandshakeContext(hctx); err != nil {
		conn.Close()
		return nil, "tls", err
	}
	return tc, "", nil
}

// startTLS upgrades the connection as the URL's scheme asks.
func (s *Sender) startTLS(c *mailsmtp.Client) error {
	if s.ep.mode == tlsImplicit {
		return nil
	}
	if offered, _ := c.Extension("STARTTLS"); !offered {
		if s.ep.mode == tlsRequired {
			return errors.New("the server does not offer STARTTLS, which smtp+starttls:// requires")
		}
		return nil
	}
	return c.StartTLS(s.tls)
}

// login does AUTH PLAIN, or LOGIN when the server offers only that, with
// go-mail's implementations of both. Those refuse to send the password in
// plain text to any host but localhost, 127.0.0.1 and ::1. go-mail's
// auto-discovery is not used because without TLS it never picks PLAIN or
// LOGIN, not even for localhost, where the demo's catcher listens.
func (s *Sender) login(c *mailsmtp.Client) error {
	if s.ep.user == "" {
		return nil
	}
	offered, mechs := c.Extension("AUTH")
	if !offered {
		return errors.New("the server does not offer AUTH, but the URL has a user")
	}
	var auth mailsmtp.Auth
	switch fields := strings.Fields(strings.ToUpper(mechs)); {
	case slices.Contains(fields, "PLAIN"):
		auth = mailsmtp.PlainAuth("", s.ep.user, s.ep.password, s.ep.host, false)
	case slices.Contains(fields, "LOGIN"):
		auth = mailsmtp.LoginAuth(s.ep.user, s.ep.password, s.ep.host, false)
	default:
		return fmt.Errorf("the server offers neither PLAIN nor LOGIN (it offers %s)", mechs)
	}
	return c.Auth(auth)
}

// fail wraps err as the failure of step, with ctx's cause in front when ctx
// ended, since a closed connection alone would not say why.
func (s *Sender) fail(ctx context.Context, step string, err error) error {
	if cause := context.Cause(ctx); cause != nil {
		err = fmt.Errorf("%w: %w", cause, err)
	}
	return &sendError{step: step, addr: s.ep.addr(), err: err}
}
