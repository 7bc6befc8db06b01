package claim

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/schemas"
)

// The claim flow's test rig: a real SQLite store, the owner inbox and
// events file in a temporary folder, a real SMTP server on loopback that
// files every mail, a DNS server on loopback (miekg/dns) answering the
// TXT records the test puts, and an HTTPS site on loopback serving the
// well-known file, reached through the guarded fetch client in test mode
// with the site's own certificate authority.

const (
	testEntry = "ent_01k8r3a0b1c2d3e4f5g6h7j8k9"
	testHost  = "schreinerei-beispiel.example"
)

type rig struct {
	svc     *Service
	st      *auth.Store
	owners  *auth.Owners
	inbox   *inbox.Inbox
	catcher *mail.Catcher
	now     time.Time

	mu   sync.Mutex
	txt  map[string][]string
	file string
}

func newRig(t *testing.T) *rig {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := auth.OpenStore(ctx, filepath.Join(dir, "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	secret := []byte("a test secret of at least thirty-two bytes")
	r := &rig{st: st, owners: auth.NewOwners(st, secret), txt: map[string][]string{},
		inbox: &inbox.Inbox{Dir: filepath.Join(dir, "inbox"), Events: filepath.Join(dir, "events.jsonl")},
		now:   time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	r.catcher, err = mail.StartCatcher("127.0.0.1:0", filepath.Join(dir, "mail"), mail.CatcherOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.catcher.Close() })
	sender, err := mail.NewSender(r.catcher.URL())
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		body := r.file
		r.mu.Unlock()
		if req.URL.Path != FilePath || body == "" {
			http.NotFound(w, req)
			return
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(site.Close)
	pool := x509.NewCertPool()
	pool.AddCert(site.Certificate())
	r.svc, err = New(Config{Store: st, Owners: r.owners, Inbox: r.inbox, Secret: secret, Mailer: sender,
		Resolver: r.dnsServer(t), Fetch: auth.GuardedClient(true, 5*time.Second, &tls.Config{RootCAs: pool}),
		FileOrigin: func(host string) string {
			if host == testHost {
				return site.URL
			}
			return "https://" + host
		}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// dnsServer answers TXT questions from r.txt over UDP on loopback.
func (r *rig) dnsServer(t *testing.T) *net.Resolver {
	return txtServer(t, func(name string) ([]string, bool) {
		r.mu.Lock()
		defer r.mu.Unlock()
		txts, ok := r.txt[name]
		return txts, ok
	})
}

func (r *rig) setTXT(host string, values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.txt[host] = values
}

func (r *rig) setFile(body string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.file = body
}

func entry() Entry {
	return Entry{ID: testEntry, Name: "Schreinerei Beispiel GmbH", Revision: 3, Unclaimed: true, Hosts: []string{testHost}}
}

// code is the code of the newest claim code mail to an address.
func (r *rig) code(t *testing.T, to string) string {
	t.Helper()
	ms, err := mail.ReadMaildir(r.catcher.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if !strings.Contains(ms[i].To, to) || !strings.Contains(ms[i].MessageID, ".claimcode@") {
			continue
		}
		for _, line := range strings.Split(ms[i].Body, "\n") {
			if c, ok := strings.CutPrefix(line, "Your code: "); ok {
				return strings.TrimSpace(c)
			}
		}
	}
	t.Fatalf("no claim code mail to %s among %d mails", to, len(ms))
	return ""
}

// written is what the claims left for the pipeline: the edits in the
// owner inbox, the events, and the owners table's owners of the entry.
func (r *rig) written(t *testing.T) (edits []schemas.OwnerEdit, events []inbox.Event, owners int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(r.inbox.Dir, "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ed schemas.OwnerEdit
		if err := json.Unmarshal(b, &ed); err != nil {
			t.Fatal(err)
		}
		edits = append(edits, ed)
	}
	if f, err := os.Open(r.inbox.Events); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var ev inbox.Event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatal(err)
			}
			events = append(events, ev)
		}
		f.Close()
	}
	if err := r.st.QueryRow(context.Background(), `SELECT COUNT(*) FROM owners WHERE entry_id = ?`, testEntry).Scan(&owners); err != nil {
		t.Fatal(err)
	}
	return edits, events, owners
}

// assertNothingClaimed: no edit, no event, no owner.
func (r *rig) assertNothingClaimed(t *testing.T, after string) {
	t.Helper()
	if edits, events, owners := r.written(t); len(edits)+len(events)+owners > 0 {
		t.Fatalf("after %s: %d edits, %d events, %d owners, want none", after, len(edits), len(events), owners)
	}
}

// assertClaimed: one claim_entry edit based on the published revision,
// one event of the proof, one owner with the address.
func (r *rig) assertClaimed(t *testing.T, email string, want inbox.Event) {
	t.Helper()
	edits, events, owners := r.written(t)
	if len(edits) != 1 || edits[0].Tool != schemas.EditClaimEntry || edits[0].Entry != testEntry || edits[0].BasedOn != 3 || len(edits[0].Set) != 0 {
		t.Errorf("edits: %+v, want one claim_entry based on revision 3 (D96)", edits)
	}
	want.Entry, want.At = testEntry, schemas.FormatTime(r.now)
	if len(events) != 1 || events[0] != want {
		t.Errorf("events: %+v, want %+v", events, want)
	}
	got, err := r.owners.EntriesOf(context.Background(), email, r.now)
	if owners != 1 || err != nil || len(got) != 1 || got[0].EntryID != testEntry || got[0].Method != want.Method && want.Method != "" {
		t.Errorf("owners: %d, %+v %v", owners, got, err)
	}
}

// refused asserts a refusal naming field.
func refused(t *testing.T, err error, field, what string) {
	t.Helper()
	var ce *Error
	if !errors.As(err, &ce) || ce.Field != field {
		t.Fatalf("%s: %v, want a refusal naming %q", what, err, field)
	}
}

// TestClaim_HTTP34_DNSProof: a claim by a DNS TXT record, checked against
// a DNS server on loopback. No record, and a record with another value,
// are refused naming the field; the right record and the mailed code
// claim the entry: the owner, the claim_entry edit and domain_verified
// with method dns_txt (D96).
func TestClaim_HTTP34_DNSProof(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c, err := r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodDNS, testHost, r.now)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Value, "dv1-") {
		t.Fatalf("value %q", c.Value)
	}
	c, err = r.svc.Load(ctx, testEntry, c.Token, r.now)
	if err != nil || c.Value == "" {
		t.Fatalf("load: %v", err)
	}
	refused(t, r.svc.Check(ctx, c, r.now), "dns", "no record")
	r.setTXT(testHost, "v=spf1 -all", TXTPrefix+"dv1-another-claims-value")
	refused(t, r.svc.Check(ctx, c, r.now), "dns", "another value")
	r.assertNothingClaimed(t, "the wrong record")
	r.setTXT(testHost, "v=spf1 -all", TXTPrefix+c.Value)
	if err := r.svc.Check(ctx, c, r.now); err != nil || !c.Proved {
		t.Fatalf("the right record: %v", err)
	}
	if err := r.svc.Finish(ctx, c, entry(), r.now); err != nil || c.Done {
		t.Fatalf("the address is not confirmed yet, so the claim must wait: %v, done %v", err, c.Done)
	}
	r.assertNothingClaimed(t, "a proof without the confirmed address")
	if err := r.svc.ConfirmCode(ctx, c, r.code(t, "jana@mailbox.example"), r.now); err != nil {
		t.Fatal(err)
	}
	if err := r.svc.Finish(ctx, c, entry(), r.now); err != nil || !c.Done {
		t.Fatalf("finish: %v", err)
	}
	r.assertClaimed(t, "jana@mailbox.example", inbox.Event{Type: "domain_verified", Host: testHost, Method: MethodDNS})
	// A second finish, and a reloaded claim, write nothing more.
	c2, _ := r.svc.Load(ctx, testEntry, c.Token, r.now)
	if err := r.svc.Finish(ctx, c2, entry(), r.now); err != nil || !c2.Done {
		t.Fatal(err)
	}
	r.assertClaimed(t, "jana@mailbox.example", inbox.Event{Type: "domain_verified", Host: testHost, Method: MethodDNS})
	// The entry is claimed now: a new claim is refused.
	_, err = r.svc.Start(ctx, entry(), "other@mailbox.example", MethodDNS, testHost, r.now)
	refused(t, err, "entry", "a second claim")
}

// TestClaim_HTTP34_FileProof: a claim by the well-known file on an HTTPS
// site on loopback, fetched by the guarded client. No file, and a file
// with another value, are refused naming the field; the right file
// claims the entry with domain_verified, method well_known_file.
func TestClaim_HTTP34_FileProof(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c, err := r.svc.Start(ctx, entry(), "Jana@Mailbox.example", MethodFile, "", r.now)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.svc.ConfirmCode(ctx, c, r.code(t, "jana@mailbox.example"), r.now); err != nil {
		t.Fatal(err)
	}
	refused(t, r.svc.Check(ctx, c, r.now), "file", "no file")
	r.setFile("dv1-another-claims-value\n")
	refused(t, r.svc.Check(ctx, c, r.now), "file", "another value")
	r.assertNothingClaimed(t, "the wrong file")
	r.setFile(c.Value + "\n")
	if err := r.svc.Check(ctx, c, r.now); err != nil {
		t.Fatal(err)
	}
	if err := r.svc.Finish(ctx, c, entry(), r.now); err != nil || !c.Done {
		t.Fatalf("finish: %v", err)
	}
	r.assertClaimed(t, "jana@mailbox.example", inbox.Event{Type: "domain_verified", Host: testHost, Method: MethodFile})
}

// TestClaim_HTTP34_GuardRefusesLoopbackInProduction: the well-known file
// is fetched by the guarded client; in production mode it does not
// connect to a loopback address, so a domain that resolves inside proves
// nothing.
func TestClaim_HTTP34_GuardRefusesLoopbackInProduction(t *testing.T) {
	r := newRig(t)
	r.svc.cfg.Fetch = auth.GuardedClient(false, 5*time.Second, nil)
	ctx := context.Background()
	c, err := r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodFile, testHost, r.now)
	if err != nil {
		t.Fatal(err)
	}
	r.setFile(c.Value + "\n")
	err = r.svc.Check(ctx, c, r.now)
	refused(t, err, "file", "a loopback site in production mode")
	if !strings.Contains(err.Error(), "refused") {
		t.Errorf("the refusal does not say the address was refused: %v", err)
	}
}

