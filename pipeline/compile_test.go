package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
)

func copyFile(t *testing.T, src, dst string) {
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompile_SpecExamplesFromSources runs the pipeline on a real DuckDB
// state file in a temp dir: the first run compiles the register files and
// the saved websites (seeded with the examples' identities) at §3.7's date;
// the second merges Holzwerk Krause's owner revision and its domain events
// at §3.6's date; a third run with the same inputs issues nothing.
func TestCompile_SpecExamplesFromSources(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	inbox := filepath.Join(dir, "inbox")
	if err := os.MkdirAll(inbox, 0o755); err != nil {
		t.Fatal(err)
	}
	arch, err := OpenArchive("../fixtures/websites", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	regs := []string{"../fixtures/registers/offeneregister-sample.jsonl", "../fixtures/registers/companies-house-sample.csv"}
	cfg := CompileConfig{StateDir: state, Registers: regs, Sites: arch, OwnerInbox: inbox, Seed: "../fixtures/compile/identity-seed.json",
		Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	rep1, err := Compile(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep1.NewEntries < 80 || rep1.RowsSkipped != 0 {
		t.Fatalf("first run: %+v", rep1)
	}
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	sb, err := st.Revision(ctx, "ent_01k8r3a0b1c2d3e4f5g6h7j8k9", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := render.Markdown(sb, "de", site); !bytes.Equal(got, fixtures.Spec("schreinerei-beispiel.de.md")) {
		t.Errorf("Schreinerei Beispiel from the pipeline differs from §3.7:\n%s", got)
	}
	st.Close()

	copyFile(t, "../fixtures/compile/inbox/holzwerk-krause.json", filepath.Join(inbox, "holzwerk-krause.json"))
	cfg.Now = time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC)
	cfg.Verification = []string{"../fixtures/compile/verification.jsonl"}
	rep2, err := Compile(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Merged != 1 || rep2.FilesSkipped != 2 {
		t.Errorf("second run: %+v", rep2)
	}
	if _, err := os.Stat(filepath.Join(inbox, "accepted", "holzwerk-krause.json")); err != nil {
		t.Errorf("the accepted revision was not filed: %v", err)
	}
	st, err = OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	hk, err := st.Revision(ctx, "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := render.Markdown(hk, "de", site); !bytes.Equal(got, fixtures.Spec("holzwerk-krause.de.md")) {
		t.Errorf("Holzwerk Krause from the pipeline differs from §3.6:\n%s", got)
	}
	st.Close()

	rep3, err := Compile(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep3.Compiled != 0 {
		t.Errorf("the same inputs again issued %d revisions: %+v", rep3.Compiled, rep3)
	}
}
