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

// wordMatches reports whether a word of a query is in a text's words: the
// same word, or for words of four letters or more the start of one
// ("küche" finds "küchen", "schrank" finds "schranksysteme").
func wordMatches(q string, text []string) bool {
	for _, w := range text {
		if w == q || (len([]rune(q)) >= 4 && strings.HasPrefix(w, q)) {
			return true
		}
	}
	return false
}
