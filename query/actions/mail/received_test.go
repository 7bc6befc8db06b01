package mail

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadMaildirDecodes files messages as other mailers write them and
// reads their text back.
func TestReadMaildirDecodes(t *testing.T) {
	for _, tc := range []struct {
		name, raw, body, subject string
	}{
		{
			name:    "base64 utf-8",
			raw:     "Subject: =?utf-8?b?UsO8Y2tydWY=?=\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nUsO8Y2tydWYgZsO8\r\nciBNw7xsbGVy\r\n",
			body:    "Rückruf für Müller",
			subject: "Rückruf",
		},
		{
			name:    "latin-1 quoted-printable",
			raw:     "Subject: =?iso-8859-1?q?R=FCckruf?=\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nR=FCckruf f=FCr M=FCller\r\nZeile 2\r\n",
			body:    "Rückruf für Müller\nZeile 2\n",
			subject: "Rückruf",
		},
		{
			name:    "no content-type",
			raw:     "Subject: plain\r\n\r\nhello\r\n",
			body:    "hello\n",
			subject: "plain",
		},
		{
			name: "multipart alternative",
			raw: "Subject: mixed\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=XX\r\n\r\n" +
				"--XX\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>html</p>\r\n" +
				"--XX\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nR=C3=BCckruf\r\n" +
				"--XX--\r\n",
			body:    "Rückruf",
			subject: "mixed",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "cur"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "cur", "1.M1P1.host:2,S"), []byte(tc.raw), 0o600); err != nil {
				t.Fatal(err)
			}
			msgs := readAllMail(t, dir)
			if len(msgs) != 1 {
				t.Fatalf("%d messages, want 1", len(msgs))
			}
			if msgs[0].Body != tc.body || msgs[0].Subject != tc.subject {
				t.Errorf("body %q, subject %q; want %q, %q", msgs[0].Body, msgs[0].Subject, tc.body, tc.subject)
			}
		})
	}
}

// TestReadMaildirOrder reads new and cur together, oldest first, and
// refuses a Maildir that is not there.
func TestReadMaildirOrder(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, f := range []struct{ sub, name string }{{"new", "b"}, {"cur", "a:2,S"}, {"new", "c"}} {
		path := filepath.Join(dir, f.sub, f.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("Subject: "+f.name+"\r\n\r\n.\r\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, base, base.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	var order []string
	for _, m := range readAllMail(t, dir) {
		order = append(order, m.Subject)
	}
	if got := strings.Join(order, " "); got != "b a:2,S c" {
		t.Errorf("order %q, want by time", got)
	}
	if _, err := ReadMaildir(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing Maildir reads as empty")
	}
}

// TestWaitFor finds a message sent while it waits, and gives up when its
// context ends.
func TestWaitFor(t *testing.T) {
	c := startCatcher(t, CatcherOptions{})
	m := testMessage("later@daawid.example")
	sent := make(chan error, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		sent <- newSender(t, c.URL()).Send(context.Background(), m)
	}()
	got, err := WaitFor(t.Context(), c.Dir(), func(r Received) bool { return r.MessageID == m.MessageID })
	if err != nil {
		t.Fatal(err)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	checkArrived(t, m, got)

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err = WaitFor(ctx, c.Dir(), func(r Received) bool { return r.MessageID == "never@daawid.example" })
	if err == nil || !strings.Contains(err.Error(), "none matched") {
		t.Errorf("error %v, want none matched", err)
	}
}

// TestCatcherNames: the Maildir's file names carry the passed-in clock.
func TestCatcherNames(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 30, 0, 123456000, time.UTC)
	c := startCatcher(t, CatcherOptions{Now: func() time.Time { return at }})
	s := newSender(t, c.URL())
	for range 2 {
		if err := s.Send(t.Context(), testMessage("named@daawid.example")); err != nil {
			t.Fatal(err)
		}
	}
	msgs := readAllMail(t, c.Dir())
	for _, r := range msgs {
		if !strings.HasPrefix(filepath.Base(r.File), "1796117400.M123456P") {
			t.Errorf("file name %s does not begin with the clock's time", filepath.Base(r.File))
		}
	}
	if len(msgs) != 2 || msgs[0].File == msgs[1].File {
		t.Errorf("two messages at one instant share a file: %d", len(msgs))
	}
}

// TestStartCatcherRefuses: settings that do not go together, and addresses
// other machines could reach.
func TestStartCatcherRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, opt := range map[string]CatcherOptions{
		"implicit TLS without TLS": {ImplicitTLS: true},
		"user without password":    {Username: "u"},
	} {
		if c, err := StartCatcher("127.0.0.1:0", dir, opt); err == nil {
			c.Close()
			t.Errorf("%s: started", name)
		}
	}
	// The check runs on the bound address; it is tested without binding
	// anything but loopback.
	for _, a := range []struct {
		addr net.Addr
		ok   bool
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}, true},
		{&net.TCPAddr{IP: net.IPv6loopback}, true},
		{&net.TCPAddr{IP: net.IPv4zero}, false},
		{&net.TCPAddr{IP: net.IPv6unspecified}, false},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 1)}, false},
	} {
		if err := checkLoopback(a.addr); (err == nil) != a.ok {
			t.Errorf("%v: %v", a.addr, err)
		}
	}
}

// TestCatcherCloseTwice: Close may be called again.
func TestCatcherCloseTwice(t *testing.T) {
	c, err := StartCatcher("127.0.0.1:0", t.TempDir(), CatcherOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", c.Addr()); err == nil {
		t.Error("still listening")
	}
}

// FuzzParseReceived: no message file makes the reader panic.
func FuzzParseReceived(f *testing.F) {
	f.Add([]byte("Subject: =?utf-8?q?R=C3=BCckruf?=\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nR=C3=BCckruf\r\n"))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=a\r\n\r\n--a\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n--a--\r\n"))
	f.Add([]byte("Content-Type: text/plain; charset=koi8-r\r\nContent-Transfer-Encoding: base64\r\n\r\n8MLJ18XU\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, _ = parseReceived(raw)
	})
}
