package oauthe2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/internal/testserver"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/schemas"
)

// The owner's changes in the end-to-end test: a capacity and a summary,
// which go live with the next delta publication, and the Büro's phone,
// written as pages show it, which waits for the owner's email (MCP-26).
const (
	newSummary  = "Tischlerei in Wuppertal: Küchen, Schränke und Türen nach Maß, Reparaturen."
	newNote     = "Bis Februar ausgebucht, Reparaturen weiter innerhalb von zwei Wochen."
	newFrom     = "2027-02-15"
	newPhone    = "+49 (0)202 / 999-90 99"
	newE164     = "+492029999099"
	newShown    = "+49 202 9999099"
	oldShown    = "+49 202 9999001"
	officeID    = "cp_01k8r2m8aa1b2c3d4e5f6g7h8j"
	capacityDay = 14
)

// TestOAuth_TypeScriptSDK_OwnerChangesGoLiveAfterDelta is issue 19's
// "Must show" end to end. The official TypeScript MCP SDK client, after
// its OAuth flow with the owner signing in and allowing it in Chromium
// (it meets the 401 on its first owner tool, MCP-21), calls set_capacity
// (TOOL-22, TOOL-23) and update_entry at the revision it read (TOOL-24)
// with a new summary and the whole contact points list (TOOL-27), the
// Büro's phone written as pages show it (TOOL-31); each answer says field
// by field what goes live and what waits, with the owner's address partly
// hidden (TOOL-34). The owner tools wrote owner edits into the pipeline's
// inbox, the contact change not among them (MCP-26). The next delta
// publication (compile over that inbox, delta publish, the server's swap)
// carries the capacity and the summary: get_entry through the Go SDK's
// client with the same token and /{slug}.md over HTTP show them, and the
// old phone still (MCP-26). Chromium opens the confirmation link of the
// mail the SMTP server received, which names the entry, and presses
// Confirm; after the next delta /{slug}.md and get_entry show the new
// phone, in the international form pages use (MD-31).
func TestOAuth_TypeScriptSDK_OwnerChangesGoLiveAfterDelta(t *testing.T) {
	r := reg.Copy(t)
	box := t.TempDir()
	rg := newRigOn(t, r, box)
	// The test registry's last run was before Holzwerk Krause's capacity
	// expired, so the server shows the time guard's stand-in, a revision
	// the pipeline has not issued yet (D66). The schedule's delta at the
	// server's clock re-issues it, as the expiry job does every minute in
	// production, so the revision the owner reads is the published one.
	rg.delta(t, r, box)
	anon := mcpSession(t, rg, "")
	var before schemas.EntryView
	testserver.StructuredOf(t, testserver.CallTool(t, anon, "get_entry", map[string]any{"id": testserver.HKID}), &before)
	mdBefore := rg.markdown(t)
	if strings.Contains(mdBefore, newNote) || !strings.Contains(mdBefore, oldShown) {
		t.Fatalf("the entry's markdown before the change already differs:\n%s", mdBefore)
	}

	run := runSDKClient(t, rg, []toolCall{
		{Name: "set_capacity", Arguments: map[string]any{"entry": testserver.HKSlug, "status": "limited",
			"nextAvailableFrom": newFrom, "note": newNote, "days": capacityDay}},
		{Name: "update_entry", Arguments: map[string]any{"entry": testserver.HKSlug, "revision": before.Record.Revision,
			"summary": newSummary, "contactPoints": withOfficePhone(t, before.ContactPoints, newPhone)}},
	})
	if len(run.Unauthorized) != 1 || run.Unauthorized[0] != "set_capacity" {
		t.Errorf("MCP-21: the client did not meet the 401 on its first owner tool: %v", run.Unauthorized)
	}
	checkCapacityAnswer(t, rg, run.Results[0])
	checkUpdateAnswer(t, rg, run.Results[1])
	checkInboxEdits(t, box)

	// The next delta publication carries what went live; the contact
	// change waits for the owner's email.
	rg.delta(t, r, box)
	owner := mcpSession(t, rg, run.Tokens.AccessToken)
	var live schemas.EntryView
	testserver.StructuredOf(t, testserver.CallTool(t, owner, "get_entry", map[string]any{"id": testserver.HKID}), &live)
	if live.Summary != newSummary || live.Capacity == nil || live.Capacity.Status != "limited" || live.Capacity.Note != newNote ||
		live.Capacity.NextAvailableFrom != newFrom || live.Record.Revision <= before.Record.Revision {
		t.Errorf("TOOL-22, TOOL-24: after the delta get_entry shows summary %q, capacity %+v, revision %d (was %d)",
			live.Summary, live.Capacity, live.Record.Revision, before.Record.Revision)
	}
	if got, was := officePhone(live.ContactPoints), officePhone(before.ContactPoints); got != was || was == "" {
		t.Errorf("MCP-26: the phone went live before the owner confirmed it: %q", got)
	}
	md := rg.markdown(t)
	asOf := live.Capacity.AsOf
	for _, want := range []string{"> " + newSummary + "\n", "## Capacity\n- Status: limited\n", "- Note: " + newNote + "\n",
		"- As of " + asOf[:10] + " · expires " + rg.Now.AddDate(0, 0, capacityDay).Format("2006-01-02") + ";", "`" + officeID + "`: " + oldShown + " ·"} {
		if !strings.Contains(md, want) {
			t.Errorf("TOOL-22, TOOL-24, MCP-26: after the delta /%s.md lacks %q:\n%s", testserver.HKSlug, want, md)
		}
	}
	// The new number appears nowhere on the page yet.
	if strings.Contains(md, newShown) {
		t.Errorf("MCP-26: /%s.md shows the phone before the owner confirmed it", testserver.HKSlug)
	}

	// The owner follows the mail's link in Chromium and confirms; the
	// next delta carries the phone.
	rg.confirmInBrowser(t, live.DisplayName)
	rg.delta(t, r, box)
	md = rg.markdown(t)
	if !strings.Contains(md, "`"+officeID+"`: "+newShown+" ·") || strings.Contains(md, "`"+officeID+"`: "+oldShown) || !strings.Contains(md, "> "+newSummary+"\n") {
		t.Errorf("MCP-26, TOOL-31: after the confirmation and the delta /%s.md does not show the new phone alone:\n%s", testserver.HKSlug, md)
	}
	var confirmed schemas.EntryView
	testserver.StructuredOf(t, testserver.CallTool(t, owner, "get_entry", map[string]any{"id": testserver.HKID}), &confirmed)
	if got := officePhone(confirmed.ContactPoints); got != newE164 || confirmed.Record.Revision <= live.Record.Revision ||
		confirmed.Capacity == nil || confirmed.Capacity.Note != newNote {
		t.Errorf("MCP-26: after the confirmation and the delta get_entry shows phone %q, revision %d (was %d), capacity %+v",
			got, confirmed.Record.Revision, live.Record.Revision, confirmed.Capacity)
	}
}

