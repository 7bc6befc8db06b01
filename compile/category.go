package compile

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/daawid/registry/schemas/taxonomy"
)

// FallbackCategory is the category of a company whose register record and
// website name no activity that fits another (decision D46).
const FallbackCategory = "other.business"

// Categorizer picks taxonomy categories for compiled entries. It indexes
// the taxonomy's words once per language; it is safe for concurrent use.
type Categorizer struct {
	tax        *taxonomy.Taxonomy
	activities activityTable
	names      map[string]*stemIndex
	mu         sync.Mutex
	idx        map[string]*wordIndex
}

// wordIndex is one language's words: each category's words, and every
// word (of at least four letters) to the category it names.
type wordIndex struct {
	byCode map[string][]string
	byWord map[string]string
}

// NewCategorizer uses the checked activity and name-word tables (D99) and
// the taxonomy's NACE classes, labels and everyday words. The tables are
// embedded data: a bad row is a defect of the build, which the tables'
// tests catch, so it panics here with the row's line.
func NewCategorizer(tax *taxonomy.Taxonomy) *Categorizer {
	acts, err := parseActivities(activitiesTSV)
	if err != nil {
		panic(err)
	}
	names, err := parseNameWords(namewordsTSV)
	if err != nil {
		panic(err)
	}
	return &Categorizer{tax: tax, activities: acts, names: names.index(), idx: map[string]*wordIndex{}}
}

func (c *Categorizer) index(lang string) *wordIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ix, ok := c.idx[lang]; ok {
		return ix
	}
	ix := &wordIndex{byCode: map[string][]string{}, byWord: map[string]string{}}
	for _, cat := range c.tax.Categories() { // sorted by code: the first code keeps a word
		ws := []string{strings.ToLower(c.tax.Label(cat.Code, lang))}
		for _, t := range c.tax.Terms(cat.Code)[lang] {
			ws = append(ws, strings.ToLower(t))
		}
		ix.byCode[cat.Code] = ws
		for _, w := range ws {
			if _, taken := ix.byWord[w]; !taken && len(w) >= 4 {
				ix.byWord[w] = cat.Code
			}
		}
	}
	c.idx[lang] = ix
	return ix
}

// FromNACE picks a category for each NACE class, in order, without
// repeats: among the categories that list the class, the one whose words
// appear in the register's own description of the activity ("43320 -
// Joinery installation" → trades.carpentry), then the one that lists the
// class first, then the first by code.
func (c *Categorizer) FromNACE(nace []string, descriptions []string, lang string) []string {
	var out []string
	for i, n := range nace {
		cands := c.tax.ByNACE(n)
		if len(cands) == 0 {
			continue
		}
		desc := ""
		if i < len(descriptions) {
			desc = strings.ToLower(descriptions[i])
		}
		best, bestScore := "", -1
		for _, cat := range cands {
			score := 0
			if len(cat.NACE) > 0 && cat.NACE[0] == n {
				score += 2
			}
			if desc != "" {
				// The category's own name counts more than its other words.
				for j, w := range c.words(cat.Code, lang) {
					if len(w) >= 4 && strings.Contains(desc, w) {
						if j == 0 {
							score += 5
						} else {
							score += 3
						}
						break
					}
				}
			}
			if score > bestScore {
				best, bestScore = cat.Code, score
			}
		}
		if !contains(out, best) {
			out = append(out, best)
		}
	}
	return out
}

// words are a category's label and everyday words in lang, lower case.
func (c *Categorizer) words(code, lang string) []string { return c.index(lang).byCode[code] }

// FromName guesses a category from a company name's words in its
// language ("Schreinerei Beispiel" → trades.carpentry, through the word
// "schreiner"): a name word that is a category's label or everyday word,
// or starts with one of at least five letters. The longest match wins;
// ties go to the first code. German registers carry no activity codes, so
// this is all there is until the website or the owner says more.
func (c *Categorizer) FromName(name, lang string) (string, bool) {
	ix := c.index(lang)
	best, bestLen := "", 0
	for _, tok := range nameTokens(name) {
		// the whole word, then its prefixes of five letters or more
		for n := len(tok); n >= 4 && n > bestLen; n-- {
			if n < len(tok) && n < 5 {
				break
			}
			if n < len(tok) && !utf8.RuneStart(tok[n]) {
				continue // not a whole letter
			}
			if code, ok := ix.byWord[tok[:n]]; ok {
				if n > bestLen || (n == bestLen && code < best) {
					best, bestLen = code, n
				}
				break
			}
		}
	}
	return best, best != ""
}

// nameTokens are the lower-case words of a name; compounds stay whole
// ("Holzwerkstatt" is one word, matched by its prefix).
func nameTokens(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
