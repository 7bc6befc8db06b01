package query

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// words splits text into words compared across case and diacritics:
// "Einbauküchen nach Maß" → einbaukuchen, nach, mass. A new folder per
// call: transformers keep state.
func words(s string) []string {
	fold := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), cases.Fold(), norm.NFC)
	f, _, err := transform.String(fold, s)
	if err != nil {
		f = strings.ToLower(s)
	}
	return strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// wordMatches reports whether a word of a query is inside a text's words
// (TOOL-14: "looked for inside each offering's own"): the same word, or
// for words of four letters or more a part of one, so German compounds
// are found by their parts ("schrank" finds "einbauschranke", "küche"
// finds "küchen").
func wordMatches(q string, text []string) bool {
	for _, w := range text {
		if w == q || (len([]rune(q)) >= 4 && strings.Contains(w, q)) {
			return true
		}
	}
	return false
}
