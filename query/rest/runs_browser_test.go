package rest_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/query/internal/testserver"
)

// TestRuns_Browser_ACT37_EndToEnd is the whole request flow as an AI app
// and a person go through it, in headless Chromium: the Go SDK's MCP
// client calls request_quote with the contract's example (ACT-64) and
// gets confirmation_required with the link, the hour and a summary like
// ACT-65's (ACT-33, ACT-13); the person opens the link, sees what goes to
// whom and both privacy links (ACT-36, HTTP-37), presses "Email me a
// code", reads the code from the mail (ACT-37, ACT-40), types it and
// presses "Send"; the business's mail arrives from Daawid with Reply-To
// the requester (ACT-44); get_request_status says delivered (ACT-45) and
// nothing personal (ACT-48). Then the same through the REST mirror
// (REST-24) and through the action's web form (HTTP-36). No page runs a
// script, sets a cookie or loads anything from elsewhere.
func TestRuns_Browser_ACT37_EndToEnd(t *testing.T) {
	citools.Find(t, "chromium")
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal(err)
	}
	rg := newRunsRig(t, "sqlite", nil)
	tlsSrv := httptest.NewTLSServer(rg.Config.Handler)
	defer tlsSrv.Close()
	origin := reg.Site.BaseURL
	host := strings.TrimPrefix(origin, "https://")

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.WindowSize(1000, 1400), chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("host-resolver-rules", "MAP "+host+" "+strings.TrimPrefix(tlsSrv.URL, "https://")+", MAP * ~NOTFOUND"),
		chromedp.IgnoreCertErrors)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	rec := &browserRecorder{}
	bctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(rec.listen))
	defer cancelTab()
	if _, err := chromedp.Call(bctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	shots := browserScreenshots(t)

	text, click := pageDriver(t, bctx)
	// confirm goes through the confirmation page as a person does and
	// checks the business's mail.
	confirm := func(name, confirmURL, email, business string, shot bool) {
		t.Helper()
		resp, err := chromedp.Run(bctx, chromedp.NavigateResponse(confirmURL))
		if err != nil || resp.Status != 200 {
			t.Fatalf("%s: GET %s: %v %v", name, confirmURL, resp, err)
		}
		noScript(t, bctx, name+": confirmation page")
		page := text("main")
		for _, want := range []string{"Holzwerk Krause GmbH", email} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the confirmation page does not show %q (ACT-36)", name, want)
			}
		}
		links := pageLinks(t, bctx, "main a")
		if !links[origin+"/"+hkSlug+"/datenschutz"] {
			t.Errorf("%s: no link to the business's privacy notice (ACT-36): %v", name, links)
		}
		if !links[origin+"/privacy?lang=de"] && !links[origin+"/privacy"] {
			t.Errorf("%s: no link to Daawid's privacy policy (ACT-36): %v", name, links)
		}
		if shot {
			shots.take(bctx, "confirm-page.png")
		}
		before := len(rg.mails(t))
		click(`form:has(input[name="op"][value="code"]) button`, confirmURL+"?done=code")
		code := rg.codeFor(t, email)
		if len(code) != 6 {
			t.Fatalf("%s: code %q is not six digits (ACT-37)", name, code)
		}
		if err := chromedp.Do(bctx, chromedp.SendKeys(chromedp.ID("code"), code)); err != nil {
			t.Fatal(err)
		}
		click(`form:has(input[name="op"][value="send"]) button`, confirmURL+"?done=sent")
		if n := rg.drain(t); n != 1 {
			t.Fatalf("%s: %d mails sent after Send, want the business's one", name, n)
		}
		ms := rg.mails(t)
		var got bool
		for _, m := range ms[before:] {
			if strings.Contains(m.MessageID, ".delivery@") {
				got = true
				if !strings.Contains(m.To, "info@holzwerk-krause.example") || !strings.Contains(m.ReplyTo, email) || !strings.Contains(m.From, "Daawid") {
					t.Errorf("%s: the business's mail: To %q, Reply-To %q, From %q (ACT-44)", name, m.To, m.ReplyTo, m.From)
				}
				if !strings.Contains(m.Body, business) {
					t.Errorf("%s: the business's mail does not carry the request: %q", name, m.Body)
				}
			} else if strings.Contains(m.MessageID, ".code") && (strings.Contains(m.Body, "Dachschr") || strings.Contains(m.Body, "Mara")) {
				t.Errorf("%s: the code mail holds something of the request (ACT-40): %q", name, m.Body)
			}
		}
		if !got {
			t.Fatalf("%s: no delivery mail among %d", name, len(ms))
		}
	}

	// 1. MCP: the contract's example call.
	cs := testserver.MCPClient(t, rg.testServer.Server, "2026-07-28")
	res := testserver.CallTool(t, cs, "request_quote", testserver.ExampleQuote())
	if res.IsError {
		t.Fatalf("request_quote: %s", testserver.TextOf(res))
	}
	var ar struct {
		Status, RunID, ConfirmURL, ExpiresAt, Summary string
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &ar)
	if ar.Status != "confirmation_required" || !strings.HasPrefix(ar.ConfirmURL, origin+"/confirm/") || len(tokenOf(t, ar.ConfirmURL)) != 31 {
		t.Fatalf("request_quote answered %s (ACT-10, ACT-65)", b)
	}
	if want := rg.Now.Add(time.Hour).UTC().Format(time.RFC3339); ar.ExpiresAt != want {
		t.Errorf("expiresAt %s, want %s: an hour (ACT-33)", ar.ExpiresAt, want)
	}
	for _, want := range []string{"Quote request to Holzwerk Krause GmbH for 'Einbauschränke und Dachschrägenmöbel' (42105 Wuppertal",
		"Your name and email go to Holzwerk Krause GmbH; privacy notice: https://daawid.example/holzwerk-krause/datenschutz. Nothing is sent until you confirm."} {
		if !strings.Contains(ar.Summary, want) {
			t.Errorf("summary %q lacks %q (ACT-13, ACT-65)", ar.Summary, want)
		}
	}
	if txt := testserver.TextOf(res); !strings.Contains(txt, ar.ConfirmURL) || !strings.Contains(txt, "Nothing is sent until") {
		t.Errorf("the text asks nothing of the model (ACT-34): %q", txt)
	}
	confirm("mcp", ar.ConfirmURL, "mara@example.org", "Einbauschrank", true)
	st := testserver.CallTool(t, cs, "get_request_status", map[string]any{"runId": ar.RunID})
	sb, _ := json.Marshal(st.StructuredContent)
	var status map[string]any
	json.Unmarshal(sb, &status)
	if status["status"] != "delivered" || len(status) != 3 {
		t.Errorf("get_request_status: %s, want delivered and only runId, status, updatedAt (ACT-45, ACT-14)", sb)
	}
	for _, secret := range []string{"Mara", "mara@", "Einbauschrank", "42105"} {
		if strings.Contains(string(sb)+testserver.TextOf(st), secret) {
			t.Errorf("get_request_status shows %q (ACT-48)", secret)
		}
	}

	// 2. REST: the same call, minus actionId, with the key in the header.
	body := testserver.ExampleQuote()
	delete(body, "actionId")
	delete(body, "idempotencyKey")
	body["requester"] = map[string]any{"name": "Jonas Example", "email": "jonas@example.org", "language": "en"}
	resp, rb := rg.postJSON(t, "/v1/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j/runs", body, "Idempotency-Key: rest-e2e-0001")
	if resp.StatusCode != 201 || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("POST runs: %d %s %s (REST-24, REST-36)", resp.StatusCode, resp.Header.Get("Cache-Control"), rb)
	}
	var rr struct{ RunID, ConfirmURL string }
	json.Unmarshal(rb, &rr)
	if loc := resp.Header.Get("Location"); !strings.HasSuffix(loc, "/v1/runs/"+rr.RunID) {
		t.Errorf("Location %q (REST-24)", loc)
	}
	confirm("rest", rr.ConfirmURL, "jonas@example.org", "Einbauschrank", false)
	sresp, sbody := rg.get(t, "/v1/runs/"+rr.RunID)
	if sresp.StatusCode != 200 || !strings.Contains(string(sbody), `"status":"delivered"`) || sresp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET runs: %d %s (REST-12, REST-36)", sresp.StatusCode, sbody)
	}

	// 3. The web form (HTTP-36): a person fills it in.
	form := origin + "/" + hkSlug + "/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j?lang=en"
	if resp, err := chromedp.Run(bctx, chromedp.NavigateResponse(form)); err != nil || resp.Status != 200 {
		t.Fatalf("GET %s: %v %v", form, resp, err)
	}
	noScript(t, bctx, "web form")
	if err := chromedp.Do(bctx,
		chromedp.SetValue(chromedp.ID("offeringId"), "off_01k8r2m6cc1b2c3d4e5f6g7h8j"),
		chromedp.SendKeys(chromedp.ID("description"), "Drei Innentüren in Weißlack, mit Montage."),
		chromedp.SendKeys(chromedp.ID("postalCode"), "42103"),
		chromedp.SendKeys(chromedp.ID("desiredTiming"), "im April"),
		chromedp.SendKeys(chromedp.ID("requester-name"), "Lea Example"),
		chromedp.SendKeys(chromedp.ID("requester-email"), "lea@example.org"),
		chromedp.Blur(chromedp.ID("requester-email")),
	); err != nil {
		t.Fatalf("filling the form: %v", err)
	}
	shots.take(bctx, "action-form.png")
	fresp, err := chromedp.RunResponse(bctx, chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)))
	if err != nil || fresp.Status != 200 || !strings.HasPrefix(fresp.URL, origin+"/confirm/") {
		t.Fatalf("sending the form: %v %v", fresp, err)
	}
	confirm("form", fresp.URL, "lea@example.org", "Innentüren", false)

	rec.check(t, origin)
	shots.report(t)
}

// pageLinks are the hrefs of the links a selector finds.
func pageLinks(t *testing.T, ctx context.Context, sel string) map[string]bool {
	t.Helper()
	hs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(`+"`"+sel+"`"+`)).map(a => a.href)`))
	if err != nil {
		t.Fatalf("reading links: %v", err)
	}
	out := map[string]bool{}
	for _, h := range hs {
		out[h] = true
	}
	return out
}

var _ = sdk.CallToolParams{}

// pageDriver gives a browser test the text of the first element a CSS
// selector finds, and a click that must land, with 200, at a URL that
// starts with wantURL; either fails the test otherwise.
func pageDriver(t *testing.T, bctx context.Context) (text func(sel string) string, click func(sel, wantURL string)) {
	text = func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	click = func(sel, wantURL string) {
		t.Helper()
		resp, err := chromedp.RunResponse(bctx, chromedp.Click(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
		if resp.Status != 200 || !strings.HasPrefix(resp.URL, wantURL) {
			t.Fatalf("clicking %s: %d at %s, want 200 at %s…", sel, resp.Status, resp.URL, wantURL)
		}
	}
	return text, click
}
