package pipeline

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/feeds"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// A publication (export/publication) is made here: the entries that
// changed are rendered into its own pack, the others point at the packs of
// the publication before it; then its registry-level files, its document
// index, its change feed, registry.duckdb (export.RegistryDB) and its
// exports, and a manifest; one rename of {out}/current makes it visible.

// PublishConfig is one publication's inputs.
type PublishConfig struct {
	StateDir, OutDir string
	Site             render.Site
	// Now is the publication's instant.
	Now time.Time
	Log *slog.Logger
	// Static, when set, also writes every document as a plain file tree
	// any web server or CDN can serve.
	Static string
	// Exports writes the full Parquet bulk exports (the nightly
	// publication); otherwise the previous publication's are carried over.
	Exports bool
	// Progress, when set, is called with the entries done so far (a
	// progress bar on a terminal).
	Progress func(done, total int64)
	// IndexNow receives the changed pages after the publication is
	// current; its zero value files them in {out}/indexnow/outbox.jsonl.
	IndexNow feeds.IndexNow
	// Delta publishes only the entries that changed since the current
	// publication, over it (the every-minute publication); its cost
	// follows the changed entries. Without a current publication made by
	// the same engine for the same site it publishes in full.
	Delta bool
	// UpdatesPageSize is how many changes a numbered page of the AWP
	// updates file holds; 0 is 1 000 (tests page with less).
	UpdatesPageSize int
	// SitemapLimit is how many URLs a sitemap holds before the sitemaps
	// become an index of parts; 0 is render.SitemapLimit, the protocol's
	// 50,000 (tests split with less).
	SitemapLimit int
	// ServeIndexes, when set, writes a full publication's server indexes
	// into its directory (D115: query.WriteServeFiles, wired by cmd).
	ServeIndexes func(dir string, files publication.ServeFiles) error
	// precopy is the copy of the current registry.duckdb a delta run
	// started before its compile (Run, D128); nil: the delta copies it.
	precopy *registryPrecopy
}

// PublishReport is what a publication did.
type PublishReport struct {
	ID        string  `json:"id"`
	Run       string  `json:"run"`
	Entries   int64   `json:"entries"`
	Removed   int64   `json:"removed"`
	Documents int64   `json:"documents"`
	Rendered  int64   `json:"rendered"` // entries rendered again
	Reused    int64   `json:"reused"`   // entries whose documents were copied
	Bytes     int64   `json:"bytes"`
	Seconds   float64 `json:"seconds"` // one spelling with the compile report's
	// Sitemaps says how the sitemaps were made: "kept" (a delta that
	// changed no listed entry), "merged" (a delta's, from the previous
	// ones, D121) or "made" (from every listed entry).
	Sitemaps string `json:"sitemaps,omitempty"`
	// Steps are the seconds each step took (steps.go), for operators.
	Steps map[string]float64 `json:"steps,omitempty"`
}

