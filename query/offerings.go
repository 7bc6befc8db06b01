package query

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// OfferingsInput is get_offerings' input (§7.5 GetOfferingsInput,
// TOOL-12).
type OfferingsInput struct {
	Entry    string `json:"entry"`
	Query    string `json:"query,omitempty"`
	Category string `json:"category,omitempty"`
	Audience string `json:"audience,omitempty"`
	Language string `json:"language,omitempty"`
	Limit    int    `json:"limit,omitempty"` // 0: the default, 25
	Cursor   string `json:"cursor,omitempty"`
}

// OfferingsPage is get_offerings' answer with its markdown blocks (the
// tool's text, §7.5) and the view's validators.
type OfferingsPage struct {
	schemas.OfferingsAnswer
	Entry *Resolved
	// Blocks are the markdown blocks of the page's offerings, in order.
	Blocks [][]byte
	Doc    publication.DocRow
}

var categoryRe = regexp.MustCompile(schemas.CategoryPattern)

func checkEntryRef(v *invalid, field, entry string) {
	switch {
	case entry == "":
		v.add(field, "is required: an entry ID or slug")
	case strings.HasPrefix(entry, "ent_"):
		if !schemas.ValidID(schemas.PrefixEntry, entry) {
			v.add(field, "must be an entry ID like ent_01k8r2m5n7p9q3s4t6v8w0x2yz or a slug")
		}
	case len(entry) > 100 || !slugRe.MatchString(entry):
		v.add(field, "must be an entry ID or a slug like holzwerk-krause")
	}
}

// ResolveEntry finds the entry an `entry` field names: an ID or a slug
// (REST-18).
func (r *Read) ResolveEntry(entry string) (*Resolved, error) {
	if strings.HasPrefix(entry, "ent_") {
		return r.ByID(entry)
	}
	return r.BySlug(entry)
}

// Offerings answers get_offerings: the entry's offerings in the answer's
// language that fit the query words (TOOL-14: an offering needs half of
// them, never more than two; those with more come first), the category
// (or a sector's code) and the audience (those for it and for everyone).
func (r *Read) Offerings(in OfferingsInput) (*OfferingsPage, error) {
	var v invalid
	checkEntryRef(&v, "entry", in.Entry)
	if len([]rune(in.Query)) > 200 {
		v.add("query", "is longer than 200 characters")
	}
	if in.Category != "" && !categoryRe.MatchString(in.Category) {
		v.add("category", "must be a category code like trades.carpenter or a sector code like trades")
	}
	if in.Audience != "" && in.Audience != "consumer" && in.Audience != "business" {
		v.add("audience", "must be consumer or business")
	}
	if in.Language != "" && !langRe.MatchString(in.Language) {
		v.add("language", "must be a BCP 47 language tag, like de or en-GB")
	}
	limit := in.Limit
	if limit == 0 {
		limit = 25
	}
	if limit < 1 || limit > 50 {
		v.add("limit", "must be from 1 to 50")
	}
	if len(in.Cursor) > 500 {
		v.add("cursor", "is longer than 500 characters")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	e, lang, d, view, err := r.entryView(in.Entry, in.Language)
	if err != nil {
		return nil, err
	}
	fit := fitOfferings(view.Offerings, in)
	key := cursorKey(e.ID, d.ETag, in)
	offset := 0
	if in.Cursor != "" {
		if offset, err = readCursor(in.Cursor, key); err != nil {
			return nil, err
		}
	}
	p := &OfferingsPage{Entry: e, Doc: d.DocRow}
	p.EntryRef = schemas.EntryRef{EntryID: e.ID, Slug: e.Slug, DisplayName: view.DisplayName, URL: view.Links.HTML, Revision: view.Record.Revision, Language: lang}
	p.Total = len(fit)
	end := min(offset+limit, len(fit))
	if offset > len(fit) {
		offset = len(fit)
	}
	p.Offerings = fit[offset:end]
	if p.Offerings == nil {
		p.Offerings = []schemas.OfferingView{}
	}
	if end < len(fit) {
		p.NextCursor = makeCursor(end, key)
	}
	media := map[string]bool{}
	for _, o := range p.Offerings {
		for _, id := range o.MediaIDs {
			media[id] = true
		}
	}
	for _, m := range view.Media {
		if media[m.ID] {
			p.Media = append(p.Media, m)
		}
	}
	if len(p.Offerings) > 0 {
		_, md, err := r.entryDocBytes(e.ID, render.KindOfferings, lang)
		if err != nil {
			return nil, err
		}
		ids, blocks := render.OfferingBlocks(md)
		byID := map[string][]byte{}
		for i, id := range ids {
			byID[id] = blocks[i]
		}
		for _, o := range p.Offerings {
			p.Blocks = append(p.Blocks, byID[o.ID])
		}
	}
	return p, nil
}

// fitOfferings keeps the offerings that fit, in answer order.
func fitOfferings(all []schemas.OfferingView, in OfferingsInput) []schemas.OfferingView {
	q := words(in.Query)
	need := min(2, (len(q)+1)/2) // TOOL-14: half, rounded up, never more than two
	type scored struct {
		o     schemas.OfferingView
		n, at int
	}
	var keep []scored
	for i, o := range all {
		if in.Category != "" && o.Category != in.Category && !strings.HasPrefix(o.Category, in.Category+".") {
			continue
		}
		if in.Audience != "" && o.Audience != schemas.Audience(in.Audience) && o.Audience != "all" && o.Audience != "" {
			continue
		}
		n := 0
		if len(q) > 0 {
			text := words(o.Name + " " + o.ShortName + " " + o.Description + " " + strings.ReplaceAll(o.Category, ".", " "))
			for _, w := range q {
				if wordMatches(w, text) {
					n++
				}
			}
			if n < need {
				continue
			}
		}
		keep = append(keep, scored{o, n, i})
	}
	sort.SliceStable(keep, func(i, j int) bool { return keep[i].n > keep[j].n })
	out := make([]schemas.OfferingView, len(keep))
	for i, k := range keep {
		out[i] = k.o
	}
	return out
}

// Cursors are opaque to callers: an offset and a key of what was listed
// (the entry's revision and the filters), so a cursor from another
// listing, or from before the entry changed, is refused rather than
// paging through something else.
func cursorKey(entryID, etag string, in OfferingsInput) string {
	sum := sha256.Sum256([]byte(entryID + "\x00" + etag + "\x00" + in.Query + "\x00" + in.Category + "\x00" + in.Audience))
	return hex.EncodeToString(sum[:6])
}

func makeCursor(offset int, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("o" + strconv.Itoa(offset) + "." + key))
}

