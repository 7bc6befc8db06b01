package render

import (
	"bytes"
	"slices"

	"github.com/daawid/registry/schemas"
)

// The server answers get_entry_sections, the REST mirror's ?sections= and
// get_offerings from the documents rendered at publish (ARCHITECTURE
// decision 2: the read path renders nothing). These functions cut the
// rendered bytes; their tests check that the cut equals what rendering
// with the same sections makes.

// sectionHeadings are the markdown sections in their fixed order (MD-14)
// with their English headings (MD-19).
var sectionHeadings = []struct{ key, heading string }{
	{"facts", "Facts"},
	{"offerings", "Offerings"},
	{"capacity", "Capacity"},
	{"hours", "Hours"},
	{"contact", "Contact & routing"},
	{"actions", "Actions"},
	{"policies", "Policies"},
	{"credentials", "Credentials"},
	{"faqs", "FAQ"},
	{"voice", "Voice"},
	{"brand", "Brand"},
	{"legal", "Legal"},
	{"provenance", "Provenance"},
}

// SelectMarkdownSections keeps of a rendered markdown document (§3) the
// head (frontmatter, title, summary, framing), the named sections and the
// provenance. Owner text never starts a line with "## " (D39), so the
// section headings are the only such lines.
func SelectMarkdownSections(md []byte, sections []schemas.SectionKey) []byte {
	keep := map[string]bool{"provenance": true}
	for _, s := range sections {
		keep[string(s)] = true
	}
	parts := bytes.Split(md, []byte("\n## "))
	out := make([]byte, 0, len(md))
	out = append(out, parts[0]...)
	for _, p := range parts[1:] {
		heading, _, _ := bytes.Cut(p, []byte("\n"))
		for _, s := range sectionHeadings {
			if string(heading) == s.heading && keep[s.key] {
				out = append(out, "\n## "...)
				out = append(out, p...)
			}
		}
	}
	return out
}

// OfferingBlocks splits an offerings document (/{slug}/offerings.md) into
// the markdown block of each offering, keyed by its ID, in document order.
func OfferingBlocks(md []byte) (ids []string, blocks [][]byte) {
	_, body, ok := bytes.Cut(md, []byte("\n## Offerings\n"))
	if !ok {
		return nil, nil
	}
	for _, b := range bytes.Split(body, []byte("\n### ")) {
		if len(b) == 0 {
			continue
		}
		if !bytes.HasPrefix(b, []byte("### ")) {
			b = append([]byte("### "), b...)
		}
		b = bytes.TrimRight(b, "\n")
		id := ""
		if _, rest, ok := bytes.Cut(b, []byte("\n- ID: `")); ok {
			if v, _, ok := bytes.Cut(rest, []byte("`")); ok {
				id = string(v)
			}
		}
		ids = append(ids, id)
		blocks = append(blocks, append(b, '\n'))
	}
	return ids, blocks
}

// SelectView keeps of a whole EntryView the named sections (§6, VIEW-06):
// the identity, record, verification, summary, links and provenance
// always stay. Locations belong to facts and hours alike.
func SelectView(v *schemas.EntryView, sections []schemas.SectionKey) {
	want := func(k string) bool { return slices.Contains(sections, schemas.SectionKey(k)) }
	if !want("facts") {
		v.AlternateNames, v.Description, v.Categories, v.NACECodes = nil, "", nil, nil
		v.FoundingYear, v.Employees, v.LanguagesSpoken, v.Domains = 0, "", nil, nil
		v.Profiles, v.ServiceArea = nil, nil
	}
	if !want("facts") && !want("hours") {
		v.PrimaryLocationID, v.Locations = "", nil
	}
	if !want("offerings") {
		v.Offerings, v.Media = nil, nil
	}
	if !want("capacity") {
		v.Capacity = nil
	}
	if !want("contact") {
		v.ContactPoints, v.Routing, v.AgentPolicy = nil, nil, nil
	}
	if !want("actions") {
		v.Actions = nil
	}
	if !want("policies") {
		v.Policies = nil
	}
	if !want("credentials") {
		v.Credentials = nil
	}
	if !want("faqs") {
		v.FAQs = nil
	}
	if !want("voice") {
		v.Voice = nil
	}
	if !want("brand") {
		v.Brand = nil
	}
	if !want("legal") {
		v.Operator = nil
	}
}
