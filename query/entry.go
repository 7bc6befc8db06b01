package query

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// EntryInput is get_entry's input (§7.5 GetEntryInput), and
// get_entry_sections' with Sections: exactly one of ID, Slug and Domain.
type EntryInput struct {
	ID       string   `json:"id,omitempty"`
	Slug     string   `json:"slug,omitempty"`
	Domain   string   `json:"domain,omitempty"`
	Language string   `json:"language,omitempty"`
	Sections []string `json:"sections,omitempty"`
}

// EntryAnswer is an entry's view in one language (§6), whole or cut to
// the sections asked for, with what the faces need to serve it: the
// view's JSON (EntryView), its validators, and the markdown document it
// goes with.
type EntryAnswer struct {
	Entry    *Resolved
	Language string
	Sections []schemas.SectionKey // nil: the whole view
	// View is the EntryView as JSON, ending in a newline.
	View []byte
	// Doc is the view's document row: ETag, Last-Modified, revision.
	Doc publication.DocRow
	r   *Read
}

// ETag is the answer's strong validator: the view's, with the sections
// when it was cut (another representation, another ETag).
func (a *EntryAnswer) ETag() string {
	if a.Sections == nil {
		return a.Doc.ETag
	}
	parts := make([]string, len(a.Sections))
	for i, s := range a.Sections {
		parts[i] = string(s)
	}
	return strings.TrimSuffix(a.Doc.ETag, `"`) + "-" + strings.Join(parts, ".") + `"`
}

// Markdown is the entry's markdown document in the answer's language
// (get_entry's text is the bytes of /{slug}.md, §7.4), cut to the
// sections when they were asked for.
func (a *EntryAnswer) Markdown() ([]byte, error) {
	_, md, err := a.r.entryDocBytes(a.Entry.ID, render.KindMarkdown, a.Language)
	if err != nil {
		return nil, err
	}
	if a.Sections != nil {
		md = render.SelectMarkdownSections(md, a.Sections)
	}
	return md, nil
}

// CheckEntryInput checks a get_entry or get_entry_sections input and
// returns its sections in their fixed order (nil when none were asked).
func CheckEntryInput(in EntryInput, sectionsTool bool) ([]schemas.SectionKey, error) {
	var v invalid
	given := 0
	for _, f := range []string{in.ID, in.Slug, in.Domain} {
		if f != "" {
			given++
		}
	}
	if given != 1 {
		v.add("id", "provide exactly one of id, slug, domain")
	}
	if in.ID != "" && !schemas.ValidID(schemas.PrefixEntry, in.ID) {
		v.add("id", "must be an entry ID like ent_01k8r2m5n7p9q3s4t6v8w0x2yz")
	}
	if in.Slug != "" && (len(in.Slug) > 100 || !slugRe.MatchString(in.Slug)) {
		v.add("slug", "must be a slug like holzwerk-krause: lower-case letters, digits and single hyphens")
	}
	if in.Domain != "" {
		if _, err := normalizeHost(in.Domain); err != nil {
			v.add("domain", "%s", err)
		}
	}
	if in.Language != "" && !langRe.MatchString(in.Language) {
		v.add("language", "must be a BCP 47 language tag, like de or en-GB")
	}
	var sections []schemas.SectionKey
	switch {
	case sectionsTool && len(in.Sections) == 0:
		v.add("sections", "name at least one section")
	case len(in.Sections) > len(schemas.SectionKeys):
		v.add("sections", "has %d items; at most %d", len(in.Sections), len(schemas.SectionKeys))
	}
	if len(in.Sections) > 0 {
		want := map[string]bool{}
		for i, s := range in.Sections {
			if !slices.Contains(schemas.SectionKeys, schemas.SectionKey(s)) {
				v.add(fmt.Sprintf("sections[%d]", i), "%q is not a section; the sections are %s", s, joinKeys())
			}
			want[s] = true
		}
		sections = []schemas.SectionKey{}
		for _, k := range schemas.SectionKeys {
			if want[string(k)] {
				sections = append(sections, k)
			}
		}
	}
	return sections, v.err()
}

func joinKeys() string {
	parts := make([]string, len(schemas.SectionKeys))
	for i, k := range schemas.SectionKeys {
		parts[i] = string(k)
	}
	return strings.Join(parts, ", ")
}

// Resolve finds the entry an EntryInput names.
func (r *Read) Resolve(in EntryInput) (*Resolved, error) {
	switch {
	case in.ID != "":
		return r.ByID(in.ID)
	case in.Slug != "":
		return r.BySlug(in.Slug)
	default:
		return r.ByDomain(in.Domain)
	}
}

// Entry answers get_entry (no sections) and get_entry_sections: the
// entry's view in the language asked for, else its default (§6).
func (r *Read) Entry(in EntryInput) (*EntryAnswer, error) {
	sections, err := CheckEntryInput(in, false)
	if err != nil {
		return nil, err
	}
	e, err := r.Resolve(in)
	if err != nil {
		return nil, err
	}
	lang := e.Lang(in.Language)
	d, view, err := r.entryDocBytes(e.ID, render.KindView, lang)
	if err != nil {
		return nil, err
	}
	a := &EntryAnswer{Entry: e, Language: lang, Sections: sections, Doc: d.DocRow, View: view, r: r}
	if sections != nil {
		var v schemas.EntryView
		if err := json.Unmarshal(view, &v); err != nil {
			return nil, fmt.Errorf("entry %s view: %w", e.ID, err)
		}
		render.SelectView(&v, sections)
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		a.View = append(b, '\n')
	}
	return a, nil
}

// Card is the entry's card in the answer's language, as the publication
// made it (schemas.EntryCard, §7.7), or nil when it has none. An entry
// the time guard re-issued (D66) has its card too: the stand-in renders
// every row of render.Table, the card's included (MCP-67).
func (a *EntryAnswer) Card() (json.RawMessage, error) {
	_, b, err := a.r.entryDocBytes(a.Entry.ID, render.KindCard, a.Language)
	if err != nil {
		if e, ok := AsError(err); ok && e.Code == CodeNotFound {
			return nil, nil
		}
		return nil, err
	}
	return b, nil
}