// TestClaim_HTTP34_EmailCode: a code mailed to an address at the entry's
// domain proves the mailbox: contact_confirmed (D96). An address not at
// the domain is refused naming the email field.
func TestClaim_HTTP34_EmailCode(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	_, err := r.svc.Start(ctx, entry(), "jana@elsewhere.example", MethodEmail, testHost, r.now)
	refused(t, err, "email", "an address not at the domain")
	_, err = r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodEmail, "other.example", r.now)
	refused(t, err, "domain", "a domain the entry does not name")
	_, err = r.svc.Start(ctx, entry(), "not an address", MethodEmail, testHost, r.now)
	refused(t, err, "email", "no address")
	_, err = r.svc.Start(ctx, entry(), "info@"+testHost, "postcard", testHost, r.now)
	refused(t, err, "method", "an unknown method")
	noSite := entry()
	noSite.Hosts = nil
	_, err = r.svc.Start(ctx, noSite, "info@"+testHost, MethodEmail, testHost, r.now)
	refused(t, err, "entry", "an entry naming no domain")
	r.assertNothingClaimed(t, "the refused starts")
	c, err := r.svc.Start(ctx, entry(), "info@"+testHost, MethodEmail, testHost, r.now)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.svc.ConfirmCode(ctx, c, r.code(t, "info@"+testHost), r.now); err != nil {
		t.Fatal(err)
	}
	if err := r.svc.Finish(ctx, c, entry(), r.now); err != nil || !c.Done {
		t.Fatalf("finish: %v", err)
	}
	r.assertClaimed(t, "info@"+testHost, inbox.Event{Type: "contact_confirmed"})
}

