package pipeline

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"github.com/daawid/registry/export"
	"github.com/daawid/registry/feeds"
	"github.com/daawid/registry/schemas/snapshotio"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/duckdb/duckdb-go/v2"
	"github.com/parquet-go/parquet-go"
)

// A publication is a directory under {out}/publications/{id}/ (D59):
//
//	manifest.json          spec version, run, created at, counts, the index
//	                       chain and the packs, SHA-256 of every file
//	registry.duckdb        the tables the server queries, with comments
//	packs/{pubId}.pack     documents' bytes, one after the other: its own
//	                       pack (what it rendered) and hard links to the
//	                       packs of earlier publications it still uses
//	index/{pubId}.parquet  document indexes: entry, kind, language, path,
//	                       pack, offset, length, media type, ETag,
//	                       Last-Modified; a full index, or a full index and
//	                       the deltas after it (a later file replaces all
//	                       the documents of an entry it names)
//	feed/, exports/        the change feed and the bulk exports
//
// made visible by one atomic rename of the {out}/current symlink.
const (
	publicationsDir = "publications"
	currentLink     = "current"
	manifestFile    = "manifest.json"
	registryFile    = "registry.duckdb"
	packsDir        = "packs"
	indexesDir      = "index"
)

// ownPack and ownIndex are a publication's own pack and document index
// (relative to its directory).
func ownPack(id string) string  { return packsDir + "/" + id + ".pack" }
func ownIndex(id string) string { return indexesDir + "/" + id + ".parquet" }

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
}

// PublishReport is what a publication did.
type PublishReport struct {
	ID        string `json:"id"`
	Run       string `json:"run"`
	Entries   int64  `json:"entries"`
	Removed   int64  `json:"removed"`
	Documents int64  `json:"documents"`
	Rendered  int64  `json:"rendered"` // entries rendered again
	Reused    int64  `json:"reused"`   // entries whose documents were copied
	Bytes     int64  `json:"bytes"`
	Seconds   float64
}

// Manifest and DocRow are the snapshot format, shared with the serving
// side (schemas/snapshot.go).
type (
	Manifest = schemas.Manifest
	DocRow   = schemas.DocRow
)

// Document kinds in the pack.
const (
	KindMarkdown  = schemas.DocMarkdown
	KindOfferings = schemas.DocOfferings
	KindJSONLD    = schemas.DocJSONLD
	KindHTML      = schemas.DocHTML
	KindLegal     = schemas.DocLegal
	KindView      = schemas.DocView
	KindSite      = schemas.DocSite
	KindRemoved   = schemas.DocRemoved
)

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
	pubs := filepath.Join(cfg.OutDir, publicationsDir)
	// A publication that died before its rename left a .tmp directory:
	// nothing points at it.
	if stale, _ := filepath.Glob(filepath.Join(pubs, "*.tmp")); len(stale) > 0 {
		for _, d := range stale {
			os.RemoveAll(d)
		}
	}
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
		renderKey: cfg.Site.Key(), packs: map[string]bool{}}
	if err := p.openPrevious(cfg.Delta); err != nil {
		log.Warn("previous publication unreadable; publishing in full", "err", err)
		p.prev, p.sameRender, p.prevManifest = nil, false, nil
	}
	p.delta = cfg.Delta && p.sameRender
	var rows map[string]*EntryRow
	if p.delta {
		rows, err = st.LoadChanged(ctx, filepath.Join(p.prevDir, registryFile), p.prevManifest.Run)
	} else {
		_, rows, err = st.Load()
	}
	if err != nil {
		return nil, err
	}
	if err := p.write(ctx, tmp, rows); err != nil {
		return nil, err
	}
	if err := p.exports(ctx, tmp, rows); err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	if err := p.manifest(tmp); err != nil {
		return nil, err
	}
	if err := syncDir(tmp); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	if err := swapCurrent(cfg.OutDir, filepath.Join(publicationsDir, id)); err != nil {
		return nil, err
	}
	ok = true
	p.notify(ctx)
	if cfg.Static != "" {
		if err := WriteStatic(dir, cfg.Static); err != nil {
			return nil, fmt.Errorf("static tree: %w", err)
		}
	}
	p.rep.Seconds = time.Since(started).Seconds()
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
	prevManifest *Manifest
	prevFeed     int64
	sameRender   bool                // made by this engine for this site
	prev         map[string][]DocRow // its documents by entry (full publications)
	prevRev      map[string]int32
	pack         *os.File // this publication's own pack
	offset       int64
	packs        map[string]bool // packs the index points into
	docs         []DocRow
	// changed are the states of the entries rendered or removed, for the
	// change feed.
	changed []feeds.State
	feed    []feeds.Change
	// listingChanged: an entry came, went, or changed its slug or listing,
	// so a delta makes the sitemaps and the content structure again.
	listingChanged bool
	listed         int // listed entries of the publication
}

// openPrevious reads the current publication's manifest and, for a full
// publication made by the same engine for the same site, its documents by
// entry, so unchanged entries point at them instead of being rendered.
func (p *publisher) openPrevious(delta bool) error {
	dir, err := CurrentPublication(p.cfg.OutDir)
	if err != nil {
		return nil // none yet
	}
	m, err := readManifest(dir)
	if err != nil {
		return err
	}
	// The feed goes on from the current publication whatever it was
	// rendered with.
	p.prevDir, p.prevManifest, p.prevFeed = dir, m, m.FeedLast
	p.sameRender = m.Engine == render.EngineVersion && m.BaseURL == p.cfg.Site.BaseURL && len(m.Index) > 0
	if !p.sameRender || delta {
		return nil
	}
	docs, err := ReadDocs(dir)
	if err != nil {
		return err
	}
	p.prev, p.prevRev = map[string][]DocRow{}, map[string]int32{}
	for _, d := range docs {
		if d.Kind == KindSite {
			continue
		}
		p.prev[d.EntryID] = append(p.prev[d.EntryID], d)
		p.prevRev[d.EntryID] = d.Revision
	}
	return nil
}

func readManifest(dir string) (*Manifest, error) { return snapshotio.ReadManifest(dir) }

