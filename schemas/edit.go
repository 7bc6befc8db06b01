package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
)

// EditType marks an owner edit file in the owner inbox, beside the full
// owner revisions that have no "type" (decision D95).
const EditType = "daawid.owner-edit"

// The owner tools that make edits (§7.5).
const (
	EditUpdateEntry  = "update_entry"
	EditSetCapacity  = "set_capacity"
	EditConfirmEntry = "confirm_entry"
	// EditClaimEntry is the claim of an entry (HTTP-34): no field changes;
	// the entry becomes its owner's, as it reads now (decision D96).
	EditClaimEntry = "claim_entry"
)

// OwnerEdit is a change an owner made with an owner tool (§7.5, MCP-26):
// the fields update_entry and set_capacity take, each in the shape
// get_entry shows it (the view's types, every text a string in the entry's
// default language). The server cannot write a full owner revision: the
// publication holds only the public part of an entry (D94), and what a view
// does not show must stay as the entry has it. So the server writes the
// edit, and the pipeline applies it over the entry's full current revision
// with ApplyEdit (decision D95).
type OwnerEdit struct {
	Type       string `json:"type"`
	Entry      string `json:"entry"`
	BasedOn    int    `json:"basedOn"`
	DeclaredAt string `json:"declaredAt"`
	Tool       string `json:"tool"`
	// Set holds the fields the owner sent, by their view names; a JSON null
	// removes the field.
	Set map[string]json.RawMessage `json:"set,omitempty"`
}

// EditFields are the fields an edit may set, in the order §7.5 lists them
// for update_entry, then capacity (set_capacity).
var EditFields = []string{
	"displayName", "alternateNames", "summary", "description", "categories", "foundingYear", "employees",
	"languagesSpoken", "contactPoints", "locations", "primaryLocationId", "serviceArea", "offerings", "operator",
	"capacity",
}

// SensitiveEditFields are the sections whose change waits for the owner's
// confirmation by email: the name, contact details, addresses and legal
// details (MCP-26).
var SensitiveEditFields = map[string]bool{
	"displayName": true, "alternateNames": true, "contactPoints": true, "locations": true,
	"primaryLocationId": true, "operator": true,
}

// ParseOwnerEdit reads an owner edit; ok is false when data is not one (a
// full owner revision), so the inbox can hold both.
func ParseOwnerEdit(data []byte) (ed *OwnerEdit, ok bool, issues Issues) {
	var probe struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &probe) != nil || probe.Type != EditType {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	dec.DisallowUnknownFields()
	ed = &OwnerEdit{}
	if err := dec.Decode(ed); err != nil {
		return nil, true, Issues{{Path: "/", Message: "is not an owner edit: " + err.Error()}}
	}
	if !ValidID(PrefixEntry, ed.Entry) {
		issues = append(issues, Issue{Path: "/entry", Message: "must be an entry ID"})
	}
	if ed.BasedOn < 1 {
		issues = append(issues, Issue{Path: "/basedOn", Message: "must be the revision the owner read, 1 or more"})
	}
	if _, err := time.Parse(time.RFC3339, ed.DeclaredAt); err != nil {
		issues = append(issues, Issue{Path: "/declaredAt", Message: "must be an RFC 3339 time"})
	}
	switch ed.Tool {
	case EditUpdateEntry, EditSetCapacity, EditConfirmEntry, EditClaimEntry:
	default:
		issues = append(issues, Issue{Path: "/tool", Message: "must be update_entry, set_capacity, confirm_entry or claim_entry"})
	}
	for _, k := range sortedKeys(ed.Set) {
		if !editable(k) {
			issues = append(issues, Issue{Path: "/set/" + k, Message: "is not a field an owner tool changes"})
		}
	}
	return ed, true, issues
}