// withOfficePhone is the entry's contact points as get_entry shows them,
// the Büro's phone set to phone: the whole list, as update_entry replaces
// it (TOOL-27), each item keeping its ID.
func withOfficePhone(t *testing.T, cps []schemas.ContactPointView, phone string) []any {
	t.Helper()
	b, err := json.Marshal(cps)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	found := false
	list := make([]any, len(out))
	for i, cp := range out {
		if cp["id"] == officeID {
			cp["phone"], found = phone, true
		}
		list[i] = cp
	}
	if !found {
		t.Fatalf("Holzwerk Krause has no contact point %s: %s", officeID, b)
	}
	return list
}

// officePhone is the Büro's phone among contact points.
func officePhone(cps []schemas.ContactPointView) string {
	for _, cp := range cps {
		if cp.ID == officeID {
			return cp.Phone
		}
	}
	return ""
}

// checkCapacityAnswer checks set_capacity's answer as the TypeScript
// client received it.
func checkCapacityAnswer(t *testing.T, rg *rig, res toolResult) {
	t.Helper()
	var ans qmcp.OwnerChange
	if err := json.Unmarshal(res.StructuredContent, &ans); err != nil || res.IsError {
		t.Fatalf("set_capacity: %v %s", err, res.StructuredContent)
	}
	var capView schemas.CapacityView
	json.Unmarshal(ans.After["capacity"], &capView)
	asOf := rg.Now.UTC().Truncate(time.Second)
	if capView.Status != "limited" || capView.NextAvailableFrom != newFrom || capView.Note != newNote ||
		capView.AsOf != asOf.Format(time.RFC3339) || capView.ExpiresAt != asOf.AddDate(0, 0, capacityDay).Format(time.RFC3339) {
		t.Errorf("TOOL-22, TOOL-23: the capacity after set_capacity: %+v", capView)
	}
	if ans.Entry.ID != testserver.HKID || ans.Entry.Slug != testserver.HKSlug || ans.Waiting != nil ||
		len(ans.Fields) != 1 || ans.Fields[0].Field != "capacity" || ans.Fields[0].Outcome != qmcp.OutcomeLive {
		t.Errorf("TOOL-34: set_capacity's answer: %+v", ans)
	}
}