// ReadDocs reads a publication's documents through its index chain: a
// later index replaces every document of an entry it names (a removed
// entry's tombstone leaves none), and the last index's registry-level
// files replace the earlier ones. Entries are in entry ID order, each with
// its documents in the order written; then the registry-level files.
func ReadDocs(pub string) ([]DocRow, error) {
	m, err := readManifest(pub)
	if err != nil {
		return nil, err
	}
	return snapshotio.ReadDocs(pub, m)
}

// rendered are one entry's documents, ready to append to the pack.
type rendered struct {
	e      *schemas.Entry
	tables export.Rows // its rows in the registry's tables
	row    *EntryRow
	docs   []DocRow // offsets relative to the entry's first byte
	bodies [][]byte
	reused bool
}

// write renders the entries that changed into the publication's own pack
// and points at the earlier packs for the others; then the registry-level
// files, the document index, the feed and registry.duckdb.
func (p *publisher) write(ctx context.Context, dir string, rows map[string]*EntryRow) error {
	for _, sub := range []string{packsDir, indexesDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	var err error
	if p.pack, err = os.Create(filepath.Join(dir, filepath.FromSlash(ownPack(p.rep.ID)))); err != nil {
		return err
	}
	defer p.pack.Close()
	var live, removed []*EntryRow
	for _, r := range rows {
		if r.Removed {
			removed = append(removed, r)
		} else {
			live = append(live, r)
		}
	}
	// In the order the revisions are stored: each page of the revision
	// files is read once.
	inStorageOrder(live)
	var db *registryDB
	if p.delta {
		db, err = copyRegistryDB(filepath.Join(p.prevDir, registryFile), filepath.Join(dir, registryFile), rows)
	} else {
		db, err = newRegistryDB(filepath.Join(dir, registryFile))
	}
	if err != nil {
		return err
	}
	defer db.close()
	total := int64(len(live))
	const chunk = 2048
	for len(live) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		part := live[:min(chunk, len(live))]
		live = live[len(part):]
		// Entries the previous publication holds at the same revision keep
		// their documents; only the others are read and rendered.
		var need []*EntryRow
		for _, r := range part {
			if p.prev == nil || p.prevRev[r.EntryID] != int32(r.Revision) {
				need = append(need, r)
			}
		}
		entries, err := p.st.Revisions(need)
		if err != nil {
			return err
		}
		out := make([]rendered, len(part))
		parallelFor(len(part), func(i int) {
			r := part[i]
			if e := entries[r.EntryID]; e != nil {
				out[i] = p.render(e, r)
				return
			}
			out[i] = rendered{row: r, reused: true, docs: p.prev[r.EntryID]}
		})
		for i := range out {
			if err := p.append(&out[i], db); err != nil {
				return err
			}
		}
		if p.cfg.Progress != nil {
			p.cfg.Progress(p.rep.Rendered+p.rep.Reused, total)
		}
	}
	sort.Slice(removed, func(i, j int) bool { return removed[i].EntryID < removed[j].EntryID })
	for _, r := range removed {
		if err := db.removed(r); err != nil {
			return err
		}
		if p.delta {
			p.docs = append(p.docs, DocRow{EntryID: r.EntryID, Slug: r.Slug, Kind: KindRemoved, Revision: int32(r.Revision), LastModified: r.RemovedAt})
		}
		p.rep.Removed++
		p.changed = append(p.changed, feeds.State{EntryID: r.EntryID, Slug: r.Slug, Status: "removed", Revision: int32(r.Revision), Cause: r.Cause})
	}
	if p.prev != nil {
		if err := db.copyReused(filepath.Join(p.prevDir, registryFile)); err != nil {
			return err
		}
	}
	if err := p.writeFeed(dir); err != nil {
		return fmt.Errorf("change feed: %w", err)
	}
	if err := db.flush(); err != nil {
		return err
	}
	// The counts are the publication's, not only this run's (a delta
	// renders a few entries of many).
	if err := db.conn.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE status <> 'removed'), count(*) FILTER (WHERE status = 'removed'),
		count(*) FILTER (WHERE listed AND status <> 'removed') FROM entries`).Scan(&p.rep.Entries, &p.rep.Removed, &p.listed); err != nil {
		return err
	}
	if err := db.oldSlugs(ctx, p.st); err != nil {
		return fmt.Errorf("old slugs: %w", err)
	}
	if err := p.siteFiles(db); err != nil {
		return err
	}
	if err := p.pack.Sync(); err != nil {
		return err
	}
	p.packs[ownPack(p.rep.ID)] = true
	if err := writeDocIndex(filepath.Join(dir, filepath.FromSlash(ownIndex(p.rep.ID))), p.docs); err != nil {
		return err
	}
	// A delta reads the indexes before it; every publication links the
	// packs its indexes point into, so it stands alone, and a pack lives
	// as long as a publication uses it.
	if p.delta {
		for _, idx := range p.prevManifest.Index {
			if err := os.Link(filepath.Join(p.prevDir, filepath.FromSlash(idx)), filepath.Join(dir, filepath.FromSlash(idx))); err != nil {
				return err
			}
		}
		for _, pk := range p.prevManifest.Packs {
			p.packs[pk] = true
		}
	}
	for pk := range p.packs {
		if pk == ownPack(p.rep.ID) {
			continue
		}
		if err := os.Link(filepath.Join(p.prevDir, filepath.FromSlash(pk)), filepath.Join(dir, filepath.FromSlash(pk))); err != nil {
			return fmt.Errorf("link %s: %w", pk, err)
		}
	}
	return db.finish()
}

// render makes one entry's documents (D59, render.Documents) and, for an
// entry with a nextChangeAt, keeps its revision for the server (D66).
func (p *publisher) render(e *schemas.Entry, row *EntryRow) rendered {
	s := p.cfg.Site
	out := rendered{e: e, row: row}
	modified := schemas.ParseTime(e.Record.UpdatedAt)
	var off int64
	add := func(kind, lang, path, media string, body []byte) {
		out.docs = append(out.docs, DocRow{EntryID: e.ID, Slug: e.Slug, Kind: kind, Lang: lang, Path: path, Offset: off, Length: int64(len(body)),
			MediaType: media, ETag: schemas.DocETag(e.ID, e.Record.Revision, kind, lang, p.renderKey), LastModified: modified,
			Revision: int32(e.Record.Revision), NextChangeAt: row.NextChangeAt})
		out.bodies = append(out.bodies, body)
		off += int64(len(body))
	}
	docs, views := render.Documents(e, s)
	for _, d := range docs {
		add(d.Kind, d.Lang, d.Path, d.MediaType, d.Body)
	}
	// The MCP Apps entry card, per language (§7.7: made at publish).
	for i := range views {
		if js, err := json.Marshal(render.Card(&views[i])); err == nil {
			add(schemas.DocCard, views[i].Language, "", "application/json", js)
		}
	}
	// Search finds a listed entry by its record (§7.5 "Search").
	if rec, ok := render.SearchRecord(e, views); ok {
		if js, err := json.Marshal(rec); err == nil {
			add(schemas.DocSearch, "", "", "application/json", js)
		}
	}
	out.tables = export.RowsOf(&views[0], render.HTMLPageURL(s, e, e.DefaultLanguage), render.MarkdownURL(s, e, e.DefaultLanguage))
	// The server re-renders an entry whose nextChangeAt has come before the
	// pipeline re-issued it (D66), and runs the requests of an entry that
	// takes them (D75: where a request goes is private, and the checks
	// read the whole action): it needs the revision itself.
	if !row.NextChangeAt.IsZero() || len(e.EnabledActions()) > 0 {
		if js, err := json.Marshal(e); err == nil {
			add(schemas.DocEntry, "", "", "application/json", js)
		}
	}
	return out
}

// append writes an entry's documents to the pack (or, for an unchanged
// entry, keeps pointing at the earlier pack) and its row to the registry
// database.
func (p *publisher) append(r *rendered, db *registryDB) error {
	if r.reused {
		for _, d := range r.docs {
			p.packs[d.Pack] = true
		}
		p.docs = append(p.docs, r.docs...)
		p.rep.Reused++
		p.rep.Documents += int64(len(r.docs))
		p.rep.Entries++
		db.reusedEntry(r.row)
		return nil
	}
	base := p.offset
	for i, body := range r.bodies {
		if _, err := p.pack.Write(body); err != nil {
			return err
		}
		d := r.docs[i]
		d.Offset += base
		d.Pack = ownPack(p.rep.ID)
		r.docs[i] = d
		p.offset += int64(len(body))
	}
	p.docs = append(p.docs, r.docs...)
	p.changed = append(p.changed, feeds.State{EntryID: r.e.ID, Slug: r.e.Slug, Status: string(r.e.Status), Listed: r.e.Listed,
		Revision: int32(r.e.Record.Revision), Cause: r.row.Cause})
	p.rep.Rendered++
	p.rep.Documents += int64(len(r.docs))
	p.rep.Entries++
	return db.entry(r.e, r.row, r.docs, &r.tables)
}

// writeFeed numbers the changes since the previous publication and writes
// them as a new segment of the feed, which the publication carries whole
// (the earlier segments linked from the previous one): a publication that
// never becomes current takes its segment with it, so the feed has no gap
// and no duplicate whatever happens.
func (p *publisher) writeFeed(dir string) error {
	prev, err := p.previousStates()
	if err != nil {
		return err
	}
	p.feed = feeds.Diff(prev, p.changed, p.prevFeed+1, p.now, p.rep.ID)
	for _, c := range p.changed {
		was, ok := prev[c.EntryID]
		if !ok || was.Slug != c.Slug || was.Listed != c.Listed || (was.Status == "removed") != (c.Status == "removed") ||
			(was.Status == "suspended") != (c.Status == "suspended") {
			p.listingChanged = true
			break
		}
	}
	fdir := filepath.Join(dir, feeds.Dir)
	prevFeedDir := ""
	if p.prevDir != "" {
		prevFeedDir = filepath.Join(p.prevDir, feeds.Dir)
	}
	if err := feeds.Carry(prevFeedDir, fdir); err != nil {
		return err
	}
	return feeds.Write(fdir, p.feed)
}

// previousStates reads from the previous publication the states of the
// entries this one rendered or removed.
func (p *publisher) previousStates() (map[string]feeds.State, error) {
	out := map[string]feeds.State{}
	if p.prevDir == "" || len(p.changed) == 0 {
		return out, nil
	}
	db, err := sql.Open("duckdb", filepath.Join(p.prevDir, registryFile)+"?access_mode=read_only")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ids := make([]string, len(p.changed))
	for i, c := range p.changed {
		ids[i] = c.EntryID
	}
	if err := tempStrings(context.Background(), conn, "wanted", "entry_id", ids); err != nil {
		return nil, err
	}
	rs, err := conn.QueryContext(context.Background(), `SELECT e.entry_id, e.slug, e.status, e.listed, e.revision FROM entries e JOIN temp.wanted USING (entry_id)`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var s feeds.State
		if err := rs.Scan(&s.EntryID, &s.Slug, &s.Status, &s.Listed, &s.Revision); err != nil {
			return nil, err
		}
		out[s.EntryID] = s
	}
	return out, rs.Err()
}

// siteFiles appends the registry-level files (§5, AWP) to the pack. The
// sitemaps and the content structure are made by DuckDB from the
// registry's entries table: a million rows never pass through Go one by
// one.
func (p *publisher) siteFiles(db *registryDB) error {
	if p.delta && !p.listingChanged {
		// Nothing came or went: the sitemaps and the content structure of
		// the current publication stay (their lastmod and token figures
		// catch up at the nightly publication; IndexNow has the changed
		// pages now).
		kept, err := p.keptSiteFiles()
		if err != nil {
			return err
		}
		if kept {
			return p.siteFilesExcept(db, true)
		}
	}
	return p.siteFilesExcept(db, false)
}

// keptSite reports whether a registry-level file is one a delta keeps.
func keptSite(path string) bool {
	return path == "/sitemap.xml" || strings.HasPrefix(path, "/sitemaps/") || path == "/awp/content/structure.json"
}

// keptSiteFiles carries the current publication's sitemaps and content
// structure over (their rows point into its pack).
func (p *publisher) keptSiteFiles() (bool, error) {
	var kept []DocRow
	for _, d := range p.prevManifest.Site {
		if d.Kind == KindSite && keptSite(d.Path) {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		return false, nil
	}
	for _, d := range kept {
		p.packs[d.Pack] = true
	}
	p.docs = append(p.docs, kept...)
	p.rep.Documents += int64(len(kept))
	return true, nil
}

// siteFilesExcept writes the registry-level files, without the sitemaps
// and the content structure when those were kept.
func (p *publisher) siteFilesExcept(db *registryDB, keep bool) error {
	s := p.cfg.Site
	if keep {
		return p.writeSiteFiles(nil)
	}
	lines, lastmods, err := db.sitemapLines(s, render.SitemapLimit)
	if err != nil {
		return fmt.Errorf("sitemaps: %w", err)
	}
	tax := taxonomy.Default()
	sections, err := db.structure(func(sector string) string { return tax.Label(sector, "en") })
	if err != nil {
		return fmt.Errorf("structure: %w", err)
	}
	var sitemaps []siteFile
	if len(lines) <= 1 {
		joined := ""
		if len(lines) == 1 {
			joined = lines[0]
		}
		sitemaps = append(sitemaps, siteFile{"/sitemap.xml", "application/xml", render.SitemapURLSet(joined)})
	} else {
		names := make([]string, len(lines))
		for i := range lines {
			names[i] = fmt.Sprintf("sitemap-%d.xml", i+1)
			sitemaps = append(sitemaps, siteFile{"/sitemaps/" + names[i], "application/xml", render.SitemapURLSet(lines[i])})
		}
		sitemaps = append([]siteFile{{"/sitemap.xml", "application/xml", render.SitemapIndex(s, names, lastmods)}}, sitemaps...)
	}
	sitemaps = append(sitemaps, siteFile{"/awp/content/structure.json", "application/json", render.AWPStructureOf(p.now, sections)})
	return p.writeSiteFiles(sitemaps)
}

type siteFile struct {
	path, media string
	body        []byte
}

// writeSiteFiles writes the registry-level files that are made every time,
// and extra ones, into the pack.
func (p *publisher) writeSiteFiles(extra []siteFile) error {
	s := p.cfg.Site
	listed := p.listed
	files := []siteFile{
		{"/llms.txt", "text/plain; charset=utf-8", render.LLMSTxt(s)},
		{"/robots.txt", "text/plain; charset=utf-8", render.RobotsTxt(s)},
		{"/mcp/server-card", render.ServerCardMediaType, render.ServerCard(s)},
		{"/.well-known/ai-catalog.json", render.AICatalogMediaType, render.AICatalog(s)},
		{"/.well-known/agentic-web-protocol.json", "application/json", render.AWPDiscovery(s, p.now)},
		{"/awp/manifest.json", "application/json", render.AWPManifest(s, p.now, listed)},
		{"/awp/mcp/mcp.json", "application/json", render.AWPMCP(s)},
		{"/awp/api/tools/functions.json", "application/json", render.AWPFunctions(s, append(schemas.ReadTools(), schemas.RequestTools()...))},
		{"/awp/content/feeds/updates.json", "application/json", p.updates()},
	}
	for _, f := range append(files, extra...) {
		sum := sha256.Sum256(f.body)
		p.docs = append(p.docs, DocRow{Kind: KindSite, Path: f.path, Pack: ownPack(p.rep.ID), Offset: p.offset, Length: int64(len(f.body)), MediaType: f.media,
			ETag: `"` + hex.EncodeToString(sum[:10]) + `"`, LastModified: p.now})
		if _, err := p.pack.Write(f.body); err != nil {
			return err
		}
		p.offset += int64(len(f.body))
		p.rep.Documents++
	}
	p.rep.Bytes = p.offset
	return nil
}

func writeDocIndex(path string, docs []DocRow) error {
	af, err := createAtomic(path)
	if err != nil {
		return err
	}
	w := parquet.NewGenericWriter[DocRow](af.f, writerOptions(parquet.MaxRowsPerRowGroup(64<<10))...)
	for i := 0; i < len(docs); i += 4096 {
		if _, err := w.Write(docs[i:min(i+4096, len(docs))]); err != nil {
			af.abort()
			return err
		}
	}
	if err := w.Close(); err != nil {
		af.abort()
		return err
	}
	return af.commit()
}

// manifest writes manifest.json with every file's SHA-256. The files
// linked from the previous publication keep the checksums its manifest
// recorded (they are the same immutable files); the rest are hashed.
func (p *publisher) manifest(dir string) error {
	m := Manifest{SpecVersion: schemas.SchemaVersion, Engine: render.EngineVersion, ID: p.rep.ID, Run: p.rep.Run, CreatedAt: schemas.FormatTime(p.now),
		BaseURL: p.cfg.Site.BaseURL, Files: map[string]string{}, Delta: p.delta,
		Counts:   map[string]int64{"entries": p.rep.Entries, "removed": p.rep.Removed, "documents": p.rep.Documents, "changes": int64(len(p.feed))},
		FeedLast: p.prevFeed + int64(len(p.feed))}
	if p.delta {
		m.Index = append(m.Index, p.prevManifest.Index...)
	}
	for _, d := range p.docs {
		if d.Kind == KindSite {
			m.Site = append(m.Site, d)
		}
	}
	m.Index = append(m.Index, ownIndex(p.rep.ID))
	for pk := range p.packs {
		m.Packs = append(m.Packs, pk)
	}
	sort.Strings(m.Packs)
	known := map[string]string{}
	if p.prevManifest != nil {
		known = p.prevManifest.Files
	}
	var names []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel = filepath.ToSlash(rel); rel != manifestFile {
			names = append(names, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	own := map[string]bool{registryFile: true, ownPack(p.rep.ID): true, ownIndex(p.rep.ID): true}
	for _, name := range names {
		if sum, ok := known[name]; ok && !own[name] && p.prevDir != "" && sameFile(filepath.Join(dir, filepath.FromSlash(name)), filepath.Join(p.prevDir, filepath.FromSlash(name))) {
			m.Files[name] = sum
			continue
		}
		sum, err := fileSHA256(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		m.Files[name] = sum
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	af, err := createAtomic(filepath.Join(dir, manifestFile))
	if err != nil {
		return err
	}
	if _, err := af.f.Write(append(b, '\n')); err != nil {
		af.abort()
		return err
	}
	return af.commit()
}

// sameFile reports whether two paths are links to one file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(sa, sb)
}

// fileSHA256 is the SHA-256 of a file (manifests; register files compiled
// before are skipped by it).
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// VerifyPublication checks a publication's files against its manifest.
func VerifyPublication(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", manifestFile, err)
	}
	for name, want := range m.Files {
		got, err := fileSHA256(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		if got != want {
			return nil, fmt.Errorf("%s: SHA-256 %s, the manifest says %s", name, got, want)
		}
	}
	return &m, nil
}

func syncDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, de := range entries {
		if de.IsDir() {
			if err := syncDir(filepath.Join(dir, de.Name())); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(filepath.Join(dir, de.Name()))
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return syncEntries(dir)
}

// syncEntries syncs a directory itself: its list of entries (a rename or
// a new file in it is durable once this returns).
func syncEntries(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// swapCurrent points {out}/current at target with one rename of a new
// symlink over the old one: a reader sees the old or the new publication,
// never neither.
func swapCurrent(out, target string) error {
	tmp := filepath.Join(out, currentLink+".tmp")
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(out, currentLink)); err != nil {
		return err
	}
	return syncEntries(out)
}

// CurrentPublication is the directory {out}/current points at.
func CurrentPublication(out string) (string, error) {
	target, err := os.Readlink(filepath.Join(out, currentLink))
	if err != nil {
		return "", err
	}
	return filepath.Join(out, target), nil
}

// WriteStatic writes a publication's documents as a plain tree: each
// document at its path (a page without extension as {path}/index.html,
// a view as /v1/entries/{id}/{lang}.json, the server card as
// /mcp/server-card.json).
func WriteStatic(pub, dir string) error {
	docs, err := ReadDocs(pub)
	if err != nil {
		return err
	}
	packs := map[string]*os.File{}
	defer func() {
		for _, f := range packs {
			f.Close()
		}
	}()
	for _, d := range docs {
		pack := packs[d.Pack]
		if pack == nil {
			if pack, err = os.Open(filepath.Join(pub, filepath.FromSlash(d.Pack))); err != nil {
				return err
			}
			packs[d.Pack] = pack
		}
		if d.Path == "" {
			continue // not served (the revision kept for the server, D66)
		}
		rel := strings.TrimPrefix(d.Path, "/")
		switch {
		case d.Kind == KindView:
			rel += "/" + d.Lang + ".json"
		case d.Path == "/mcp/server-card":
			rel += ".json"
		case d.Kind == KindHTML || d.Kind == KindLegal || d.Kind == schemas.DocPrivacy:
			rel += "/index.html"
		}
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, io.NewSectionReader(pack, d.Offset, d.Length))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// registryDB is a publication's registry.duckdb, written with the
// Appender.
type registryDB struct {
	db      *sql.DB
	conn    *sql.Conn
	entries *duckdb.Appender
	more    map[string]*duckdb.Appender // the per-entry tables
	reused  []string
}

// entryTables are the tables with rows per entry besides entries.
var entryTables = []string{"offerings", "locations", "contact_points", "actions"}

var registrySQL = []string{
	`CREATE TABLE entries (
		entry_id VARCHAR NOT NULL, slug VARCHAR NOT NULL, status VARCHAR NOT NULL, listed BOOLEAN NOT NULL, kind VARCHAR,
		name VARCHAR, default_language VARCHAR, languages VARCHAR[], categories VARCHAR[], summary VARCHAR,
		locality VARCHAR, postal_code VARCHAR, country VARCHAR, lat DOUBLE, lon DOUBLE, verification_level VARCHAR,
		verified_hosts VARCHAR[], revision INTEGER NOT NULL, etag VARCHAR, last_modified TIMESTAMP, next_change_at TIMESTAMP,
		removed_at TIMESTAMP, removed_reason VARCHAR, md_bytes BIGINT)`,
	`COMMENT ON TABLE entries IS 'One row per entry of the publication: its status and where it is. Removed entries (status removed) stay listed here so the server can answer 410 Gone. etag and last_modified are those of its default-language markdown; next_change_at is when time alone changes it (the server applies expiry itself if the pipeline is late).'`,
	`COMMENT ON COLUMN entries.summary IS 'The summary in the default language.'`,
	`COMMENT ON COLUMN entries.locality IS 'Town of the primary location (locality level for people and locality-only addresses: never a street).'`,
	`COMMENT ON COLUMN entries.verified_hosts IS 'Domains verified for the entry, grace period included: the by-domain lookup.'`,
	`COMMENT ON COLUMN entries.md_bytes IS 'Size of the default-language markdown (its token estimate is a quarter of it).'`,
	`CREATE TABLE offerings (entry_id VARCHAR NOT NULL, offering_id VARCHAR NOT NULL, kind VARCHAR, name VARCHAR, description VARCHAR, category VARCHAR,
		audience VARCHAR, price_kind VARCHAR, price_amount VARCHAR, price_min VARCHAR, price_max VARCHAR, currency VARCHAR, price_unit VARCHAR, language VARCHAR)`,
	`COMMENT ON TABLE offerings IS 'Offerings of the listed entries, text in the entry''s default language (language); prices as decimal strings with two decimals.'`,
	`CREATE TABLE locations (entry_id VARCHAR NOT NULL, location_id VARCHAR NOT NULL, name VARCHAR, street VARCHAR, postal_code VARCHAR, locality VARCHAR,
		region VARCHAR, address_display VARCHAR, lat DOUBLE, lon DOUBLE, time_zone VARCHAR, hours VARCHAR)`,
	`COMMENT ON TABLE locations IS 'Locations with their opening hours (hours: JSON text with the weekly hours and dated exceptions as the view shows them; query it with hours::JSON). A locality-only location has no street and no point (I15).'`,
	`CREATE TABLE contact_points (entry_id VARCHAR NOT NULL, contact_id VARCHAR NOT NULL, name VARCHAR, purposes VARCHAR[], phone VARCHAR, email VARCHAR, languages VARCHAR[])`,
	`COMMENT ON TABLE contact_points IS 'Public contact points only; private ones never leave the pipeline.'`,
	`CREATE TABLE actions (entry_id VARCHAR NOT NULL, action_id VARCHAR NOT NULL, type VARCHAR, name VARCHAR, offering_ids VARCHAR[])`,
	`COMMENT ON TABLE actions IS 'Actions an agent can start for the entry (request_quote, book, ...).'`,
	`CREATE TABLE categories (code VARCHAR NOT NULL, sector VARCHAR, schema_type VARCHAR, nace VARCHAR[], labels VARCHAR, terms VARCHAR)`,
	`COMMENT ON TABLE categories IS 'The category taxonomy: labels and everyday words (OpenStreetMap presets) by language, as JSON text: objects keyed by language (query them with labels::JSON, terms::JSON).'`,
	oldSlugsSQL,
	oldSlugsComment,
}

func newRegistryDB(path string) (*registryDB, error) {
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return nil, err
	}
	for _, q := range registrySQL {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("registry.duckdb: %w", err)
		}
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, err
	}
	r := &registryDB{db: db, conn: conn}
	if err := r.categories(); err != nil {
		r.close()
		return nil, err
	}
	if err := r.appenders(); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// appenders opens the Appenders of the per-entry tables.
func (r *registryDB) appenders() error {
	r.more = map[string]*duckdb.Appender{}
	return r.conn.Raw(func(dc any) error {
		var err error
		if r.entries, err = duckdb.NewAppender(dc.(driver.Conn), "", "main", "entries"); err != nil {
			return err
		}
		for _, t := range entryTables {
			if r.more[t], err = duckdb.NewAppender(dc.(driver.Conn), "", "main", t); err != nil {
				return err
			}
		}
		return nil
	})
}

// categories writes the taxonomy.
func (r *registryDB) categories() error {
	tax := taxonomy.Default()
	var rows [][]driver.Value
	for _, c := range tax.Categories() {
		labels, _ := json.Marshal(tax.Labels(c.Code))
		terms, _ := json.Marshal(tax.Terms(c.Code))
		rows = append(rows, []driver.Value{c.Code, c.Sector, nullable(c.SchemaType), strList(c.NACE), string(labels), string(terms)})
	}
	return appendRows(r.conn, "", "categories", rows)
}

// tables appends an entry's rows in the per-entry tables.
func (r *registryDB) tables(t *export.Rows) error {
	for _, o := range t.Offerings {
		if err := r.more["offerings"].AppendRow(o.EntryID, o.OfferingID, o.Kind, o.Name, nullable(o.Description), nullable(o.Category), nullable(o.Audience),
			nullable(o.PriceKind), nullable(o.PriceAmount), nullable(o.PriceMin), nullable(o.PriceMax), nullable(o.Currency), nullable(o.PriceUnit), o.Language); err != nil {
			return err
		}
	}
	for _, l := range t.Locations {
		var lat, lon driver.Value
		if l.AddressDisplay == string(schemas.DisplayFull) && (l.Lat != 0 || l.Lon != 0) {
			lat, lon = l.Lat, l.Lon
		}
		if err := r.more["locations"].AppendRow(l.EntryID, l.LocationID, nullable(l.Name), nullable(l.Street), nullable(l.PostalCode), nullable(l.Locality),
			nullable(l.Region), l.AddressDisplay, lat, lon, nullable(l.TimeZone), nullable(l.Hours)); err != nil {
			return err
		}
	}
	for _, c := range t.Contacts {
		if err := r.more["contact_points"].AppendRow(c.EntryID, c.ContactID, c.Name, c.Purposes, nullable(c.Phone), nullable(c.Email), c.Languages); err != nil {
			return err
		}
	}
	for _, a := range t.Actions {
		if err := r.more["actions"].AppendRow(a.EntryID, a.ActionID, a.Type, a.Name, a.OfferingIDs); err != nil {
			return err
		}
	}
	return nil
}

func nullable(s string) driver.Value {
	if s == "" {
		return nil
	}
	return s
}

func strList(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// entry appends a rendered entry's row.
func (r *registryDB) entry(e *schemas.Entry, row *EntryRow, docs []DocRow, t *export.Rows) error {
	if err := r.tables(t); err != nil {
		return err
	}
	var locality, postal, country string
	var lat, lon driver.Value
	if len(e.Locations) > 0 {
		loc := e.Locations[0]
		for _, l := range e.Locations {
			if l.ID == e.PrimaryLocationID {
				loc = l
			}
		}
		locality, postal, country = loc.Address.Locality, loc.Address.PostalCode, loc.Address.Country
		// A point only where the address is shown in full (I15): a
		// locality-only location is placed by its town.
		if loc.Geo != nil && loc.AddressDisplay == schemas.DisplayFull {
			lat, lon = loc.Geo.Lat, loc.Geo.Lng
		}
	}
	etag, modified, mdBytes := "", schemas.ParseTime(e.Record.UpdatedAt), int64(0)
	for _, d := range docs {
		if d.Kind == KindMarkdown && d.Lang == e.DefaultLanguage {
			etag, mdBytes = d.ETag, d.Length
		}
	}
	return r.entries.AppendRow(e.ID, e.Slug, string(e.Status), e.Listed, string(e.Kind), e.DisplayName, e.DefaultLanguage,
		strList(render.Languages(e)), strList(e.Categories), nullable(e.Summary.Get(e.DefaultLanguage)), nullable(locality), nullable(postal),
		nullable(country), lat, lon, string(e.Verification.Level), strList(e.VerifiedHosts()), int32(e.Record.Revision), nullable(etag),
		modified, nullTime(row.NextChangeAt), nil, nil, mdBytes)
}

// oldSlugs writes the table of slugs entries had before (the server
// redirects them, D47): every one, from the state's identity map, so a
// delta's copy is replaced whole.
func (r *registryDB) oldSlugs(ctx context.Context, st *State) error {
	rows, err := st.DB().QueryContext(ctx, `SELECT entry_id, array_to_string(old_slugs, ' ') FROM identities WHERE len(old_slugs) > 0 ORDER BY entry_id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ids, slugs []string
	for rows.Next() {
		var id, old string
		if err := rows.Scan(&id, &old); err != nil {
			return err
		}
		for _, s := range strings.Fields(old) {
			ids, slugs = append(ids, id), append(slugs, s)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	// The table is made with the database (DDL next to open Appenders
	// loses their rows).
	if _, err := r.conn.ExecContext(ctx, `DELETE FROM old_slugs`); err != nil {
		return err
	}
	for i := range ids {
		if _, err := r.conn.ExecContext(ctx, `INSERT INTO old_slugs VALUES (?, ?)`, slugs[i], ids[i]); err != nil {
			return err
		}
	}
	return nil
}

const (
	oldSlugsSQL     = `CREATE TABLE IF NOT EXISTS old_slugs (slug VARCHAR NOT NULL, entry_id VARCHAR NOT NULL)`
	oldSlugsComment = `COMMENT ON TABLE old_slugs IS 'Slugs entries had before a rename: /{old slug} redirects to the entry''s page (they are never given again).'`
)

// copyRegistryDB starts a delta publication's database as a copy of the
// previous one without the rows of the entries that changed.
func copyRegistryDB(src, dst string, changed map[string]*EntryRow) (*registryDB, error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	out, err := os.Create(dst)
	if err != nil {
		in.Close()
		return nil, err
	}
	_, err = io.Copy(out, in)
	in.Close()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("duckdb", dst)
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, err
	}
	r := &registryDB{db: db, conn: conn}
	ids := make([]string, 0, len(changed))
	for _, row := range changed {
		ids = append(ids, row.EntryID)
	}
	ctx := context.Background()
	if err := tempStrings(ctx, conn, "changed", "entry_id", ids); err != nil {
		r.close()
		return nil, err
	}
	for _, t := range append([]string{"entries"}, entryTables...) {
		if _, err := conn.ExecContext(ctx, `DELETE FROM `+t+` WHERE entry_id IN (SELECT entry_id FROM temp.changed)`); err != nil {
			r.close()
			return nil, err
		}
	}
	for _, q := range []string{oldSlugsSQL, oldSlugsComment} { // a publication from before the table
		if _, err := conn.ExecContext(ctx, q); err != nil {
			r.close()
			return nil, err
		}
	}
	if err := r.appenders(); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// reusedEntry notes an entry whose documents were copied: its row is
// copied from the previous publication's registry.duckdb at the end.
func (r *registryDB) reusedEntry(row *EntryRow) {
	r.reused = append(r.reused, row.EntryID)
}

// copyReused copies the rows of the reused entries from the previous
// publication's database.
func (r *registryDB) copyReused(prevDB string) error {
	if len(r.reused) == 0 {
		return nil
	}
	ctx := context.Background()
	if err := r.flush(); err != nil {
		return err
	}
	if err := tempStrings(ctx, r.conn, "reused", "entry_id", r.reused); err != nil {
		return err
	}
	stmts := []string{`ATTACH ` + sqlString(prevDB) + ` AS prev (READ_ONLY)`}
	for _, t := range append([]string{"entries"}, entryTables...) {
		stmts = append(stmts, `INSERT INTO `+t+` SELECT p.* FROM prev.`+t+` p JOIN temp.reused USING (entry_id)`)
	}
	stmts = append(stmts, `DETACH prev`)
	for _, q := range stmts {
		if _, err := r.conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("registry.duckdb: %w", err)
		}
	}
	return nil
}

