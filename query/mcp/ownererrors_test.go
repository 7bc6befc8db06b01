package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// TestOwnerTools_Refusals: a stale revision is changed_since with the
// current revision and values (TOOL-28); a wrong shape and a phone number
// that is none are invalid_input naming the field, with the current
// values (TOOL-29, TOOL-31); nothing is written for any of them; an entry
// the owner does not own is not_allowed; with several entries and no
// entry, the error lists them (TOOL-33).
func TestOwnerTools_Refusals(t *testing.T) {
	box := t.TempDir()
	rg := newAuthRigOn(t, reg, box)
	cs := ownerSession(t, rg)
	var view schemas.EntryView
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "get_entry", map[string]any{"id": hkID}), &view)

	e := testserver.ErrorOf(t, testserver.CallTool(t, cs, "update_entry", map[string]any{"revision": 1, "summary": "Neu"}))
	var summary string
	json.Unmarshal(e.Current["summary"], &summary)
	if e.Code != "changed_since" || e.CurrentRevision != view.Record.Revision || summary != view.Summary {
		t.Errorf("TOOL-28: %+v", e)
	}
	e = testserver.ErrorOf(t, testserver.CallTool(t, cs, "update_entry", map[string]any{"revision": view.Record.Revision, "foundingYear": "neunzehnhundert"}))
	if e.Code != "invalid_input" || len(e.Issues) == 0 || e.Issues[0].Field != "foundingYear" || e.CurrentRevision != view.Record.Revision || e.Current["foundingYear"] == nil {
		t.Errorf("TOOL-29: a wrong shape: %+v", e)
	}
	e = testserver.ErrorOf(t, testserver.CallTool(t, cs, "update_entry", map[string]any{"revision": view.Record.Revision,
		"contactPoints": []any{map[string]any{"name": "Büro", "phone": "Ruf an"}}}))
	if e.Code != "invalid_input" || len(e.Issues) != 1 || e.Issues[0].Field != "contactPoints[0].phone" || e.Current["contactPoints"] == nil {
		t.Errorf("TOOL-29, TOOL-31: a phone number that is none: %+v", e)
	}
	e = testserver.ErrorOf(t, testserver.CallTool(t, cs, "set_capacity", map[string]any{"status": "accepting", "days": 31}))
	if e.Code != "invalid_input" || e.Issues[0].Field != "days" {
		t.Errorf("TOOL-22: days 31: %+v", e)
	}
	if n := len(edits(t, box)); n != 0 {
		t.Errorf("refused calls wrote %d edits", n)
	}

	// An entry the owner does not own.
	e = testserver.ErrorOf(t, testserver.CallTool(t, cs, "confirm_entry", map[string]any{"entry": reg.RenamedID}))
	if e.Code != "not_allowed" {
		t.Errorf("an entry the owner does not own: %+v", e)
	}
	// TOOL-33: with two entries, leaving entry out lists them.
	if err := rg.auth.Owners().Add(context.Background(), auth.Owner{EntryID: reg.RenamedID, Email: ownerEmail, Method: "email", ProvedAt: rg.Now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	e = testserver.ErrorOf(t, testserver.CallTool(t, cs, "confirm_entry", map[string]any{}))
	if e.Code != "invalid_input" || !strings.Contains(e.Message, hkID) || !strings.Contains(e.Message, reg.RenamedID) || e.Issues[0].Field != "entry" {
		t.Errorf("TOOL-33: %+v", e)
	}
	if n := len(edits(t, box)); n != 0 {
		t.Errorf("refused calls wrote %d edits", n)
	}
}

// TestOwnerTools_MCP26_ExpiredLink: a waiting change's link runs out after
// auth.WaitingTTL; pressing confirm then writes nothing.
func TestOwnerTools_MCP26_ExpiredLink(t *testing.T) {
	box := t.TempDir()
	rg := newAuthRigOn(t, reg, box)
	cs := ownerSession(t, rg)
	var view schemas.EntryView
	testserver.StructuredOf(t, testserver.CallTool(t, cs, "get_entry", map[string]any{"id": hkID}), &view)
	testserver.CallTool(t, cs, "update_entry", map[string]any{"revision": view.Record.Revision, "alternateNames": []string{"Krause Holzwerk"}})
	if n := len(edits(t, box)); n != 0 {
		t.Fatalf("MCP-26: a name change was written at once (%d edits)", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := mail.WaitFor(ctx, rg.catcher.Dir(), func(r mail.Received) bool { return strings.Contains(r.Body, "/owner/confirm/") })
	if err != nil {
		t.Fatal(err)
	}
	link := confirmLink.FindString(m.Body)
	link = rg.URL + link[strings.Index(link, "/owner/confirm/"):]
	rg.Now = rg.Now.Add(auth.WaitingTTL)
	if resp, _ := rg.post(t, link, nil); resp.StatusCode != http.StatusGone {
		t.Errorf("MCP-26: an expired link answered %d", resp.StatusCode)
	}
	if resp, _ := rg.post(t, rg.URL+"/owner/confirm/0000000000000000000000000000000000", nil); resp.StatusCode != http.StatusGone {
		t.Errorf("MCP-26: an unknown link answered %d", resp.StatusCode)
	}
	if n := len(edits(t, box)); n != 0 {
		t.Errorf("MCP-26: an expired link wrote %d edits", n)
	}
}

// TestOwnerTools_PRIV29_Download: the signed-in owner downloads the entry
// in the open format from the connect page, which says what the file does
// not hold; another entry is refused.
func TestOwnerTools_PRIV29_Download(t *testing.T) {
	rg := newAuthRigOn(t, reg, t.TempDir())
	_, challenge := pkce()
	connect, consent := rg.signedIn(t, challenge)
	if !strings.Contains(consent, "/entries/"+hkID+".json") || !strings.Contains(consent, "does not hold") {
		t.Fatalf("PRIV-29: the consent page offers no download with its note:\n%s", consent)
	}
	resp, body := rg.get(t, connect+"/entries/"+hkID+".json")
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Disposition"), testserver.HKSlug+".json") {
		t.Fatalf("PRIV-29: %d %v", resp.StatusCode, resp.Header)
	}
	e, issues := schemas.Validate([]byte(body))
	if e == nil || e.ID != hkID || len(issues) > 0 {
		t.Errorf("PRIV-29: the download is no valid entry in the open format: %v", issues)
	}
	for _, cp := range e.ContactPoints {
		if cp.Visibility != "public" {
			t.Errorf("the download holds a private contact point %s", cp.ID)
		}
	}
	if resp, _ := rg.get(t, connect+"/entries/"+reg.RenamedID+".json"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another's entry: %d", resp.StatusCode)
	}
}

// TestOwnerTools_TOOL32_ListedForm: the tool list carries update_entry's
// shorter form, its large sections open; the full form checks every call
// (an item's unknown shape is named by its field).
func TestOwnerTools_TOOL32_ListedForm(t *testing.T) {
	var listed map[string]any
	for _, s := range schemas.OwnerTools() {
		if s.Name == "update_entry" {
			json.Unmarshal(s.Input, &listed)
		}
	}
	cps := listed["properties"].(map[string]any)["contactPoints"].(map[string]any)
	if items := cps["items"].(map[string]any); len(items) != 1 || !strings.Contains(cps["description"].(string), "ContactPointView") {
		t.Errorf("TOOL-32: contactPoints is listed as %v", cps)
	}
	if len(schemas.UpdateEntryFullSchema()) <= 2*len(jsonOf(listed)) {
		t.Errorf("TOOL-32: the listed form (%d bytes) is not much shorter than the full one (%d)", len(jsonOf(listed)), len(schemas.UpdateEntryFullSchema()))
	}
	issues := schemas.CheckUpdateEntry([]byte(`{"revision": 3, "offerings": [{"kind": "service", "name": "Küchen", "audience": "everyone-ish"}]}`))
	if len(issues) != 1 || issues[0].Field != "offerings[0].audience" {
		t.Errorf("TOOL-32: the full form's check: %+v", issues)
	}
	if issues := schemas.CheckUpdateEntry([]byte(`{"revision": 3, "offerings": [{"kind": "service", "name": "Küchen", "audience": "consumer"}]}`)); len(issues) != 0 {
		t.Errorf("TOOL-27: a new offering without id is refused: %+v", issues)
	}
}

func jsonOf(v any) []byte { b, _ := json.Marshal(v); return b }
