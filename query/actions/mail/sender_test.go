package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestSendPlain sends over plain SMTP and checks every header and the body
// arrive as they were given.
func TestSendPlain(t *testing.T) {
	c := startCatcher(t, CatcherOptions{})
	m := testMessage("run_01kplain.confirm@daawid.example")
	if err := newSender(t, c.URL()).Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	msgs := readAllMail(t, c.Dir())
	if len(msgs) != 1 {
		t.Fatalf("%d messages in the maildir, want 1", len(msgs))
	}
	checkArrived(t, m, msgs[0])
	if dir := filepath.Dir(msgs[0].File); dir != filepath.Join(c.Dir(), "new") {
		t.Errorf("filed in %s, want new/", dir)
	}
}

// checkArrived compares what was sent with what was filed.
func checkArrived(t *testing.T, sent Message, got Received) {
	t.Helper()
	if got.MessageID != sent.MessageID {
		t.Errorf("Message-ID %q, want %q", got.MessageID, sent.MessageID)
	}
	for _, a := range []struct{ name, got, want string }{
		{"From", got.From, sent.From}, {"To", got.To, sent.To}, {"Reply-To", got.ReplyTo, sent.ReplyTo},
	} {
		g, err := netmail.ParseAddress(a.got)
		if err != nil {
			t.Errorf("%s %q: %v", a.name, a.got, err)
			continue
		}
		w, _ := netmail.ParseAddress(a.want)
		if *g != *w {
			t.Errorf("%s %+v, want %+v", a.name, *g, *w)
		}
	}
	if got.Subject != sent.Subject {
		t.Errorf("Subject %q, want %q", got.Subject, sent.Subject)
	}
	if lang := got.Header.Get("Content-Language"); lang != sent.Language {
		t.Errorf("Content-Language %q, want %q", lang, sent.Language)
	}
	if date, err := got.Header.Date(); err != nil || !date.Equal(sent.Date) {
		t.Errorf("Date %v (%v), want %v", date, err, sent.Date)
	}
	if ct := got.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") || !strings.Contains(strings.ToLower(ct), "charset=utf-8") {
		t.Errorf("Content-Type %q, want text/plain; charset=utf-8", ct)
	}
	if got.Body != sent.Text {
		t.Errorf("body %q, want %q", got.Body, sent.Text)
	}
}

// TestSendTLSAndAuth runs a catcher with a certificate of its own and a
// password, and tries the ways in, right and wrong.
func TestSendTLSAndAuth(t *testing.T) {
	serverTLS, roots := testTLS(t)
	const user, password = "daawid", "s3cret-Pa55word"
	c := startCatcher(t, CatcherOptions{TLS: serverTLS, Username: user, Password: password})
	hostPort := c.Addr()
	trust := WithTLSConfig(&tls.Config{RootCAs: roots})

	delivered := []struct{ name, url string }{
		{"starttls required", "smtp+starttls://" + user + ":" + password + "@" + hostPort},
		{"starttls opportunistic, from URL()", c.URL()},
	}
	for i, tc := range delivered {
		t.Run(tc.name, func(t *testing.T) {
			m := testMessage("tls" + string(rune('a'+i)) + "@daawid.example")
			if err := newSender(t, tc.url, trust).Send(t.Context(), m); err != nil {
				t.Fatal(err)
			}
			got, err := WaitFor(t.Context(), c.Dir(), func(r Received) bool { return r.MessageID == m.MessageID })
			if err != nil {
				t.Fatal(err)
			}
			checkArrived(t, m, got)
		})
	}
	t.Run("insecure=1 without the root", func(t *testing.T) {
		url := "smtp+starttls://" + user + ":" + password + "@" + hostPort + "?insecure=1"
		if err := newSender(t, url).Send(t.Context(), testMessage("insecure@daawid.example")); err != nil {
			t.Fatal(err)
		}
	})

	before := len(readAllMail(t, c.Dir()))
	refused := []struct {
		name, url string
		opts      []SenderOption
		step      string
		permanent bool
	}{
		{"wrong password", "smtp+starttls://" + user + ":wrong-Secret-77@" + hostPort, []SenderOption{trust}, "smtp auth", false},
		{"unknown certificate", "smtp+starttls://" + user + ":" + password + "@" + hostPort, nil, "smtp starttls", false},
		// No credentials: the catcher answers MAIL FROM with 502 5.7.0,
		// a 5xx for this message.
		{"no credentials", "smtp+starttls://" + hostPort, []SenderOption{trust}, "smtp mail from", true},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			err := newSender(t, tc.url, tc.opts...).Send(t.Context(), testMessage("refused@daawid.example"))
			if err == nil {
				t.Fatal("sent")
			}
			t.Log(err)
			if !strings.HasPrefix(err.Error(), tc.step) {
				t.Errorf("error %q does not begin with %q", err, tc.step)
			}
			for _, secret := range []string{password, "wrong-Secret-77"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q holds a password", err)
				}
			}
			if Permanent(err) != tc.permanent {
				t.Errorf("Permanent = %v, want %v", Permanent(err), tc.permanent)
			}
		})
	}
	if after := len(readAllMail(t, c.Dir())); after != before {
		t.Errorf("%d messages filed by refused sends", after-before)
	}
}