// sitemapLines makes the sitemap lines of every listed entry's pages (its
// default language first), in slug order, in parts of at most limit URLs,
// with each part's newest lastmod. Slugs and language codes need no XML
// escaping ([a-z0-9-]); the base URL is escaped here.
func (r *registryDB) sitemapLines(s render.Site, limit int) ([]string, []time.Time, error) {
	var base strings.Builder
	xml.EscapeText(&base, []byte(s.BaseURL))
	q := `WITH urls AS (
			SELECT slug, i, languages[i] AS lang, last_modified FROM (
				SELECT slug, languages, last_modified, unnest(generate_series(1, len(languages))) AS i
				FROM entries WHERE listed AND status <> 'removed')),
		numbered AS (SELECT *, (row_number() OVER (ORDER BY slug, i) - 1) // ? AS part FROM urls)
		SELECT part, string_agg('<url><loc>' || ? || '/' || slug || CASE WHEN i > 1 THEN '/' || lang ELSE '' END ||
			'</loc><lastmod>' || strftime(last_modified, '%Y-%m-%dT%H:%M:%SZ') || '</lastmod></url>' || chr(10), '' ORDER BY slug, i),
			max(last_modified)
		FROM numbered GROUP BY part ORDER BY part`
	rs, err := r.conn.QueryContext(context.Background(), q, limit, base.String())
	if err != nil {
		return nil, nil, err
	}
	defer rs.Close()
	var lines []string
	var lastmods []time.Time
	for rs.Next() {
		var part int
		var line string
		var last time.Time
		if err := rs.Scan(&part, &line, &last); err != nil {
			return nil, nil, err
		}
		lines, lastmods = append(lines, line), append(lastmods, last.UTC())
	}
	return lines, lastmods, rs.Err()
}

