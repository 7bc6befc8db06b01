package places

import (
	"bytes"
	"github.com/daawid/registry/schemas/terms"
	"slices"
	"strings"
	"unicode/utf8"
)

const (
	// maxText is the longest text Find reads (Near.place allows 100
	// characters; a few more in bytes for other scripts).
	maxText = 400
	// nearKm is how far a town named after a comma may be from the place
	// it narrows ("Barmen, Wuppertal"), and nearBigKm for a town of
	// bigTown people or more ("Santa Monica, Los Angeles").
	nearKm    = 15
	nearBigKm = 30
	bigTown   = 1_000_000
)

// qualifier is what follows a comma, read every way it can be read.
type qualifier struct {
	folded  string
	country string   // a country by name: "germany" → DE
	code    string   // a two-letter text that is a loaded country's code
	regions []string // admin1 keys
	towns   []int32  // towns by that name
}

// known reports whether the qualifier names anything the gazetteer knows
// apart from the candidates' own names.
func (q *qualifier) known() bool {
	return q.country != "" || q.code != "" || len(q.regions) > 0 || len(q.towns) > 0
}

func (g *Gazetteer) qualify(text string) qualifier {
	var buf [128]byte
	f := string(terms.AppendFold(buf[:0], text, false))
	q := qualifier{folded: f}
	if f == "" {
		return q
	}
	q.country = countryNames[f]
	if len(f) == 2 {
		if c := strings.ToUpper(f); g.countries[c] {
			q.code = c
		}
	}
	q.regions = g.regions[f]
	if k, ok := regionNames[f]; ok {
		q.regions = append(q.regions[:len(q.regions):len(q.regions)], k)
	}
	q.towns = g.readings(text, f, nil)
	return q
}

// fits reports whether town c is what qualifier q narrows to: in that
// country or region, near a town of that name, or with the qualifier in
// its own name ("Frankfurt, Oder" for "Frankfurt (Oder)").
func (g *Gazetteer) fits(c int32, q *qualifier) bool {
	cc := g.country(c)
	if (q.country != "" && cc == q.country) || (q.code != "" && cc == q.code) {
		return true
	}
	if len(q.regions) > 0 && slices.Contains(q.regions, g.admin1Key(c)) {
		return true
	}
	for n, t := range q.towns {
		if n >= 2000 {
			break
		}
		if t == c {
			continue
		}
		r := float64(nearKm)
		if g.places[t].pop >= bigTown {
			r = nearBigKm
		}
		if g.distance(c, t) <= r {
			return true
		}
	}
	return containsWords(g.foldedName(c), q.folded)
}

