package terms

import (
	"slices"
	"strings"
	"sync"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/arabic"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/turkish"
)

// stemmers are the Snowball stemmers by language (the primary subtag of
// a BCP 47 tag).
var stemmers = map[string]func(*snowball.Env) bool{
	"ar": arabic.Stem, "da": danish.Stem, "de": german.Stem, "en": english.Stem,
	"es": spanish.Stem, "fi": finnish.Stem, "fr": french.Stem, "hu": hungarian.Stem,
	"it": italian.Stem, "nb": norwegian.Stem, "nl": dutch.Stem, "no": norwegian.Stem,
	"pt": portuguese.Stem, "ro": romanian.Stem, "ru": russian.Stem, "sv": swedish.Stem,
	"tr": turkish.Stem,
}

// Stemmers are the languages Stem reduces words in, sorted.
var Stemmers = func() []string {
	var out []string
	for l := range stemmers {
		if l != "nb" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}()

// primary is a language tag's primary subtag, lower case ("de-AT" → "de").
func primary(lang string) string {
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	return strings.ToLower(lang)
}

// minStem is the shortest word stemmed: shorter ones are kept whole, so
// that "bau" and "bar" stay apart.
const minStem = 4

// envs reuses Snowball's environments, which hold a word while it is
// stemmed.
var envs = sync.Pool{New: func() any { return snowball.NewEnv("") }}

// Stem is a folded word's stem in a language, or the word itself when
// the language has no stemmer or the word is short.
func Stem(lang, word string) string {
	stem := stemmers[primary(lang)]
	if stem == nil || len(word) < minStem || !letters(word) {
		return word
	}
	env := envs.Get().(*snowball.Env)
	env.SetCurrent(word)
	stem(env)
	s := env.Current()
	envs.Put(env)
	if s == "" {
		return word
	}
	return s
}

// letters reports whether a word has no digit: codes and numbers are not
// stemmed.
func letters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			return false
		}
	}
	return true
}

// Words splits a text into its folded words, in order, repeats kept.
func Words(text string) []string {
	var buf [256]byte
	f := AppendFold(buf[:0], text, false)
	if len(f) == 0 {
		return nil
	}
	return strings.Fields(string(f))
}

// Stop reports whether a folded word is a stop word of the language
// (any of the listed languages when lang is "").
func Stop(lang, word string) bool {
	if lang == "" {
		return allStops[word]
	}
	return stops[primary(lang)][word]
}

// Index is a text's words as a search record keeps them: every folded
// word that is not a stop word of the text's language, and its stem in
// that language when it differs, each once, added to dst (which it
// returns, sorted and without repeats).
func Index(dst []string, lang, text string) []string {
	for _, w := range Words(text) {
		if Stop(lang, w) {
			continue
		}
		dst = append(dst, w)
		if s := Stem(lang, w); s != w {
			dst = append(dst, s)
		}
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}

// Readings are the forms a query word is looked up by: the word, its
// German second reading (ue as ü: "baecker" → "backer"), and its stems in
// the query's language, or in every stemmer's language when lang is "".
// dst is appended to and returned without repeats.
func Readings(dst []string, lang, word string) []string {
	start := len(dst)
	forms := []string{word}
	if c := ContractGerman(word); c != "" {
		forms = append(forms, c)
	}
	for _, f := range forms {
		dst = append(dst, f)
		if lang != "" {
			dst = append(dst, Stem(lang, f))
			continue
		}
		for _, l := range Stemmers {
			dst = append(dst, Stem(l, f))
		}
	}
	out := dst[start:]
	slices.Sort(out)
	return dst[:start+len(slices.Compact(out))]
}

// stops are the stop words of the languages people most often search
// in: articles, prepositions, conjunctions and pronouns, folded.
var stops = map[string]map[string]bool{
	"de": set("der die das den dem des ein eine einen einem einer eines und oder aber für fur von vom zu zum zur mit bei im in an am auf aus nach vor über uber unter um ich du er sie es wir ihr mein meine meinen unser unsere ist sind war wird werden bin kann können konnen möchte mochte suche brauche gesucht der die bitte auch nicht noch wie was wo wer"),
	"en": set("a an the and or but for of to in on at by with from into near me my our your i we you is are was be can need needs want looking find some any this that who what where which please"),
	"fr": set("le la les l un une des du de d et ou mais pour par avec sans sur sous dans chez au aux a en je tu il elle nous vous mon ma mes notre votre est sont cherche besoin qui que quoi ou"),
	"es": set("el la los las lo un una unos unas y o pero para por con sin sobre en de del al a mi mis nuestro es busco necesito que quien donde"),
	"it": set("il lo la i gli le un una uno e o ma per con senza su in di del della dei delle al alla a da mio mia cerco serve che chi dove"),
	"nl": set("de het een en of maar voor van met zonder op in aan bij naar mijn onze is zijn zoek zoeken nodig die dat wie wat waar"),
	"pt": set("o a os as um uma uns umas e ou mas para por com sem sobre em de do da dos das ao meu minha procuro preciso que quem onde"),
	"tr": set("ve veya ile için icin bir bu şu o bana benim bizim en çok cok mi mı mu mü ne nerede kim da de ki ama arıyorum ariyorum lazım lazim"),
	"ar": set("في من على إلى الى عن مع و أو او ثم هذا هذه ذلك التي الذي ال أنا انا نحن أريد اريد ابحث أبحث عن لي"),
	"pl": set("i lub ale dla z ze w we na do od o po przy mój moj moja szukam potrzebuję potrzebuje"),
}

// allStops are every language's stop words, for a query whose language
// isn't known.
var allStops = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range stops {
		for w := range s {
			m[w] = true
		}
	}
	return m
}()

// set folds a space-separated word list into a set.
func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		for _, f := range Words(w) {
			m[f] = true
		}
	}
	return m
}