func readCursor(c, key string) (int, error) {
	bad := &Error{Code: CodeInvalidInput, Message: "cursor: is not one this listing gave (the entry may have changed); ask again without it",
		Issues: []Issue{{Field: "cursor", Message: "is not one this listing gave"}}}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 3 || b[0] != 'o' {
		return 0, bad
	}
	num, k, ok := strings.Cut(string(b[1:]), ".")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 || k != key {
		return 0, bad
	}
	return n, nil
}

// entryView finds the entry an `entry` field names and reads its view in
// the answer's language.
func (r *Read) entryView(entry, language string) (*Resolved, string, *Doc, *schemas.EntryView, error) {
	e, err := r.ResolveEntry(entry)
	if err != nil {
		return nil, "", nil, nil, err
	}
	lang := e.Lang(language)
	d, raw, err := r.entryDocBytes(e.ID, render.KindView, lang)
	if err != nil {
		return nil, "", nil, nil, err
	}
	var view schemas.EntryView
	if err := json.Unmarshal(raw, &view); err != nil {
		return nil, "", nil, nil, fmt.Errorf("entry %s view: %w", e.ID, err)
	}
	return e, lang, d, &view, nil
}

// BrandKitInput is get_brand_kit's input (§7.5).
type BrandKitInput struct {
	Entry    string `json:"entry"`
	Language string `json:"language,omitempty"`
}

// BrandKitPage is get_brand_kit's answer with the view's validators.
type BrandKitPage struct {
	schemas.BrandKitAnswer
	Entry *Resolved
	Doc   publication.DocRow
}

// BrandKit answers get_brand_kit: the entry's brand kit view (§6), each
// part only when the owner gave it.
func (r *Read) BrandKit(in BrandKitInput) (*BrandKitPage, error) {
	var v invalid
	checkEntryRef(&v, "entry", in.Entry)
	if in.Language != "" && !langRe.MatchString(in.Language) {
		v.add("language", "must be a BCP 47 language tag, like de or en-GB")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	e, lang, d, view, err := r.entryView(in.Entry, in.Language)
	if err != nil {
		return nil, err
	}
	p := &BrandKitPage{Entry: e, Doc: d.DocRow}
	p.EntryRef = schemas.EntryRef{EntryID: e.ID, Slug: e.Slug, DisplayName: view.DisplayName, URL: view.Links.HTML, Revision: view.Record.Revision, Language: lang}
	if view.Brand != nil {
		p.BrandKitView = *view.Brand
	}
	return p, nil
}