// TestClaim_HTTP34_WrongAndExpiredCodes: a wrong code and an expired code
// claim nothing and say so naming the code field; the fifth wrong code
// locks the claim, and the right code after it is refused too.
func TestClaim_HTTP34_WrongAndExpiredCodes(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c, err := r.svc.Start(ctx, entry(), "info@"+testHost, MethodEmail, testHost, r.now)
	if err != nil {
		t.Fatal(err)
	}
	right := r.code(t, "info@"+testHost)
	if err := r.svc.ConfirmCode(ctx, c, right, r.now.Add(CodeTTL)); err == nil || !strings.Contains(err.Error(), "ran out") {
		t.Fatalf("an expired code: %v", err)
	}
	refused(t, r.svc.ConfirmCode(ctx, c, "12345", r.now), "code", "five digits")
	wrong := "000000"
	if right == wrong {
		wrong = "000001"
	}
	for i := 0; i < TriesPerClaim-1; i++ {
		refused(t, r.svc.ConfirmCode(ctx, c, wrong, r.now), "code", "a wrong code")
	}
	err = r.svc.ConfirmCode(ctx, c, right, r.now)
	refused(t, err, "code", "the right code after the tries")
	if !strings.Contains(err.Error(), "locked") {
		t.Errorf("want locked: %v", err)
	}
	r.svc.Finish(ctx, c, entry(), r.now)
	r.assertNothingClaimed(t, "wrong and expired codes")
}

