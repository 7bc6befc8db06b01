package feeds

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/parquet-go/parquet-go"
)

// Each kind of change a publication can make gets its record type, in
// entry ID order, numbered on from next; an unchanged entry gets none.
func TestDiff_Types(t *testing.T) {
	at := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	prev := map[string]State{
		"ent_b": {EntryID: "ent_b", Slug: "b", Status: "published", Listed: true, Revision: 3},
		"ent_c": {EntryID: "ent_c", Slug: "c", Status: "published", Listed: true, Revision: 3},
		"ent_d": {EntryID: "ent_d", Slug: "d", Status: "published", Listed: true, Revision: 3},
		"ent_e": {EntryID: "ent_e", Slug: "e", Status: "published", Listed: true, Revision: 3},
		"ent_f": {EntryID: "ent_f", Slug: "f", Status: "published", Listed: true, Revision: 3},
		"ent_g": {EntryID: "ent_g", Slug: "g", Status: "published", Listed: true, Revision: 3},
		"ent_h": {EntryID: "ent_h", Slug: "h", Status: "removed", Revision: 3},
	}
	cur := []State{
		{EntryID: "ent_g", Slug: "g", Status: "published", Listed: true, Revision: 3},                   // unchanged
		{EntryID: "ent_a", Slug: "a", Status: "unclaimed", Listed: true, Revision: 1},                   // new
		{EntryID: "ent_b", Slug: "b", Status: "published", Listed: true, Revision: 4, Cause: "owner"},   // updated
		{EntryID: "ent_c", Slug: "c", Status: "removed", Revision: 3},                                   // removed
		{EntryID: "ent_d", Slug: "d", Status: "suspended", Listed: true, Revision: 4},                   // suspended
		{EntryID: "ent_e", Slug: "e", Status: "published", Listed: false, Revision: 4},                  // unlisted
		{EntryID: "ent_f", Slug: "f", Status: "published", Listed: true, Revision: 4, Cause: "expired"}, // expired
		{EntryID: "ent_h", Slug: "h", Status: "removed", Revision: 3},                                   // still removed
		{EntryID: "ent_z", Slug: "z", Status: "removed", Revision: 1},                                   // never public
	}
	got := Diff(prev, cur, 41, at, "pub_x")
	want := []struct {
		id, typ string
	}{{"ent_a", Created}, {"ent_b", Updated}, {"ent_c", Removed}, {"ent_d", Suspended}, {"ent_e", Unlisted}, {"ent_f", Expired}}
	if len(got) != len(want) {
		t.Fatalf("%d changes: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].EntryID != w.id || got[i].Type != w.typ || got[i].Seq != int64(41+i) || !got[i].At.Equal(at) || got[i].Publication != "pub_x" {
			t.Errorf("change %d: %+v, want %s %s seq %d", i, got[i], w.id, w.typ, 41+i)
		}
	}
}

// TestFeed_ReadSegmentWithAGap: a segment whose numbers are not one by one
// (none this engine writes) is still read right: a skip by line count
// that lands past the cursor is read again from the segment's start.
func TestFeed_ReadSegmentWithAGap(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	var cs []Change
	for _, seq := range []int64{1, 2, 5, 6, 7} {
		cs = append(cs, Change{Seq: seq, Type: Updated, EntryID: "ent_x", Slug: "x", Revision: int32(seq), At: at})
	}
	if err := Write(dir, cs); err != nil {
		t.Fatal(err)
	}
	got, _, err := publication.ReadFeed(dir, 2, 10)
	if err != nil || len(got) != 3 || got[0].Seq != 5 || got[2].Seq != 7 {
		t.Fatalf("after 2: %+v %v", got, err)
	}
	got, _, err = publication.ReadFeed(dir, 5, 10)
	if err != nil || len(got) != 2 || got[0].Seq != 6 {
		t.Fatalf("after 5: %+v %v", got, err)
	}
}

