package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/daawid/registry/schemas"
)

// The entry schema page (DISC-06) is made from the published
// schemas/0.1/entry.json itself: every object, every field, its type,
// whether it is required, its limits and its allowed values come from the
// schema the engine validates with (D37), so the page cannot drift from
// it. Only the meaning of each object is written here, in schemaMeanings;
// a test holds that list to the schema's objects.

// schemaMeanings says what each object of entry.json is for, by its name
// in $defs. Localized texts share one meaning (localizedMeaning).
var schemaMeanings = map[string]string{
	"Entry":           "One revision of a public entry: a person or an organization, what its owner declares (or, while unclaimed, what Daawid compiled from public sources), and the record of who said what and when. This is the object owners write and the object every projection (markdown, JSON-LD, page, view) is rendered from.",
	"Record":          "The revision's metadata. A new revision is issued whenever anything public changes, including a change that time brings (a capacity expiring, a verification lapsing; D4).",
	"Verification":    "What Daawid checked about who runs the entry. Set only by Daawid's own checks, never by the owner's declaration (D49, D50). See verification.md.",
	"DomainCheck":     "The state of one website's domain verification. A domain in `grace` (its re-check failed) still counts as verified until `graceUntil` (D7).",
	"Domain":          "A website the entry names; whether it is verified is recorded in `verification.domains`.",
	"Location":        "A place where the entry can be found, with its hours. `addressDisplay: locality_only` keeps the street and point out of every projection.",
	"Address":         "A postal address. `street` and `extra` are never shown when the location is shown at locality level.",
	"Geo":             "A WGS 84 point.",
	"HoursRule":       "One line of opening hours: the days it covers, and either `opens`/`closes` or `closed`. `closes` earlier than `opens` ends the next day; split shifts are two rules with the same days (D9). A day with no rule is unknown.",
	"HoursException":  "Changed hours for a range of dates (inclusive): closed, or other times.",
	"ServiceArea":     "Where the entry works besides its locations: a radius, named places, or anywhere (D26).",
	"ServiceRadius":   "A circle around one of the entry's locations or a named point.",
	"RadiusCenter":    "The centre of a radius: a location of the entry, or a named point with its coordinates.",
	"ServicePlace":    "A named place served: a city, an administrative area or a country, optionally with its GeoNames ID.",
	"ContactPoint":    "A way to reach the entry. Private contact points are kept for the owner and Daawid's delivery and never projected.",
	"RoutingRule":     "Where a kind of request should go, or that it is declined; exactly one of `routeTo` and `decline`.",
	"AgentPolicy":     "How AI agents should approach the entry when acting towards it.",
	"Offering":        "A service or product the entry offers, with its price and lead time.",
	"Price":           "An amount of money: its kind (fixed, from, range, on request), currency, whether VAT is included, and the unit it is per. Amounts have two decimals.",
	"DurationRange":   "A range of ISO 8601 durations; `max` is optional.",
	"Action":          "A request the entry takes through Daawid (a quote, a callback, an appointment, a message), with the questions it asks. `delivery` is private.",
	"Question":        "A question an action asks, with its type: yes/no, text (≤ 1000 characters), number, or a choice of options (D16).",
	"QuestionOption":  "One option of a choice question.",
	"Delivery":        "Where a confirmed request goes: an email address or the business's own system (handoff). Private: never projected (D15).",
	"Capacity":        "Whether the entry is taking on work now. Volatile: it is shown only until `expiresAt` and removed from every projection after.",
	"Policy":          "A stated policy: payment methods, deposits, travel costs, cancellation and the like, with a summary.",
	"Credential":      "A licence, membership or certificate, self-declared or verified by Daawid, with its validity dates (D31).",
	"Organization":    "An organization that issues a credential.",
	"FAQ":             "A question and its answer, in the entry's languages.",
	"Voice":           "How the entry likes to be named and addressed. Stated preferences: following them is optional and never overrides a user's needs.",
	"Media":           "A picture the entry publishes, with its caption and alternative text.",
	"Brand":           "The brand kit: logo, imagery, colours, fonts and corners.",
	"BrandColors":     "The brand's colours as hex values.",
	"BrandFonts":      "The fonts for headings and body text.",
	"FontRef":         "A font family the registry hosts.",
	"Operator":        "Who legally operates the entry: the source of the legal notice (Impressum). Representatives appear only in the legal section.",
	"OperatorContact": "The operator's contact for the legal notice.",
	"Register":        "A commercial register entry: register type, court, section and number.",
	"Representative":  "A person who represents the operator, with their role and title as the owner writes it (D18).",
	"Profession":      "A regulated profession's details for the legal notice.",
	"PrivacyNotice":   "The entry's privacy notice: hosted by Daawid (its text) or the owner's own page (D17).",
	"Provenance":      "Who asserted the facts at a JSON pointer, and when: the register, the owner, a website or Daawid (D20).",
}

