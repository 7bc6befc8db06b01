package rest_test

import (
	"context"
	"encoding/xml"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/daawid/registry/fixtures/citools"
)

// phoneWidth is the narrowest screen every page must fit (issue 15): an
// ordinary phone held upright, in CSS pixels.
const phoneWidth = 390

// newBrowser starts headless Chromium with the test server as the
// registry's origin: Chromium resolves the base URL's host to a TLS
// listener on loopback over the server's handler, and nothing else (the
// same set-up as TestBrowser_HTTP17_PagesForPeople).
func newBrowser(t *testing.T, ts *testServer, timeout time.Duration) context.Context {
	t.Helper()
	citools.Find(t, "chromium")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal(err)
	}
	tlsSrv := httptest.NewTLSServer(ts.Config.Handler)
	t.Cleanup(tlsSrv.Close)
	host := strings.TrimPrefix(reg.Site.BaseURL, "https://")
	if !strings.HasPrefix(reg.Site.BaseURL, "https://") || strings.ContainsAny(host, ":/") {
		t.Fatalf("the test registry's base URL %s is not an https origin", reg.Site.BaseURL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("host-resolver-rules", "MAP "+host+" "+strings.TrimPrefix(tlsSrv.URL, "https://")+", MAP * ~NOTFOUND"),
		chromedp.IgnoreCertErrors,
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	// Cleanups run last in, first out: the tab, then the browser (which
	// waits for it to exit), then the deadline.
	t.Cleanup(cancel)
	t.Cleanup(cancelAlloc)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return tab
}

// phonePages are the pages a person reads besides the entry pages (which
// the sitemap lists): the landing page, search, browsing, the API's and
// the ranking policy's pages, the vocabulary's page, Daawid's privacy
// policy, and an entry's report form, claim page and action form.
var phonePages = []string{
	"/", "/search?q=Tischler&place=Wuppertal", "/search?q=Zzyzxqv", "/search?q=&limit=abc",
	"/search/categories", "/search/categories?place=Wuppertal&country=DE", "/search/towns",
	"/docs/api", "/docs/ranking", "/ns", "/privacy", "/" + hkSlug + "/report", "/claim/" + hkID,
	"/" + hkSlug + "/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j",
}

// TestBrowser_PhoneWidth: at 390 px wide, as a phone shows it (mobile
// emulation, so a page without a viewport tag or with content wider
// than the screen shows it), every page for people fits the screen:
// document.documentElement.scrollWidth equals the viewport's width. The
// pages are the ones above and every page the sitemap lists (each entry
// in each language, its Impressum and privacy notice). Wide content, such
// as tables, scrolls inside its own box (issue 15).
func TestBrowser_PhoneWidth(t *testing.T) {
	ts := newServer(t)
	ctx := newBrowser(t, ts, 3*time.Minute)
	pages := append([]string{}, phonePages...)
	pages = append(pages, sitemapPaths(t, ts)...)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phoneWidth, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	for _, path := range pages {
		resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(reg.Site.BaseURL+path))
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		if resp.Status != 200 && resp.Status != 422 {
			t.Errorf("GET %s: %d", path, resp.Status)
			continue
		}
		w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
		if err != nil {
			t.Fatal(err)
		}
		if w != phoneWidth {
			wide, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('body *')).
				filter(el => el.getBoundingClientRect().right > `+strconv.Itoa(phoneWidth)+` + 0.5).slice(0, 5).
				map(el => el.tagName + (el.className ? '.' + el.className : '') + ' ' + Math.round(el.getBoundingClientRect().right))`))
			t.Errorf("%s is %d px wide at %d px (wider than the screen: %v)", path, w, phoneWidth, wide)
		}
	}
	if len(pages) < len(phonePages)+5 {
		t.Errorf("only %d pages measured", len(pages))
	}
}

// TestBrowser_Screenshots takes the README's pictures of the landing
// page, the search results, an entry page and /docs/api at 1280 and 390
// px wide (the first screen of each, to keep the files small), and checks
// that each is a PNG the width it was taken at. They are written to
// docs/screenshots/ as TestBrowser_HTTP17_PagesForPeople writes its own:
// with DAAWID_SCREENSHOTS=1, or when missing.
func TestBrowser_Screenshots(t *testing.T) {
	ts := newServer(t)
	ctx := newBrowser(t, ts, 2*time.Minute)
	shots := browserScreenshots(t)
	for _, size := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"1280", 1280, 900, false}, {"390", phoneWidth, 844, true}} {
		opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
		if size.mobile {
			opts = append(opts, chromedp.EmulateMobile)
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.width, size.height, opts...)); err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct{ name, path string }{
			{"landing", "/"}, {"search", "/search?q=Tischler&place=Wuppertal"}, {"entry", "/" + hkSlug}, {"api-docs", "/docs/api"},
		} {
			resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(reg.Site.BaseURL+p.path))
			if err != nil || resp.Status != 200 {
				t.Fatalf("GET %s: %v", p.path, err)
			}
			name := p.name + "-" + size.name + ".png"
			png := shots.viewport(ctx, name)
			if w := pngWidth(png); w != size.width {
				t.Errorf("%s is %d px wide, want %d", name, w, size.width)
			}
		}
	}
	shots.report(t)
}

// viewport takes a picture of the window (not the full page) and saves
// it as take does.
func (s *screenshotSet) viewport(ctx context.Context, name string) []byte {
	s.t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Fatalf("screenshot %s: %v", name, err)
	}
	if len(png) < 24 || string(png[1:4]) != "PNG" {
		s.t.Fatalf("screenshot %s is not a PNG", name)
	}
	if len(png) > maxScreenshot {
		s.t.Errorf("screenshot %s is %d bytes, more than %d", name, len(png), maxScreenshot)
	}
	path := filepath.Join(s.tmp, name)
	if _, err := os.Stat(filepath.Join(s.docs, name)); s.refresh || os.IsNotExist(err) {
		path = filepath.Join(s.docs, name)
		s.written = append(s.written, path)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		s.t.Fatal(err)
	}
	return png
}

// pngWidth reads a PNG's width from its IHDR chunk.
func pngWidth(png []byte) int64 {
	if len(png) < 24 {
		return 0
	}
	return int64(png[16])<<24 | int64(png[17])<<16 | int64(png[18])<<8 | int64(png[19])
}

// sitemapPaths are the paths of the pages the sitemap lists.
func sitemapPaths(t *testing.T, ts *testServer) []string {
	t.Helper()
	resp, body := ts.get(t, "/sitemap.xml")
	if resp.StatusCode != 200 {
		t.Fatalf("/sitemap.xml: %d", resp.StatusCode)
	}
	var sm struct {
		URLs []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(body, &sm); err != nil {
		t.Fatalf("/sitemap.xml: %v", err)
	}
	var out []string
	for _, u := range sm.URLs {
		if p, ok := localPath(u.Loc); ok {
			out = append(out, p)
		}
	}
	return out
}
