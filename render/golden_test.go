package render_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/daawid/registry/render"
)

var update = flag.Bool("update", false, "rewrite the golden outputs under fixtures/golden")

const goldenDir = "../fixtures/golden"

// TestGolden_PRIV06_AllFixtures renders every fixture in every language in
// every format and compares the bytes with fixtures/golden, so any change to
// any projection shows up as a reviewable diff (STYLE 14, PRIV-06). Run
// with -update to rewrite the golden files on purpose.
func TestGolden_PRIV06_AllFixtures(t *testing.T) {
	site := testSite(t)
	seen := map[string]bool{}
	for _, e := range allEntries(t) {
		for _, f := range render.Formats {
			langs := e.Languages
			if !f.PerLanguage {
				langs = []string{""}
			}
			for _, lang := range langs {
				got := f.Render(e, lang, site, nil)
				if got == nil {
					continue
				}
				name := f.Name + f.Ext
				if lang != "" {
					name = f.Name + "." + lang + f.Ext
				}
				path := filepath.Join(goldenDir, e.Slug, name)
				seen[path] = true
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%s: %v (run go test ./render -run Golden -update)", path, err)
					continue
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs:\n%s", path, lineDiff(string(want), string(got)))
				}
			}
		}
	}
	// A golden file nothing renders any more is stale.
	_ = filepath.WalkDir(goldenDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !seen[p] {
			if *update {
				return os.Remove(p)
			}
			t.Errorf("%s is not rendered by any fixture any more (run -update to remove it)", p)
		}
		return nil
	})
}
