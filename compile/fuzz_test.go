package compile_test

import (
	"os"
	"testing"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/fixtures"
)

// FuzzReadOwnerRevision feeds the owner-revision reader any bytes: it must
// not panic or hang, and it either accepts a revision that validates or
// refuses with at least one issue that has a message.
func FuzzReadOwnerRevision(f *testing.F) {
	for _, n := range fixtures.EntryNames() {
		f.Add(fixtures.EntryJSON(n))
	}
	if b, err := os.ReadFile("../fixtures/compile/inbox/holzwerk-krause.json"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"id":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		decl, issues := compile.ReadOwnerRevision("fuzz.json", data)
		switch {
		case decl == nil && len(issues) == 0:
			t.Fatal("refused without a reason")
		case decl != nil && len(issues) > 0:
			t.Fatal("accepted with issues")
		}
		for _, is := range issues {
			if is.Message == "" {
				t.Fatalf("issue without message at %q", is.Path)
			}
		}
	})
}
