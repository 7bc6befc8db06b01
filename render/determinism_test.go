package render_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/daawid/registry/render"
)

// TestDeterminism_PRIV06_ConcurrentRenders renders every fixture in every
// language and format from 8 goroutines, 50 times each, and requires
// identical bytes every time: nothing depends on map order, the clock or
// shared state (PRIV-06).
func TestDeterminism_PRIV06_ConcurrentRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("determinism sweep skipped in -short mode")
	}
	site := testSite(t)
	entries := allEntries(t)
	type key struct{ slug, format, lang string }
	want := map[key][]byte{}
	for _, e := range entries {
		for _, f := range render.Formats {
			for _, lang := range e.Languages {
				want[key{e.Slug, f.Name, lang}] = f.Render(e, lang, site, nil)
			}
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				for _, e := range entries {
					for _, f := range render.Formats {
						for _, lang := range e.Languages {
							k := key{e.Slug, f.Name, lang}
							if got := f.Render(e, lang, site, nil); !bytes.Equal(got, want[k]) {
								errs <- fmt.Sprintf("goroutine %d: %v differs from the first render", g, k)
								return
							}
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if len(want) < 100 {
		t.Errorf("only %d outputs compared; the sweep is not covering the fixtures", len(want))
	}
}
