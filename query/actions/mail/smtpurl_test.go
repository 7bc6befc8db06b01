package mail

import (
	"strings"
	"testing"
)

// TestParseSMTPURL reads the good forms and names the wrong part of the
// bad ones, never quoting a password.
func TestParseSMTPURL(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want endpoint
	}{
		{"smtp://127.0.0.1:2525", endpoint{mode: tlsOpportunistic, host: "127.0.0.1", port: 2525}},
		{"SMTP+STARTTLS://u:p%2Fw%40d@mail.example:587/", endpoint{mode: tlsRequired, host: "mail.example", port: 587, user: "u", password: "p/w@d"}},
		{"smtps://u@[::1]:465?insecure=1", endpoint{mode: tlsImplicit, host: "::1", port: 465, user: "u", insecure: true}},
		{"smtp://localhost:25?insecure=false", endpoint{host: "localhost", port: 25}},
	} {
		got, err := parseSMTPURL(tc.url)
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.url, got, err, tc.want)
		}
	}
}

func TestNewSenderBadURL(t *testing.T) {
	for _, tc := range []struct{ url, part string }{
		{"ftp://mail.example:21", "scheme"},
		{"mail.example:25", "scheme"},
		{"smtp:mail.example:25", "host"},
		{"smtp://:25", "host"},
		{"smtp://mail.example", "port"},
		{"smtp://mail.example:0", "port"},
		{"smtp://mail.example:70000", "port"},
		{"smtp://mail.example:smtp", "port"},
		{"smtp://:pw@mail.example:25", "user"},
		{"smtp://mail.example:25/inbox", "path"},
		{"smtp://mail.example:25#x", "fragment"},
		{"smtp://mail.example:25?insecure=yes", "insecure"},
		{"smtp://mail.example:25?insecure=1&insecure=0", "insecure"},
		{"smtp://mail.example:25?verify=0", "query parameter"},
		{"smtp://mail.example:25?insecure=%zz", "query"},
		// Unescaped "/" and "?" in a password move it into the port, the
		// path or the query; none of it may show.
		{"smtp://user:Pa/ss-Word@mail.example:25", "port"},
		{"smtp://user:25/Pass-Word@mail.example:25", "path"},
		{"smtp://user:25?Pass-Word@mail.example:25", "query parameter"},
		{"smtp://user:Pass%ZZword@mail.example:25", "escape"},
	} {
		_, err := NewSender(tc.url)
		if err == nil {
			t.Errorf("%s: no error", tc.url)
			continue
		}
		if !strings.Contains(err.Error(), tc.part) {
			t.Errorf("%s: error %q does not name %q", tc.url, err, tc.part)
		}
		for _, piece := range []string{"Pa/ss", "Pass-Word", "Pass%ZZ", "ss-Word"} {
			if strings.Contains(err.Error(), piece) {
				t.Errorf("%s: error %q quotes the password", tc.url, err)
			}
		}
	}
}

// FuzzParseSMTPURL checks that no URL makes the parser panic, and that a
// password, however malformed, never shows in an error.
func FuzzParseSMTPURL(f *testing.F) {
	for _, seed := range []struct{ head, pass, tail string }{
		{"smtp://user:", "pw", "@127.0.0.1:25"},
		{"smtps://user:", "p/w", "@mail.example:465?insecure=1"},
		{"smtp+starttls://user:", "25?x", "@host:587/"},
		{"smtp://user:", "%zz", "@[::1]:25#f"},
	} {
		f.Add(seed.head, seed.pass, seed.tail)
	}
	f.Fuzz(func(t *testing.T, head, pass, tail string) {
		const marker = "Qx7Secret"
		e, err := parseSMTPURL(head + marker + pass + tail)
		if err != nil {
			if strings.Contains(err.Error(), marker) {
				t.Fatalf("error %q shows the password", err)
			}
			return
		}
		if e.host == "" || e.port < 1 || e.port > 65535 {
			t.Fatalf("accepted %+v", e)
		}
	})
}
