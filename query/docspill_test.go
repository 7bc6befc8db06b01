package query

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/places"
)

// TestServeFiles_SpillingWritesTheSameFiles: the server's indexes written
// at publish with every array spilled to temporary files an entry at a
// time (a chunk of 64 bytes: every entry is written out before the next
// is read) are the same bytes as those written from the document index
// and the search index held in memory, and no temporary file is left
// beside them (D116).
func TestServeFiles_SpillingWritesTheSameFiles(t *testing.T) {
	dir, m := publishServed(t)
	// In memory: the document index as the server reads it, and the
	// search index it builds from it.
	built, err := readDocIndex(dir, m.Index[:1])
	if err != nil {
		t.Fatal(err)
	}
	var wantDocs, wantSearch bytes.Buffer
	if _, err := writeDocFile(&wantDocs, built); err != nil {
		t.Fatal(err)
	}
	gaz, err := places.Default()
	if err != nil {
		t.Fatal(err)
	}
	six, err := buildSearchIndex(built, openPacks(t, dir, built.packs), gaz)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := six.WriteTo(&wantSearch); err != nil {
		t.Fatal(err)
	}
	if len(built.ents) < 50 {
		t.Fatalf("%d entries: too few to spill many times", len(built.ents))
	}
	old := publication.SpillChunk
	publication.SpillChunk = 64
	defer func() { publication.SpillChunk = old }()
	files := *m.Serve
	files.Docs, files.Search = "index/spilled.docs", "index/spilled.search"
	if err := WriteServeFiles(dir, files, gaz); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		path string
		want []byte
	}{{files.Docs, wantDocs.Bytes()}, {files.Search, wantSearch.Bytes()}, {m.Serve.Docs, wantDocs.Bytes()}, {m.Serve.Search, wantSearch.Bytes()}} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.path)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.want) {
			t.Errorf("%s: %d bytes, not the %d written from memory", f.path, len(got), len(f.want))
		}
	}
	left, err := os.ReadDir(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file left: %s", e.Name())
		}
	}
}

// TestDocSpill_EntryNotTogetherRefused: an index whose entry's rows are
// apart is refused by a spilling read too, the entry found among those
// already written out.
func TestDocSpill_EntryNotTogetherRefused(t *testing.T) {
	dir, m := publishServed(t)
	var rows []publication.DocRow
	if err := publication.ScanDocIndex(filepath.Join(dir, filepath.FromSlash(m.Index[0])), func(b []publication.DocRow) error {
		for _, r := range b {
			r.EntryID, r.Slug, r.Path, r.Pack, r.ETag, r.MediaType = strings.Clone(r.EntryID), strings.Clone(r.Slug),
				strings.Clone(r.Path), strings.Clone(r.Pack), strings.Clone(r.ETag), strings.Clone(r.MediaType)
			rows = append(rows, r)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The first entry's first row again, after every other entry's.
	rows = append(rows, rows[0])
	tmp := t.TempDir()
	if err := publication.WriteDocIndex(filepath.Join(tmp, "apart.parquet"), rows); err != nil {
		t.Fatal(err)
	}
	old := publication.SpillChunk
	publication.SpillChunk = 64
	defer func() { publication.SpillChunk = old }()
	sp, err := newDocSpill(tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.close()
	_, err = readDocIndexSpilling(tmp, []string{"apart.parquet"}, sp)
	if err == nil || !strings.Contains(err.Error(), "the documents of entry "+rows[0].EntryID+" are not together") {
		t.Fatalf("an entry apart: %v", err)
	}
}
