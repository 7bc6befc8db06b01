package bench

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/render"
	_ "github.com/duckdb/duckdb-go/v2" // the publication's registry.duckdb
)

// serveSetup is what the loads run on: two publications and the static
// tree, with the figures of their making. It is kept in the work
// directory (bench-serve.json) for --reuse.
type serveSetup struct {
	Entries              int
	Seed                 int64
	Slugs, Changed       int
	RepA, RepB           pipeline.PublishReport
	PubA, PubB           string
	Compile, Full, Delta stepFigures
	Tree                 *staticTree
	Made                 time.Time
}

type stepFigures struct {
	Wall float64 // seconds
	RSS  int64   // peak, MB
}

const serveSetupFile = "bench-serve.json"

func loadServeSetup(work string) (*serveSetup, error) {
	b, err := os.ReadFile(filepath.Join(work, serveSetupFile))
	if err != nil {
		return nil, fmt.Errorf("--reuse: %w", err)
	}
	var su serveSetup
	if err := json.Unmarshal(b, &su); err != nil {
		return nil, fmt.Errorf("--reuse: %s: %w", serveSetupFile, err)
	}
	for _, d := range []string{su.PubA, su.PubB, su.Tree.Root} {
		if _, err := os.Stat(d); err != nil {
			return nil, fmt.Errorf("--reuse: %w", err)
		}
	}
	return &su, nil
}

// setup generates and compiles the companies, publishes them in full (A)
// and then a delta with changed entries changed (B), and writes the
// static tree of A.
func (b *serveBench) setup(entries int, seed int64, nslugs, changed int) (*serveSetup, error) {
	work := b.work
	os.Remove(filepath.Join(work, serveSetupFile))
	data, state, out := filepath.Join(work, "data"), filepath.Join(work, "state"), filepath.Join(work, "out")
	for _, d := range []string{state, out, filepath.Join(work, "counts"), filepath.Join(work, "reports"), filepath.Join(work, "static"), filepath.Join(work, "nginx")} {
		os.RemoveAll(d)
	}
	su := &serveSetup{Entries: entries, Seed: seed, Slugs: nslugs, Changed: changed}
	t0 := time.Now()
	exe, registers, err := generate(data, entries, seed)
	if err != nil {
		return nil, err
	}
	b.logf("generated %d companies in %.1f s", entries, time.Since(t0).Seconds())
	base := time.Now().UTC().Truncate(time.Second)
	at := func(d time.Duration) string { return base.Add(d).Format(time.RFC3339) }
	comp, err := runChild(exe, append([]string{"compile", "--state", state, "--now", at(-4 * time.Hour)}, registers...)...)
	if err != nil {
		return nil, err
	}
	su.Compile = stepFigures{comp.wall, comp.rss}
	b.logf("compiled in %.1f s (peak RSS %d MB)", comp.wall, comp.rss)
	full, err := runChild(exe, "publish", "--json", "--state", state, "--out", out, "--now", at(-3*time.Hour))
	if err != nil {
		return nil, err
	}
	su.Full = stepFigures{full.wall, full.rss}
	if err := json.Unmarshal(full.out, &su.RepA); err != nil {
		return nil, err
	}
	if su.PubA, err = publication.Current(out); err != nil {
		return nil, err
	}
	b.logf("publication A %s: %d entries, %d documents, %.1f GB in %.1f s (peak RSS %d MB)",
		su.RepA.ID, su.RepA.Entries, su.RepA.Documents, float64(su.RepA.Bytes)/1e9, full.wall, full.rss)
	events := filepath.Join(work, "events.jsonl")
	if err := pipeline.ReportEvents(state, events, changed, base.Add(-2*time.Hour)); err != nil {
		return nil, err
	}
	if _, err := runChild(exe, "compile", "--state", state, "--verification", events, "--now", at(-90*time.Minute)); err != nil {
		return nil, err
	}
	delta, err := runChild(exe, "publish", "--json", "--state", state, "--out", out, "--delta", "--now", at(-time.Hour))
	if err != nil {
		return nil, err
	}
	su.Delta = stepFigures{delta.wall, delta.rss}
	if err := json.Unmarshal(delta.out, &su.RepB); err != nil {
		return nil, err
	}
	if su.PubB, err = publication.Current(out); err != nil {
		return nil, err
	}
	if su.PubB == su.PubA {
		return nil, errors.New("the delta publication did not make a new publication")
	}
	b.logf("publication B %s: %d rendered, %d documents written in %.1f s (peak RSS %d MB)",
		su.RepB.ID, su.RepB.Rendered, su.RepB.Documents, delta.wall, delta.rss)
	if su.Tree, err = writeStaticTree(su.PubA, filepath.Join(work, "static"), nslugs, seed); err != nil {
		return nil, err
	}
	b.logf("static tree: %d documents, %.1f MB; the snapshot index of A holds %d documents, %.0f MB of Go heap in this process (opened in %.1f s)",
		len(su.Tree.Paths), float64(su.Tree.Bytes)/1e6, su.Tree.Docs, float64(su.Tree.Heap)/1e6, su.Tree.Open.Seconds())
	su.Made = time.Now().UTC()
	j, _ := json.Marshal(su)
	return su, os.WriteFile(filepath.Join(work, serveSetupFile), j, 0o644)
}