// TestSendStartTLSRequiredButNotOffered: smtp+starttls:// must not fall
// back to plain text.
func TestSendStartTLSRequiredButNotOffered(t *testing.T) {
	c := startCatcher(t, CatcherOptions{})
	err := newSender(t, "smtp+starttls://"+c.Addr()).Send(t.Context(), testMessage("plain@daawid.example"))
	if err == nil || !strings.HasPrefix(err.Error(), "smtp starttls") {
		t.Fatalf("error %v, want a starttls failure", err)
	}
	if Permanent(err) {
		t.Error("a missing STARTTLS is permanent; it is the server's configuration")
	}
	if n := len(readAllMail(t, c.Dir())); n != 0 {
		t.Errorf("%d messages filed", n)
	}
}

// TestSendImplicitTLS sends over smtps://, with a login.
func TestSendImplicitTLS(t *testing.T) {
	serverTLS, roots := testTLS(t)
	c := startCatcher(t, CatcherOptions{TLS: serverTLS, ImplicitTLS: true, Username: "u", Password: "p-Implicit-1"})
	if !strings.HasPrefix(c.URL(), "smtps://u:p-Implicit-1@127.0.0.1:") {
		t.Errorf("URL %q", c.URL())
	}
	m := testMessage("smtps@daawid.example")
	if err := newSender(t, c.URL(), WithTLSConfig(&tls.Config{RootCAs: roots})).Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	checkArrived(t, m, readAllMail(t, c.Dir())[0])

	// Without the root the handshake fails at once, in the tls step.
	err := newSender(t, c.URL()).Send(t.Context(), m)
	if err == nil || !strings.HasPrefix(err.Error(), "smtp tls") || Permanent(err) {
		t.Fatalf("error %v, want a temporary tls failure", err)
	}
}

// TestSendPlainAuthOnLoopback: a catcher with a password and no TLS takes
// the login in plain text, which go-mail allows for 127.0.0.1 only.
func TestSendPlainAuthOnLoopback(t *testing.T) {
	c := startCatcher(t, CatcherOptions{Username: "u", Password: "p"})
	if err := newSender(t, c.URL()).Send(t.Context(), testMessage("loopauth@daawid.example")); err != nil {
		t.Fatal(err)
	}
	if n := len(readAllMail(t, c.Dir())); n != 1 {
		t.Errorf("%d messages, want 1", n)
	}
}

// TestSendConcurrent: one Sender, several goroutines, one connection each.
func TestSendConcurrent(t *testing.T) {
	c := startCatcher(t, CatcherOptions{})
	s := newSender(t, c.URL())
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			errs <- s.Send(t.Context(), testMessage(fmt.Sprintf("run_%d.confirm@daawid.example", i)))
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := len(readAllMail(t, c.Dir())); got != n {
		t.Errorf("%d messages, want %d", got, n)
	}
}

// TestSendRefused plays a server that is down for a while: the send fails
// temporarily and files nothing, then goes through once the server is back.
func TestSendRefused(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	c := startCatcher(t, CatcherOptions{Refuse: func() error {
		if down.Load() {
			return errors.New("down for maintenance")
		}
		return nil
	}})
	s := newSender(t, c.URL())
	m := testMessage("retry@daawid.example")
	err := s.Send(t.Context(), m)
	if err == nil {
		t.Fatal("sent while the server refuses")
	}
	if !strings.HasPrefix(err.Error(), "smtp data") || !strings.Contains(err.Error(), "451") {
		t.Errorf("error %q, want a 451 on data", err)
	}
	if Permanent(err) {
		t.Error("a 451 is permanent")
	}
	if n := len(readAllMail(t, c.Dir())); n != 0 {
		t.Fatalf("%d refused messages filed", n)
	}
	if tmp, _ := os.ReadDir(filepath.Join(c.Dir(), "tmp")); len(tmp) != 0 {
		t.Errorf("%d files left in tmp/", len(tmp))
	}
	down.Store(false)
	if err := s.Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	checkArrived(t, m, readAllMail(t, c.Dir())[0])
}

