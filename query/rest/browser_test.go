package rest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/query/rest"
)

// TestBrowser_HTTP17_PagesForPeople drives headless Chromium (Debian's
// chromium, by chromedp) through Holzwerk Krause's entry page, its
// Impressum and the report form the way a person does: it follows the
// footer links by clicking them and sends the report with the form's
// button, a real form POST. It asserts that the pages run no JavaScript
// (HTTP-17), that the footer links to the Impressum, the privacy notice
// and the report form (HTTP-21), that the Impressum is a page of its own
// (HTTP-31), that a report is recorded (HTTP-22), that no cookie is set at
// any point and that no request leaves the origin. It saves the
// screenshots for the README under docs/screenshots/.
//
// Screenshots are written to docs/screenshots/ when DAAWID_SCREENSHOTS=1,
// or when a file is not there yet; otherwise they are taken all the same
// (the path is exercised) and written to a temporary folder, so that an
// ordinary test run does not rewrite the checked-in pictures.
func TestBrowser_HTTP17_PagesForPeople(t *testing.T) {
	citools.Find(t, "chromium")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal(err)
	}
	// The registry's pages name their origin, https://daawid.example, in
	// every link, style sheet and form. The browser reaches that origin at
	// the test server: a TLS listener on loopback over the same handler,
	// to which Chromium resolves daawid.example and nothing else. So the
	// links are followed by clicking them, the pages and screenshots show
	// the addresses they have in production, and "no request leaves the
	// origin" is checked against the origin the pages are made for.
	reports := t.TempDir()
	ts := newServer(t, func(c *rest.Config) { c.Reports = reports })
	tlsSrv := httptest.NewTLSServer(ts.Config.Handler)
	defer tlsSrv.Close()
	origin := reg.Site.BaseURL
	host := strings.TrimPrefix(origin, "https://")
	if !strings.HasPrefix(origin, "https://") || strings.ContainsAny(host, ":/") {
		t.Fatalf("the test registry's base URL %s is not an https origin", origin)
	}

	// One deadline for the whole browser session: the browser ends with it.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox, // the tests may run as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.WindowSize(1280, 1800),
		chromedp.UserDataDir(t.TempDir()),
		// daawid.example is the loopback server; no other host resolves,
		// so the test never reaches the internet even if a page asked it
		// to (a request that tries is still seen, and failed, below).
		chromedp.Flag("host-resolver-rules", "MAP "+host+" "+strings.TrimPrefix(tlsSrv.URL, "https://")+", MAP * ~NOTFOUND"),
		// The test server's certificate is not for daawid.example.
		chromedp.IgnoreCertErrors,
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc() // waits for the browser to exit, before the temporary folders go
	rec := &browserRecorder{}
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(rec.listen))
	defer cancelTab()
	// chromedp enables the Network domain when it attaches the tab; enable
	// it explicitly all the same, since the assertions depend on it.
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}

	shots := browserScreenshots(t)
	noCookie := func(where string) {
		t.Helper()
		if c, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`)); err != nil || c != "" {
			t.Errorf("%s: document.cookie = %q (%v)", where, c, err)
		}
	}
	open := func(url string) {
		t.Helper()
		resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		if resp.Status != 200 {
			t.Fatalf("GET %s: %d", url, resp.Status)
		}
	}
	// follow clicks the footer link with the label and waits for the page
	// it opens (HTTP-21). The link must point at the origin already.
	follow := func(label, wantPath string) {
		t.Helper()
		links := footerLinks(t, ctx)
		href, ok := links[label]
		if !ok {
			t.Fatalf("the footer has no link %q: %v", label, links)
		}
		if href != origin+wantPath {
			t.Fatalf("footer link %q points at %s, want %s", label, href, origin+wantPath)
		}
		sel := chromedp.CSS(fmt.Sprintf(`footer a[href=%q]`, href))
		resp, err := chromedp.RunResponse(ctx, chromedp.Click(sel))
		if err != nil {
			t.Fatalf("clicking %q: %v", label, err)
		}
		if resp.Status != 200 || resp.URL != href {
			t.Fatalf("clicking %q: %d at %s, want 200 at %s", label, resp.Status, resp.URL, href)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}

	// The entry page (HTTP-01, HTTP-17, HTTP-21).
	page := origin + "/" + hkSlug
	open(page)
	if title, err := chromedp.Run(ctx, chromedp.Title()); err != nil || !strings.Contains(title, "Holzwerk Krause") {
		t.Errorf("entry page title %q (%v)", title, err)
	}
	if lang, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); lang != "de" {
		t.Errorf("entry page language %q, want de", lang)
	}
	noScript(t, ctx, "entry page")
	links := footerLinks(t, ctx)
	for label, path := range map[string]string{
		"Impressum":         "/" + hkSlug + "/impressum",
		"Datenschutz":       "/" + hkSlug + "/datenschutz",
		"Report this entry": "/" + hkSlug + "/report",
	} {
		if links[label] != origin+path {
			t.Errorf("footer link %q = %q, want %s (HTTP-21)", label, links[label], origin+path)
		}
	}
	noCookie("entry page")
	shots.take(ctx, "entry-page.png")

	// The Impressum, by its footer link (HTTP-31).
	follow("Impressum", "/"+hkSlug+"/impressum")
	if h1 := text("h1"); !strings.Contains(h1, "Impressum") || !strings.Contains(h1, "Holzwerk Krause") {
		t.Errorf("Impressum h1 %q", h1)
	}
	noScript(t, ctx, "Impressum")
	noCookie("Impressum")
	shots.take(ctx, "impressum.png")

	// The privacy notice, by the Impressum's footer link (HTTP-21, HTTP-33).
	follow("Datenschutz", "/"+hkSlug+"/datenschutz")
	if h1 := text("h1"); !strings.Contains(h1, "Datenschutz") {
		t.Errorf("privacy notice h1 %q", h1)
	}
	noScript(t, ctx, "Datenschutz")

	// The report form, by the entry page's footer link (HTTP-22).
	open(page)
	follow("Report this entry", "/"+hkSlug+"/report")
	if h1 := text("h1"); !strings.Contains(h1, "Holzwerk Krause") {
		t.Errorf("report form h1 %q", h1)
	}
	noScript(t, ctx, "report form")
	const message = "Die Telefonnummer im Eintrag ist nicht mehr erreichbar."
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("reason"), "wrong_information"),
		chromedp.SendKeys(chromedp.ID("message"), message),
	); err != nil {
		t.Fatalf("filling the report form: %v", err)
	}
	if v, _ := chromedp.Run(ctx, chromedp.Value(chromedp.ID("reason"))); v != "wrong_information" {
		t.Errorf("reason %q after choosing wrong_information", v)
	}
	// No blinking caret in the picture.
	if err := chromedp.Do(ctx, chromedp.Blur(chromedp.ID("message"))); err != nil {
		t.Fatal(err)
	}
	shots.take(ctx, "report-form.png")
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`form button[type="submit"]`)))
	if err != nil {
		t.Fatalf("sending the report: %v", err)
	}
	if want := origin + "/" + hkSlug + "/report?sent=1"; resp.Status != 200 || resp.URL != want {
		t.Errorf("after sending: %d at %s, want 200 at %s (303 from the POST)", resp.Status, resp.URL, want)
	}
	if p := text("main p"); !strings.Contains(p, "Thank you") || !strings.Contains(p, "was recorded") {
		t.Errorf("no thank-you after sending: %q", p)
	}
	noCookie("report sent")
	shots.take(ctx, "report-sent.png")

	// The browser sent the report itself: a form POST, then the 303.
	if !rec.posted(origin + "/" + hkSlug + "/report") {
		t.Errorf("the browser made no POST to %s/%s/report", origin, hkSlug)
	}
	// The report is recorded, and the event the pipeline reads is there.
	assertReportRecorded(t, reports, message)

	// No cookie, ever: neither for the origin nor anywhere in the browser.
	if r, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{origin, page}}); err != nil || len(r.Cookies) != 0 {
		t.Errorf("cookies for %s: %v (%v)", origin, cookieNames(r.Cookies), err)
	}
	if r, err := chromedp.CallBrowser(ctx, storage.GetCookies, storage.GetCookiesParams{}); err != nil || len(r.Cookies) != 0 {
		t.Errorf("cookies in the browser: %v (%v)", cookieNames(r.Cookies), err)
	}

	// No request left the origin: no third-party scripts, fonts or images.
	rec.check(t, origin)
	shots.report(t)
}

// browserRecorder keeps what the tab asked the network for. Its listen
// runs in chromedp's read loop: it only appends, under the lock.
type browserRecorder struct {
	mu        sync.Mutex
	requests  []browserRequest
	responses []browserResponse
	setCookie []string // answers (URL or request ID) that carried Set-Cookie
}

type browserRequest struct{ method, url, kind string }

type browserResponse struct {
	url, kind string
	status    int64
}

func (r *browserRecorder) listen(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Request != nil {
			r.requests = append(r.requests, browserRequest{ev.Request.Method, ev.Request.URL, string(ev.Type)})
		}
	case *network.EventResponseReceived:
		if ev.Response != nil {
			r.responses = append(r.responses, browserResponse{ev.Response.URL, string(ev.Type), ev.Response.Status})
			if hasHeader(ev.Response.Headers, "Set-Cookie") {
				r.setCookie = append(r.setCookie, ev.Response.URL)
			}
		}
	case *network.EventResponseReceivedExtraInfo:
		// The raw headers: Set-Cookie is shown only here.
		if hasHeader(ev.Headers, "Set-Cookie") || len(ev.BlockedCookies) > 0 {
			r.setCookie = append(r.setCookie, string(ev.RequestID))
		}
	}
}

func hasHeader(h network.Headers, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// posted reports whether the tab sent a POST to the URL.
func (r *browserRecorder) posted(url string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.requests {
		if q.method == "POST" && q.url == url && q.kind == string(network.ResourceTypeDocument) {
			return true
		}
	}
	return false
}

// check asserts that every request stayed at the origin and that no
// answer set a cookie; answers that failed are logged (the pages' own
// documents are checked as they load).
func (r *browserRecorder) check(t *testing.T, origin string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.requests) == 0 {
		t.Fatal("no request recorded: the network listener saw nothing")
	}
	left := 0
	for _, q := range r.requests {
		if q.url != origin && !strings.HasPrefix(q.url, origin+"/") && !strings.HasPrefix(q.url, "data:") {
			t.Errorf("a %s request left the origin %s: %s %s", q.kind, origin, q.method, q.url)
			left++
		}
	}
	for _, u := range r.setCookie {
		t.Errorf("an answer set a cookie: %s", u)
	}
	failed := map[string]bool{}
	for _, a := range r.responses {
		if note := fmt.Sprintf("%s %s answered %d", a.kind, strings.TrimPrefix(a.url, origin), a.status); a.status >= 400 && !failed[note] {
			failed[note] = true
			t.Logf("NOTE: %s", note)
		}
	}
	t.Logf("%d requests, %d of them away from %s", len(r.requests), left, origin)
}

// noScript asserts that the page has no JavaScript (HTTP-17): no script
// element but the embedded JSON-LD, no inline event handler and no
// javascript: link.
func noScript(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('script:not([type="application/ld+json"])').length`))
	if err != nil || n != 0 {
		t.Errorf("%s: %d script elements besides JSON-LD (%v) (HTTP-17)", where, n, err)
	}
	inline, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll('*')).filter(el =>
		Array.from(el.attributes).some(a => a.name.startsWith('on') || /^\s*javascript:/i.test(a.value))).length`))
	if err != nil || inline != 0 {
		t.Errorf("%s: %d elements with event handlers or javascript: URLs (%v) (HTTP-17)", where, inline, err)
	}
}

// footerLinks are the footer's links, label to absolute URL.
func footerLinks(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	type link struct {
		Text string `json:"text"`
		Href string `json:"href"`
	}
	ls, err := chromedp.Run(ctx, chromedp.Evaluate[[]link](`Array.from(document.querySelectorAll('footer a')).map(a => ({text: a.textContent.trim(), href: a.href}))`))
	if err != nil {
		t.Fatalf("reading the footer: %v", err)
	}
	m := map[string]string{}
	for _, l := range ls {
		m[l.Text] = l.Href
	}
	return m
}

// assertReportRecorded checks the report folder after one report about
// Holzwerk Krause (HTTP-22, D49, D68).
func assertReportRecorded(t *testing.T, dir, message string) {
	t.Helper()
	lines := func(name string) []map[string]string {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("the report was not recorded: %v", err)
		}
		defer f.Close()
		var out []map[string]string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var m map[string]string
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("%s: %v: %s", name, err, sc.Text())
			}
			out = append(out, m)
		}
		return out
	}
	events := lines("events.jsonl")
	if len(events) != 1 || events[0]["type"] != "report_opened" || events[0]["entry"] != hkID {
		t.Errorf("events.jsonl: %v, want one report_opened for %s", events, hkID)
	}
	rs := lines("reports.jsonl")
	if len(rs) != 1 || rs[0]["entry"] != hkID || rs[0]["reason"] != "wrong_information" || rs[0]["message"] != message || rs[0]["email"] != "" {
		t.Errorf("reports.jsonl: %v", rs)
	}
}

func cookieNames(cs []*network.Cookie) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name+"@"+c.Domain)
	}
	return out
}

// screenshotSet takes the README's screenshots: full-page PNGs, or the
// window when a full page would be too big for the repository.
type screenshotSet struct {
	t       *testing.T
	docs    string // docs/screenshots
	tmp     string
	refresh bool
	written []string
}

const maxScreenshot = 1500 << 10

func browserScreenshots(t *testing.T) *screenshotSet {
	return &screenshotSet{t: t, docs: filepath.Join("..", "..", "docs", "screenshots"), tmp: t.TempDir(),
		refresh: os.Getenv("DAAWID_SCREENSHOTS") == "1"}
}

func (s *screenshotSet) take(ctx context.Context, name string) {
	s.t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100: PNG
	if err == nil && len(png) > maxScreenshot {
		png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		s.t.Fatalf("screenshot %s: %v", name, err)
	}
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		s.t.Fatalf("screenshot %s is not a PNG", name)
	}
	path := filepath.Join(s.tmp, name)
	if _, err := os.Stat(filepath.Join(s.docs, name)); s.refresh || os.IsNotExist(err) {
		if err := os.MkdirAll(s.docs, 0o755); err != nil {
			s.t.Fatal(err)
		}
		path = filepath.Join(s.docs, name)
		s.written = append(s.written, path)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *screenshotSet) report(t *testing.T) {
	if len(s.written) > 0 {
		t.Logf("wrote %s", strings.Join(s.written, ", "))
	}
}