// localizedMeaning is what every LocalizedN object is.
const localizedMeaning = "Text in several languages: a language tag mapped to the text in that language, at most the number of characters its name gives (Localized300: 300 each). A reader missing a language falls back to the entry's default language (D1)."

// schemaDoc is the part of a JSON Schema the page reads.
type schemaDoc struct {
	Ref                  string                `json:"$ref"`
	Type                 string                `json:"type"`
	Properties           orderedProps          `json:"properties"`
	Required             []string              `json:"required"`
	Items                *schemaDoc            `json:"items"`
	Enum                 []any                 `json:"enum"`
	Const                any                   `json:"const"`
	Pattern              string                `json:"pattern"`
	Format               string                `json:"format"`
	MinLength            *int                  `json:"minLength"`
	MaxLength            *int                  `json:"maxLength"`
	Minimum              *float64              `json:"minimum"`
	Maximum              *float64              `json:"maximum"`
	MinItems             *int                  `json:"minItems"`
	MaxItems             *int                  `json:"maxItems"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"`
	Defs                 map[string]*schemaDoc `json:"$defs"`
}

// orderedProps keeps the properties in the schema's order (the model's
// field order), which a Go map would lose.
type orderedProps struct {
	Names []string
	Props map[string]*schemaDoc
}

func (o *orderedProps) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &o.Props); err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				o.Names = append(o.Names, t)
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return err
				}
			}
		}
	}
}

// entrySchema reads the published entry.json.
func entrySchema() *schemaDoc {
	var d schemaDoc
	if err := json.Unmarshal(schemas.SchemaFiles()["entry.json"], &d); err != nil {
		panic("render: entry.json: " + err.Error())
	}
	return &d
}

