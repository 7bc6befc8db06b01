package search_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

// spilledFile is the index file of records (hiding hide after them) as a
// spilling builder writes it, with its temporary files in dir.
func spilledFile(t *testing.T, dir string, recs []schemas.SearchRecord, hide []string) []byte {
	t.Helper()
	b := spilling(t, dir, recs)
	defer b.Close()
	for _, id := range hide {
		b.Hide(id)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the temporary files have names while the builder writes them: %d in %s", len(left), dir)
	}
	var buf bytes.Buffer
	n, err := b.WriteFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteFile says %d bytes, wrote %d", n, buf.Len())
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// spilling is a spilling builder with its temporary files in dir, the
// records added.
func spilling(t *testing.T, dir string, recs []schemas.SearchRecord) *search.Builder {
	t.Helper()
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	b, err := search.NewSpillingBuilder(g, dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := b.Add(&recs[i]); err != nil {
			b.Close()
			t.Fatal(err)
		}
	}
	return b
}

// TestSpillingBuilder_SameFileAsBuilt: a builder that spills its columns
// to temporary files (a chunk of a few hundred bytes, so that every
// column is written out many times and IDs sharing a hash are read back
// from the files) writes the same file, byte for byte, as the index built
// in memory from the same records writes; the file opens and answers as
// the built index does, and nothing is left in the folder (D116).
func TestSpillingBuilder_SameFileAsBuilt(t *testing.T) {
	defer search.SetSpillChunk(300)()
	recs := records(t, registry())
	hide := []string{"ent_01k8r3a0b1c2d3e4f5g6h7j8zz", recs[3].ID, "ent_01k8r3a0b1c2d3e4f5g6h7j8zy"}
	for name, hash := range map[string]func(string) uint64{
		"fnv":          search.IDHash,
		"sharedHashes": func(id string) uint64 { return search.IDHash(id) % 5 },
	} {
		t.Run(name, func(t *testing.T) {
			defer search.SetIDHash(hash)()
			dir := t.TempDir()
			want := written(t, layer(t, recs, hide))
			got := spilledFile(t, dir, recs, hide)
			if !bytes.Equal(got, want) {
				t.Fatalf("the spilled file differs from the built index's: %d against %d bytes", len(got), len(want))
			}
			o, err := search.OpenIndex(aligned(got))
			if err != nil {
				t.Fatal(err)
			}
			if o.Len() != len(recs) || !o.Has(recs[3].ID) || !o.Has(hide[0]) || o.Has("ent_01k8r3a0b1c2d3e4f5g6h7j8zw") {
				t.Fatalf("the opened file holds %d entries of %d, or not the IDs it should", o.Len(), len(recs))
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Fatalf("%d temporary files left in %s", len(left), dir)
			}
		})
	}
	// The benchmark's generated registry (a third with hours), in chunks
	// of 4 KB: the same bytes too.
	defer search.SetSpillChunk(4096)()
	gen, _ := benchRecords(3000)
	if got, want := spilledFile(t, t.TempDir(), gen, nil), written(t, layer(t, gen, nil)); !bytes.Equal(got, want) {
		t.Fatalf("the generated registry's spilled file differs: %d against %d bytes", len(got), len(want))
	}
}

// TestSpillingBuilder_TwiceRefused: an entry added twice is refused by a
// spilling builder too, its first copy read back from the spilled arena.
func TestSpillingBuilder_TwiceRefused(t *testing.T) {
	defer search.SetSpillChunk(64)()
	recs := records(t, registry())
	b := spilling(t, t.TempDir(), recs)
	defer b.Close()
	if err := b.Add(&recs[0]); err == nil || !strings.Contains(err.Error(), recs[0].ID+" twice") {
		t.Fatalf("adding %s again: %v", recs[0].ID, err)
	}
}
