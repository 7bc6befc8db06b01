package claim

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// dnsServer answers TXT questions for the records given, over UDP on
// loopback, and returns a resolver that asks only it.
func dnsServer(t *testing.T, records map[string][]string) *net.Resolver {
	return txtServer(t, func(name string) ([]string, bool) { txts, ok := records[name]; return txts, ok })
}

// txtServer answers TXT questions with what lookup gives for a name (not
// found when it gives none), over UDP on loopback, and returns a resolver
// that asks only it.
func txtServer(t *testing.T, lookup func(name string) ([]string, bool)) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := dns.NewServeMux()
	mux.HandleFunc(".", func(w dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		txts, ok := lookup(strings.TrimSuffix(strings.ToLower(q.Question[0].Name), "."))
		if !ok {
			m.Rcode = dns.RcodeNameError
		}
		for _, txt := range txts {
			m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: q.Question[0].Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET}, Txt: []string{txt}})
		}
		w.WriteMsg(m)
	})
	srv := &dns.Server{PacketConn: pc, Handler: mux}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

// TestCheckDNS_TXTRecord checks the DNS proof against a real DNS server on
// loopback: the record with the token proves the claim; another token, a
// record without the prefix and a name with no records do not.
func TestCheckDNS_TXTRecord(t *testing.T) {
	r := dnsServer(t, map[string][]string{
		"holzwerk-krause.example": {"v=spf1 -all", TXTPrefix + "tok-right"},
		"other.example":           {"tok-right"},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := CheckDNS(ctx, r, "holzwerk-krause.example", "tok-right"); err != nil {
		t.Fatalf("the right record: %v", err)
	}
	for _, c := range []struct{ host, token string }{
		{"holzwerk-krause.example", "tok-wrong"},
		{"holzwerk-krause.example", ""},
		{"other.example", "tok-right"},
		{"nothing.example", "tok-right"},
	} {
		if err := CheckDNS(ctx, r, c.host, c.token); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s with %q: %v, want not found", c.host, c.token, err)
		}
	}
}

// TestCheckFile_WellKnownFile checks the file proof against a real HTTPS
// site on loopback.
func TestCheckFile_WellKnownFile(t *testing.T) {
	body := "tok-right\n"
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != FilePath {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(body))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	ctx := context.Background()
	if err := CheckFile(ctx, srv.Client(), "https", u.Host, "tok-right"); err != nil {
		t.Fatalf("the right file: %v", err)
	}
	if err := CheckFile(ctx, srv.Client(), "https", u.Host, "tok-other"); !errors.Is(err, ErrNotFound) {
		t.Errorf("another token: %v", err)
	}
	body = strings.Repeat("x", 10000) + "tok-right\n"
	if err := CheckFile(ctx, srv.Client(), "https", u.Host, "tok-right"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a token past the first line: %v", err)
	}
	if err := CheckFile(ctx, http.DefaultClient, "https", u.Host, "tok-right"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("an untrusted certificate must fail the fetch: %v", err)
	}
}