// A feed written in segments reads back from any cursor, in order, with
// has_more when the limit cuts it.
func TestFeed_ReadFromCursor(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	var seq int64 = 1
	for _, n := range []int{3, 2, 4} {
		var cs []Change
		for range n {
			cs = append(cs, Change{Seq: seq, Type: Updated, EntryID: "ent_x", Slug: "x", Revision: int32(seq), At: at})
			seq++
		}
		if err := Write(dir, cs); err != nil {
			t.Fatal(err)
		}
	}
	got, more, err := publication.ReadFeed(dir, 4, 3)
	if err != nil || !more || len(got) != 3 || got[0].Seq != 5 || got[2].Seq != 7 {
		t.Fatalf("read after 4, limit 3: %+v more=%v %v", got, more, err)
	}
	got, more, err = publication.ReadFeed(dir, 7, 10)
	if err != nil || more || len(got) != 2 || got[1].Seq != 9 {
		t.Fatalf("read after 7: %+v more=%v %v", got, more, err)
	}
	if last, _ := publication.FeedLast(dir); last != 9 {
		t.Fatalf("last %d", last)
	}
	// Every cursor and limit reads what a whole decoding would: the lines
	// before the cursor are skipped by their count (issue 18).
	for after := int64(0); after <= 9; after++ {
		for limit := 1; limit <= 10; limit++ {
			got, more, err := publication.ReadFeed(dir, after, limit)
			n := min(int64(limit), 9-after)
			if err != nil || int64(len(got)) != n || more != (after+n < 9) {
				t.Fatalf("after %d, limit %d: %d changes, more=%v, %v", after, limit, len(got), more, err)
			}
			for i, c := range got {
				if c.Seq != after+1+int64(i) || c.Revision != int32(c.Seq) {
					t.Fatalf("after %d, limit %d: change %d is %+v", after, limit, i, c)
				}
			}
		}
	}
	// Carry links every segment into a new publication's feed.
	next := t.TempDir() + "/feed"
	if err := Carry(dir, next); err != nil {
		t.Fatal(err)
	}
	if last, _ := publication.FeedLast(next); last != 9 {
		t.Fatalf("carried feed ends at %d", last)
	}
}

// TestFeed_SegmentIsOneParquetFile (D122): a segment is one Parquet file,
// in row groups of segmentGroup changes; a cursor anywhere in it, past
// whole groups, reads what a whole decoding would, the instants in UTC.
// A segment a publication before D122 wrote as JSON lines too is carried
// with both files.
func TestFeed_SegmentIsOneParquetFile(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	n := int64(2*segmentGroup + 100)
	w := NewSegmentWriter(dir)
	for seq := int64(1); seq <= n; seq++ {
		if err := w.Add(Change{Seq: seq, Type: Updated, EntryID: fmt.Sprintf("ent_%07d", seq), Slug: "x", Revision: int32(seq % 1000), At: at, Publication: "pub_x"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if want := filepath.Join(dir, publication.FeedSegmentName(1, n)+".parquet"); len(files) != 1 || files[0] != want {
		t.Fatalf("feed files %v, want only %s", files, want)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil || len(pf.RowGroups()) != 3 || pf.RowGroups()[0].NumRows() != segmentGroup {
		t.Fatalf("segment's row groups: %v", err)
	}
	for _, after := range []int64{0, 1, segmentGroup - 1, segmentGroup, segmentGroup + 1, 2 * segmentGroup, n - 3, n - 1, n} {
		got, more, err := publication.ReadFeed(dir, after, 5)
		want := min(5, n-after)
		if err != nil || int64(len(got)) != want || more != (after+want < n) {
			t.Fatalf("after %d: %d changes, more=%v, %v", after, len(got), more, err)
		}
		for i, c := range got {
			seq := after + 1 + int64(i)
			if c.Seq != seq || c.EntryID != fmt.Sprintf("ent_%07d", seq) || c.Revision != int32(seq%1000) || c.At != at || c.Publication != "pub_x" || c.Type != Updated {
				t.Fatalf("after %d: change %d is %+v", after, i, c)
			}
		}
	}
	old := publication.FeedSegmentName(n+1, n+1)
	if err := Write(dir, []Change{{Seq: n + 1, Type: Created, EntryID: "ent_y", Slug: "y", Revision: 1, At: at}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, old+".jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(t.TempDir(), "feed")
	if err := Carry(dir, next); err != nil {
		t.Fatal(err)
	}
	carried, _ := filepath.Glob(filepath.Join(next, "*"))
	if len(carried) != 3 {
		t.Fatalf("carried %v", carried)
	}
	if got, _, err := publication.ReadFeed(next, n, 10); err != nil || len(got) != 1 || got[0].EntryID != "ent_y" {
		t.Fatalf("carried feed after %d: %+v %v", n, got, err)
	}
}

// IndexNow posts the URLs to the endpoint; a refusal files them in the
// outbox instead of losing them.
func TestIndexNow_PostAndOutbox(t *testing.T) {
	var got []Notice
	ok := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n Notice
		json.NewDecoder(r.Body).Decode(&n)
		got = append(got, n)
		if !ok {
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	outbox := filepath.Join(t.TempDir(), "outbox.jsonl")
	in := IndexNow{Endpoint: srv.URL, Key: "k123", Outbox: outbox}
	if err := in.Notify(context.Background(), "daawid.example", []string{"https://daawid.example/a", "https://daawid.example/b"}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Host != "daawid.example" || got[0].Key != "k123" || len(got[0].URLList) != 2 {
		t.Fatalf("posted: %+v", got)
	}
	ok = false
	if err := in.Notify(context.Background(), "daawid.example", []string{"https://daawid.example/c"}); err == nil {
		t.Fatal("a refused notice is not an error")
	}
	b, _ := os.ReadFile(outbox)
	if !strings.Contains(string(b), "https://daawid.example/c") {
		t.Fatalf("outbox: %s", b)
	}
}
