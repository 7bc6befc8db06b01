package places

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"sync"
)

// data is the bundled default: GeoNames' cities500 and admin1 names, and
// the German and French postal tables. data/README.md has their sources
// and licences.
//
//go:embed data/cities500.txt.gz data/admin1.tsv data/DE.tsv data/FR.tsv
var data embed.FS

// Default answers the gazetteer of the bundled data, loaded on first use
// and shared after: every town of 500 people or more in the world with
// its names in many languages and scripts, its region, and the postal
// codes of Germany and France.
func Default() (*Gazetteer, error) {
	return loadDefault()
}

var loadDefault = sync.OnceValues(loadBundled)

// Bundled loads a gazetteer of its own from the bundled data, which the
// caller may load more into (an operator's postal codes of another
// country, say) before reading it.
func Bundled() (*Gazetteer, error) { return loadBundled() }

func loadBundled() (*Gazetteer, error) {
	// Sized for cities500, to spare the tables' growing.
	g := newSized(800_000)
	g.byID = make(map[uint32]int32, 200_000)
	if err := g.loadFile("data/admin1.tsv", false, g.LoadAdmin1); err != nil {
		return nil, err
	}
	if err := g.loadFile("data/cities500.txt.gz", true, g.LoadCities); err != nil {
		return nil, err
	}
	// The misspelling index only reads the names: build it while the
	// postal tables load (they only read them too).
	g.fuzzyMu.Lock()
	built := make(chan struct{})
	go func() {
		defer close(built)
		defer g.fuzzyMu.Unlock()
		g.fuzzy.Store(g.buildFuzzy())
	}()
	var err error
	for _, c := range []string{"DE", "FR"} {
		load := func(r io.Reader) error { return g.LoadPostalTable(c, r) }
		if err = g.loadFile("data/"+c+".tsv", false, load); err != nil {
			break
		}
	}
	<-built
	if err != nil {
		return nil, err
	}
	return g, nil
}

func (g *Gazetteer) loadFile(name string, gz bool, load func(io.Reader) error) error {
	f, err := data.Open(name)
	if err != nil {
		return fmt.Errorf("places: bundled %s: %w", name, err)
	}
	defer f.Close()
	var r io.Reader = f
	if gz {
		// Unzipped in its own goroutine, while the loader reads.
		pr, pw := io.Pipe()
		done := make(chan struct{})
		defer func() {
			pr.Close() // stops the unzipping when the loader stopped early
			<-done
		}()
		go func() {
			defer close(done)
			z, err := gzip.NewReader(f)
			if err == nil {
				_, err = io.CopyBuffer(pw, z, make([]byte, 256<<10))
			}
			pw.CloseWithError(err)
		}()
		r = pr
	}
	if err := load(r); err != nil {
		return fmt.Errorf("places: bundled %s: %w", name, err)
	}
	return nil
}
