package places

import (
	"github.com/daawid/registry/schemas/terms"
	"runtime"
	"testing"
)

// TestDefault: the bundled gazetteer is loaded once and shared.
func TestDefault(t *testing.T) {
	g, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if g2, _ := Default(); g2 != g {
		t.Error("Default loaded twice")
	}
	if g.Len() != 199_568 {
		t.Errorf("%d towns, want cities500's 199,568", g.Len())
	}
	if m, ok := g.Find("Wuppertal", nil); !ok || m.Place.ID != wuppertal || m.Place.TimeZone != "Europe/Berlin" {
		t.Errorf("Wuppertal: %+v", m)
	}
}

var benchQueries = []string{
	"Wuppertal", "München", "Paris, Texas", "Frankfurt (Oder)", "İstanbul", "القاهرة",
	"Barmen, Wuppertal", "New York", "Springfield, IL", "muenchen", "Köln", "Toronto, ON",
}

// BenchmarkFind: names found as written, with and without what follows a
// comma.
func BenchmarkFind(b *testing.B) {
	g := testGazetteer(b)
	i := 0
	for b.Loop() {
		if _, ok := g.Find(benchQueries[i%len(benchQueries)], nil); !ok {
			b.Fatal(benchQueries[i%len(benchQueries)])
		}
		i++
	}
}

var misspelled = []string{"frnakfurt", "Stuttgrat", "Dusseldorff", "Marseile", "Hanovr", "Frankfrut am Mian", "Berln", "Madird"}

// BenchmarkFindMisspelled: names read as misspellings, through the
// deletion index.
func BenchmarkFindMisspelled(b *testing.B) {
	g := testGazetteer(b)
	i := 0
	for b.Loop() {
		if m, ok := g.Find(misspelled[i%len(misspelled)], nil); !ok || m.CorrectedFrom == "" {
			b.Fatal(misspelled[i%len(misspelled)])
		}
		i++
	}
}

// BenchmarkFindUnknown: a name nobody knows and no town is near: the
// slowest way to find nothing.
func BenchmarkFindUnknown(b *testing.B) {
	g := testGazetteer(b)
	for b.Loop() {
		if _, ok := g.Find("Xqzvbnmkwplt", nil); ok {
			b.Fatal("found")
		}
	}
}

func BenchmarkFindPostal(b *testing.B) {
	g := testGazetteer(b)
	codes := [][2]string{{"DE", "42285"}, {"FR", "75001"}, {"DE", "10115"}, {"FR", "13001"}}
	i := 0
	for b.Loop() {
		c := codes[i%len(codes)]
		if _, ok := g.FindPostal(c[0], c[1]); !ok {
			b.Fatal(c)
		}
		i++
	}
}

// BenchmarkDefault: loading the bundled data (cities500 with its
// alternate names, admin1, the DE and FR postal tables, and the
// misspelling index), and the heap one load keeps (MB-heap).
func BenchmarkDefault(b *testing.B) {
	for b.Loop() {
		if _, err := loadBundled(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g, _ := loadBundled()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-heap")
	runtime.KeepAlive(g)
}

func BenchmarkFold(b *testing.B) {
	for b.Loop() {
		terms.Fold("Saint-Denis-lès-Bourg")
		terms.Fold("Monaco di Baviera")
		terms.Fold("إسطنبول")
	}
}
