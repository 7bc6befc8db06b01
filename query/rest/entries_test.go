package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/schemas"
)

// TestEntries_REST05_REST06_REST07: the three ways to an entry answer
// the same view; by-domain finds the verified entry from what AI apps
// write (TOOL-07), and nothing for an unverified host.
func TestEntries_REST05_REST06_REST07(t *testing.T) {
	ts := newServer(t)
	_, byID := ts.get(t, "/v1/entries/"+hkID)
	var v schemas.EntryView
	if err := json.Unmarshal(byID, &v); err != nil || v.ID != hkID || v.Language != "de" {
		t.Fatalf("by ID: %v %+v", err, v.ID)
	}
	for _, p := range []string{
		"/v1/entries/by-slug/" + hkSlug,
		"/v1/entries/by-domain/holzwerk-krause.example",
		"/v1/entries/by-domain/www.holzwerk-krause.example",
		"/v1/entries/by-domain/HOLZWERK-Krause.Example.",
		"/v1/entries/by-domain/" + url.PathEscape("https://www.holzwerk-krause.example/kontakt?x=1"),
		"/v1/entries/by-domain/" + url.PathEscape("holzwerk-krause.example:443"),
	} {
		resp, body := ts.get(t, p)
		if resp.StatusCode != 200 || string(body) != string(byID) {
			t.Errorf("%s: %d, same view: %v", p, resp.StatusCode, string(body) == string(byID))
		}
		if resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("X-Robots-Tag") != "noindex" { // REST-37
			t.Errorf("%s: %q %q", p, resp.Header.Get("Content-Type"), resp.Header.Get("X-Robots-Tag"))
		}
	}
	// A host in its grace period still finds its entry (§7.5).
	fd := fixtures.Entry("firin-deniz")
	if resp, _ := ts.get(t, "/v1/entries/by-domain/denizfirini.example"); resp.StatusCode != 200 {
		t.Errorf("a domain in grace: %d", resp.StatusCode)
	}
	_ = fd
	// An IDN is looked up in its ASCII form.
	for _, p := range []string{"/v1/entries/by-domain/" + url.PathEscape("bücher.example"), "/v1/entries/by-domain/sannedevries-fotografie.example", "/v1/entries/by-domain/nowhere.example"} {
		resp, body := ts.get(t, p)
		if pr := problemOf(t, resp, body); resp.StatusCode != 404 || pr.Code != "not_found" || !strings.Contains(pr.Detail, "verified") {
			t.Errorf("%s: %d %+v", p, resp.StatusCode, pr) // pending or unknown: no verified entry
		}
	}
	if resp, body := ts.get(t, "/v1/entries/by-domain/"+url.PathEscape("not a host")); resp.StatusCode != 422 || problemOf(t, resp, body).Issues[0].Field != "domain" {
		t.Errorf("a bad host: %d %s", resp.StatusCode, body)
	}
}

// TestEntries_REST05_LangAndSections_REST17_REST19: ?lang= picks the
// language (the default when missing), ?sections= cuts the view
// (comma-separated or repeated), unknown parameters are ignored.
func TestEntries_REST05_LangAndSections_REST17_REST19(t *testing.T) {
	ts := newServer(t)
	view := func(q string) (schemas.EntryView, *http.Response) {
		resp, body := ts.get(t, "/v1/entries/"+hkID+q)
		var v schemas.EntryView
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", q, resp.StatusCode, body)
		}
		json.Unmarshal(body, &v)
		return v, resp
	}
	if v, resp := view("?lang=en"); v.Language != "en" || resp.Header.Get("Content-Language") != "en" {
		t.Errorf("lang=en: %s", v.Language)
	}
	if v, _ := view("?lang=fr"); v.Language != "de" { // §6: the default language
		t.Errorf("lang=fr: %s", v.Language)
	}
	if v, _ := view("?lang=en-GB"); v.Language != "en" {
		t.Errorf("lang=en-GB: %s", v.Language)
	}
	a, ra := view("?sections=contact,hours&utm_source=x&foo=bar")
	b, rb := view("?sections=hours&sections=contact")
	if len(a.ContactPoints) == 0 || len(a.Locations) == 0 || a.Offerings != nil || a.Actions != nil || a.Kind == "" || a.Verification.Level == "" {
		t.Errorf("sections=contact,hours: %+v", a)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) || ra.Header.Get("ETag") != rb.Header.Get("ETag") {
		t.Error("comma-separated and repeated sections differ")
	}
	_, whole := view("")
	if whole.Header.Get("ETag") == ra.Header.Get("ETag") {
		t.Error("a cut view shares the whole view's ETag")
	}
	resp, body := ts.get(t, "/v1/entries/"+hkID+"?sections=contact,nope,hours&lang=x_y")
	p := problemOf(t, resp, body)
	fields := map[string]bool{}
	for _, is := range p.Issues {
		fields[is.Field] = true
	}
	if resp.StatusCode != 422 || p.Code != "invalid_input" || !fields["sections[1]"] || !fields["language"] { // REST-29
		t.Errorf("bad sections and lang: %d %+v", resp.StatusCode, p)
	}
}

