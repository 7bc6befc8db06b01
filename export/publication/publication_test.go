package publication

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestDocIndex_RoundTripAndChain: a document index reads back as written,
// and a chain of indexes resolves as a delta publication needs (a later
// index replaces every document of an entry it names, a tombstone removes
// the entry, the last index's registry-level files replace the earlier
// ones), entries in ID order, registry-level files last.
func TestDocIndex_RoundTripAndChain(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)
	full := []DocRow{
		{EntryID: "ent_b", Slug: "b", Kind: "md", Lang: "de", Path: "/b.md", Pack: "packs/p1.pack", Offset: 0, Length: 10, MediaType: "text/markdown; charset=utf-8", ETag: `"b"`, LastModified: at, Revision: 3},
		{EntryID: "ent_b", Slug: "b", Kind: "html", Lang: "de", Path: "/b", Pack: "packs/p1.pack", Offset: 10, Length: 20, LastModified: at, Revision: 3},
		{EntryID: "ent_a", Slug: "a", Kind: "md", Lang: "en", Path: "/a.md", Pack: "packs/p1.pack", Offset: 30, Length: 5, LastModified: at, Revision: 1, NextChangeAt: at.Add(time.Hour)},
		{EntryID: "ent_c", Slug: "c", Kind: "md", Lang: "en", Path: "/c.md", Pack: "packs/p1.pack", Offset: 35, Length: 5, LastModified: at, Revision: 1},
		{Kind: KindSite, Path: "/llms.txt", Pack: "packs/p1.pack", Offset: 40, Length: 7, LastModified: at},
	}
	delta := []DocRow{
		{EntryID: "ent_b", Slug: "b", Kind: "md", Lang: "de", Path: "/b.md", Pack: "packs/p2.pack", Offset: 0, Length: 11, LastModified: at, Revision: 4},
		{EntryID: "ent_c", Slug: "c", Kind: KindRemoved, Revision: 2, LastModified: at},
		{Kind: KindSite, Path: "/robots.txt", Pack: "packs/p2.pack", Offset: 11, Length: 3, LastModified: at},
	}
	for name, rows := range map[string][]DocRow{"p1": full, "p2": delta} {
		if err := WriteDocIndex(filepath.Join(dir, OwnIndex(name)), rows); err != nil {
			t.Fatal(err)
		}
		got, err := ReadDocIndex(filepath.Join(dir, OwnIndex(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rows) {
			t.Errorf("%s reads back as\n%+v\nnot\n%+v", name, got, rows)
		}
	}
	docs, err := ReadDocs(dir, &Manifest{Index: []string{OwnIndex("p1"), OwnIndex("p2")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.EntryID+"/"+d.Kind+"/"+d.Pack)
	}
	want := []string{"ent_a/md/packs/p1.pack", "ent_b/md/packs/p2.pack", "/site/packs/p2.pack"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the chain resolves to %v, want %v", got, want)
	}
}

// TestManifest_VerifyFindsAChangedByte: a manifest written over a
// directory verifies, and one changed byte in any file fails Verify naming
// the file; a file linked from the previous publication keeps the checksum
// recorded there without being read again.
func TestManifest_VerifyFindsAChangedByte(t *testing.T) {
	prev, dir := t.TempDir(), t.TempDir()
	for _, d := range []string{prev, dir} {
		if err := os.MkdirAll(filepath.Join(d, PacksDir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(prev, "packs", "old.pack"), []byte("old bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(prev, "packs", "old.pack"), filepath.Join(dir, "packs", "old.pack")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "packs", "new.pack"), []byte("new bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	recorded := map[string]string{"packs/old.pack": "recorded-earlier"}
	m := &Manifest{ID: "pub_x"}
	if err := WriteManifest(dir, m, prev, recorded, "packs/new.pack"); err != nil {
		t.Fatal(err)
	}
	if m.Files["packs/old.pack"] != "recorded-earlier" {
		t.Errorf("the linked file was hashed again: %q", m.Files["packs/old.pack"])
	}
	m.Files["packs/old.pack"], _ = FileSHA256(filepath.Join(dir, "packs", "old.pack"))
	if err := WriteManifest(dir, m, "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(dir); err != nil {
		t.Fatalf("a fresh manifest does not verify: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "packs", "new.pack"), []byte("new bytez"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(dir); err == nil || !strings.Contains(err.Error(), "packs/new.pack") {
		t.Fatalf("a changed byte: %v", err)
	}
}

// TestSwap_CurrentPointsAtTheNewPublication: Swap replaces the current
// link in one rename, and Current reads it back.
func TestSwap_CurrentPointsAtTheNewPublication(t *testing.T) {
	out := t.TempDir()
	for _, id := range []string{"pub_1", "pub_2"} {
		if err := os.MkdirAll(filepath.Join(out, PublicationsDir, id), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := Swap(out, filepath.Join(PublicationsDir, id)); err != nil {
			t.Fatal(err)
		}
		cur, err := Current(out)
		if err != nil || cur != filepath.Join(out, PublicationsDir, id) {
			t.Fatalf("after swapping to %s, current is %q (%v)", id, cur, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(out, CurrentLink+".tmp")); !os.IsNotExist(err) {
		t.Errorf("the swap left its temporary link: %v", err)
	}
}

// TestStaticName: where the static tree writes each kind of document.
func TestStaticName(t *testing.T) {
	for _, c := range []struct {
		d    DocRow
		want string
	}{
		{DocRow{Kind: "md", Path: "/holzwerk-krause.md"}, "holzwerk-krause.md"},
		{DocRow{Kind: "html", Lang: "de", Path: "/holzwerk-krause", MediaType: "text/html; charset=utf-8"}, "holzwerk-krause/index.html"},
		{DocRow{Kind: "html", Lang: "en", Path: "/holzwerk-krause/en", MediaType: "text/html; charset=utf-8"}, "holzwerk-krause/en/index.html"},
		{DocRow{Kind: "view", Lang: "en", Path: "/v1/entries/ent_x", MediaType: "application/json"}, "v1/entries/ent_x/en.json"},
		{DocRow{Kind: KindSite, Path: "/mcp/server-card", MediaType: "application/json"}, "mcp/server-card.json"},
		{DocRow{Kind: KindSite, Path: "/docs/api", MediaType: "text/html; charset=utf-8"}, "docs/api/index.html"},
		{DocRow{Kind: KindSite, Path: "/llms.txt", MediaType: "text/plain; charset=utf-8"}, "llms.txt"},
		// AWP-08: the AWP folders' own documents are their index files.
		{DocRow{Kind: KindSite, Path: "/awp/content/", MediaType: "application/json"}, "awp/content/index.json"},
		{DocRow{Kind: KindSite, Path: "/awp/api/", MediaType: "application/json"}, "awp/api/index.json"},
	} {
		if got := StaticName(c.d); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.d.Kind, c.d.Path, got, c.want)
		}
	}
}

// TestWriteManifestSums_WritersSumNotReadBack: a checksum the writer made
// as it wrote a file is recorded as given, the file not read again (a
// wrong one is what Verify then finds); the other files are hashed (D133).
func TestWriteManifestSums_WritersSumNotReadBack(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, PacksDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"packs/own.pack": "own bytes", "packs/other.pack": "other bytes"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	own, _ := FileSHA256(filepath.Join(dir, "packs", "own.pack"))
	other, _ := FileSHA256(filepath.Join(dir, "packs", "other.pack"))
	m := &Manifest{ID: "pub_x"}
	if err := WriteManifestSums(dir, m, "", nil, map[string]string{"packs/own.pack": own}, "packs/own.pack"); err != nil {
		t.Fatal(err)
	}
	if m.Files["packs/own.pack"] != own || m.Files["packs/other.pack"] != other {
		t.Fatalf("files %v", m.Files)
	}
	if _, err := Verify(dir); err != nil {
		t.Fatalf("the manifest with the writer's checksum does not verify: %v", err)
	}
	m = &Manifest{ID: "pub_y"}
	if err := WriteManifestSums(dir, m, "", nil, map[string]string{"packs/own.pack": other}, "packs/own.pack"); err != nil {
		t.Fatal(err)
	}
	if m.Files["packs/own.pack"] != other {
		t.Fatalf("the writer's checksum was replaced: %v", m.Files)
	}
	if _, err := Verify(dir); err == nil || !strings.Contains(err.Error(), "packs/own.pack") {
		t.Errorf("a wrong writer's checksum verified: %v", err)
	}
}