// checkUpdateAnswer checks update_entry's answer as the TypeScript client
// received it: the summary goes live, the contact points wait, and the
// phone as pages show it was read as its E.164 form.
func checkUpdateAnswer(t *testing.T, rg *rig, res toolResult) {
	t.Helper()
	var ans qmcp.OwnerChange
	if err := json.Unmarshal(res.StructuredContent, &ans); err != nil || res.IsError {
		t.Fatalf("update_entry: %v %s", err, res.StructuredContent)
	}
	outcome := map[string]string{}
	for _, f := range ans.Fields {
		outcome[f.Field] = f.Outcome
	}
	if len(outcome) != 2 || outcome["summary"] != qmcp.OutcomeLive || outcome["contactPoints"] != qmcp.OutcomeWaiting {
		t.Errorf("TOOL-34, MCP-26: update_entry's outcomes field by field: %v", outcome)
	}
	if w := ans.Waiting; w == nil || w.Email != "i•••@holzwerk-krause.de" || len(w.Sections) != 1 || w.Sections[0] != "contactPoints" || w.ExpiresAt == "" {
		t.Errorf("TOOL-34, MCP-26: the waiting part of update_entry's answer: %+v", ans.Waiting)
	}
	var cps []schemas.ContactPointView
	json.Unmarshal(ans.After["contactPoints"], &cps)
	if got := officePhone(cps); got != newE164 {
		t.Errorf("TOOL-31: %q came back as %q, want %q", newPhone, got, newE164)
	}
	if !strings.Contains(res.Text, "waits for the owner's confirmation by email") {
		t.Errorf("TOOL-34: update_entry's text does not say what waits: %q", res.Text)
	}
}

// checkInboxEdits checks what the owner tools wrote into the pipeline's
// inbox before the owner confirmed anything: set_capacity's edit and
// update_entry's, which holds the summary and not the contact points
// (MCP-26).
func checkInboxEdits(t *testing.T, box string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(box, "*.json"))
	tools := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ed, ok, issues := schemas.ParseOwnerEdit(b)
		if !ok || len(issues) > 0 || ed.Entry != testserver.HKID {
			t.Fatalf("%s is no owner edit of Holzwerk Krause: %v\n%s", f, issues, b)
		}
		for k := range ed.Set {
			tools[ed.Tool] = append(tools[ed.Tool], k)
		}
	}
	if len(files) != 2 || len(tools[schemas.EditSetCapacity]) != 1 || tools[schemas.EditSetCapacity][0] != "capacity" ||
		len(tools[schemas.EditUpdateEntry]) != 1 || tools[schemas.EditUpdateEntry][0] != "summary" {
		t.Errorf("TOOL-22, TOOL-24, MCP-26: the inbox holds %d edits setting %v", len(files), tools)
	}
}