// TestProblems_REST03_REST28_REST30: errors are RFC 9457 problems with
// the contract's fields and statuses, readable from any origin, never
// cached, with no trace ID in the body (§7.3).
func TestProblems_REST03_REST28_REST30(t *testing.T) {
	ts := newServer(t)
	cases := []struct {
		path   string
		status int
		code   string
		field  string
	}{
		{"/v1/entries/ent_00000000000000000000000000", 404, "not_found", ""},
		{"/v1/entries/holzwerk-krause", 422, "invalid_input", "id"}, // REST-18: {id} is an ID
		{"/v1/entries/by-slug/Not_A_Slug", 422, "invalid_input", "slug"},
		{"/v1/entries/by-slug/no-such-entry", 404, "not_found", ""},
		{"/v1/entries/" + reg.RemovedID, 410, "gone", ""},
		{"/v1/entries/" + hkSlug + "/offerings?limit=0", 422, "invalid_input", "limit"},
		{"/v1/entries/" + hkSlug + "/offerings?limit=51", 422, "invalid_input", "limit"},
		{"/v1/entries/" + hkSlug + "/offerings?audience=kids", 422, "invalid_input", "audience"},
		{"/v1/entries/" + hkSlug + "/offerings?cursor=bm9wZQ", 422, "invalid_input", "cursor"},
		{"/v1/entries/" + hkSlug + "/offerings?category=Not%20A%20Code", 422, "invalid_input", "category"},
		{"/v1/entries/no-such/brand-kit", 404, "not_found", ""},
		{"/v1/changes", 401, "sign_in_required", ""},
	}
	for _, c := range cases {
		resp, body := ts.get(t, c.path)
		p := problemOf(t, resp, body)
		if resp.StatusCode != c.status || p.Code != c.code || p.Type != reg.Site.BaseURL+"/docs/api#"+c.code || p.Title == "" || p.Detail == "" {
			t.Errorf("%s: %d %+v", c.path, resp.StatusCode, p)
		}
		if c.field != "" && (len(p.Issues) == 0 || p.Issues[0].Field != c.field || !strings.Contains(p.Detail, c.field)) {
			t.Errorf("%s: issues %+v do not name %s (REST-29)", c.path, p.Issues, c.field)
		}
		if resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("Cache-Control") != "no-store" { // REST-31
			t.Errorf("%s: CORS %q, Cache-Control %q", c.path, resp.Header.Get("Access-Control-Allow-Origin"), resp.Header.Get("Cache-Control"))
		}
		if trace := resp.Header.Get("X-Trace-Id"); trace == "" || strings.Contains(string(body), trace) {
			t.Errorf("%s: the trace ID is missing from the headers or in the body", c.path)
		}
	}
}

