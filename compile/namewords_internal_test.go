package compile

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// linearMatch is the name-word match as it was before D135: every row of
// the language, in file order, tried on every word.
func linearMatch(t nameWordTable, name, lang string) (string, bool) {
	words := nameWords(name)
	best, bestLen := "", 0
	for _, w := range t[lang] {
		if len(w.stem) <= bestLen {
			continue
		}
		for _, word := range words {
			if (w.match == "word" && word == w.stem) || (w.match == "prefix" && strings.HasPrefix(word, w.stem)) ||
				(w.match == "suffix" && strings.HasSuffix(word, w.stem)) || (w.match == "part" && strings.Contains(word, w.stem)) {
				best, bestLen = w.category, len(w.stem)
				break
			}
		}
	}
	return best, best != ""
}

// TestNameWordIndex_SameAsEveryRow checks D135: the indexed match gives
// what trying every row in order gives, on the labelled names, on names
// glued from the table's own stems (so that stems overlap, share lengths
// and tie) and on a made-up table whose stems of one length tie across
// kinds and repeat.
func TestNameWordIndex_SameAsEveryRow(t *testing.T) {
	table, err := parseNameWords(namewordsTSV)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	b, err := os.ReadFile("register/testdata/labelled.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if cols := strings.Split(line, "\t"); len(cols) > 2 && !strings.HasPrefix(line, "#") {
			names = append(names, cols[1])
		}
	}
	rng := rand.New(rand.NewPCG(7, 135))
	for lang, rows := range table {
		for range 3000 {
			var words []string
			for range 1 + rng.IntN(4) {
				w := ""
				for range 1 + rng.IntN(3) {
					w += []string{"", "x", "ü", "Ber", "-"}[rng.IntN(5)] + rows[rng.IntN(len(rows))].stem
				}
				words = append(words, w)
			}
			names = append(names, lang+":"+strings.Join(words, " "))
		}
	}
	made, err := parseNameWords("de\tbau\tpart\ttrades.builder\nde\tbau\tprefix\tfood.bakery\nde\tbäck\tword\tfood.bakery\n" +
		"de\tholz\tsuffix\ttrades.carpenter\nde\tkauf\tpart\tretail.general\nde\tbau\tpart\tretail.general\nde\tbauholz\tword\ttrades.carpenter\n")
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, "de:Holzbau Kauf GmbH", "de:Bäck Bauholz", "de:Kaufbau", "de:Bau", "de:Abbau Holz", "de:xholz bauy")
	matched := 0
	for _, tab := range []nameWordTable{table, made} {
		ix := tab.index()
		for _, n := range names {
			for _, lang := range []string{"de", "en", "fr", "it"} {
				name := n
				if l, rest, ok := strings.Cut(n, ":"); ok && len(l) == 2 {
					if l != lang {
						continue
					}
					name = rest
				}
				want, wantOK := linearMatch(tab, name, lang)
				got, ok := ix[lang].match(name)
				if got != want || ok != wantOK {
					t.Fatalf("%s %q: %q %v, every row in order gives %q %v", lang, name, got, ok, want, wantOK)
				}
				if ok {
					matched++
				}
			}
		}
	}
	if matched < len(names)/2 {
		t.Fatalf("only %d of %d names matched a stem: the test checks too little", matched, len(names))
	}
}
