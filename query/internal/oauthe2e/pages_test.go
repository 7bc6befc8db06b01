package oauthe2e

import (
	"net/http"
	"net/url"
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

// phoneWidth is the narrowest screen every page for people must fit
// (issue 15): a phone held upright, in CSS pixels.
const phoneWidth = 390

// phoneLayout measures the page Chromium shows at phoneWidth: the
// document is no wider than the screen (no horizontal scroll), and it
// is readable: body text and form fields at 16 px at least (a phone
// zooms into smaller fields), and every button and field at least 24 px
// high and wide (WCAG 2.2's minimum target size). It returns what is
// wrong, "" when nothing is.
// The width is the constant, not window.innerWidth, which a phone widens
// to fit content wider than the screen.
var phoneLayout = `((W) => {
  const bad = [];
  const w = document.documentElement.scrollWidth;
  if (w > W) {
    const wide = Array.from(document.querySelectorAll("body *")).filter(el => el.getBoundingClientRect().right > W + 0.5)
      .slice(0, 5).map(el => el.tagName + " " + Math.round(el.getBoundingClientRect().right));
    bad.push("the page is " + w + " px wide at " + W + " px: " + wide.join(", "));
  }
  const px = el => parseFloat(getComputedStyle(el).fontSize);
  if (px(document.body) < 16) bad.push("body text is " + px(document.body) + " px");
  for (const el of document.querySelectorAll("input:not([type=hidden]), button")) {
    const r = el.getBoundingClientRect();
    if (px(el) < 16) bad.push(el.tagName + " " + (el.id || el.textContent.trim()) + " text is " + px(el) + " px");
    if (r.height < 24 || r.width < 24) bad.push(el.tagName + " " + (el.id || el.textContent.trim()) + " is " + Math.round(r.width) + "x" + Math.round(r.height) + " px");
  }
  if (!document.querySelector("h1") || document.querySelector("h1").getBoundingClientRect().width <= 0) bad.push("no visible heading");
  return bad.join("; ");
})(` + strconv.Itoa(phoneWidth) + `)`

// TestOAuth_ConnectPages_PhoneWidth: at 390 px wide, as a phone shows it,
// the connect pages (MCP-16) fit the screen and are readable: the email,
// code and consent steps of a sign-in in Chromium, the page after the
// owner denied the app (its link is spent) and the page of a refused
// request. Denying sends the app access_denied with iss (MCP-15).
func TestOAuth_ConnectPages_PhoneWidth(t *testing.T) {
	rg := newRig(t)
	// An app's address is shown whole on the consent page; a long one
	// must wrap, not widen the page.
	rg.clientPath = "/.well-known/oauth-client/" + strings.Repeat("a-long-path-segment-", 8) + "client.json"
	rg.goApp(t)
	ctx := newBrowser(t, 2*time.Minute)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phoneWidth, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	measured := map[string]bool{}
	measure := func(step string) {
		t.Helper()
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[string](phoneLayout))
		if err != nil {
			t.Fatal(err)
		}
		if bad != "" {
			t.Errorf("connect page %s at %d px: %s", step, phoneWidth, bad)
		}
		measured[step] = true
	}
	var connect string
	_, challenge := pkce()
	end := rg.browserSignIn(t, ctx, rg.authorizeURL(challenge), "deny", func(step string) {
		if step == "email" {
			connect, _ = chromedp.Run(ctx, chromedp.Location())
		}
		measure(step)
	})
	back, err := url.Parse(end)
	if err != nil || !strings.HasPrefix(end, rg.RedirectURI()+"?") || back.Query().Get("error") != "access_denied" || back.Query().Get("iss") != rg.URL {
		t.Errorf("MCP-15, MCP-16: after Deny the browser is at %s", end)
	}
	for _, p := range []struct{ name, url string }{
		{"denied (the spent link)", connect},
		{"refused request", rg.URL + "/authorize?client_id=" + url.QueryEscape("http://example.com/client.json")},
	} {
		resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(p.url))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status < 400 {
			t.Errorf("%s: %s answered %d, want an error page", p.name, p.url, resp.Status)
		}
		measure(p.name)
	}
	if len(measured) != 5 {
		t.Errorf("measured %d pages, want 5: %v", len(measured), measured)
	}
}

// TestOAuth_ConnectPages_NuHTMLChecker: every connect page, as the server
// sends it, is valid HTML for the W3C Nu HTML checker: the email, code and
// consent steps, the email step with a mistake named, the spent link
// after a decision, and a refused request's page (MCP-16).
func TestOAuth_ConnectPages_NuHTMLChecker(t *testing.T) {
	tools := citools.Find(t, "java", "node_modules/vnu-jar/build/dist/vnu.jar", "./vnu-check.sh")
	rg := newRig(t)
	rg.goApp(t)
	_, challenge := pkce()
	_, pages := rg.signIn(t, challenge, "deny")
	delete(pages, "decision") // a 303 to the app, no page
	resp, body := rg.get(t, rg.authorizeURL(challenge))
	resp, body = rg.post(t, resp.Header.Get("Location")+"/email", url.Values{"email": {"not an address"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "email:") {
		t.Fatalf("a bad address: %d\n%s", resp.StatusCode, body)
	}
	pages["email-mistake"] = body
	if resp, body = rg.get(t, rg.URL+"/authorize"); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a request without client_id: %d", resp.StatusCode)
	}
	pages["refused"] = body
	dir := t.TempDir()
	for name, html := range pages {
		if !strings.HasPrefix(html, "<!doctype html>") {
			t.Errorf("%s is not a page:\n%s", name, html)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".html"), []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(pages) != 6 {
		t.Errorf("%d pages checked, want 6", len(pages))
	}
	out, err := exec.Command("bash", filepath.Join(tools, "vnu-check.sh"), dir).CombinedOutput()
	if err != nil {
		t.Errorf("the Nu HTML checker found errors in the connect pages: %v\n%s", err, out)
	}
}
