package compile

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/daawid/registry/compile/register"
)

// The two checked tables that give a compiled company its category
// (issue 16, decision D99): activity codes (UK SIC 2007, NACE Rev. 2 /
// WZ 2008 / NAF) to categories, and words in company names to categories
// for registers without codes. They are data, read once, and checked
// against the taxonomy by TestActivityTable and TestNameWordTable.

//go:embed activities.tsv
var activitiesTSV string

//go:embed namewords.tsv
var namewordsTSV string

// activity is one row of activities.tsv: the category ("" for a code too
// general to say), and whether a name word of the same sector refines it.
type activity struct {
	category string
	broad    bool
}

// nameWord is one row of namewords.tsv.
type nameWord struct {
	stem, match, category string
}

// activityTable maps a SIC subclass ("47760") or a NACE class ("47.76")
// to its row.
type activityTable map[string]activity

// nameWordTable holds the rows of each language in file order.
type nameWordTable map[string][]nameWord

// parseActivities reads activities.tsv; a bad row is an error naming its
// line and field.
func parseActivities(text string) (activityTable, error) {
	t := activityTable{}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 {
			return nil, fmt.Errorf("activities.tsv:%d: want code, category and note separated by tabs", n+1)
		}
		code, cat := cols[0], cols[1]
		if !isSIC(code) && !isNACEClass(code) {
			return nil, fmt.Errorf("activities.tsv:%d: code %q is neither a SIC 2007 subclass (5 digits) nor a NACE class (NN.NN)", n+1, code)
		}
		if _, dup := t[code]; dup {
			return nil, fmt.Errorf("activities.tsv:%d: code %s is listed twice", n+1, code)
		}
		a := activity{category: strings.TrimSuffix(cat, "~"), broad: strings.HasSuffix(cat, "~")}
		if a.category == "-" {
			a.category = ""
		}
		t[code] = a
	}
	return t, nil
}

// parseNameWords reads namewords.tsv.
func parseNameWords(text string) (nameWordTable, error) {
	t := nameWordTable{}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			return nil, fmt.Errorf("namewords.tsv:%d: want lang, stem, match and category separated by tabs", n+1)
		}
		w := nameWord{stem: cols[1], match: cols[2], category: cols[3]}
		switch {
		case w.stem == "" || strings.ToLower(w.stem) != w.stem:
			return nil, fmt.Errorf("namewords.tsv:%d: stem %q must be lower case and not empty", n+1, w.stem)
		case w.match != "word" && w.match != "prefix" && w.match != "suffix" && w.match != "part":
			return nil, fmt.Errorf("namewords.tsv:%d: match %q is not word, prefix, suffix or part", n+1, w.match)
		}
		t[cols[0]] = append(t[cols[0]], w)
	}
	return t, nil
}

func isSIC(s string) bool {
	return len(s) == 5 && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

func isNACEClass(s string) bool {
	return len(s) == 5 && s[2] == '.' && isSIC(s[:2]+"0"+s[3:])
}

// lookup finds a code's row: a SIC subclass as itself, then by its NACE
// class (its first four digits, D99); a NACE class as itself.
func (t activityTable) lookup(sic, nace string) (activity, bool) {
	if a, ok := t[sic]; ok && sic != "" {
		return a, true
	}
	a, ok := t[nace]
	return a, ok
}

// stemIndex is one language's name words indexed by how they match
// (D135): for each kind, its stems to their first row, and the stems'
// lengths. A word is then looked up by its own prefixes, suffixes and
// parts of those lengths instead of against every row; with 452 German
// "part" stems, trying each on each word was a tenth of a compile's time.
type stemIndex struct {
	rows  []nameWord
	kinds [4]stemKind // word, prefix, suffix, part
}

type stemKind struct {
	first map[string]int // stem → its first row
	lens  []int          // the stems' lengths, distinct, rising
}

const (
	matchWord = iota
	matchPrefix
	matchSuffix
	matchPart
)

var matchKinds = map[string]int{"word": matchWord, "prefix": matchPrefix, "suffix": matchSuffix, "part": matchPart}

// index indexes each language's rows.
func (t nameWordTable) index() map[string]*stemIndex {
	out := map[string]*stemIndex{}
	for lang, rows := range t {
		ix := &stemIndex{rows: rows}
		for i := range ix.kinds {
			ix.kinds[i].first = map[string]int{}
		}
		for row, w := range rows {
			k := &ix.kinds[matchKinds[w.match]]
			if _, seen := k.first[w.stem]; !seen {
				k.first[w.stem] = row
				if !slices.Contains(k.lens, len(w.stem)) {
					k.lens = append(k.lens, len(w.stem))
				}
			}
		}
		for i := range ix.kinds {
			slices.Sort(ix.kinds[i].lens)
		}
		out[lang] = ix
	}
	return out
}

// nameWords splits a name into the lower-case words its stems match.
func nameWords(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&'
	})
}

