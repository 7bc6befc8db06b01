package schemas

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func holzwerkEntry(t *testing.T) *Entry {
	t.Helper()
	b, err := os.ReadFile("../fixtures/compile/inbox/holzwerk-krause.json")
	if err != nil {
		t.Fatal(err)
	}
	e, issues := Validate(b)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	return e
}

func edit(t *testing.T, tool string, set map[string]any) *OwnerEdit {
	t.Helper()
	b, err := json.Marshal(map[string]any{"type": EditType, "entry": "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", "basedOn": 41,
		"declaredAt": "2026-11-02T10:00:00Z", "tool": tool, "set": set})
	if err != nil {
		t.Fatal(err)
	}
	ed, ok, issues := ParseOwnerEdit(b)
	if !ok || len(issues) > 0 {
		t.Fatalf("ParseOwnerEdit: ok %v, %v", ok, issues)
	}
	return ed
}

// TestApplyEdit_KeepsWhatTheViewDoesNotShow checks §7.5's update_entry
// rules as ApplyEdit applies them for the tool and the compile alike:
// TOOL-26, a text sent in the default language keeps the other languages,
// a private contact point stays when the public list is replaced, and a
// location shown at locality level keeps its street while its postal
// code, locality and country stay; TOOL-27 and MCP-55, a field left out
// stays, null removes, and a list replaces the entry's list whole.
func TestApplyEdit_KeepsWhatTheViewDoesNotShow(t *testing.T) {
	e := holzwerkEntry(t)
	e.ContactPoints[1].Visibility = "private"
	e.Locations[0].AddressDisplay = DisplayLocalityOnly
	street := e.Locations[0].Address.Street
	l := e.Locations[0]
	loc := LocationView{ID: l.ID, Address: l.Address, AddressDisplay: l.AddressDisplay, TimeZone: l.TimeZone, Hours: l.Hours}
	loc.Address.Street = ""
	for _, x := range l.HoursExceptions {
		loc.HoursExceptions = append(loc.HoursExceptions, HoursExceptionView{From: x.From, To: x.To, Closed: x.Closed, Note: "Betriebsferien"})
	}
	ed := edit(t, EditUpdateEntry, map[string]any{
		"summary":       "Tischlerei in Wuppertal: Küchen nach Maß.",
		"contactPoints": []any{map[string]any{"id": e.ContactPoints[0].ID, "name": "Werkstatt", "phone": "+492029999002", "purposes": []string{"general"}}},
		"locations":     []any{loc},
		"description":   nil,
	})
	got, issues := ApplyEdit(e, ed)
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	if got.Summary["de"] != "Tischlerei in Wuppertal: Küchen nach Maß." || got.Summary["en"] != e.Summary["en"] {
		t.Errorf("summary: %v", got.Summary)
	}
	if got.Description != nil {
		t.Errorf("null did not remove the description: %v", got.Description)
	}
	if len(got.ContactPoints) != 2 || got.ContactPoints[0].Visibility != "private" || got.ContactPoints[1].Phone != "+492029999002" {
		t.Errorf("contact points: %+v", got.ContactPoints)
	}
	if n := len(l.HoursExceptions); n > 0 && got.Locations[0].HoursExceptions[n-1].Note["de"] != "Betriebsferien" {
		t.Errorf("an exception's note: %+v", got.Locations[0].HoursExceptions)
	}
	if got.Locations[0].Address.Street != street {
		t.Errorf("the street of a locality-level location was lost: %+v", got.Locations[0].Address)
	}
	if got.DisplayName != e.DisplayName || len(got.Offerings) != len(e.Offerings) {
		t.Error("a field left out changed")
	}
	if e.Summary["de"] == got.Summary["de"] {
		t.Error("ApplyEdit changed the entry it was given")
	}
	// A list replaces the entry's list whole (MCP-55): one offering sent,
	// one offering kept, with its texts in the other languages.
	o := e.Offerings[0]
	one, issues := ApplyEdit(e, edit(t, EditUpdateEntry, map[string]any{"offerings": []any{OfferingView{ID: o.ID, Kind: o.Kind, Name: "Küchen", Audience: o.Audience}}}))
	if len(issues) > 0 || len(e.Offerings) < 2 || len(one.Offerings) != 1 || one.Offerings[0].Name["de"] != "Küchen" || one.Offerings[0].Name["en"] != o.Name["en"] {
		t.Errorf("offerings: %v, %+v", issues, one.Offerings)
	}
	// A new postal code is a new address: the old street must not stay.
	loc.Address.PostalCode = "42275"
	got, _ = ApplyEdit(e, edit(t, EditUpdateEntry, map[string]any{"locations": []any{loc}}))
	if got.Locations[0].Address.Street != "" {
		t.Errorf("the old street stayed at a new postal code: %+v", got.Locations[0].Address)
	}
}

// TestApplyEdit_MistakesNameTheirField checks that a field in the wrong
// shape is refused by its path, and that a field an owner may not go
// without cannot be removed.
func TestApplyEdit_MistakesNameTheirField(t *testing.T) {
	e := holzwerkEntry(t)
	_, issues := ApplyEdit(e, edit(t, EditUpdateEntry, map[string]any{"foundingYear": "neunzehn", "displayName": nil, "offerings": []any{map[string]any{"id": "x", "colour": "red"}}}))
	want := map[string]string{"/set/foundingYear": "must be an integer", "/set/displayName": "cannot be removed", "/set/offerings": "colour"}
	if len(issues) != len(want) {
		t.Fatalf("issues: %v", issues)
	}
	for _, is := range issues {
		if !strings.Contains(is.Message, want[is.Path]) {
			t.Errorf("%s: %q does not say %q", is.Path, is.Message, want[is.Path])
		}
	}
	if _, ok, issues := ParseOwnerEdit([]byte(`{"type":"daawid.owner-edit","entry":"ent_x","basedOn":0,"declaredAt":"x","tool":"delete_entry","set":{"status":"gone"}}`)); !ok || len(issues) != 5 {
		t.Errorf("a bad edit file: ok %v, %v", ok, issues)
	}
	if _, ok, _ := ParseOwnerEdit([]byte(`{"schemaVersion":"0.1"}`)); ok {
		t.Error("a full owner revision was taken for an edit")
	}
}

// TestApplyEdit_Capacity checks set_capacity's half: the capacity is the
// new statement, dated by the tool, with only its new note.
func TestApplyEdit_Capacity(t *testing.T) {
	e := holzwerkEntry(t)
	got, issues := ApplyEdit(e, edit(t, EditSetCapacity, map[string]any{"capacity": map[string]any{"status": "accepting", "note": "Wieder frei.", "asOf": "2026-11-02T10:00:00Z", "expiresAt": "2026-12-02T10:00:00Z"}}))
	if len(issues) > 0 {
		t.Fatal(issues)
	}
	c := got.Capacity
	if c.Status != "accepting" || c.ExpiresAt != "2026-12-02T10:00:00Z" || len(c.Note) != 1 || c.Note["de"] != "Wieder frei." || c.LeadTime != nil {
		t.Errorf("capacity: %+v", c)
	}
	got, _ = ApplyEdit(e, edit(t, EditSetCapacity, map[string]any{"capacity": nil}))
	if got.Capacity != nil {
		t.Error("null did not remove the capacity")
	}
}
