package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/internal/testserver"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/schemas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The changing owner tools end to end on loopback: a real token from the
// authorization server's flow, the SDK's Go client, edit files in a real
// owner inbox, the real SMTP server's mail for a waiting change, and the
// pipeline's compile and delta publication over that inbox.

// ownerSession connects the SDK's client with the owner's access token.
func ownerSession(t *testing.T, rg *authRig) *sdk.ClientSession {
	t.Helper()
	at := rg.tokens(t)["access_token"].(string)
	client := sdk.NewClient(&sdk.Implementation{Name: "daawid-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: rg.URL + "/mcp",
		HTTPClient: &http.Client{Transport: testserver.Bearer{Token: at}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// edits are the owner edit files of an inbox, by name.
func edits(t *testing.T, dir string) map[string]*schemas.OwnerEdit {
	t.Helper()
	out := map[string]*schemas.OwnerEdit{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ed, ok, issues := schemas.ParseOwnerEdit(b)
		if !ok || len(issues) > 0 {
			t.Fatalf("%s is no owner edit: %v", f, issues)
		}
		out[filepath.Base(f)] = ed
	}
	return out
}

// newEdit is the one edit file that is in after and not in before.
func newEdit(t *testing.T, before, after map[string]*schemas.OwnerEdit) *schemas.OwnerEdit {
	t.Helper()
	var got []*schemas.OwnerEdit
	for k, v := range after {
		if before[k] == nil {
			got = append(got, v)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d new edit files, want 1", len(got))
	}
	return got[0]
}

// copyRegistry is the shared test registry's state and publications,
// copied, so the pipeline can run on without touching it.
func copyRegistry(t *testing.T) *testserver.Registry {
	t.Helper()
	r := *reg
	dir := t.TempDir()
	for _, p := range []*string{&r.State, &r.Out} {
		dst := filepath.Join(dir, filepath.Base(*p))
		if out, err := exec.Command("cp", "-a", *p, dst).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
		*p = dst
	}
	return &r
}

var confirmLink = regexp.MustCompile(`https?://\S+/owner/confirm/[0-9a-z]+`)

// TestOwnerTools_EndToEnd: set_capacity (TOOL-22, TOOL-23), update_entry
// (TOOL-24, TOOL-25, TOOL-27, TOOL-31, TOOL-34) with a contact change that
// waits for the owner's email (MCP-26) and confirm_entry (TOOL-30) each
// write an edit file; the confirmation page's GET writes nothing, its POST
// writes the waiting part, a second POST nothing; after the compile and a
// delta publication over the inbox, get_entry shows every change.
func TestOwnerTools_EndToEnd(t *testing.T) {
	r := copyRegistry(t)
	box := t.TempDir()
	rg := newAuthRigOn(t, r, box)
	cs := ownerSession(t, rg)

	var view schemas.EntryView
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "get_entry", map[string]any{"id": hkID}), &view)

	// set_capacity, the entry left out: the owner has one (TOOL-33's other half).
	var capAns qmcp.OwnerChange
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "set_capacity", map[string]any{"status": "limited", "note": "Bis Februar ausgebucht", "days": 14}), &capAns)
	var capView schemas.CapacityView
	json.Unmarshal(capAns.After["capacity"], &capView)
	asOf := rg.Now.UTC().Truncate(time.Second)
	if capView.Status != "limited" || capView.AsOf != asOf.Format(time.RFC3339) || capView.ExpiresAt != asOf.AddDate(0, 0, 14).Format(time.RFC3339) || capView.Note != "Bis Februar ausgebucht" {
		t.Errorf("TOOL-23: capacity after set_capacity: %+v", capView)
	}
	if capAns.Entry.ID != hkID || capAns.Entry.Slug != testserver.HKSlug || capAns.Entry.Name == "" || capAns.Entry.DefaultLanguage != "de" ||
		!strings.HasSuffix(capAns.Entry.Page, "/"+testserver.HKSlug) || capAns.BasedOn < 1 ||
		len(capAns.Fields) != 1 || capAns.Fields[0].Outcome != qmcp.OutcomeLive {
		t.Errorf("TOOL-34: set_capacity's answer: %+v", capAns)
	}
	after := edits(t, box)
	if ed := newEdit(t, nil, after); ed.Tool != schemas.EditSetCapacity || ed.Entry != hkID || ed.BasedOn != capAns.BasedOn || ed.Set["capacity"] == nil {
		t.Errorf("TOOL-22: the set_capacity edit: %+v", ed)
	}

	// update_entry: a summary goes live, a new contact point waits.
	cps := append([]any{}, func() []any { var x []any; b, _ := json.Marshal(view.ContactPoints); json.Unmarshal(b, &x); return x }()...)
	cps = append(cps, map[string]any{"name": "Werkstatt", "phone": "+49 (0)202 / 999-90 99", "purposes": []string{"general"}})
	before := after
	var upd qmcp.OwnerChange
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "update_entry", map[string]any{"entry": testserver.HKSlug, "revision": view.Record.Revision,
		"summary": "Tischlerei in Wuppertal: Küchen, Schränke, Türen.", "contactPoints": cps}), &upd)
	if upd.Waiting == nil || upd.Waiting.Email != "i•••@holzwerk-krause.de" || len(upd.Waiting.Sections) != 1 || upd.Waiting.Sections[0] != "contactPoints" ||
		upd.Waiting.ExpiresAt != rg.Now.Add(auth.WaitingTTL).UTC().Format("2006-01-02T15:04:05Z") {
		t.Errorf("TOOL-34, MCP-26: the waiting part: %+v", upd.Waiting)
	}
	outcome := map[string]string{}
	for _, f := range upd.Fields {
		outcome[f.Field] = f.Outcome
	}
	if outcome["summary"] != qmcp.OutcomeLive || outcome["contactPoints"] != qmcp.OutcomeWaiting {
		t.Errorf("TOOL-34: field by field: %v", outcome)
	}
	var afterCPs []schemas.ContactPointView
	json.Unmarshal(upd.After["contactPoints"], &afterCPs)
	if n := len(afterCPs); n != len(view.ContactPoints)+1 || !schemas.ValidID(schemas.PrefixContact, afterCPs[n-1].ID) || afterCPs[n-1].Phone != "+492029999099" {
		t.Errorf("TOOL-27, TOOL-31: contact points after the change: %s", upd.After["contactPoints"])
	}
	after = edits(t, box)
	if ed := newEdit(t, before, after); ed.Tool != schemas.EditUpdateEntry || len(ed.Set) != 1 || ed.Set["summary"] == nil {
		t.Errorf("MCP-26: the edit written at once holds %v, want the summary alone", ed.Set)
	}

	// TOOL-21: list_my_entries shows the waiting change.
	var mine qmcp.MyEntries
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "list_my_entries", map[string]any{}), &mine)
	if len(mine.Entries) != 1 || mine.Entries[0].WaitingChange == nil || mine.Entries[0].WaitingChange.Sections[0] != "contactPoints" {
		t.Errorf("TOOL-21: list_my_entries: %+v", mine)
	}

	// MCP-26: the mail names the entry; its page's GET writes nothing; the
	// POST writes the waiting part; the link works once.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := mail.WaitFor(ctx, rg.catcher.Dir(), func(r mail.Received) bool { return strings.Contains(r.Body, "/owner/confirm/") })
	if err != nil {
		t.Fatalf("MCP-26: no confirmation mail: %v", err)
	}
	if !strings.Contains(m.Subject, capAns.Entry.Name) || !strings.Contains(m.Body, capAns.Entry.Name) || !strings.Contains(m.To, ownerEmail) {
		t.Errorf("MCP-26: the mail does not name the entry: %s\n%s", m.Subject, m.Body)
	}
	link := confirmLink.FindString(m.Body)
	link = rg.URL + link[strings.Index(link, "/owner/confirm/"):]
	before = after
	if resp, body := rg.get(t, link); resp.StatusCode != http.StatusOK || !strings.Contains(body, capAns.Entry.Name) || !strings.Contains(body, "method=\"post\"") {
		t.Fatalf("MCP-26: the confirmation page: %d %s", resp.StatusCode, body)
	}
	if len(edits(t, box)) != len(before) {
		t.Fatal("MCP-26: opening the confirmation page wrote an edit")
	}
	if resp, body := rg.post(t, link, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("MCP-26: confirm: %d %s", resp.StatusCode, body)
	}
	after = edits(t, box)
	if ed := newEdit(t, before, after); ed.Tool != schemas.EditUpdateEntry || len(ed.Set) != 1 || ed.Set["contactPoints"] == nil {
		t.Errorf("MCP-26: the confirmed edit holds %v, want the contact points alone", ed.Set)
	}
	if resp, _ := rg.post(t, link, nil); resp.StatusCode != http.StatusGone || len(edits(t, box)) != len(after) {
		t.Errorf("MCP-26: a used link answered %d and wrote %d edits", resp.StatusCode, len(edits(t, box))-len(after))
	}

	// TOOL-30: confirm_entry writes an edit with no fields.
	before = after
	var conf qmcp.OwnerChange
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "confirm_entry", map[string]any{"entry": hkID}), &conf)
	if ed := newEdit(t, before, edits(t, box)); ed.Tool != schemas.EditConfirmEntry || len(ed.Set) != 0 {
		t.Errorf("TOOL-30: the confirm_entry edit: %+v", ed)
	}

	// The compile and a delta publication carry every change.
	at := rg.Now.Add(time.Minute)
	if _, err := pipeline.Run(context.Background(), pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: r.State, OwnerInbox: box, Now: at},
		Publish: pipeline.PublishConfig{StateDir: r.State, OutDir: r.Out, Site: r.Site, Delta: true},
	}, "test"); err != nil {
		t.Fatal(err)
	}
	if refused, _ := filepath.Glob(filepath.Join(box, "refused", "*")); len(refused) > 0 {
		for _, f := range refused {
			b, _ := os.ReadFile(f)
			t.Errorf("the compile refused %s: %s", filepath.Base(f), b)
		}
	}
	if _, err := rg.Snaps.Refresh(); err != nil {
		t.Fatal(err)
	}
	rg.Now = at.Add(time.Minute)
	var got schemas.EntryView
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "get_entry", map[string]any{"id": hkID}), &got)
	if got.Summary != "Tischlerei in Wuppertal: Küchen, Schränke, Türen." || got.Capacity == nil || got.Capacity.Status != "limited" ||
		len(got.ContactPoints) != len(view.ContactPoints)+1 || got.Record.Revision <= capAns.BasedOn {
		t.Errorf("after the delta, get_entry shows: summary %q, capacity %+v, %d contact points (%d before), revision %d",
			got.Summary, got.Capacity, len(got.ContactPoints), len(view.ContactPoints), got.Record.Revision)
	}
	if got.Record.LastConfirmedAt == "" || got.Record.LastConfirmedAt < rg.Now.Add(-2*time.Minute).Format(time.RFC3339) {
		t.Errorf("TOOL-30: lastConfirmedAt %q after confirm_entry", got.Record.LastConfirmedAt)
	}
}