// entrySchemaMarkdown is /docs/entry-schema.md.
func entrySchemaMarkdown(s Site) string {
	d := entrySchema()
	var b strings.Builder
	b.WriteString("# The entry schema (v0.1)\n\n")
	fmt.Fprintf(&b, "What an entry holds: every object of the open format, with each field's type, limits and allowed values. This page is generated from the published JSON Schema [%[1]s/schemas/0.1/entry.json](%[1]s/schemas/0.1/entry.json) (JSON Schema 2020-12, Apache 2.0), the schema the registry validates every entry with, so the two cannot disagree.\n\n", s.BaseURL)
	b.WriteString("Readers: ignore fields you do not know and treat unknown enum values as unknown; the format only grows (additive changes within 0.1). Writers: `entry.json` refuses unknown fields. What consumers read is a projection of an entry: the view schemas [entry-view.json](" + s.BaseURL + "/schemas/0.1/entry-view.json), [offering-view.json](" + s.BaseURL + "/schemas/0.1/offering-view.json) and [brand-kit-view.json](" + s.BaseURL + "/schemas/0.1/brand-kit-view.json) describe those; private parts (private contact points, an action's delivery) are never projected.\n\n")
	b.WriteString("Lengths count Unicode code points. IDs are a prefix, an underscore and a 26-character lower-case ULID; see [identifiers](" + s.BaseURL + "/docs/identifiers.md).\n")
	names := make([]string, 0, len(d.Defs))
	for name := range d.Defs {
		if name != "Entry" && !strings.HasPrefix(name, "Localized") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range append([]string{"Entry"}, names...) {
		writeSchemaObject(&b, name, d.Defs[name])
	}
	b.WriteString("\n## Localized text\n\n" + localizedMeaning + "\n\n")
	var loc []string
	for name := range d.Defs {
		if strings.HasPrefix(name, "Localized") {
			loc = append(loc, name)
		}
	}
	slices.SortFunc(loc, func(a, b string) int { return localizedMax(a) - localizedMax(b) })
	b.WriteString("| Object | Each text |\n|---|---|\n")
	for _, name := range loc {
		fmt.Fprintf(&b, "| %s | %s |\n", name, constraints(d.Defs[name].additional()))
	}
	b.WriteString(docsFooter(s))
	return b.String()
}

// writeSchemaObject writes one object's section: its meaning and its
// fields' table.
func writeSchemaObject(b *strings.Builder, name string, o *schemaDoc) {
	fmt.Fprintf(b, "\n## %s\n\n%s\n\n", name, schemaMeanings[name])
	b.WriteString("| Field | Type | Required | Limits and values |\n|---|---|---|---|\n")
	req := map[string]bool{}
	for _, r := range o.Required {
		req[r] = true
	}
	for _, f := range o.Properties.Names {
		p := o.Properties.Props[f]
		need := ""
		if req[f] {
			need = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", f, typeOf(p), need, constraints(p))
	}
}

// localizedMax is the limit a LocalizedN object's name gives.
func localizedMax(name string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(name, "Localized"))
	return n
}

// additional is the schema of an object's additional properties (the
// text of a LocalizedN), or an empty one.
func (d *schemaDoc) additional() *schemaDoc {
	var a schemaDoc
	_ = json.Unmarshal(d.AdditionalProperties, &a)
	return &a
}

// typeOf names a field's type, linking objects to their section.
func typeOf(p *schemaDoc) string {
	if p.Ref != "" {
		name := strings.TrimPrefix(p.Ref, "#/$defs/")
		if strings.HasPrefix(name, "Localized") {
			return fmt.Sprintf("[localized text](#localized-text) (≤ %d)", localizedMax(name))
		}
		return "[" + name + "](#" + strings.ToLower(name) + ")"
	}
	if p.Type == "array" && p.Items != nil {
		return "list of " + typeOf(p.Items)
	}
	if p.Type == "" {
		return "any"
	}
	return p.Type
}

// constraints lists what limits a field: lengths, bounds, patterns,
// formats and enums, of the field or of a list's items.
func constraints(p *schemaDoc) string {
	var out []string
	if p.Items != nil && p.Items.Ref == "" {
		if c := constraints(p.Items); c != "" {
			out = append(out, "each: "+c)
		}
	}
	if p.MinItems != nil {
		out = append(out, fmt.Sprintf("at least %d", *p.MinItems))
	}
	if p.MaxItems != nil {
		out = append(out, fmt.Sprintf("at most %d", *p.MaxItems))
	}
	switch {
	case p.MinLength != nil && *p.MinLength > 0 && p.MaxLength != nil:
		out = append(out, fmt.Sprintf("%d–%d characters", *p.MinLength, *p.MaxLength))
	case p.MinLength != nil && *p.MinLength > 0:
		out = append(out, fmt.Sprintf("at least %d characters", *p.MinLength))
	case p.MaxLength != nil:
		out = append(out, fmt.Sprintf("≤ %d characters", *p.MaxLength))
	}
	if p.Minimum != nil {
		out = append(out, "≥ "+strconv.FormatFloat(*p.Minimum, 'f', -1, 64))
	}
	if p.Maximum != nil {
		out = append(out, "≤ "+strconv.FormatFloat(*p.Maximum, 'f', -1, 64))
	}
	if p.Const != nil {
		out = append(out, fmt.Sprintf("always `%v`", p.Const))
	}
	if p.Format != "" {
		out = append(out, "format "+p.Format)
	}
	if p.Pattern != "" {
		out = append(out, "pattern `"+strings.ReplaceAll(p.Pattern, "|", `\|`)+"`")
	}
	if len(p.Enum) > 0 {
		vals := make([]string, len(p.Enum))
		for i, v := range p.Enum {
			vals[i] = fmt.Sprintf("`%v`", v)
		}
		out = append(out, "one of "+strings.Join(vals, ", "))
	}
	return strings.Join(out, "; ")
}
