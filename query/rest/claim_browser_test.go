package rest_test

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/claim"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/query/internal/testserver"
)

// The demo's unclaimed Schreinerei Beispiel, compiled from the register
// and its saved website (schreinerei-beispiel.example).
const (
	sbID   = "ent_01k8r3a0b1c2d3e4f5g6h7j8k9"
	sbSlug = "schreinerei-beispiel"
	sbHost = "schreinerei-beispiel.example"
)

// claimRig is the demo's publication served with the claim flow mounted:
// a SQLite store, an owner inbox and events file of its own, and a real
// SMTP server on loopback that files the code mails.
type claimRig struct {
	ts      *testServer
	dir     string
	in      *inbox.Inbox
	catcher *mail.Catcher
	demo    *demo.Demo
}

func newClaimRig(t *testing.T, opts ...func(*claim.Config)) *claimRig {
	t.Helper()
	if testing.Short() {
		t.Skip("the demo's runs are skipped in -short mode")
	}
	dir := t.TempDir()
	d, err := demo.Prepare(dir, reg.Site, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	rg := &claimRig{dir: dir, demo: d, in: &inbox.Inbox{Dir: filepath.Join(dir, "claims-inbox"), Events: filepath.Join(dir, "claims-events.jsonl")}}
	if err := os.MkdirAll(rg.in.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rg.in.Events, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	rg.ts = &testServer{testserver.New(t, &testserver.Registry{Dir: dir, Out: d.Out, Site: reg.Site})}
	rg.ts.Now = time.Now().UTC()
	ctx := context.Background()
	st, err := auth.OpenStore(ctx, filepath.Join(dir, "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if rg.catcher, err = mail.StartCatcher("127.0.0.1:0", filepath.Join(dir, "mail"), mail.CatcherOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rg.catcher.Close() })
	sender, err := mail.NewSender(rg.catcher.URL())
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("a test secret of at least thirty-two bytes")
	ccfg := claim.Config{Store: st, Owners: auth.NewOwners(st, secret), Inbox: rg.in, Secret: secret, Mailer: sender}
	for _, o := range opts {
		o(&ccfg)
	}
	svc, err := claim.New(ccfg)
	if err != nil {
		t.Fatal(err)
	}
	rg.ts.REST.MountClaims(svc)
	// The demo published at its own dates; the schedule's delta at the
	// server's clock re-issues what time changed since (the expiry job), as
	// it does every minute in production, so the entry's published
	// revision is the one the pipeline holds.
	rg.delta(t, rg.ts.Now)
	return rg
}

// code is the code of the newest claim code mail to an address.
func (rg *claimRig) code(t *testing.T, to string) string {
	t.Helper()
	ms, err := mail.ReadMaildir(rg.catcher.Dir())
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

// delta runs the next delta publication over the demo's state with the
// claims' inbox and events, as the schedule's minute does, and swaps the
// server onto it.
func (rg *claimRig) delta(t *testing.T, now time.Time) {
	t.Helper()
	state := filepath.Join(rg.dir, "state")
	_, err := pipeline.Run(context.Background(), pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, OwnerInbox: rg.in.Dir, Verification: []string{rg.in.Events}, Now: now},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: rg.demo.Out, Site: reg.Site, Delta: true},
	}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rg.ts.Snaps.Refresh(); err != nil {
		t.Fatal(err)
	}
}

// TestClaim_Browser_HTTP34_EmailCode: a person claims the demo's
// unclaimed Schreinerei Beispiel in headless Chromium, without script:
// the claim page names the entry and links what claiming means; the
// person types an address at the entry's domain and continues; the code
// mailed there (read from the SMTP server) is typed on the claim's page,
// which then says the entry is theirs and how to connect an AI app. After
// the next delta publication the entry's markdown no longer carries the
// unclaimed framing (MD-23) and its status is published (MD-08).
func TestClaim_Browser_HTTP34_EmailCode(t *testing.T) {
	citools.Find(t, "chromium")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal(err)
	}
	rg := newClaimRig(t)
	if _, body := rg.ts.get(t, "/"+sbSlug+".md"); !strings.Contains(string(body), "Unclaimed entry compiled by Daawid") {
		t.Fatalf("Schreinerei Beispiel is not unclaimed in the demo:\n%.600s", body)
	}
	tlsSrv := httptest.NewTLSServer(rg.ts.Config.Handler)
	defer tlsSrv.Close()
	origin := reg.Site.BaseURL
	host := strings.TrimPrefix(origin, "https://")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.WindowSize(390, 1200), chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("host-resolver-rules", "MAP "+host+" "+strings.TrimPrefix(tlsSrv.URL, "https://")+", MAP * ~NOTFOUND"),
		chromedp.IgnoreCertErrors, chromedp.Flag("blink-settings", "scriptEnabled=false"))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()
	if _, err := chromedp.Call(bctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	text, click := pageDriver(t, bctx)
	claimURL := origin + "/claim/" + sbID
	if resp, err := chromedp.Run(bctx, chromedp.NavigateResponse(claimURL)); err != nil || resp.Status != 200 {
		t.Fatalf("GET %s: %v %v", claimURL, resp, err)
	}
	page := text("main")
	for _, want := range []string{"Schreinerei Beispiel", sbID, sbHost} {
		if !strings.Contains(page, want) {
			t.Errorf("the claim page does not show %q:\n%s", want, page)
		}
	}
	if links := pageLinks(t, bctx, "main a"); !links[origin+"/docs/verification"] {
		t.Errorf("the claim page does not link what claiming means: %v", links)
	}
	email := "info@" + sbHost
	if err := chromedp.Do(bctx, chromedp.SendKeys(chromedp.ID("email"), email)); err != nil {
		t.Fatal(err)
	}
	click("main form button.primary", claimURL+"/")
	if page := text("main"); !strings.Contains(page, "emailed you a code") || !strings.Contains(page, email) {
		t.Fatalf("the claim's page after Continue:\n%s", page)
	}
	if err := chromedp.Do(bctx, chromedp.SendKeys(chromedp.ID("code"), rg.code(t, email))); err != nil {
		t.Fatal(err)
	}
	click(`form:has(input[name="op"][value="code"]) button`, claimURL+"/")
	done := text("main")
	for _, want := range []string{"Claimed.", "next publication", reg.Site.MCPURL, "connect page"} {
		if !strings.Contains(done, want) {
			t.Errorf("the claimed page does not say %q:\n%s", want, done)
		}
	}
	noScript(t, bctx, "the claimed page")
	rg.delta(t, rg.ts.Now.Add(time.Minute))
	_, md := rg.ts.get(t, "/"+sbSlug+".md")
	if strings.Contains(string(md), "Unclaimed entry compiled by Daawid") || !strings.Contains(string(md), "\nstatus: published\n") {
		t.Errorf("after the delta the markdown still reads unclaimed (MD-23, MD-08):\n%.800s", md)
	}
	if !strings.Contains(string(md), "\nverification: contact\n") {
		t.Errorf("after the delta the markdown's verification is not contact:\n%.800s", md)
	}
}
