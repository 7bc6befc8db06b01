package publication

import (
	"hash/crc32"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// oldDocRow is DocRow as publications before issue 15 wrote it: without
// the checksum column.
type oldDocRow struct {
	EntryID      string    `parquet:"entry_id,dict"`
	Slug         string    `parquet:"slug,dict"`
	Kind         string    `parquet:"kind,dict"`
	Lang         string    `parquet:"lang,dict"`
	Path         string    `parquet:"path"`
	Pack         string    `parquet:"pack,dict"`
	Offset       int64     `parquet:"offset"`
	Length       int64     `parquet:"length"`
	MediaType    string    `parquet:"media_type,dict"`
	ETag         string    `parquet:"etag"`
	LastModified time.Time `parquet:"last_modified,timestamp(millisecond)"`
	Revision     int32     `parquet:"revision"`
	NextChangeAt time.Time `parquet:"next_change_at,timestamp(millisecond),optional"`
}

// TestDocIndex_ChecksumRoundTripAndOldIndexes: a document index keeps each
// document's checksum, and an index written before the checksum column
// existed still reads, every row with checksum 0 ("not recorded"), which
// DocChecksumOK lets through (issue 15: old publications still read).
func TestDocIndex_ChecksumRoundTripAndOldIndexes(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 10, 28, 9, 20, 0, 0, time.UTC)
	body := []byte("# Holzwerk Krause\n")
	rows := []DocRow{{EntryID: "ent_a", Slug: "a", Kind: "md", Lang: "de", Path: "/a.md", Pack: "packs/p1.pack", Length: int64(len(body)),
		LastModified: at, Revision: 1, Checksum: DocChecksum(body)}}
	path := filepath.Join(dir, OwnIndex("p1"))
	if err := WriteDocIndex(path, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDocIndex(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Checksum != DocChecksum(body) || got[0].Checksum == 0 {
		t.Fatalf("the checksum reads back as %+v, want %08x", got, DocChecksum(body))
	}
	if !DocChecksumOK(body, got[0].Checksum) {
		t.Errorf("the document's own bytes fail their checksum")
	}
	bad := append([]byte(nil), body...)
	bad[3] ^= 0x01
	if DocChecksumOK(bad, got[0].Checksum) {
		t.Errorf("one flipped bit passes the checksum")
	}

	old := filepath.Join(dir, "old.parquet")
	if err := parquet.WriteFile(old, []oldDocRow{{EntryID: "ent_a", Slug: "a", Kind: "md", Lang: "de", Path: "/a.md", Pack: "packs/p0.pack", Length: 5, LastModified: at, Revision: 1}}); err != nil {
		t.Fatal(err)
	}
	got, err = ReadDocIndex(old)
	if err != nil {
		t.Fatalf("an index without the checksum column does not read: %v", err)
	}
	if len(got) != 1 || got[0].Checksum != 0 || got[0].Path != "/a.md" {
		t.Fatalf("an old index reads as %+v", got)
	}
	if !DocChecksumOK([]byte("anything"), got[0].Checksum) {
		t.Errorf("a row without a checksum refuses its bytes")
	}
}

// TestDocChecksum_ZeroIsNeverRecorded: a document whose CRC-32C is 0 is
// recorded as 1, so 0 always means "not recorded", and it still checks.
func TestDocChecksum_ZeroIsNeverRecorded(t *testing.T) {
	// The CRC-32C of no bytes is 0: an empty document is the case the
	// rule exists for.
	if crc32.Checksum(nil, castagnoli) != 0 {
		t.Fatal("the CRC-32C of no bytes is not 0; the test's premise is wrong")
	}
	for _, b := range [][]byte{nil, {}, []byte("a"), []byte("llms.txt")} {
		if DocChecksum(b) == 0 {
			t.Errorf("DocChecksum(%q) is 0", b)
		}
		if !DocChecksumOK(b, DocChecksum(b)) {
			t.Errorf("%q fails its own checksum", b)
		}
	}
}
