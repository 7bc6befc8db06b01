package rest_test

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// TestRuns_HTTP17_PagesValidHTML runs the W3C Nu HTML checker over the
// request pages in each of their states and languages: the web form
// (HTTP-36) blank and with mistakes, the confirmation page (HTTP-37)
// waiting, after a code, with a wrong code, sent, cancelled, and for an
// entry below level domain with the contact wording (ACT-35), Daawid's
// privacy policy, and /docs/api with the request routes.
func TestRuns_HTTP17_PagesValidHTML(t *testing.T) {
	tools := citools.Find(t, "java", "node_modules/vnu-jar/build/dist/vnu.jar")
	rg := newRunsRig(t, "sqlite", nil)
	dir := t.TempDir()
	n := 0
	save := func(name string, body []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name+".html"), body, 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	page := func(name, path string, want int) string {
		t.Helper()
		resp, body := rg.get(t, path)
		if resp.StatusCode != want || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: GET %s: %d %s", name, path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if resp.Header.Get("Set-Cookie") != "" {
			t.Errorf("%s sets a cookie", name)
		}
		save(name, body)
		return string(body)
	}
	form := "/" + hkSlug + "/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j"
	page("form-de", form, 200)
	page("form-en", form+"?lang=en", 200)
	resp, body := rg.postForm(t, form, url.Values{"lang": {"en"}, "description": {"short"}, "requester.email": {"not an address"}})
	if resp.StatusCode != 422 || !strings.Contains(string(body), "class=\"error\"") {
		t.Errorf("a form with mistakes: %d", resp.StatusCode)
	}
	save("form-mistakes", body)
	page("privacy-en", "/privacy", 200)
	page("privacy-de", "/privacy?lang=de", 200)
	if b := page("api-docs", "/docs/api", 200); !strings.Contains(b, `id="startRun"`) || !strings.Contains(b, "The body of <code>request_quote</code>") {
		t.Error("/docs/api does not document starting a request")
	}

	res, err := rg.startRun(t, schemas.ActionRequestQuote, testserver.QuoteFrom("pages@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	cp := strings.TrimPrefix(res.ConfirmURL, reg.Site.BaseURL)
	page("confirm-waiting", cp, 200)
	rg.postForm(t, cp, url.Values{"op": {"code"}})
	page("confirm-code-sent", cp+"?done=code", 200)
	resp, body = rg.postForm(t, cp, url.Values{"op": {"send"}, "code": {"000000"}})
	if resp.StatusCode != 422 {
		t.Errorf("a wrong code: %d", resp.StatusCode)
	}
	save("confirm-wrong-code", body)
	rg.postForm(t, cp, url.Values{"op": {"send"}, "code": {rg.codeFor(t, "pages@example.org")}})
	page("confirm-sent", cp+"?done=sent", 200)

	// Below level domain: the contact wording (ACT-35).
	res2, err := rg.startRun(t, schemas.ActionSendMessage, messageTo("below@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	cp2 := strings.TrimPrefix(res2.ConfirmURL, reg.Site.BaseURL)
	if b := page("confirm-below-domain", cp2, 200); !strings.Contains(b, "class=\"notice\"") || !strings.Contains(b, "confirmed an email address for this entry, not who runs it") {
		t.Errorf("the confirmation page of an entry at level contact lacks the §2.3 wording (ACT-35)")
	}
	if err := rg.acts.Cancel(context.Background(), tokenOf(t, res2.ConfirmURL), rg.Now); err != nil {
		t.Fatal(err)
	}
	page("confirm-cancelled", cp2, 200)

	out, err := exec.Command("bash", filepath.Join(tools, "vnu-check.sh"), dir).CombinedOutput()
	if err != nil {
		t.Fatalf("Nu HTML checker reports errors in the request pages:\n%s", out)
	}
	if n < 10 {
		t.Errorf("only %d pages checked", n)
	}
}