// TestClaim_HTTP34_TriesExactUnderConcurrency: twenty wrong codes at once
// compare no more than the claim's five tries; the rest are told the
// claim is locked.
func TestClaim_HTTP34_TriesExactUnderConcurrency(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c, err := r.svc.Start(ctx, entry(), "info@"+testHost, MethodEmail, testHost, r.now)
	if err != nil {
		t.Fatal(err)
	}
	right := r.code(t, "info@"+testHost)
	wrong := "000000"
	if right == wrong {
		wrong = "000001"
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	compared := 0
	for range 20 {
		wg.Go(func() {
			cc, err := r.svc.Load(ctx, testEntry, c.Token, r.now)
			if err != nil {
				t.Error(err)
				return
			}
			if err := r.svc.ConfirmCode(ctx, cc, wrong, r.now); err != nil && strings.Contains(err.Error(), "is not the code") {
				mu.Lock()
				compared++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var tries int
	if err := r.st.QueryRow(ctx, `SELECT tries FROM claims`).Scan(&tries); err != nil {
		t.Fatal(err)
	}
	if tries != TriesPerClaim || compared > TriesPerClaim-1 {
		t.Errorf("tries %d, %d answered as wrong codes; want %d tries", tries, compared, TriesPerClaim)
	}
}

// TestClaim_HTTP34_MailLimits: a claim gets three codes; an address gets
// five code mails an hour across claims.
func TestClaim_HTTP34_MailLimits(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c, err := r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodDNS, testHost, r.now)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < CodesPerClaim; i++ {
		if err := r.svc.SendCode(ctx, c, "Schreinerei Beispiel GmbH", r.now); err != nil {
			t.Fatalf("code %d: %v", i+1, err)
		}
	}
	refused(t, r.svc.SendCode(ctx, c, "Schreinerei Beispiel GmbH", r.now), "code", "a fourth code")
	for i := 0; i < MailsPerAddrHr-CodesPerClaim; i++ {
		if _, err := r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodDNS, testHost, r.now); err != nil {
			t.Fatal(err)
		}
	}
	_, err = r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodDNS, testHost, r.now)
	refused(t, err, "email", "a sixth mail to the address this hour")
	if _, err := r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodDNS, testHost, r.now.Add(time.Hour)); err != nil {
		t.Errorf("the next hour: %v", err)
	}
}

// TestClaim_HTTP34_ExpiredClaim: a claim waits seven days for its proof;
// after that its page link is gone and its value proves nothing.
func TestClaim_HTTP34_ExpiredClaim(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	c, err := r.svc.Start(ctx, entry(), "jana@mailbox.example", MethodDNS, testHost, r.now)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.svc.Load(ctx, testEntry, c.Token, r.now.Add(ClaimTTL))
	refused(t, err, "claim", "a claim past seven days")
	_, err = r.svc.Load(ctx, "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", c.Token, r.now)
	refused(t, err, "claim", "the token under another entry")
}