// Publish renders the state's current entries into a new publication and
// makes it current. Entries whose revision the previous publication holds,
// rendered by the same engine for the same site, are copied from it.
func Publish(ctx context.Context, cfg PublishConfig) (*PublishReport, error) {
	started := time.Now()
	now, log, st, err := begin("publish", cfg.Now, cfg.Log, cfg.StateDir)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var run string
	if err := st.db.QueryRowContext(ctx, `SELECT coalesce(max_by(run_id, finished_at), '') FROM runs`).Scan(&run); err != nil {
		return nil, err
	}
	if run == "" {
		return nil, errors.New("publish: the state has no compiled run")
	}
	id := compile.DeterministicID(schemas.IDPrefix("pub"), now, run)
	pubs := filepath.Join(cfg.OutDir, publication.PublicationsDir)
	// A publication that died before its rename left a .tmp directory:
	// nothing points at it.
	if stale, _ := filepath.Glob(filepath.Join(pubs, "*.tmp")); len(stale) > 0 {
		for _, d := range stale {
			os.RemoveAll(d)
		}
	}
	if cfg.precopy == nil {
		removeStalePrecopy(cfg.OutDir)
	}
	defer cfg.precopy.discard()
	dir := filepath.Join(pubs, id)
	tmp := dir + ".tmp"
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	p := &publisher{cfg: cfg, st: st, now: now, rep: &PublishReport{ID: id, Run: run}, log: log,
		renderKey: cfg.Site.Key(), packs: map[string]bool{}, steps: newSteps(), sitemapDrop: map[string]bool{}}
	if err := p.openPrevious(); err != nil {
		log.Warn("previous publication unreadable; publishing in full", "err", err)
		p.sameRender, p.prevManifest = false, nil
	}
	p.delta = cfg.Delta && p.sameRender
	p.startRouting()
	src := entrySource{st: st}
	p.steps.mark("previous")
	switch {
	case p.delta:
		// The previous registry database is copied while the changed
		// entries are found (openRegistryDB waits for it).
		p.registryCopied = make(chan error, 1)
		go func() {
			p.registryCopied <- cfg.precopy.take(filepath.Join(p.prevDir, publication.RegistryFile), filepath.Join(tmp, publication.RegistryFile))
		}()
		defer p.waitRegistryCopy()
		if src.changed, err = st.LoadChanged(ctx, p.prevManifest.Run); err != nil {
			return nil, err
		}
		p.steps.mark("changed")
	case p.sameRender:
		// A full publication over one made by the same engine for the
		// same site points at its documents of the entries it holds at
		// their current revision.
		if src.reuse, err = st.openReuse(ctx, p.prevDir, p.prevManifest.Index); err != nil {
			return nil, err
		}
		defer src.reuse.close()
	}
	if cfg.Exports && !p.delta && src.reuse == nil {
		// Every live entry is rendered: the exports are written from the
		// views rendered for the documents, as the entries are appended,
		// instead of reading and rendering every entry again after (D133).
		if p.exporter, err = export.New(filepath.Join(tmp, publication.ExportsDir)); err != nil {
			return nil, err
		}
		defer p.exporter.Abort()
	}
	if err := p.write(ctx, tmp, src); err != nil {
		return nil, err
	}
	p.steps.mark("registry")
	if err := p.exports(ctx, tmp, src); err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	p.steps.mark("exports")
	if err := p.serveIndexes(tmp, src); err != nil {
		return nil, fmt.Errorf("server indexes: %w", err)
	}
	p.steps.mark("server indexes")
	if err := p.manifest(tmp); err != nil {
		return nil, err
	}
	if err := publication.SyncTree(tmp); err != nil {
		return nil, err
	}
	p.steps.mark("manifest and sync")
	if err := p.writeRouting(); err != nil {
		return nil, err
	}
	defer func() {
		if !ok {
			os.Remove(publication.RoutingPath(cfg.OutDir, id))
		}
	}()
	if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	if err := publication.Swap(cfg.OutDir, filepath.Join(publication.PublicationsDir, id)); err != nil {
		return nil, err
	}
	ok = true
	p.notify(ctx)
	if cfg.Static != "" {
		if err := publication.WriteStatic(dir, cfg.Static); err != nil {
			return nil, fmt.Errorf("static tree: %w", err)
		}
	}
	p.steps.mark("swap and static")
	p.rep.Seconds, p.rep.Steps = time.Since(started).Seconds(), p.steps.seconds
	log.Info("published", "id", id, "run", run, "entries", p.rep.Entries, "documents", p.rep.Documents,
		"rendered", p.rep.Rendered, "reused", p.rep.Reused, "bytes", p.rep.Bytes, "seconds", p.rep.Seconds)
	return p.rep, nil
}

type publisher struct {
	cfg       PublishConfig
	st        *State
	now       time.Time
	rep       *PublishReport
	log       *slog.Logger
	renderKey string
	delta     bool
	// the current publication, before this one
	prevDir      string
	prevManifest *publication.Manifest
	prevFeed     int64
	sameRender   bool // made by this engine for this site
	serve        *publication.ServeFiles
	steps        *steps
	pack         *os.File // this publication's own pack
	packOut      *bufio.Writer
	packSum      hash.Hash // of the bytes written to pack
	offset       int64
	packs        map[string]bool // packs the index points into
	// index is this publication's document index, written as the rows
	// come (issue 18), and site its registry-level rows (in the manifest).
	index *publication.DocIndexWriter
	site  []publication.DocRow
	// The states of the entries rendered or removed go to the registry
	// database's feed_states (issue 18); feedCount is how many changes
	// the feed numbered from them, and notifyURLs the pages IndexNow is
	// told of (at most indexNowMax).
	feedCount  int64
	notifyURLs []string
	feedDir    string // this publication's feed, whole
	// listedRendered: a listed entry the sitemaps show was rendered, so
	// its new revision is a new lastmod (HTTP-29) and a new token figure
	// in the content structure.
	listedRendered bool
	// listingChanged: an entry came, went, or changed its slug or listing,
	// so a delta makes the sitemaps and the content structure again.
	listingChanged bool
	// sitemapDrop are a delta's slugs whose sitemap lines are made again:
	// the entries it rendered or removed, under their slugs before and now.
	sitemapDrop map[string]bool
	listed      int // listed entries of the publication
	// routes are where the requests of the publication's entries go, and
	// prevRoutes the current publication's (routing.go, issue 15).
	routes, prevRoutes map[string]map[string]string
	// registryCopied gives the result of a delta's copy of the previous
	// registry database, made while the changed entries are found.
	registryCopied chan error
	// exporter writes the exports as the entries are appended, when every
	// live entry is rendered (D133); nil: the exports step reads them.
	exporter *export.Exporter
}

