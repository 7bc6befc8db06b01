package mail

import (
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	gosmtp "github.com/emersion/go-smtp"
)

const (
	// catcherMaxBytes and catcherMaxRecipients keep a misbehaving client
	// from filling the disk; an action run's mail is a few kilobytes to one
	// recipient.
	catcherMaxBytes      = 10 << 20
	catcherMaxRecipients = 50
	// catcherTimeout drops a client that has said nothing for this long.
	catcherTimeout = 60 * time.Second
)

// CatcherOptions says how a Catcher receives mail.
type CatcherOptions struct {
	// TLS, when set, is offered with STARTTLS, and AUTH is then allowed only
	// after it, as a real submission server would have it.
	TLS *tls.Config
	// ImplicitTLS makes the catcher speak TLS from the first byte, as an
	// smtps:// server, instead of offering STARTTLS. It needs TLS.
	ImplicitTLS bool
	// Username and Password, when set, make AUTH PLAIN required before
	// MAIL FROM. Without TLS, AUTH is allowed in plain text: the catcher
	// listens on loopback only, so the password never crosses a network.
	Username, Password string
	// Refuse, when set, is asked for every message once its DATA has begun;
	// a non-nil error refuses the message with a 451 temporary failure, and
	// nothing is filed. Tests use it to play an SMTP server that is down for
	// a while. It may be called from several connections at once.
	Refuse func() error
	// Now is the clock for the Maildir's file names; nil uses time.Now
	// (ARCHITECTURE 4: below cmd the clock is passed in).
	Now func() time.Time
}

// Catcher accepts every message on a loopback address and files each one,
// byte for byte as received, into a Maildir. It exists for the demo and the
// tests; it relays nothing.
type Catcher struct {
	server *gosmtp.Server
	ln     net.Listener
	be     *catcherBackend
	addr   string
	url    string
	dir    string
	served chan struct{} // closed when Serve has returned

	closeOnce sync.Once
	closeErr  error
}

// StartCatcher listens on addr, e.g. "127.0.0.1:0", and files messages into
// the Maildir at maildir, making its tmp, new and cur folders when missing.
// An address that is not loopback is refused: the catcher takes mail from
// anyone who can reach it.
func StartCatcher(addr, maildir string, opt CatcherOptions) (*Catcher, error) {
	if opt.ImplicitTLS && opt.TLS == nil {
		return nil, errors.New("start catcher: ImplicitTLS needs TLS")
	}
	if (opt.Username == "") != (opt.Password == "") {
		return nil, errors.New("start catcher: Username and Password go together")
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	md, err := openMaildir(maildir, opt.Now)
	if err != nil {
		return nil, fmt.Errorf("start catcher: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("start catcher: %w", err)
	}
	if err := checkLoopback(ln.Addr()); err != nil {
		ln.Close()
		return nil, fmt.Errorf("start catcher: %w", err)
	}
	bound := ln.Addr().String()
	scheme := "smtp"
	if opt.ImplicitTLS {
		ln = tls.NewListener(ln, opt.TLS)
		scheme = "smtps"
	}

	be := &catcherBackend{opt: opt, md: md}
	srv := gosmtp.NewServer(be)
	srv.Domain = "localhost"
	srv.MaxMessageBytes = catcherMaxBytes
	srv.MaxRecipients = catcherMaxRecipients
	srv.ReadTimeout = catcherTimeout
	srv.WriteTimeout = catcherTimeout
	srv.TLSConfig = opt.TLS
	srv.AllowInsecureAuth = opt.TLS == nil

	u := url.URL{Scheme: scheme, Host: bound}
	if opt.Username != "" {
		u.User = url.UserPassword(opt.Username, opt.Password)
	}
	c := &Catcher{server: srv, ln: ln, be: be, addr: bound, url: u.String(), dir: maildir, served: make(chan struct{})}
	go func() {
		defer close(c.served)
		// Serve returns nil once Close has been called; any other error
		// means the listener broke, and Close reports it.
		if err := srv.Serve(ln); err != nil {
			c.closeErr = err
		}
	}()
	return c, nil
}

// checkLoopback refuses an address that other machines can reach; it is
// checked on the bound address, so "localhost:0" passes and ":0" does not.
func checkLoopback(a net.Addr) error {
	if tcp, ok := a.(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address", a)
	}
	return nil
}

// Addr is the host:port actually bound.
func (c *Catcher) Addr() string { return c.addr }

// URL is the catcher's address as a Sender takes it: smtp://127.0.0.1:port,
// or smtps:// with ImplicitTLS, with user:pass when set.
func (c *Catcher) URL() string { return c.url }

// Dir is the Maildir.
func (c *Catcher) Dir() string { return c.dir }

// Close stops listening, drops every connection and waits until no message
// is being filed, so that the Maildir can be removed right after.
func (c *Catcher) Close() error {
	c.closeOnce.Do(func() {
		c.be.close()
		err := c.server.Close()
		// go-smtp closes only the listeners that Serve has registered, and a
		// Close right after StartCatcher can come before that; this Close
		// ends such an Accept. Its error, "already closed" otherwise, is
		// of no interest.
		_ = c.ln.Close()
		<-c.served
		c.be.filing.Wait()
		if c.closeErr == nil {
			c.closeErr = err
		}
		if c.closeErr != nil {
			c.closeErr = fmt.Errorf("close catcher: %w", c.closeErr)
		}
	})
	return c.closeErr
}

// catcherBackend is what go-smtp asks for sessions.
type catcherBackend struct {
	opt CatcherOptions
	md  *maildir

	mu     sync.Mutex
	closed bool
	filing sync.WaitGroup // messages being written
}

func (b *catcherBackend) NewSession(*gosmtp.Conn) (gosmtp.Session, error) {
	return &catcherSession{b: b}, nil
}

func (b *catcherBackend) requireAuth() bool { return b.opt.Username != "" }

// close makes every later message be refused, so that Close's wait for the
// messages being filed cannot miss one that starts behind it.
func (b *catcherBackend) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
}

// beginFiling counts a message in, unless the catcher is closing.
func (b *catcherBackend) beginFiling() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.filing.Add(1)
	return true
}

