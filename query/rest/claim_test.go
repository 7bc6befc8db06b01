package rest_test

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/query/claim"
)

// txtServer is a DNS server on loopback (miekg/dns) answering the TXT
// records set on it, and a resolver that asks only it.
type txtServer struct {
	mu  sync.Mutex
	txt map[string][]string
}

func (z *txtServer) set(host string, values ...string) {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.txt[host] = values
}

func newTXTServer(t *testing.T) (*txtServer, *net.Resolver) {
	t.Helper()
	z := &txtServer{txt: map[string][]string{}}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := dns.NewServeMux()
	mux.HandleFunc(".", func(w dns.ResponseWriter, q *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(q)
		z.mu.Lock()
		txts, ok := z.txt[strings.TrimSuffix(strings.ToLower(q.Question[0].Name), ".")]
		z.mu.Unlock()
		if !ok {
			m.Rcode = dns.RcodeNameError
		}
		for _, v := range txts {
			m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: q.Question[0].Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET}, Txt: []string{v}})
		}
		w.WriteMsg(m)
	})
	srv := &dns.Server{PacketConn: pc, Handler: mux}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	addr := pc.LocalAddr().String()
	return z, &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

// post sends a form to the claim rig's server; redirects are answers.
func (rg *claimRig) post(t *testing.T, path string, vals url.Values) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, rg.ts.URL+path, strings.NewReader(vals.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, body := doReq(t, req)
	return resp, string(body)
}

// assertNothingWritten: no claim_entry edit in the owner inbox and no
// event, after a refusal.
func (rg *claimRig) assertNothingWritten(t *testing.T, after string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(rg.in.Dir, "*.json"))
	ev, _ := os.ReadFile(rg.in.Events)
	if len(files) > 0 || len(ev) > 0 {
		t.Fatalf("after %s: %d inbox files, events %q; want none", after, len(files), ev)
	}
}

// TestClaim_HTTP34_PagesDNSProofAndRefusals goes through the claim pages
// as a browser without script does, by form POSTs: an address not at the
// domain for a mailed code, no TXT record, a TXT record with another
// value and a wrong code are each refused with a message naming the field,
// and leave no edit and no event; the right record (on a DNS server on
// loopback) and the mailed code claim the entry, and after the next delta
// its markdown reads verified at level domain (MD-08, MD-23). The Nu HTML
// checker checks every page met on the way (HTTP-17).
func TestClaim_HTTP34_PagesDNSProofAndRefusals(t *testing.T) {
	zone, resolver := newTXTServer(t)
	rg := newClaimRig(t, func(c *claim.Config) { c.Resolver = resolver })
	pages := t.TempDir()
	save := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(pages, name+".html"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(what string, resp *http.Response, body string, status int, field string) {
		t.Helper()
		if resp.StatusCode != status || !strings.Contains(body, `class="error" role="alert">`+field+":") {
			t.Fatalf("%s: %d, want %d with a message naming %q:\n%s", what, resp.StatusCode, status, field, body)
		}
		rg.assertNothingWritten(t, what)
	}
	start := "/claim/" + sbID
	_, body := rg.ts.get(t, start)
	save("start", string(body))
	resp, b := rg.post(t, start, url.Values{"email": {"jana@mailbox.example"}, "domain": {sbHost}, "method": {"email_code"}})
	expect("an address not at the domain", resp, b, 400, "email")
	save("start-refused", b)
	resp, b = rg.post(t, start, url.Values{"email": {"jana@mailbox.example"}, "domain": {"elsewhere.example"}, "method": {"dns_txt"}})
	expect("a domain the entry does not name", resp, b, 400, "domain")
	resp, _ = rg.post(t, start, url.Values{"email": {"jana@mailbox.example"}, "domain": {sbHost}, "method": {"dns_txt"}})
	claimPath := strings.TrimSuffix(resp.Header.Get("Location"), "?done=started")
	if resp.StatusCode != 303 || !strings.HasPrefix(claimPath, start+"/") {
		t.Fatalf("start: %d to %q", resp.StatusCode, claimPath)
	}
	_, body = rg.ts.get(t, claimPath)
	m := regexp.MustCompile(`<code id="value">daawid-verification=(dv1-[0-9a-f]+)</code>`).FindStringSubmatch(string(body))
	if m == nil {
		t.Fatalf("the claim's page shows no TXT value:\n%s", body)
	}
	save("claim-dns", string(body))
	resp, b = rg.post(t, claimPath, url.Values{"op": {"check"}})
	expect("no TXT record", resp, b, 400, "dns")
	zone.set(sbHost, claim.TXTPrefix+"dv1-0123456789abcdef0123456789abcdef01234567")
	resp, b = rg.post(t, claimPath, url.Values{"op": {"check"}})
	expect("a TXT record with another value", resp, b, 400, "dns")
	save("claim-dns-refused", b)
	code := rg.code(t, "jana@mailbox.example")
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	resp, b = rg.post(t, claimPath, url.Values{"op": {"code"}, "code": {wrong}})
	expect("a wrong code", resp, b, 400, "code")
	resp, b = rg.post(t, claimPath, url.Values{"op": {"step"}})
	expect("an unknown step", resp, b, 400, "op")
	zone.set(sbHost, "v=spf1 -all", claim.TXTPrefix+m[1])
	if resp, b = rg.post(t, claimPath, url.Values{"op": {"check"}}); resp.StatusCode != 303 {
		t.Fatalf("the right record: %d\n%s", resp.StatusCode, b)
	}
	rg.assertNothingWritten(t, "the record without the confirmed address")
	if resp, b = rg.post(t, claimPath, url.Values{"op": {"code"}, "code": {code}}); resp.StatusCode != 303 {
		t.Fatalf("the right code: %d\n%s", resp.StatusCode, b)
	}
	_, body = rg.ts.get(t, claimPath)
	if !strings.Contains(string(body), "Claimed.") {
		t.Fatalf("the claim's page does not say claimed:\n%s", body)
	}
	save("claim-done", string(body))
	ev, _ := os.ReadFile(rg.in.Events)
	if !strings.Contains(string(ev), `"type":"domain_verified"`) || !strings.Contains(string(ev), `"method":"dns_txt"`) || !strings.Contains(string(ev), `"host":"`+sbHost+`"`) {
		t.Errorf("the event: %s", ev)
	}
	_, body = rg.ts.get(t, "/claim/"+hkID)
	if !strings.Contains(string(body), "already claimed") {
		t.Errorf("Holzwerk Krause's claim page does not say it is claimed")
	}
	save("claimed-entry", string(body))
	rg.delta(t, rg.ts.Now.Add(time.Minute))
	_, md := rg.ts.get(t, "/"+sbSlug+".md")
	if strings.Contains(string(md), "Unclaimed entry compiled by Daawid") || !strings.Contains(string(md), "\nstatus: verified\n") ||
		!strings.Contains(string(md), "\nverification: domain\n") {
		t.Errorf("after the delta the markdown does not read verified (MD-23, MD-08):\n%.800s", md)
	}
	tools := citools.Find(t, "java", "node_modules/vnu-jar/build/dist/vnu.jar")
	if out, err := exec.Command("bash", filepath.Join(tools, "vnu-check.sh"), pages).CombinedOutput(); err != nil {
		t.Fatalf("Nu HTML checker reports errors in the claim pages:\n%s", out)
	}
}
