package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/daawid/registry/cmd/daawid/bench/blevepeer"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// engineRow is one engine's line of the comparison table (issue 18):
// what building it cost, and its latencies over the query mix.
type engineRow struct {
	name      string
	buildSecs float64 // NaN: not built by the benchmark
	diskBytes int64   // -1: nothing on disk
	heapBytes int64   // -1: not measured
	rssMB     int64   // VmRSS delta across the build, -1: not measured
	rssMixMB  int64   // VmRSS delta after the mix, -1: not measured
	rssBase   int64   // VmRSS before the build, for rssMixMB
	lat       []time.Duration
	withHits  int // queries with at least one hit
}

// memNow is the live heap after two collections, and the process's
// VmRSS once the runtime has returned what it freed to the kernel
// (debug.FreeOSMemory), so that a delta is what stays resident.
func memNow() (heapBytes uint64, rssMB int64) {
	heapBytes = heap()
	debug.FreeOSMemory()
	_, rssMB = procMemMB(os.Getpid())
	return heapBytes, rssMB
}

// searchRecords calls fn with every search record of the publication in
// pub, as the server's index reads them (query/searchindex.go): through
// the document index chain, a later index's entry replacing an earlier
// one's, an entry named without a record left out, a record whose
// checksum fails left out. It returns the records' stored bytes in the packs.
func searchRecords(pub string, fn func(*schemas.SearchRecord) error) (int64, error) {
	m, err := publication.ReadManifest(pub)
	if err != nil {
		return 0, err
	}
	rows := map[string]*publication.DocRow{}
	for _, idx := range m.Index {
		layer := map[string]*publication.DocRow{}
		err := publication.ScanDocIndex(filepath.Join(pub, filepath.FromSlash(idx)), func(batch []publication.DocRow) error {
			for i := range batch {
				d := batch[i]
				if d.EntryID == "" {
					continue
				}
				if d.Kind == render.KindSearch {
					layer[d.EntryID] = &d
				} else if _, ok := layer[d.EntryID]; !ok {
					layer[d.EntryID] = nil
				}
			}
			return nil
		})
		if err != nil {
			return 0, fmt.Errorf("search records: %w", err)
		}
		for id, d := range layer {
			rows[id] = d
		}
	}
	var list []*publication.DocRow
	for _, d := range rows {
		if d != nil {
			list = append(list, d)
		}
	}
	// Pack order reads each pack once, front to back.
	slices.SortFunc(list, func(a, b *publication.DocRow) int {
		if a.Pack != b.Pack {
			return strings.Compare(a.Pack, b.Pack)
		}
		return int(a.Offset - b.Offset)
	})
	return readRecords(pub, list, fn)
}