// openPrevious reads the current publication's manifest and whether it
// was made by the same engine for the same site (sameRender): then a delta
// goes over it, and a full publication points at its documents of the
// unchanged entries (openReuse) instead of rendering them.
func (p *publisher) openPrevious() error {
	dir, err := publication.Current(p.cfg.OutDir)
	if err != nil {
		return nil // none yet
	}
	m, err := publication.ReadManifest(dir)
	if err != nil {
		return err
	}
	// The feed goes on from the current publication whatever it was
	// rendered with.
	p.prevDir, p.prevManifest, p.prevFeed = dir, m, m.FeedLast
	p.sameRender = m.Engine == render.EngineVersion && m.BaseURL == p.cfg.Site.BaseURL && len(m.Index) > 0
	if p.sameRender {
		p.sameRender = p.readPreviousRouting(m.ID)
	}
	return nil
}

// rendered are one entry's documents, ready to append to the pack.
type rendered struct {
	e      *schemas.Entry
	tables export.Rows // its rows in the registry's tables
	row    *EntryRow
	routes map[string]string    // where its actions' requests go
	docs   []publication.DocRow // offsets relative to the entry's first byte
	bodies [][]byte
	reused bool
	// export are its rows in the exports, when they are written as the
	// entries are appended (publisher.exporter), or why it has none.
	export    *export.Rows
	exportErr error
}

