package search_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/daawid/registry/schemas/terms"
)

// benchTowns are real towns with a postal code of theirs.
var benchTowns = []struct{ name, code, country string }{
	{"Wuppertal", "42103", "DE"}, {"Berlin", "10115", "DE"}, {"München", "80331", "DE"}, {"Köln", "50667", "DE"},
	{"Hamburg", "20095", "DE"}, {"Düsseldorf", "40213", "DE"}, {"Solingen", "42651", "DE"}, {"Kassel", "34117", "DE"},
	{"Bremen", "28195", "DE"}, {"Dortmund", "44137", "DE"}, {"Leipzig", "04109", "DE"}, {"Freiburg im Breisgau", "79098", "DE"},
	{"Paris", "75011", "FR"}, {"Lyon", "69001", "FR"}, {"Marseille", "13001", "FR"}, {"Montreuil", "93100", "FR"},
	{"London", "SW1A 1AA", "GB"}, {"Manchester", "M1 1AE", "GB"},
}

// benchSearcher is n generated entries: a category each, in a town, with
// its name and summary in the town's language, a third with weekly hours.
func benchSearcher(b testing.TB, n int) (*search.Searcher, []schemas.SearchInput) {
	g, err := gazetteer()
	if err != nil {
		b.Fatal(err)
	}
	recs, ins := benchRecords(n)
	bl := search.NewBuilder(g)
	for i := range recs {
		if err := bl.Add(&recs[i]); err != nil {
			b.Fatal(err)
		}
	}
	return &search.Searcher{Layers: []*search.Index{bl.Build()}, Gaz: g}, ins
}

// benchRecords are benchSearcher's records and queries.
func benchRecords(n int) ([]schemas.SearchRecord, []schemas.SearchInput) {
	tax := taxonomy.Default()
	var cats []taxonomy.Category
	for _, c := range tax.Categories() {
		if !c.IsSector() {
			cats = append(cats, c)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	recs := make([]schemas.SearchRecord, 0, n)
	for i := range n {
		t := benchTowns[r.IntN(len(benchTowns))]
		c := cats[r.IntN(len(cats))]
		lang := map[string]string{"DE": "de", "FR": "fr", "GB": "en"}[t.country]
		name := fmt.Sprintf("%s %d", tax.Label(c.Code, lang), i)
		summary := tax.Label(c.Code, lang) + " in " + t.name
		rec := schemas.SearchRecord{ID: fmt.Sprintf("ent_01k8r%021d", i), Slug: fmt.Sprintf("e-%d", i), Kind: schemas.KindOrganization,
			Status: schemas.StatusUnclaimed, VerificationLevel: schemas.LevelNone, DefaultLanguage: lang,
			Names: []schemas.LangText{{Lang: lang, Text: name}}, Summaries: []schemas.LangText{{Lang: lang, Text: summary}},
			Categories: []string{c.Code}, Strong: terms.Index(nil, lang, name), Weak: terms.Index(nil, lang, summary+" "+t.name),
			Locations: []schemas.SearchLocation{{ID: "loc_1", Locality: t.name, PostalCode: t.code, Country: t.country}}}
		if i%3 == 0 {
			rec.Locations[0].Hours = []schemas.HoursRule{{Days: []schemas.DayOfWeek{"mon", "tue", "wed", "thu", "fri"}, Opens: "08:00", Closes: "18:00"}}
		}
		recs = append(recs, rec)
	}
	var ins []schemas.SearchInput
	for i := range 200 {
		t := benchTowns[r.IntN(len(benchTowns))]
		c := cats[r.IntN(len(cats))]
		lang := map[string]string{"DE": "de", "FR": "fr", "GB": "en"}[t.country]
		in := schemas.SearchInput{Query: tax.Label(c.Code, lang), Near: &schemas.Near{Place: t.name}}
		switch i % 3 {
		case 1:
			in.Near = &schemas.Near{PostalCode: t.code, Country: t.country}
			in.Category = c.Code
		case 2:
			in.OpenAt = "2026-12-02T10:00:00+01:00"
		}
		ins = append(ins, in)
	}
	return recs, ins
}

// BenchmarkSearch: the mix (place + words, postal code +
// category, openAt) over 200,000 generated entries. The 1M figures come
// from "daawid bench search" (docs/performance.md).
func BenchmarkSearch(b *testing.B) {
	s, ins := benchSearcher(b, 200_000)
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Search(ins[i%len(ins)], now, opts); err != nil {
			b.Fatal(err)
		}
	}
}