// match finds the category a name's words give: the longest stem that
// matches a word, the first row on a tie (as trying the rows in order
// would).
func (ix *stemIndex) match(name string) (string, bool) {
	if ix == nil {
		return "", false
	}
	best, bestLen := -1, 0
	try := func(k int, part string) {
		if row, ok := ix.kinds[k].first[part]; ok && (len(part) > bestLen || (len(part) == bestLen && row < best)) {
			best, bestLen = row, len(part)
		}
	}
	for _, word := range nameWords(name) {
		n := len(word)
		try(matchWord, word)
		// A prefix starts at 0, a suffix ends at n, a part is anywhere.
		for k := matchPrefix; k <= matchPart; k++ {
			for _, l := range ix.kinds[k].lens {
				if l > n {
					break
				}
				if l < bestLen {
					continue
				}
				lo, hi := 0, n-l
				switch k {
				case matchPrefix:
					hi = 0
				case matchSuffix:
					lo = n - l
				}
				for i := lo; i <= hi; i++ {
					try(k, word[i:i+l])
				}
			}
		}
	}
	if best < 0 {
		return "", false
	}
	return ix.rows[best].category, true
}

// sicOf is the UK SIC 2007 code an activity text begins with ("47760 -
// Retail sale of flowers…" → "47760"), or "".
func sicOf(activity string) string {
	code, _, _ := strings.Cut(activity, " ")
	if isSIC(code) {
		return code
	}
	return ""
}

// ForRecord picks the categories of a register record (D99): each activity
// code through the activity table (a code the table does not list through
// the taxonomy's NACE lists), in the register's order, without repeats; a
// broad code gives way to what the name's words say in the same sector
// ("Orchard Lane Physiotherapy", SIC 86900); a record with no code that
// says something is categorised by its name's words. Empty when nothing
// maps: the caller files it under FallbackCategory.
func (c *Categorizer) ForRecord(rec *register.Record, lang string) []string {
	var out []string
	var broad []bool
	for i, nace := range rec.NACE {
		act := ""
		if i < len(rec.Activities) {
			act = rec.Activities[i]
		}
		a, ok := c.activities.lookup(sicOf(act), nace)
		if !ok {
			a.category = first(c.FromNACE([]string{nace}, []string{act}, lang))
		}
		if a.category != "" && !contains(out, a.category) {
			out, broad = append(out, a.category), append(broad, a.broad)
		}
	}
	named, ok := c.names[lang].match(rec.Name)
	if !ok {
		return out
	}
	if len(out) == 0 {
		return []string{named}
	}
	var refined []string
	for i, cat := range out {
		if broad[i] && sectorOf(cat) == sectorOf(named) {
			cat = named
		}
		if !contains(refined, cat) {
			refined = append(refined, cat)
		}
	}
	return refined
}

func sectorOf(code string) string {
	s, _, _ := strings.Cut(code, ".")
	return s
}

func first(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}
