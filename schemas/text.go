package schemas

import (
	"sort"

	"github.com/invopop/jsonschema"
)

// MaxLen is a per-field maximum length of localized text, counted in
// characters (Unicode code points). Each limit is its own type so that a
// field's limit is part of its Go type and reaches the generated JSON Schemas
// (VIEW-25: the view replaces localized(n) with a string of at most n).
type MaxLen interface{ maxLen() int }

// The limits used by the model (decision D3 in docs/decisions.md).
type (
	Max60    struct{}
	Max80    struct{}
	Max120   struct{}
	Max200   struct{}
	Max280   struct{}
	Max300   struct{}
	Max500   struct{}
	Max2000  struct{}
	Max5000  struct{}
	Max50000 struct{}
)

func (Max60) maxLen() int    { return 60 }
func (Max80) maxLen() int    { return 80 }
func (Max120) maxLen() int   { return 120 }
func (Max200) maxLen() int   { return 200 }
func (Max280) maxLen() int   { return 280 }
func (Max300) maxLen() int   { return 300 }
func (Max500) maxLen() int   { return 500 }
func (Max2000) maxLen() int  { return 2000 }
func (Max5000) maxLen() int  { return 5000 }
func (Max50000) maxLen() int { return 50000 }

// Text is localized text: a language tag mapped to a string of 1..n
// characters, where n comes from M. encoding/json writes map keys sorted, so
// the encoding is deterministic.
type Text[M MaxLen] map[string]string

// Max is the maximum length of one language's string.
func (Text[M]) Max() int { var m M; return m.maxLen() }

// Resolve returns the text in lang if present, else in fallback (the entry's
// default language), else "" (VIEW-02; decision D1: per field).
func (t Text[M]) Resolve(lang, fallback string) string {
	if s, ok := t[lang]; ok {
		return s
	}
	return t[fallback]
}

// Get returns the text in exactly lang, or "".
func (t Text[M]) Get(lang string) string { return t[lang] }

// Has reports whether the text has a value in lang.
func (t Text[M]) Has(lang string) bool { _, ok := t[lang]; return ok }

// Languages returns the language tags the text has, sorted.
func (t Text[M]) Languages() []string {
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Empty reports whether the text has no language at all.
func (t Text[M]) Empty() bool { return len(t) == 0 }

// JSONSchema describes Text for the published entry schema.
func (t Text[M]) JSONSchema() *jsonschema.Schema {
	one := uint64(1)
	n := uint64(t.Max())
	return &jsonschema.Schema{
		Type:          "object",
		PropertyNames: &jsonschema.Schema{Type: "string", Pattern: LanguageTagPattern},
		AdditionalProperties: &jsonschema.Schema{
			Type: "string", MinLength: &one, MaxLength: &n,
		},
		MinProperties: &one,
		Description:   "Localized text: a language tag mapped to a string.",
	}
}

// languageTagPattern is a pragmatic BCP 47 shape: a 2-3 letter language,
// then optional subtags (script, region, variants).
const languageTagPattern = `^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`