// TestSendTwiceKeepsMessageID: a message sent again, as after a crash, is
// filed twice under the same Message-ID.
func TestSendTwiceKeepsMessageID(t *testing.T) {
	c := startCatcher(t, CatcherOptions{})
	s := newSender(t, c.URL())
	m := testMessage("run_01k9zq.delivery@daawid.example")
	for range 2 {
		if err := s.Send(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	msgs := readAllMail(t, c.Dir())
	if len(msgs) != 2 || msgs[0].File == msgs[1].File {
		t.Fatalf("%d messages, want two files", len(msgs))
	}
	for _, r := range msgs {
		if r.MessageID != m.MessageID {
			t.Errorf("%s: Message-ID %q, want %q", r.File, r.MessageID, m.MessageID)
		}
	}
}

// TestSendTooLarge: the catcher's size limit answers 552, which is
// permanent, and files nothing.
func TestSendTooLarge(t *testing.T) {
	c := startCatcher(t, CatcherOptions{})
	m := testMessage("huge@daawid.example")
	m.Text = strings.Repeat("Zeile mit Text und ä\n", catcherMaxBytes/20+1000)
	err := newSender(t, c.URL()).Send(t.Context(), m)
	if err == nil || !strings.HasPrefix(err.Error(), "smtp data") || !Permanent(err) {
		t.Fatalf("error %v, want a permanent data failure", err)
	}
	if n := len(readAllMail(t, c.Dir())); n != 0 {
		t.Errorf("%d messages filed", n)
	}
	if tmp, _ := os.ReadDir(filepath.Join(c.Dir(), "tmp")); len(tmp) != 0 {
		t.Errorf("%d files left in tmp/", len(tmp))
	}
}

// TestSendBadMessage: a message that cannot be sent fails before any
// connection, permanently. The URL's port has nothing behind it, so a dial
// would fail with another error.
func TestSendBadMessage(t *testing.T) {
	s := newSender(t, "smtp://"+closedPort(t))
	for _, tc := range []struct {
		name   string
		change func(*Message)
		says   string
	}{
		{"no message id", func(m *Message) { m.MessageID = "" }, "message id"},
		{"message id in brackets", func(m *Message) { m.MessageID = "<a@b>" }, "message id"},
		{"message id without @", func(m *Message) { m.MessageID = "abc" }, "message id"},
		{"no date", func(m *Message) { m.Date = time.Time{} }, "date"},
		{"no from", func(m *Message) { m.From = "" }, "from"},
		{"bad to", func(m *Message) { m.To = "not an address" }, "to"},
		{"two to", func(m *Message) { m.To = "a@example.org, b@example.org" }, "to"},
		{"bad reply-to", func(m *Message) { m.ReplyTo = "@" }, "reply-to"},
		{"subject with a line break", func(m *Message) { m.Subject = "Hi\r\nBcc: x@example.org" }, "subject"},
		{"bad language", func(m *Message) { m.Language = "not a language" }, "language"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testMessage("bad@daawid.example")
			tc.change(&m)
			err := s.Send(t.Context(), m)
			if err == nil {
				t.Fatal("sent")
			}
			if !strings.HasPrefix(err.Error(), "mail message") || !strings.Contains(err.Error(), tc.says) || !Permanent(err) {
				t.Errorf("error %q (permanent %v), want a permanent message error about %s", err, Permanent(err), tc.says)
			}
		})
	}
}

// TestSendDialFails: nothing listens, so the dial fails, temporarily.
func TestSendDialFails(t *testing.T) {
	addr := closedPort(t)
	err := newSender(t, "smtp://"+addr).Send(t.Context(), testMessage("dial@daawid.example"))
	if err == nil || !strings.HasPrefix(err.Error(), "smtp dial at "+addr) || Permanent(err) {
		t.Fatalf("error %v, want a temporary dial failure at %s", err, addr)
	}
}

// TestSendHonoursContext: a server that accepts and never greets holds the
// Send only until ctx ends.
func TestSendHonoursContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
		}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = newSender(t, "smtp://"+ln.Addr().String()).Send(ctx, testMessage("slow@daawid.example"))
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "smtp greeting") {
		t.Fatalf("error %v, want the deadline in the greeting step", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Send took %v after its context ended", took)
	}
	if Permanent(err) {
		t.Error("a timeout is permanent")
	}
}

// closedPort is a loopback host:port that nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestSenderStringHidesPassword: printing a Sender shows no password.
func TestSenderStringHidesPassword(t *testing.T) {
	s := newSender(t, "smtps://user:Hidden-Pw@mail.example:465")
	for _, out := range []string{s.String(), fmt.Sprintf("%v %+v %#v %s", s, s, s, s)} {
		if strings.Contains(out, "Hidden-Pw") {
			t.Errorf("%q shows the password", out)
		}
	}
}