func editable(k string) bool {
	for _, f := range EditFields {
		if f == k {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// ApplyEdit applies an edit over an entry and returns the new entry, or the
// mistakes, each named by its path under /set. The entry is not changed.
// What the view does not show stays as the entry has it (§7.5): the texts
// in the other languages, private contact points, and the street of a
// location shown at locality level when its postal code, locality and
// country are unchanged. A list replaces the entry's list whole; an item
// keeps what the view does not show from the entry's item of the same ID.
func ApplyEdit(e *Entry, ed *OwnerEdit) (*Entry, Issues) {
	out := e.Clone()
	var issues Issues
	a := &applier{e: out, prev: e, lang: e.DefaultLanguage}
	for _, k := range EditFields {
		raw, ok := ed.Set[k]
		if !ok {
			continue
		}
		null := bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
		if err := a.apply(k, raw, null); err != nil {
			issues = append(issues, Issue{Path: "/set/" + k, Message: err.Error()})
		}
	}
	if len(issues) > 0 {
		return nil, issues
	}
	return out, nil
}

// applier applies one field at a time.
type applier struct {
	e, prev *Entry
	lang    string
}

// strict decodes raw into v, refusing fields the view does not have.
func strict(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return fmt.Errorf("must be %s, not %s", jsonKind(te.Type), te.Value)
			}
			return fmt.Errorf("%s must be %s, not %s", te.Field, jsonKind(te.Type), te.Value)
		}
		return fmt.Errorf("is not in the view's shape: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// jsonKind names a Go type as the JSON it is read from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	}
	return t.String()
}

func (a *applier) apply(k string, raw json.RawMessage, null bool) error {
	e, lang := a.e, a.lang
	switch k {
	case "displayName":
		if null {
			return fmt.Errorf("cannot be removed: an entry has a name")
		}
		return strict(raw, &e.DisplayName)
	case "alternateNames":
		e.AlternateNames = nil
		return strict(raw, &e.AlternateNames)
	case "summary":
		if null {
			return fmt.Errorf("cannot be removed: an entry has a summary")
		}
		var s string
		if err := strict(raw, &s); err != nil {
			return err
		}
		e.Summary = setText(e.Summary, lang, s)
	case "description":
		if null {
			e.Description = nil
			return nil
		}
		var s string
		if err := strict(raw, &s); err != nil {
			return err
		}
		e.Description = setText(e.Description, lang, s)
	case "categories":
		if null {
			return fmt.Errorf("cannot be removed: an entry has at least one category")
		}
		e.Categories = nil
		return strict(raw, &e.Categories)
	case "foundingYear":
		e.FoundingYear = 0
		return strict(raw, &e.FoundingYear)
	case "employees":
		e.Employees = ""
		return strict(raw, &e.Employees)
	case "languagesSpoken":
		e.LanguagesSpoken = nil
		return strict(raw, &e.LanguagesSpoken)
	case "primaryLocationId":
		e.PrimaryLocationID = ""
		return strict(raw, &e.PrimaryLocationID)
	case "serviceArea":
		e.ServiceArea = nil
		var v *ServiceAreaView
		if err := strict(raw, &v); err != nil {
			return err
		}
		e.ServiceArea = serviceArea(v)
	case "operator":
		e.Operator = nil
		return strict(raw, &e.Operator)
	case "contactPoints":
		return a.contactPoints(raw)
	case "locations":
		return a.locations(raw)
	case "offerings":
		return a.offerings(raw)
	case "capacity":
		return a.capacity(raw)
	}
	return nil
}

// setText sets the text in lang and keeps the other languages.
func setText[M MaxLen](t Text[M], lang, s string) Text[M] {
	out := Text[M]{}
	for k, v := range t {
		out[k] = v
	}
	if s == "" {
		delete(out, lang)
	} else {
		out[lang] = s
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func serviceArea(v *ServiceAreaView) *ServiceArea {
	if v == nil {
		return nil
	}
	return &ServiceArea{Radius: v.Radius, Places: v.Places, Anywhere: v.Anywhere}
}

// contactPoints replaces the public contact points; private ones, which
// no view shows, stay.
func (a *applier) contactPoints(raw json.RawMessage) error {
	var vs []ContactPointView
	if err := strict(raw, &vs); err != nil {
		return err
	}
	var out []ContactPoint
	for _, cp := range a.prev.ContactPoints {
		if cp.Visibility != ContactVisibility("public") {
			out = append(out, cp)
		}
	}
	for _, v := range vs {
		out = append(out, ContactPoint{ID: v.ID, Name: v.Name, Visibility: ContactVisibility("public"), Purposes: v.Purposes,
			Phone: v.Phone, Email: v.Email, Languages: v.Languages, Hours: v.Hours, ResponseTime: v.ResponseTime})
	}
	a.e.ContactPoints = out
	return nil
}

// locations replaces the locations; a location shown at locality level
// keeps its street while its postal code, locality and country stay.
func (a *applier) locations(raw json.RawMessage) error {
	var vs []LocationView
	if err := strict(raw, &vs); err != nil {
		return err
	}
	prev := map[string]Location{}
	for _, l := range a.prev.Locations {
		prev[l.ID] = l
	}
	var out []Location
	for _, v := range vs {
		l := Location{ID: v.ID, Name: v.Name, Address: v.Address, AddressDisplay: v.AddressDisplay, Geo: v.Geo,
			TimeZone: v.TimeZone, Visits: v.Visits, Hours: v.Hours}
		old, known := prev[v.ID]
		if known && old.AddressDisplay == DisplayLocalityOnly && v.Address.Street == "" &&
			old.Address.PostalCode == v.Address.PostalCode && old.Address.Locality == v.Address.Locality && old.Address.Country == v.Address.Country {
			l.Address.Street, l.Address.Extra = old.Address.Street, old.Address.Extra
			if l.Geo == nil {
				l.Geo = old.Geo
			}
		}
		notes := map[string]Text[Max120]{}
		for _, x := range old.HoursExceptions {
			notes[x.From+"/"+x.To] = x.Note
		}
		for _, x := range v.HoursExceptions {
			l.HoursExceptions = append(l.HoursExceptions, HoursException{From: x.From, To: x.To, Closed: x.Closed,
				Opens: x.Opens, Closes: x.Closes, Note: setText(notes[x.From+"/"+x.To], a.lang, x.Note)})
		}
		out = append(out, l)
	}
	a.e.Locations = out
	return nil
}

// offerings replaces the offerings; an offering keeps its texts in the
// other languages from the entry's offering of the same ID.
func (a *applier) offerings(raw json.RawMessage) error {
	var vs []OfferingView
	if err := strict(raw, &vs); err != nil {
		return err
	}
	prev := map[string]Offering{}
	for _, o := range a.prev.Offerings {
		prev[o.ID] = o
	}
	var out []Offering
	for _, v := range vs {
		old := prev[v.ID]
		o := Offering{ID: v.ID, Kind: v.Kind, Name: setText(old.Name, a.lang, v.Name), ShortName: setText(old.ShortName, a.lang, v.ShortName),
			Description: setText(old.Description, a.lang, v.Description), Category: v.Category, Audience: v.Audience,
			LeadTime: v.LeadTime, Availability: v.Availability, ServiceArea: serviceArea(v.ServiceArea), MediaIDs: v.MediaIDs}
		if v.Price != nil {
			var note Text[Max200]
			if old.Price != nil {
				note = old.Price.Note
			}
			o.Price = &Price{Kind: v.Price.Kind, Amount: v.Price.Amount, Min: v.Price.Min, Max: v.Price.Max, Currency: v.Price.Currency,
				Unit: v.Price.Unit, VATIncluded: v.Price.VATIncluded, Note: setText(note, a.lang, v.Price.Note)}
		}
		out = append(out, o)
	}
	a.e.Offerings = out
	return nil
}

// capacity sets or removes the capacity statement (set_capacity); the
// tool dates it (asOf, expiresAt).
func (a *applier) capacity(raw json.RawMessage) error {
	var v *CapacityView
	if err := strict(raw, &v); err != nil {
		return err
	}
	if v == nil {
		a.e.Capacity = nil
		return nil
	}
	// A capacity statement is new each time it is set, so the notes of the
	// old one in other languages would misstate it: only the new note stays.
	a.e.Capacity = &Capacity{Status: v.Status, NextAvailableFrom: v.NextAvailableFrom, LeadTime: v.LeadTime,
		Note: setText(Text[Max280](nil), a.lang, v.Note), AsOf: v.AsOf, ExpiresAt: v.ExpiresAt}
	return nil
}