// mcpSession connects the Go SDK's client to the rig's MCP endpoint, with
// a bearer token when token is not empty (anonymous reads work too,
// MCP-20).
func mcpSession(t *testing.T, rg *rig, token string) *sdk.ClientSession {
	t.Helper()
	hc := http.DefaultClient
	if token != "" {
		hc = &http.Client{Transport: testserver.Bearer{Token: token}}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "daawid-oauthe2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: rg.Resource, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// markdown is Holzwerk Krause's /{slug}.md as the server answers it now.
func (rg *rig) markdown(t *testing.T) string {
	t.Helper()
	resp, body := rg.get(t, rg.URL+"/"+testserver.HKSlug+".md")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /%s.md: %d\n%s", testserver.HKSlug, resp.StatusCode, body)
	}
	return body
}

// delta runs the next delta publication a minute after the server's
// clock, as the schedule's minute does: the compile over the owner inbox
// box, then the delta publish; the server swaps onto it and its clock
// moves a minute past the run. An edit the compile refuses fails the test.
func (rg *rig) delta(t *testing.T, r *testserver.Registry, box string) {
	t.Helper()
	at := rg.Now.Add(time.Minute)
	if _, err := pipeline.Run(context.Background(), pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: r.State, OwnerInbox: box, Now: at},
		Publish: pipeline.PublishConfig{StateDir: r.State, OutDir: r.Out, Site: r.Site, Delta: true},
	}, "test"); err != nil {
		t.Fatal(err)
	}
	refused, _ := filepath.Glob(filepath.Join(box, "refused", "*"))
	for _, f := range refused {
		b, _ := os.ReadFile(f)
		t.Fatalf("the compile refused %s: %s", filepath.Base(f), b)
	}
	if _, err := rg.Snaps.Refresh(); err != nil {
		t.Fatal(err)
	}
	rg.Now = at.Add(time.Minute)
}

var confirmLink = regexp.MustCompile(`https?://\S+/owner/confirm/[0-9A-Za-z_-]+`)

// confirmInBrowser is the owner reading the confirmation mail the SMTP
// server received, which names the entry (MCP-26), opening its link in
// Chromium and pressing Confirm.
func (rg *rig) confirmInBrowser(t *testing.T, entryName string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	m, err := mail.WaitFor(ctx, rg.catcher.Dir(), func(r mail.Received) bool { return strings.Contains(r.Body, "/owner/confirm/") })
	if err != nil {
		t.Fatalf("MCP-26: no confirmation mail reached the SMTP server: %v", err)
	}
	if !strings.Contains(m.To, ownerEmail) || !strings.Contains(m.Subject, entryName) || !strings.Contains(m.Body, entryName) {
		t.Errorf("MCP-26: the confirmation mail does not name the entry or goes elsewhere: to %s, %q\n%s", m.To, m.Subject, m.Body)
	}
	link := confirmLink.FindString(m.Body)
	if !strings.HasPrefix(link, rg.URL+"/owner/confirm/") {
		t.Fatalf("MCP-26: the mail's link %q is not on the server %s:\n%s", link, rg.URL, m.Body)
	}
	browser := newBrowser(t, time.Minute)
	resp, err := chromedp.Run(browser, chromedp.NavigateResponse(link))
	if err != nil || resp.Status != http.StatusOK {
		t.Fatalf("MCP-26: opening the confirmation link: %v %v", resp, err)
	}
	page, err := chromedp.Run(browser, chromedp.Text(chromedp.CSS("main")))
	if err != nil || !strings.Contains(page, entryName) || !strings.Contains(page, "contactPoints") {
		t.Errorf("MCP-26: the confirmation page does not name the entry and what waits: %v\n%s", err, page)
	}
	resp, err = chromedp.RunResponse(browser, chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)))
	if err != nil || resp.Status != http.StatusOK {
		t.Fatalf("MCP-26: pressing Confirm: %v %v", resp, err)
	}
	if page, err = chromedp.Run(browser, chromedp.Text(chromedp.CSS("main"))); err != nil || !strings.Contains(page, "Change confirmed") {
		t.Errorf("MCP-26: the page after Confirm: %v\n%s", err, page)
	}
}