// structure makes the sections of the AWP content structure: one per
// sector of the entries' first category, with every page's token estimate
// counted and the first StructurePagesMax pages by slug listed.
func (r *registryDB) structure(title func(sector string) string) ([]render.StructureSection, error) {
	ctx := context.Background()
	const sectorSQL = `coalesce(nullif(split_part(categories[1], '.', 1), ''), 'other')`
	rs, err := r.conn.QueryContext(ctx, `SELECT `+sectorSQL+` AS sector, count(*), coalesce(sum((coalesce(md_bytes, 0) + 3) // 4), 0)
		FROM entries WHERE listed AND status <> 'removed' GROUP BY ALL ORDER BY sector`)
	if err != nil {
		return nil, err
	}
	var secs []render.StructureSection
	index := map[string]int{}
	for rs.Next() {
		var sec render.StructureSection
		if err := rs.Scan(&sec.ID, &sec.Pages, &sec.Tokens); err != nil {
			rs.Close()
			return nil, err
		}
		sec.Title = "Other"
		if sec.ID != "other" {
			sec.Title = title(sec.ID)
		}
		index[sec.ID] = len(secs)
		secs = append(secs, sec)
	}
	rs.Close()
	rs, err = r.conn.QueryContext(ctx, `SELECT sector, name, slug, tokens, categories FROM (
			SELECT `+sectorSQL+` AS sector, coalesce(name, '') AS name, slug, (coalesce(md_bytes, 0) + 3) // 4 AS tokens, categories,
				row_number() OVER (PARTITION BY `+sectorSQL+` ORDER BY slug) AS n
			FROM entries WHERE listed AND status <> 'removed')
		WHERE n <= ? ORDER BY sector, slug`, render.StructurePagesMax)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var sector, name, slug string
		var tokens int
		var cats duckdb.Composite[[]string]
		if err := rs.Scan(&sector, &name, &slug, &tokens, &cats); err != nil {
			return nil, err
		}
		sec := &secs[index[sector]]
		sec.List = append(sec.List, render.StructurePage{Title: name, Path: "/" + slug + ".md", Tokens: tokens, Tags: cats.Get()})
	}
	return secs, rs.Err()
}

