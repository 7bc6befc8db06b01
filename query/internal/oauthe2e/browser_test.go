package oauthe2e

import (
	"context"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/daawid/registry/fixtures/citools"
)

// newBrowser starts headless Chromium with a fresh profile. Every host
// name resolves to nothing, so the browser reaches only the loopback
// addresses the test gives it, by number.
func newBrowser(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	citools.Find(t, "chromium")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	// Cleanups run last in, first out: the tab, then the browser, then
	// the deadline.
	t.Cleanup(cancel)
	t.Cleanup(cancelAlloc)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return tab
}

// browserSignIn is the owner in Chromium: it opens the authorization URL,
// lands on the connect page, types the address, reads the code the SMTP
// server received and types it, and presses Allow or Deny (MCP-16).
// onPage, when not nil, is called on each connect page (email, code,
// consent) once it has loaded. It returns the URL the browser ends on,
// the app's redirect URI with the authorization response.
func (rg *rig) browserSignIn(t *testing.T, ctx context.Context, authorizeURL, decision string, onPage func(step string)) string {
	t.Helper()
	step := func(name string, want int, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		resp, err := chromedp.RunResponse(ctx, actions...)
		if err != nil {
			t.Fatalf("browser, %s: %v", name, err)
		}
		if resp.Status != int64(want) {
			body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("browser, %s: %s answered %d, want %d\n%s", name, resp.URL, resp.Status, want, body)
		}
	}
	step("authorize", 200, chromedp.Navigate(authorizeURL))
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || !strings.HasPrefix(loc, rg.URL+"/connect/") {
		t.Fatalf("MCP-16: the authorization request did not land on the connect page: %s %v", loc, err)
	}
	if onPage != nil {
		onPage("email")
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("email"), ownerEmail)); err != nil {
		t.Fatal(err)
	}
	step("email", 200, chromedp.Click(chromedp.CSS(`form button[type="submit"]`)))
	if onPage != nil {
		onPage("code")
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("code"), rg.mailedCode(t))); err != nil {
		t.Fatal(err)
	}
	step("code", 200, chromedp.Click(chromedp.CSS(`form button[type="submit"]`)))
	if onPage != nil {
		onPage("consent")
	}
	// MCP-16: the consent names the app by its metadata document's
	// address, which the server fetched.
	if u, err := url.Parse(authorizeURL); err == nil {
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("main").innerText`))
		if id := u.Query().Get("client_id"); err != nil || !strings.Contains(text, id) || !strings.Contains(text, "Allow") {
			t.Errorf("MCP-16: the consent page does not name the app %s: %v\n%s", id, err, text)
		}
	}
	step("consent", 200, chromedp.Click(chromedp.CSS(`form:has(input[name="decision"][value="`+decision+`"]) button`)))
	end, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return end
}