// readRecords reads the listed records from their packs.
func readRecords(pub string, list []*publication.DocRow, fn func(*schemas.SearchRecord) error) (int64, error) {
	packs := map[string]*os.File{}
	defer func() {
		for _, f := range packs {
			f.Close()
		}
	}()
	var total int64
	var buf, body []byte
	for _, d := range list {
		f := packs[d.Pack]
		if f == nil {
			var err error
			if f, err = os.Open(filepath.Join(pub, filepath.FromSlash(d.Pack))); err != nil {
				return 0, fmt.Errorf("search records: %w", err)
			}
			packs[d.Pack] = f
		}
		buf = slices.Grow(buf[:0], int(d.Length))[:d.Length]
		if _, err := f.ReadAt(buf, d.Offset); err != nil && err != io.EOF {
			return 0, fmt.Errorf("search records: entry %s: %w", d.EntryID, err)
		}
		if !publication.DocChecksumOK(buf, d.Checksum) {
			continue
		}
		// Packs store documents compressed (D111): the checksum is of the
		// stored bytes, the record is the decoded ones.
		var err error
		if body, err = publication.DecodeDoc(body[:0], buf, d.Encoding); err != nil {
			return 0, fmt.Errorf("search records: entry %s: %w", d.EntryID, err)
		}
		var rec schemas.SearchRecord
		if err := json.Unmarshal(body, &rec); err != nil {
			return 0, fmt.Errorf("search records: entry %s: %w", d.EntryID, err)
		}
		total += d.Length
		if err := fn(&rec); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// bleveBuild indexes the publication's search records with Bleve in dir
// and opens the index: the build time runs to the index persisted
// (closed) on disk; heap and VmRSS are measured after it is opened again,
// as a server would hold it.
func bleveBuild(pub, dir string, gaz *places.Gazetteer, now time.Time) (*blevepeer.Peer, *engineRow, int64, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, nil, 0, err
	}
	h0, r0 := memNow()
	t0 := time.Now()
	b, err := blevepeer.NewBuilder(dir, gaz, now)
	if err != nil {
		return nil, nil, 0, err
	}
	recBytes, err := searchRecords(pub, b.Add)
	if err != nil {
		b.Close()
		return nil, nil, 0, err
	}
	if _, err := b.Close(); err != nil {
		return nil, nil, 0, err
	}
	peer, err := blevepeer.Open(dir)
	if err != nil {
		return nil, nil, 0, err
	}
	row := &engineRow{name: "Bleve v2.6.3 (scorch, on disk)", buildSecs: time.Since(t0).Seconds()}
	h1, r1 := memNow()
	row.heapBytes, row.rssMB = int64(h1)-int64(h0), r1-r0
	if row.diskBytes, err = blevepeer.DiskBytes(dir); err != nil {
		peer.Close()
		return nil, nil, 0, err
	}
	row.rssBase, row.rssMixMB = r0, -1
	return peer, row, recBytes, nil
}

// runBleve runs the mix through the peer, one query at a time, after the
// same warm-up as ours. Each query is prepared by our Searcher (its
// words and place, found by the same gazetteer) inside the timing, as
// ours prepares it inside its own.
func (m *searchMix) runBleve(peer *blevepeer.Peer, s *search.Searcher, queries []benchQuery, row *engineRow) error {
	one := func(q benchQuery) (time.Duration, int, error) {
		t := time.Now()
		pq, err := s.Prepare(q.in, m.now)
		if err != nil {
			return 0, 0, err
		}
		ids, err := peer.Search(pq)
		return time.Since(t), len(ids), err
	}
	for _, q := range queries[:min(100, len(queries))] {
		if _, _, err := one(q); err != nil {
			return err
		}
	}
	for _, q := range queries {
		d, n, err := one(q)
		if err != nil {
			return fmt.Errorf("bleve: %+v: %w", q.in, err)
		}
		row.lat = append(row.lat, d)
		if n > 0 {
			row.withHits++
		}
	}
	_, r := memNow()
	row.rssMixMB = r - row.rssBase
	return nil
}

// printEngines prints the comparison of the engines (issue 18).
func printEngines(w io.Writer, rows []*engineRow) {
	fmt.Fprintln(w, "| engine | build s | on disk MB | Go heap MB | VmRSS Δ MB (build / after mix) | queries | with ≥1 hit | p50 ms | p99 ms | queries/s |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	num := func(v int64, scale float64) string {
		if v < 0 {
			return "—"
		}
		return fmt.Sprintf("%.0f", float64(v)/scale)
	}
	for _, r := range rows {
		build := "—"
		if r.buildSecs == r.buildSecs { // not NaN
			build = fmt.Sprintf("%.1f", r.buildSecs)
		}
		var total time.Duration
		for _, d := range r.lat {
			total += d
		}
		qps := 0.0
		if total > 0 {
			qps = float64(len(r.lat)) / total.Seconds()
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s / %s | %d | %d | %.2f | %.2f | %.0f |\n", r.name, build,
			num(r.diskBytes, 1e6), num(r.heapBytes, 1e6), num(r.rssMB, 1), num(r.rssMixMB, 1),
			len(r.lat), r.withHits, pct(r.lat, .5), pct(r.lat, .99), qps)
	}
}