// write renders the entries that changed into the publication's own pack
// and points at the earlier packs for the others; then the registry-level
// files, the document index, the feed and registry.duckdb.
func (p *publisher) write(ctx context.Context, dir string, src entrySource) error {
	for _, sub := range []string{publication.PacksDir, publication.IndexesDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	var err error
	if p.pack, err = os.Create(filepath.Join(dir, filepath.FromSlash(publication.OwnPack(p.rep.ID)))); err != nil {
		return err
	}
	defer p.pack.Close()
	// Documents are a few hundred bytes each: written through a buffer,
	// not a system call each (issue 18).
	// The pack is hashed for the manifest as it is written, not read
	// back after (D133).
	p.packSum = sha256.New()
	p.packOut = bufio.NewWriterSize(io.MultiWriter(p.pack, p.packSum), 1<<20)
	if p.index, err = publication.NewDocIndexWriter(filepath.Join(dir, filepath.FromSlash(publication.OwnIndex(p.rep.ID)))); err != nil {
		return err
	}
	defer p.index.Abort()
	removed, err := src.removed(ctx)
	if err != nil {
		return err
	}
	p.steps.mark("removed")
	db, err := p.openRegistryDB(dir, src.changed)
	if err != nil {
		return err
	}
	defer db.Close()
	p.steps.mark("open")
	if err := p.entries(ctx, src, db); err != nil {
		return err
	}
	if err := p.removedEntries(removed, db); err != nil {
		return err
	}
	if src.reuse != nil {
		if err := db.CopyReused(filepath.Join(p.prevDir, publication.RegistryFile)); err != nil {
			return err
		}
	}
	p.steps.mark("entries")
	if err := p.writeFeed(ctx, dir, db); err != nil {
		return fmt.Errorf("change feed: %w", err)
	}
	p.steps.mark("feed")
	if err := db.Flush(); err != nil {
		return err
	}
	// The counts are the publication's, not only this run's (a delta
	// renders a few entries of many).
	if p.rep.Entries, p.rep.Removed, p.listed, err = db.Counts(ctx); err != nil {
		return err
	}
	p.steps.mark("counts")
	if err := p.oldSlugs(ctx, src.changed, db); err != nil {
		return err
	}
	p.steps.mark("old slugs")
	if err := p.siteFiles(db); err != nil {
		return err
	}
	p.steps.mark("site files")
	if err := p.packOut.Flush(); err != nil {
		return err
	}
	if err := p.pack.Sync(); err != nil {
		return err
	}
	p.packs[publication.OwnPack(p.rep.ID)] = true
	if err := p.index.Write(p.site...); err != nil {
		return err
	}
	if err := p.index.Commit(); err != nil {
		return err
	}
	if err := p.linkPrevious(dir); err != nil {
		return err
	}
	return db.Finish()
}

// openRegistryDB starts the publication's registry.duckdb: new for a full
// publication, a copy of the previous one without the changed entries for
// a delta.
func (p *publisher) openRegistryDB(dir string, changed map[string]*EntryRow) (*export.RegistryDB, error) {
	path := filepath.Join(dir, publication.RegistryFile)
	if !p.delta {
		return export.NewRegistryDB(path)
	}
	ids := make([]string, 0, len(changed))
	for _, r := range changed {
		ids = append(ids, r.EntryID)
	}
	sort.Strings(ids)
	if err := p.waitRegistryCopy(); err != nil {
		return nil, err
	}
	return export.OpenRegistryCopy(path, ids)
}

// waitRegistryCopy waits for a delta's copy of the previous registry
// database, once: its error, or nil on any later call.
func (p *publisher) waitRegistryCopy() error {
	if p.registryCopied == nil {
		return nil
	}
	err := <-p.registryCopied
	p.registryCopied = nil
	return err
}

// entries renders the live entries in chunks, in the order their
// revisions are stored (each page of the revision files is read once), on
// every core, and appends them in that order.
func (p *publisher) entries(ctx context.Context, src entrySource, db *export.RegistryDB) error {
	total, err := src.countLive(ctx)
	if err != nil {
		return err
	}
	progress := func() {
		if p.cfg.Progress != nil {
			p.cfg.Progress(p.rep.Rendered+p.rep.Reused, total)
		}
	}
	toRender := src.live
	if src.reuse != nil {
		// The entries the previous publication holds at the same revision
		// keep their documents; only the others are read and rendered.
		err := src.reuse.docs(ctx, func(docs []publication.DocRow) error {
			r := rendered{row: &EntryRow{EntryID: docs[0].EntryID}, reused: true, docs: docs}
			if err := p.append(&r, db); err != nil {
				return err
			}
			if p.rep.Reused%publishChunk == 0 {
				progress()
			}
			return nil
		})
		if err != nil {
			return err
		}
		toRender = func(ctx context.Context, fn func([]*EntryRow) error) error {
			return src.reuse.liveToRender(ctx, src.st, fn)
		}
	}
	// Rendering allocates much and keeps little: what is live is the
	// chunks in flight (publishChunk entries each, about 50 MB in all), so
	// the collector may let the heap grow to five times that before it
	// runs. At the default it ran every 0.1 s and took a fifth of the
	// step (issue 18, D119). The exports after hold more, at the default.
	// When the exports are written here (D133) their writers' columns are
	// live too: the heap may grow to four times what is live, not five,
	// which keeps the publication within its memory budget
	// (TestPublish_PeakMemoryWithinBudget, 200,000 entries: 0.96 GB at
	// 300; at 400, 1.0 GB with pages of 64 KiB, export.exportPageBytes,
	// and 1.5 GB with 256 KiB). Where the live heap is large (millions of
	// entries) renderHeapLimit caps it either way.
	gcPercent := 400
	if p.exporter != nil {
		gcPercent = 300
	}
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	// What does grow with the registry (the routes of entries that take
	// requests) must not be multiplied by five: the heap is held to
	// renderHeapLimit, or to a lower limit the operator set.
	if limit := debug.SetMemoryLimit(-1); limit > renderHeapLimit {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(renderHeapLimit))
	}
	// Reading and rendering a chunk (on every core) overlaps appending
	// the chunk before it to the pack and the registry database (one
	// goroutine): the append alone kept a core idle.
	return overlapped(ctx, toRender, func(part []*EntryRow) ([]rendered, error) {
		entries, err := p.st.Revisions(part)
		if err != nil {
			return nil, err
		}
		for _, r := range part {
			if entries[r.EntryID] == nil {
				return nil, fmt.Errorf("the state has no revision %d of %s", r.Revision, r.EntryID)
			}
		}
		out := make([]rendered, len(part))
		parallelFor(len(part), func(i int) { out[i] = p.render(entries[part[i].EntryID], part[i]) })
		return out, nil
	}, func(out []rendered) error {
		for i := range out {
			if err := p.append(&out[i], db); err != nil {
				return err
			}
		}
		progress()
		return nil
	})
}