// containsWords reports whether the folded words w appear in the folded
// name s, whole words, after its first word.
func containsWords(s []byte, w string) bool {
	if w == "" || len(w) >= len(s) {
		return false
	}
	for i := bytes.IndexByte(s, ' '); i >= 0 && i < len(s); {
		rest := s[i+1:]
		if len(rest) >= len(w) && string(rest[:len(w)]) == w && (len(rest) == len(w) || rest[len(w)] == ' ') {
			return true
		}
		j := bytes.IndexByte(rest, ' ')
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return false
}

// pick answers the best of the candidate towns that fit every qualifier
// and have at least minPop people. A qualifier that names nothing known
// and fits none of the candidates' names is ignored: "Paris, Frnce" is
// Paris.
func (g *Gazetteer) pick(cands []int32, quals []qualifier, minPop int64) (int32, bool) {
	var skip [8]bool
	for k := range quals {
		if k < len(skip) && !quals[k].known() {
			skip[k] = true
			for _, c := range cands {
				if containsWords(g.foldedName(c), quals[k].folded) {
					skip[k] = false
					break
				}
			}
		}
	}
	best := int32(-1)
next:
	for _, c := range cands {
		if int64(g.places[c].pop) < minPop {
			continue
		}
		for k := range quals {
			if (k >= len(skip) || !skip[k]) && !g.fits(c, &quals[k]) {
				continue next
			}
		}
		if best < 0 || g.better(c, best) {
			best = c
		}
	}
	return best, best >= 0
}

// readings appends the towns of the first reading of a name that has any:
// its fold, its German spelling (ü as ue) when it has umlauts, and its
// ae/oe/ue read as umlauts ("muenchen" → "munchen").
func (g *Gazetteer) readings(text, folded string, dst []int32) []int32 {
	if g.hasName(folded) {
		return g.towns(folded, dst)
	}
	if terms.HasUmlaut(text) {
		var buf [128]byte
		if b := terms.AppendFold(buf[:0], text, true); g.hasName(string(b)) {
			return g.towns(string(b), dst)
		}
	}
	if c := terms.ContractGerman(folded); c != "" && g.hasName(c) {
		return g.towns(c, dst)
	}
	return dst
}

// Find finds the town a user names (§7.5 "Places"): by any of its names,
// in any language or script, folded (Fold), or read with German
// transliteration ("Muenchen", "Duesseldorf"); the most populous when a
// name fits several towns, unless narrowed by what follows a comma:
//
//   - a country: its ISO code or its name ("Paris, FR", "Paris, France");
//   - a region: its English admin1 name, its code of letters, or a common
//     name or abbreviation ("Paris, Texas", "Paris, TX", "Toronto, ON",
//     "Köln, NRW", "München, Bayern");
//   - a town it is near: within 15 km, or 30 km of a town of a million
//     ("Brooklyn, New York");
//   - a word of its own name ("Frankfurt, Oder" for "Frankfurt (Oder)").
//
// What names nothing known is ignored ("Paris, Frnce" is Paris); what
// names something that no town of the name fits means there is no such
// town ("Paris, Germany"). Without a comma, the last words may narrow the
// first in the same way ("Paris Texas").
//
// When no town of the name is near the town after the comma, the answer
// is that town: "Barmen, Wuppertal" is Wuppertal, since cities500 has no
// Barmen (a quarter of Wuppertal) and the user is there either way. That
// is not a correction, and comes after one.
//
// A name the gazetteer doesn't know may be read as a misspelling of a
// big town's name, and CorrectedFrom then has the name as written: one
// edit away (Damerau-Levenshtein: a letter added, dropped, changed, or
// two swapped) for names of 5 to 7 letters and towns of 20,000 people or
// more, two edits for names of 8 or more and towns of 100,000 or more,
// counting the shorter of the two names; the fewest edits, then the most
// populous, fitting what follows a comma. Never a name shorter than 5
// letters, with digits, found as written, or for which known (asked with
// the folded name) is true: an entry names that place itself. known may
// be nil.
func (g *Gazetteer) Find(text string, known func(folded string) bool) (Match, bool) {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > maxText || !utf8.ValidString(text) {
		return Match{}, false
	}
	parts := strings.Split(text, ",")
	name := strings.TrimSpace(parts[0])
	var quals []qualifier
	for _, p := range parts[1:] {
		if p = strings.TrimSpace(p); p != "" && len(quals) < 8 {
			quals = append(quals, g.qualify(p))
		}
	}
	var nbuf [128]byte
	folded := string(terms.AppendFold(nbuf[:0], name, false))
	if folded == "" {
		if len(quals) == 0 {
			return Match{}, false
		}
		// ", Wuppertal": the qualifiers alone.
		return g.fallback(quals)
	}
	var cbuf [32]int32
	cands := g.readings(name, folded, cbuf[:0])
	if len(cands) > 0 {
		if i, ok := g.pick(cands, quals, 0); ok {
			return Match{Place: g.answer(i)}, true
		}
		return g.fallback(quals)
	}
	// The whole text as one name: a few GeoNames names hold a comma.
	if len(quals) > 0 {
		all := terms.Fold(text)
		if c := g.readings(text, all, cbuf[:0]); len(c) > 0 {
			i, _ := g.pick(c, nil, 0)
			return Match{Place: g.answer(i)}, true
		}
	} else if m, ok := g.splitWords(folded); ok {
		return m, true
	}
	if known == nil || !known(folded) {
		if m, ok := g.correct(name, folded, quals); ok {
			return m, true
		}
	}
	return g.fallback(quals)
}

// splitWords reads "Paris Texas" as "Paris, Texas": the first words a
// name, the last a qualifier that names something known and fits.
func (g *Gazetteer) splitWords(folded string) (Match, bool) {
	var cbuf [32]int32
	for i := strings.LastIndexByte(folded, ' '); i > 0; i = strings.LastIndexByte(folded[:i], ' ') {
		head, tail := folded[:i], folded[i+1:]
		cands := g.readings(head, head, cbuf[:0])
		if len(cands) == 0 {
			continue
		}
		q := []qualifier{g.qualify(tail)}
		if !q[0].known() {
			continue
		}
		if c, ok := g.pick(cands, q, 0); ok {
			return Match{Place: g.answer(c)}, true
		}
	}
	return Match{}, false
}

// fallback answers the first town named after a comma that fits the other
// qualifiers, for a name not found near it. A qualifier that also names a
// region or a country is read as the town only when the town is in it:
// "Köpenick, Berlin" is Berlin, the town in the State of Berlin, but
// "Frankfurt, Texas" is not Texas, Queensland.
func (g *Gazetteer) fallback(quals []qualifier) (Match, bool) {
	for k := range quals {
		q := &quals[k]
		towns := q.towns
		if q.country != "" || q.code != "" || len(q.regions) > 0 {
			towns = nil
			for _, t := range q.towns {
				if cc := g.country(t); cc == q.country || cc == q.code || slices.Contains(q.regions, g.admin1Key(t)) {
					towns = append(towns, t)
				}
			}
		}
		if len(towns) == 0 {
			continue
		}
		others := make([]qualifier, 0, len(quals)-1)
		others = append(others, quals[:k]...)
		others = append(others, quals[k+1:]...)
		if i, ok := g.pick(towns, others, 0); ok {
			return Match{Place: g.answer(i)}, true
		}
	}
	return Match{}, false
}