// removed appends a removed entry's row.
func (r *registryDB) removed(row *EntryRow) error {
	return r.entries.AppendRow(row.EntryID, row.Slug, "removed", false, nil, nil, nil, []string{}, []string{}, nil, nil, nil, nil, nil, nil,
		nil, []string{}, int32(row.Revision), nil, row.UpdatedAt, nil, row.RemovedAt, nullable(row.RemovedReason), nil)
}

// flush writes what the Appenders hold.
func (r *registryDB) flush() error {
	if err := r.entries.Flush(); err != nil {
		return err
	}
	for _, a := range r.more {
		if err := a.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func (r *registryDB) finish() error {
	if err := r.entries.Close(); err != nil {
		return err
	}
	r.entries = nil
	for t, a := range r.more {
		if err := a.Close(); err != nil {
			return err
		}
		delete(r.more, t)
	}
	if _, err := r.conn.ExecContext(context.Background(), `CHECKPOINT`); err != nil {
		return err
	}
	return nil
}

func (r *registryDB) close() {
	if r.entries != nil {
		r.entries.Close()
	}
	for _, a := range r.more {
		a.Close()
	}
	if r.conn != nil {
		r.conn.Close()
	}
	r.db.Close()
}

func nullTime(t time.Time) driver.Value {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// updatesWindow is how many of the latest changes the AWP updates file
// lists; the whole feed is at /v1/changes.
const updatesWindow = 1000

// updates is /awp/content/feeds/updates.json (AWP-31..33): the latest
// changes, has_more when older ones were left out.
func (p *publisher) updates() []byte {
	var changes []render.Update
	for i := max(0, len(p.feed)-updatesWindow); i < len(p.feed); i++ {
		c := p.feed[i]
		changes = append(changes, render.Update{Type: c.Type, ID: c.EntryID, At: c.At, Path: "/" + c.Slug + ".md", Title: c.Slug, Seq: c.Seq})
	}
	last := p.prevFeed + int64(len(p.feed))
	return render.AWPUpdates(p.now, changes, last > int64(len(changes)))
}

// exportsDir holds a publication's Parquet bulk exports.
const exportsDir = "exports"

// ExportManifest is exports/manifest.json: every file with its table, rows
// and SHA-256.
type ExportManifest struct {
	Publication string           `json:"publication"`
	CreatedAt   string           `json:"createdAt"`
	Tables      map[string]int64 `json:"tables"`
	Files       []export.File    `json:"files"`
}

// exports writes the full bulk exports, or carries the previous ones.
func (p *publisher) exports(ctx context.Context, dir string, rows map[string]*EntryRow) error {
	out := filepath.Join(dir, exportsDir)
	if !p.cfg.Exports {
		if p.prevDir == "" {
			return nil
		}
		return linkTree(filepath.Join(p.prevDir, exportsDir), out)
	}
	x, err := export.New(out)
	if err != nil {
		return err
	}
	var live []*EntryRow
	for _, r := range rows {
		if !r.Removed {
			live = append(live, r)
		}
	}
	inStorageOrder(live)
	s := p.cfg.Site
	const chunk = 2048
	for len(live) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		part := live[:min(chunk, len(live))]
		live = live[len(part):]
		entries, err := p.st.Revisions(part)
		if err != nil {
			return err
		}
		views := make([]schemas.EntryView, len(part))
		parallelFor(len(part), func(i int) {
			e := entries[part[i].EntryID]
			views[i] = render.View(e, e.DefaultLanguage, s, nil)
		})
		for i := range views {
			e := entries[part[i].EntryID]
			if err := x.Add(&views[i], render.HTMLPageURL(s, e, e.DefaultLanguage), render.MarkdownURL(s, e, e.DefaultLanguage)); err != nil {
				return err
			}
		}
	}
	tax := taxonomy.Default()
	for _, c := range tax.Categories() {
		if err := x.AddCategory(export.CategoryRow{Code: c.Code, Sector: c.Sector, Label: tax.Label(c.Code, "en"), SchemaType: c.SchemaType,
			NACE: nonNilStrings(c.NACE), Terms: nonNilStrings(tax.Terms(c.Code)["en"])}); err != nil {
			return err
		}
	}
	files, counts, err := x.Close()
	if err != nil {
		return err
	}
	// The changes table is the change feed's Parquet segments.
	segs, err := snapshotio.FeedSegments(filepath.Join(dir, feeds.Dir))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "changes"), 0o755); err != nil {
		return err
	}
	counts["changes"] = 0
	for _, sg := range segs {
		rel := "changes/" + sg.Name + ".parquet"
		if err := os.Link(filepath.Join(dir, feeds.Dir, sg.Name+".parquet"), filepath.Join(out, filepath.FromSlash(rel))); err != nil {
			return err
		}
		sum, err := fileSHA256(filepath.Join(out, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		n := sg.Last - sg.First + 1
		counts["changes"] += n
		files = append(files, export.File{Path: rel, Table: "changes", Rows: n, SHA256: sum})
	}
	m := ExportManifest{Publication: p.rep.ID, CreatedAt: schemas.FormatTime(p.now), Tables: counts, Files: files}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "manifest.json"), append(b, '\n'), 0o644)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// linkTree hard-links every file of src into dst (the exports of the
// previous publication, immutable, carried over by a delta publication).
func linkTree(src, dst string) error {
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return os.Link(path, target)
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// notify tells IndexNow the pages that changed (every language's page of
// each entry of the feed's new records); a failure is logged, the notices
// are kept in the outbox.
func (p *publisher) notify(ctx context.Context) {
	if len(p.feed) == 0 {
		return
	}
	in := p.cfg.IndexNow
	if in.Outbox == "" {
		in.Outbox = filepath.Join(p.cfg.OutDir, "indexnow", "outbox.jsonl")
	}
	var urls []string
	seen := map[string]bool{}
	for _, c := range p.feed {
		if u := p.cfg.Site.PageURL(c.Slug); !seen[u] {
			seen[u] = true
			urls = append(urls, u)
		}
	}
	host := strings.TrimPrefix(strings.TrimPrefix(p.cfg.Site.BaseURL, "https://"), "http://")
	if err := in.Notify(ctx, host, urls); err != nil {
		p.log.Warn("indexnow", "err", err)
	}
}