// renderHeapLimit caps the Go heap while entries are rendered (D119).
const renderHeapLimit = 1536 << 20

// overlapped runs produce over the chunks scan gives on one goroutine and
// use over what it made on the caller's, one chunk behind, so the two
// overlap; the first error of either stops both.
func overlapped[T any](ctx context.Context, scan func(context.Context, func([]*EntryRow) error) error,
	produce func([]*EntryRow) (T, error), use func(T) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	made := make(chan T, 1)
	scanErr := make(chan error, 1)
	go func() {
		defer close(made)
		scanErr <- scan(ctx, func(part []*EntryRow) error {
			v, err := produce(part)
			if err != nil {
				return err
			}
			select {
			case made <- v:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var useErr error
	for v := range made {
		if useErr == nil {
			if useErr = use(v); useErr != nil {
				cancel() // the scan stops at its next chunk; made is drained
			}
		}
	}
	if err := <-scanErr; useErr == nil && err != nil {
		return err
	}
	return useErr
}

// removedEntries keeps the removed entries in the registry (410 Gone), a
// tombstone in a delta's index, and their removal in the feed.
func (p *publisher) removedEntries(removed []*EntryRow, db *export.RegistryDB) error {
	sort.Slice(removed, func(i, j int) bool { return removed[i].EntryID < removed[j].EntryID })
	for _, r := range removed {
		if err := db.Removed(export.Removed{EntryID: r.EntryID, Slug: r.Slug, Revision: int32(r.Revision), UpdatedAt: r.UpdatedAt,
			RemovedAt: r.RemovedAt, Reason: r.RemovedReason}); err != nil {
			return err
		}
		if p.delta {
			if err := p.addDocs(publication.DocRow{EntryID: r.EntryID, Slug: r.Slug, Kind: publication.KindRemoved, Revision: int32(r.Revision), LastModified: r.RemovedAt}); err != nil {
				return err
			}
		}
		p.rep.Removed++
		p.route(r.EntryID, nil)
		if err := db.FeedState(feeds.State{EntryID: r.EntryID, Slug: r.Slug, Status: "removed", Revision: int32(r.Revision), Cause: r.Cause}); err != nil {
			return err
		}
	}
	return nil
}

// oldSlugs writes the table of slugs entries had before (the server
// redirects them, D47): every one, from the state's identity map; a delta
// whose copy has the table, only those of the entries it changed or
// removed (issue 18: not every identity again).
func (p *publisher) oldSlugs(ctx context.Context, changed map[string]*EntryRow, db *export.RegistryDB) error {
	var only []string
	if p.delta && db.OldSlugsCopied() {
		only = make([]string, 0, len(changed))
		for _, r := range changed {
			only = append(only, r.EntryID)
		}
		sort.Strings(only)
	}
	slugs, err := p.st.OldSlugs(ctx, only)
	if err != nil {
		return fmt.Errorf("old slugs: %w", err)
	}
	return db.OldSlugs(ctx, slugs, only)
}

// addDocs writes an entry's rows to the publication's document index
// (the registry-level rows, p.site, go after every entry's).
func (p *publisher) addDocs(rows ...publication.DocRow) error {
	return p.index.Write(rows...)
}

// render makes one entry's documents (D59, render.Documents: the table of
// formats decides which an entry has) and its rows in the registry's
// tables.
func (p *publisher) render(e *schemas.Entry, row *EntryRow) rendered {
	s := p.cfg.Site
	out := rendered{e: e, row: row}
	modified := schemas.ParseTime(e.Record.UpdatedAt)
	var off int64
	docs, views := render.Documents(e, s)
	for _, d := range docs {
		// Issue 18: the pack stores each document compressed on its own
		// (read by offset and length, served as stored to a client that
		// accepts the encoding); the checksum is of the stored bytes, which
		// are what a reader checks before it decodes them.
		// The kinds never served as stored, with their dictionaries
		// (D120, D130).
		stored, enc := publication.EncodeDocOf(d.Kind, nil, d.Body)
		out.docs = append(out.docs, publication.DocRow{EntryID: e.ID, Slug: e.Slug, Kind: d.Kind, Lang: d.Lang, Path: d.Path, Offset: off, Length: int64(len(stored)),
			MediaType: d.MediaType, ETag: publication.DocETag(e.ID, e.Record.Revision, d.Kind, d.Lang, p.renderKey), LastModified: modified,
			Revision: int32(e.Record.Revision), NextChangeAt: row.NextChangeAt, Checksum: publication.DocChecksum(stored),
			Encoding: enc, IdentityLength: int64(len(d.Body))})
		out.bodies = append(out.bodies, stored)
		off += int64(len(stored))
	}
	out.routes = e.DeliveryAddresses()
	pageURL, mdURL := render.HTMLPageURL(s, e, e.DefaultLanguage), render.MarkdownURL(s, e, e.DefaultLanguage)
	out.tables = export.RowsOf(&views[0], pageURL, mdURL)
	if p.exporter != nil {
		out.export, out.exportErr = export.Prepare(views, pageURL, mdURL)
	}
	return out
}

// append writes an entry's documents to the pack (or, for an unchanged
// entry, keeps pointing at the earlier pack) and its row to the registry
// database.
func (p *publisher) append(r *rendered, db *export.RegistryDB) error {
	p.rep.Documents += int64(len(r.docs))
	p.rep.Entries++
	if r.reused {
		for _, d := range r.docs {
			p.packs[d.Pack] = true
		}
		if err := p.addDocs(r.docs...); err != nil {
			return err
		}
		p.rep.Reused++
		p.route(r.row.EntryID, p.prevRoutes[r.row.EntryID])
		return db.Reused(r.row.EntryID)
	}
	p.route(r.e.ID, r.routes)
	base := p.offset
	pub := export.Published{Languages: render.Languages(r.e), NextChangeAt: r.row.NextChangeAt}
	for i, body := range r.bodies {
		if _, err := p.packOut.Write(body); err != nil {
			return err
		}
		d := &r.docs[i]
		d.Offset += base
		d.Pack = publication.OwnPack(p.rep.ID)
		p.offset += int64(len(body))
		if d.Kind == render.KindMarkdown && d.Lang == r.e.DefaultLanguage {
			pub.ETag, pub.MarkdownBytes = d.ETag, d.DecodedLength()
		}
	}
	if err := p.addDocs(r.docs...); err != nil {
		return err
	}
	if err := db.FeedState(feeds.State{EntryID: r.e.ID, Slug: r.e.Slug, Status: string(r.e.Status), Listed: r.e.Listed,
		Revision: int32(r.e.Record.Revision), Cause: r.row.Cause}); err != nil {
		return err
	}
	if r.e.Listed && r.e.Status != schemas.StatusSuspended {
		p.listedRendered = true
	}
	p.rep.Rendered++
	if p.exporter != nil {
		if r.exportErr != nil {
			return fmt.Errorf("exports: %w", r.exportErr)
		}
		if err := p.exporter.AddRows(r.export); err != nil {
			return fmt.Errorf("exports: %w", err)
		}
	}
	return db.Entry(r.e, pub, &r.tables)
}

// manifest writes manifest.json with every file's SHA-256. The files
// linked from the previous publication keep the checksums its manifest
// recorded (they are the same immutable files); the rest are hashed.
func (p *publisher) manifest(dir string) error {
	m := publication.Manifest{SpecVersion: schemas.SchemaVersion, Format: publication.FormatVersion, Engine: render.EngineVersion, ID: p.rep.ID, Run: p.rep.Run, CreatedAt: schemas.FormatTime(p.now),
		BaseURL: p.cfg.Site.BaseURL, Files: map[string]string{}, Delta: p.delta,
		Counts:   map[string]int64{"entries": p.rep.Entries, "removed": p.rep.Removed, "documents": p.rep.Documents, "changes": p.feedCount},
		FeedLast: p.prevFeed + p.feedCount}
	if p.delta {
		m.Index = append(m.Index, p.prevManifest.Index...)
	}
	m.Site = p.site
	m.Index = append(m.Index, publication.OwnIndex(p.rep.ID))
	m.Serve = p.serve
	for pk := range p.packs {
		m.Packs = append(m.Packs, pk)
	}
	sort.Strings(m.Packs)
	var known map[string]string
	if p.prevManifest != nil {
		known = p.prevManifest.Files
	}
	sums := map[string]string{publication.OwnPack(p.rep.ID): hex.EncodeToString(p.packSum.Sum(nil))}
	return publication.WriteManifestSums(dir, &m, p.prevDir, known, sums, publication.RegistryFile, publication.OwnPack(p.rep.ID), publication.OwnIndex(p.rep.ID))
}