// TestOfferings_REST09_TOOL14: the word rule, categories, audiences,
// paging with an opaque cursor, and the headers of REST-33.
func TestOfferings_REST09_TOOL14(t *testing.T) {
	ts := newServer(t)
	page := func(q string) schemas.OfferingsAnswer {
		resp, body := ts.get(t, "/v1/entries/"+hkSlug+"/offerings"+q)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", q, resp.StatusCode, body)
		}
		for _, h := range []string{"ETag", "Content-Language", "Cache-Control"} { // REST-33
			if resp.Header.Get(h) == "" {
				t.Errorf("%s: no %s", q, h)
			}
		}
		var a schemas.OfferingsAnswer
		json.Unmarshal(body, &a)
		return a
	}
	all := page("")
	if all.Total != 4 || len(all.Offerings) != 4 || all.EntryID != hkID || all.Slug != hkSlug || all.Language != "de" || all.URL == "" {
		t.Fatalf("all: %+v", all)
	}
	// "Schrank" is inside "Einbauschränke" (case and diacritics folded).
	if a := page("?q=Schrank"); a.Total != 1 || !strings.Contains(a.Offerings[0].Name, "Einbauschränke") {
		t.Errorf("q=Schrank: %+v", a.Offerings)
	}
	// Four words: an offering needs two; the one with more comes first.
	if a := page("?q=" + url.QueryEscape("Innentüren Montage Garten Dach")); a.Total != 1 || !strings.Contains(a.Offerings[0].Name, "Innentüren") {
		t.Errorf("four words: %+v", a.Offerings)
	}
	if a := page("?q=" + url.QueryEscape("einbauküchen einbauschränke")); a.Total != 2 || !strings.Contains(a.Offerings[0].Name, "Einbauküchen") {
		t.Errorf("two words, one needed: %+v", a.Offerings)
	}
	if a := page("?q=zzzz"); a.Total != 0 || a.Offerings == nil {
		t.Errorf("no fit: %+v", a)
	}
	// Paging: the same order, one at a time.
	var names []string
	cursor := ""
	for i := 0; i < 10; i++ {
		a := page("?limit=1" + cursor)
		names = append(names, a.Offerings[0].Name)
		if a.NextCursor == "" {
			break
		}
		cursor = "&cursor=" + url.QueryEscape(a.NextCursor)
	}
	if len(names) != 4 || names[0] != all.Offerings[0].Name || names[3] != all.Offerings[3].Name {
		t.Errorf("paging: %v", names)
	}
	// A cursor of another listing is refused.
	a := page("?limit=1&q=Einbau")
	if a.NextCursor != "" {
		resp, body := ts.get(t, "/v1/entries/"+hkSlug+"/offerings?limit=1&cursor="+url.QueryEscape(a.NextCursor))
		if resp.StatusCode != 422 || problemOf(t, resp, body).Issues[0].Field != "cursor" {
			t.Errorf("a cursor of another query: %d", resp.StatusCode)
		}
	}
	if a := page("?lang=en"); a.Language != "en" {
		t.Errorf("lang=en: %s", a.Language)
	}
}

// TestBrandKit_REST10: the brand kit with its entry, and REST-33 headers.
func TestBrandKit_REST10(t *testing.T) {
	ts := newServer(t)
	resp, body := ts.get(t, "/v1/entries/"+hkID+"/brand-kit?lang=en")
	var a schemas.BrandKitAnswer
	if err := json.Unmarshal(body, &a); err != nil || resp.StatusCode != 200 || a.EntryID != hkID || a.Language != "en" || a.Colors == nil {
		t.Fatalf("%d %v %s", resp.StatusCode, err, body)
	}
	if resp.Header.Get("ETag") == "" || resp.Header.Get("Content-Language") != "en" || resp.Header.Get("Cache-Control") == "" {
		t.Errorf("headers %v", resp.Header)
	}
}

// TestSuspended_TOOL19: a suspended entry's view, offerings and brand kit
// show only what says which entry it is.
func TestSuspended_TOOL19(t *testing.T) {
	ts := newServer(t)
	ks := fixtures.Entry("kfz-rasant-dortmund")
	_, body := ts.get(t, "/v1/entries/"+ks.ID)
	var v schemas.EntryView
	json.Unmarshal(body, &v)
	if v.Status != schemas.StatusSuspended || v.Offerings != nil || v.ContactPoints != nil || v.Summary != "" {
		t.Errorf("suspended view: %s", body)
	}
	_, ob := ts.get(t, "/v1/entries/"+ks.ID+"/offerings")
	var o schemas.OfferingsAnswer
	json.Unmarshal(ob, &o)
	if o.Total != 0 {
		t.Errorf("a suspended entry lists %d offerings", o.Total)
	}
}