// catcherSession is one SMTP connection's state; STARTTLS begins a new one.
type catcherSession struct {
	b      *catcherBackend
	authed bool
}

// tempFailure is a 4xx reply: the client should try again later.
func tempFailure(code int, message string) *gosmtp.SMTPError {
	return &gosmtp.SMTPError{Code: code, EnhancedCode: gosmtp.EnhancedCode{4, 3, 0}, Message: message}
}

func (s *catcherSession) AuthMechanisms() []string {
	if !s.b.requireAuth() {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *catcherSession) Auth(mech string) (sasl.Server, error) {
	if !s.b.requireAuth() || mech != sasl.Plain {
		return nil, gosmtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		// Both compared in constant time, and both always, so that the reply
		// time says nothing about which one was wrong.
		userOK := subtle.ConstantTimeCompare([]byte(username), []byte(s.b.opt.Username))
		passOK := subtle.ConstantTimeCompare([]byte(password), []byte(s.b.opt.Password))
		if userOK&passOK != 1 || (identity != "" && identity != username) {
			return gosmtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *catcherSession) Mail(string, *gosmtp.MailOptions) error {
	if s.b.requireAuth() && !s.authed {
		return gosmtp.ErrAuthRequired
	}
	return nil
}

func (s *catcherSession) Rcpt(string, *gosmtp.RcptOptions) error { return nil }

func (s *catcherSession) Data(r io.Reader) error {
	if s.b.opt.Refuse != nil {
		if err := s.b.opt.Refuse(); err != nil {
			// The cause stays out of the reply: it is the test's own.
			return tempFailure(451, "Refused for now, try again later")
		}
	}
	if !s.b.beginFiling() {
		return tempFailure(421, "Closing, try again later")
	}
	defer s.b.filing.Done()
	if _, err := s.b.md.deliver(r); err != nil {
		var reply *gosmtp.SMTPError
		if errors.As(err, &reply) {
			return reply // 552 for a message over the size limit
		}
		// The catcher serves loopback clients only, so the reply may say
		// what went wrong on this machine.
		return tempFailure(451, "Could not file the message: "+err.Error())
	}
	return nil
}

func (s *catcherSession) Reset() {}

func (s *catcherSession) Logout() error { return nil }
