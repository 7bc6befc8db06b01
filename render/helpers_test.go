package render_test

import (
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// testSite is the contract's deployment: https://daawid.example with the
// API and MCP hosts derived from it.
func testSite(t testing.TB) render.Site {
	t.Helper()
	s, err := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// allEntries decodes every fixture, failing the test on one that does not
// validate.
func allEntries(t testing.TB) []*schemas.Entry {
	t.Helper()
	var out []*schemas.Entry
	for _, name := range fixtures.EntryNames() {
		e, issues := schemas.Validate(fixtures.EntryJSON(name))
		if len(issues) > 0 {
			t.Fatalf("fixture %s does not validate:\n%v", name, issues)
		}
		out = append(out, e)
	}
	return out
}