// pointCurrent points {out}/current at a publication directory, with one
// rename of a new symlink over the old one, as a publication does.
func pointCurrent(out, pub string) error {
	rel, err := filepath.Rel(out, pub)
	if err != nil {
		return err
	}
	tmp := filepath.Join(out, "current.bench")
	os.Remove(tmp)
	if err := os.Symlink(rel, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(out, "current"))
}

// staticTree is what the load reads: the chosen paths (in the order the
// load walks them) and the bytes of each.
type staticTree struct {
	Root     string
	Paths    []string
	Bytes    int64
	Docs     int           // documents in the publication
	Heap     uint64        // Go heap of the opened snapshot
	Open     time.Duration // time to open the snapshot
	StandIns int           // chosen documents past their nextChangeAt
}

// writeStaticTree chooses n slugs of the publication's entries (a
// seeded sample over all of them) and writes each one's default-language
// markdown, byte for byte as the publication serves it, to
// {root}/{slug}.md.
func writeStaticTree(pub, root string, n int, seed int64) (*staticTree, error) {
	slugs, err := publishedSlugs(pub)
	if err != nil {
		return nil, err
	}
	if len(slugs) == 0 {
		return nil, errors.New("the publication has no entries")
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5e7e))
	n = min(n, len(slugs))
	for i := 0; i < n; i++ { // the first n of a seeded shuffle
		j := i + rng.IntN(len(slugs)-i)
		slugs[i], slugs[j] = slugs[j], slugs[i]
	}
	slugs = slugs[:n]
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	sn, err := query.OpenSnapshot(pub)
	if err != nil {
		return nil, err
	}
	t := &staticTree{Root: root, Open: time.Since(start), Docs: sn.Len()}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if m1.HeapAlloc > m0.HeapAlloc {
		t.Heap = m1.HeapAlloc - m0.HeapAlloc
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	now := time.Now()
	for _, s := range slugs {
		p := "/" + s + ".md"
		if strings.ContainsAny(s, "/%?#. \t\n") {
			return nil, fmt.Errorf("slug %q is not a plain path segment", s)
		}
		d, ok := sn.Doc(p)
		if !ok || d.Kind != render.KindMarkdown {
			return nil, fmt.Errorf("publication %s serves no markdown at %s", pub, p)
		}
		body, err := sn.Bytes(d)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(root, s+".md"), body, 0o644); err != nil {
			return nil, err
		}
		if !d.NextChangeAt.IsZero() && !now.Before(d.NextChangeAt) {
			t.StandIns++
		}
		t.Paths = append(t.Paths, p)
		t.Bytes += int64(len(body))
	}
	sn = nil
	debug.FreeOSMemory()
	return t, nil
}

// publishedSlugs lists the slugs of a publication's entries from its
// registry.duckdb, in slug order.
func publishedSlugs(pub string) ([]string, error) {
	db, err := sql.Open("duckdb", filepath.Join(pub, "registry.duckdb")+"?access_mode=read_only")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rs, err := db.Query(`SELECT slug FROM entries WHERE status <> 'removed' ORDER BY slug`)
	if err != nil {
		return nil, fmt.Errorf("registry.duckdb: %w", err)
	}
	defer rs.Close()
	var slugs []string
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			return nil, err
		}
		slugs = append(slugs, s)
	}
	return slugs, rs.Err()
}
