package publication

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// aheadRows are n document rows of n/3 entries, each string its own.
func aheadRows(n int) []DocRow {
	rows := make([]DocRow, n)
	t0 := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		e := i / 3
		rows[i] = DocRow{EntryID: fmt.Sprintf("ent_%07d", e), Slug: fmt.Sprintf("slug-%d", e), Kind: []string{"md", "html", "view"}[i%3],
			Lang: "de", Path: fmt.Sprintf("/slug-%d/%d", e, i), Pack: "packs/p.pack", Offset: int64(i) * 100, Length: 100,
			MediaType: "text/markdown", ETag: fmt.Sprintf(`"%x"`, i), LastModified: t0, Revision: int32(i % 7),
			Checksum: uint32(i), Encoding: EncodingZstd, IdentityLength: 300}
		if i%5 == 0 {
			rows[i].NextChangeAt = t0.Add(time.Hour)
		}
	}
	return rows
}

// TestScanParquetAhead_SameRowsKept: a document index read ahead gives
// the rows written, in order, in batches of at most 1,024, and rows kept
// from a batch are unchanged after the reader has decoded the batches
// after it into its other buffers (D133).
func TestScanParquetAhead_SameRowsKept(t *testing.T) {
	rows := aheadRows(70_000) // two row groups, 69 batches
	path := filepath.Join(t.TempDir(), "ix.parquet")
	if err := WriteDocIndex(path, rows); err != nil {
		t.Fatal(err)
	}
	var got []DocRow
	batches := 0
	err := ScanDocIndex(path, func(b []DocRow) error {
		if len(b) == 0 || len(b) > 1024 {
			t.Fatalf("a batch of %d rows", len(b))
		}
		batches++
		got = append(got, b...)
		// Let the reader run ahead into the other buffers.
		runtime.Gosched()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if batches < 69 {
		t.Errorf("%d batches", batches)
	}
	if len(got) != len(rows) {
		t.Fatalf("%d rows read, %d written", len(got), len(rows))
	}
	for i := range rows {
		if !reflect.DeepEqual(got[i].LastModified.UTC(), rows[i].LastModified) {
			t.Fatalf("row %d: last modified %v", i, got[i].LastModified)
		}
		got[i].LastModified = rows[i].LastModified
		if !got[i].NextChangeAt.IsZero() {
			got[i].NextChangeAt = got[i].NextChangeAt.UTC()
		}
		if !reflect.DeepEqual(got[i], rows[i]) {
			t.Fatalf("row %d: %+v, written %+v", i, got[i], rows[i])
		}
	}
}

// TestScanParquetAhead_StopsOnError: fn's error ends the scan with that
// error, and the reader goroutine is gone when it returns; a file that is
// not Parquet is named in the error.
func TestScanParquetAhead_StopsOnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ix.parquet")
	if err := WriteDocIndex(path, aheadRows(10_000)); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	stopHere := errors.New("enough")
	calls := 0
	err := ScanDocIndex(path, func(b []DocRow) error {
		calls++
		if calls == 2 {
			return stopHere
		}
		return nil
	})
	if !errors.Is(err, stopHere) || calls != 2 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
	// The reader has closed done as its last act; it is gone a moment
	// after.
	after := runtime.NumGoroutine()
	for wait := 0; after > before && wait < 100; wait++ {
		time.Sleep(10 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		t.Errorf("%d goroutines after the scan, %d before", after, before)
	}
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	if err := os.WriteFile(bad, []byte("not parquet at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ScanDocIndex(bad, func([]DocRow) error { return nil }); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("a file that is not Parquet: %v", err)
	}
}

// TestScanParquetAhead_GroupsDecodedTogetherInOrder: a file of twelve row
// groups, read with four decoders, gives every row in order, in batches
// of at most 1,024 that never span two groups, and a buffer decoded into
// again (more groups than buffers) keeps nothing of the group before it:
// a row whose optional fields are null reads as null where the row of
// the group before at the same place had them (D134).
func TestScanParquetAhead_GroupsDecodedTogetherInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const perGroup, groups = 2_500, 12
	rows := aheadRows(perGroup * groups)
	for i := range rows {
		// Null optional fields in every other group, set in the others.
		if (i/perGroup)%2 == 1 {
			rows[i].NextChangeAt, rows[i].Checksum, rows[i].Encoding, rows[i].IdentityLength = time.Time{}, 0, "", 0
		} else {
			rows[i].NextChangeAt = rows[i].LastModified.Add(time.Duration(i) * time.Second)
		}
	}
	path := filepath.Join(t.TempDir(), "ix.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[DocRow](f, parquet.MaxRowsPerRowGroup(perGroup))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var got []DocRow
	sizes := map[int]int{}
	err = ScanDocIndex(path, func(b []DocRow) error {
		sizes[len(b)]++
		got = append(got, b...)
		runtime.Gosched()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// 2,500 rows a group: batches of 1,024, 1,024 and 452.
	if want := map[int]int{1024: 2 * groups, 452: groups}; !reflect.DeepEqual(sizes, want) {
		t.Errorf("batch sizes %v, want %v", sizes, want)
	}
	if len(got) != len(rows) {
		t.Fatalf("%d rows read, %d written", len(got), len(rows))
	}
	for i := range rows {
		g := got[i]
		if !g.LastModified.Equal(rows[i].LastModified) || !g.NextChangeAt.Equal(rows[i].NextChangeAt) {
			t.Fatalf("row %d: times %v, %v; written %v, %v", i, g.LastModified, g.NextChangeAt, rows[i].LastModified, rows[i].NextChangeAt)
		}
		g.LastModified, g.NextChangeAt = rows[i].LastModified, rows[i].NextChangeAt
		if !reflect.DeepEqual(g, rows[i]) {
			t.Fatalf("row %d: %+v, written %+v", i, g, rows[i])
		}
	}
}

// BenchmarkScanDocIndex reads a document index of 262,144 rows (four row
// groups as a publication writes them) with fn summing the rows' lengths:
// "one-goroutine" decodes and calls fn in turn (ScanParquet), "ahead"
// decodes the groups on every core ahead of fn (ScanDocIndex, D134).
//
//	go test ./export/publication -run '^$' -bench ScanDocIndex -benchtime 10x
func BenchmarkScanDocIndex(b *testing.B) {
	rows := aheadRows(4 << 16)
	path := filepath.Join(b.TempDir(), "ix.parquet")
	if err := WriteDocIndex(path, rows); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		scan func(string, func([]DocRow) error) error
	}{{"one-goroutine", ScanParquet[DocRow]}, {"ahead", ScanDocIndex}} {
		b.Run(c.name, func(b *testing.B) {
			var sum int64
			for b.Loop() {
				sum = 0
				if err := c.scan(path, func(rs []DocRow) error {
					for i := range rs {
						sum += rs[i].Length
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			if sum != int64(len(rows))*100 {
				b.Fatalf("lengths sum to %d", sum)
			}
			b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
