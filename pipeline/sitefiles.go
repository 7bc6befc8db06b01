package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// siteFiles appends the registry-level files (§5, AWP) to the pack. The
// sitemaps and the content structure are made by DuckDB from the
// registry's entries table: a million rows never pass through Go one by
// one.
func (p *publisher) siteFiles(db *export.RegistryDB) error {
	var extra []siteFile
	// Nothing came, went or changed among the listed entries: the
	// sitemaps and the content structure of the current publication stay.
	// A listed entry that changed moves its sitemap lastmod (HTTP-29), so
	// then DuckDB makes them again (D63).
	if !(p.delta && !p.listingChanged && !p.listedRendered && p.keep(listingFile, false)) {
		listing, err := p.listingFiles(db)
		if err != nil {
			return err
		}
		extra = append(extra, listing...)
	} else {
		p.rep.Sitemaps = "kept"
	}
	// The registry pages depend only on the engine and the site, which a
	// delta shares with the publication before it (sameRender): it keeps
	// them, so a delta every minute does not write them again.
	if !(p.delta && p.keep(registryPage, true)) {
		for _, d := range render.RegistryPages(p.cfg.Site) {
			extra = append(extra, siteFile{d.Path, d.MediaType, d.Body})
		}
	}
	// The pages' style sheet and the hosted fonts (VIEW-29) are the
	// engine's files: a delta keeps them as it keeps the registry pages.
	if !(p.delta && p.keep(asset, false)) {
		for _, d := range render.Assets() {
			extra = append(extra, siteFile{d.Path, d.MediaType, d.Body})
		}
	}
	updates, err := p.updatesFiles(db)
	if err != nil {
		return err
	}
	return p.writeSiteFiles(append(extra, updates...))
}

// listingFile reports whether a registry-level file is made from the list
// of entries (the sitemaps and the content structure).
func listingFile(path string) bool {
	return path == "/sitemap.xml" || strings.HasPrefix(path, "/sitemaps/") || path == "/awp/content/structure.json"
}

// asset reports whether a registry-level file is one of the pages' assets
// (render.Assets: the style sheet and the hosted fonts).
func asset(path string) bool { return strings.HasPrefix(path, "/assets/") }

// registryPage reports whether a registry-level file is one of
// render.RegistryPages.
func registryPage(path string) bool {
	return strings.HasPrefix(path, "/docs/") || path == "/ns" || path == "/ns.jsonld" || strings.HasPrefix(path, "/schemas/")
}

// keep carries the current publication's registry-level files of a group
// over (their rows point into its pack), when it has them: some (any) or,
// with all, every one this engine makes.
func (p *publisher) keep(group func(path string) bool, all bool) bool {
	var kept []publication.DocRow
	for _, d := range p.prevManifest.Site {
		if d.Kind == publication.KindSite && group(d.Path) {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 || (all && !samePaths(kept, render.RegistryPagePaths(p.cfg.Site))) {
		return false
	}
	for _, d := range kept {
		p.packs[d.Pack] = true
	}
	p.site = append(p.site, kept...)
	p.rep.Documents += int64(len(kept))
	return true
}

// samePaths reports whether rows are at exactly the paths given.
func samePaths(rows []publication.DocRow, paths []string) bool {
	if len(rows) != len(paths) {
		return false
	}
	have := make(map[string]bool, len(rows))
	for _, d := range rows {
		have[d.Path] = true
	}
	for _, p := range paths {
		if !have[p] {
			return false
		}
	}
	return true
}

// listingFiles makes the sitemaps and the content structure. The parts
// of a sitemap index are written to the pack as DuckDB makes them, one at
// a time (issue 18); the index, or the one sitemap of a small registry,
// is returned with the structure.
func (p *publisher) listingFiles(db *export.RegistryDB) ([]siteFile, error) {
	s := p.cfg.Site
	var names []string
	var lastmods []time.Time
	var first func() []byte // the first part, written once a second one shows there are parts
	limit := p.cfg.SitemapLimit
	if limit <= 0 {
		limit = render.SitemapLimit
	}
	// The parts are hashed and compressed on their own goroutines and
	// appended in order (w); at 10M entries they are a gigabyte of lines.
	w := &siteWriter{p: p}
	// part takes a part's urlset (made on w's goroutine) and its newest
	// lastmod.
	part := func(body func() []byte, lastmod time.Time) error {
		names, lastmods = append(names, fmt.Sprintf("sitemap-%d.xml", len(names)+1)), append(lastmods, lastmod)
		switch len(names) {
		case 1:
			first = body
			return nil
		case 2:
			if err := w.add("/sitemaps/"+names[0], "application/xml", first); err != nil {
				return err
			}
			first = nil
		}
		return w.add("/sitemaps/"+names[len(names)-1], "application/xml", body)
	}
	// The content structure is one DuckDB pass over the listed entries:
	// on a connection of its own while the sitemaps are made, mostly in
	// Go (1.4 s of a delta's 10 s at 10M; issue 18).
	var secs []schemas.StructureSection
	var secsErr error
	structured := make(chan struct{})
	go func() {
		defer close(structured)
		tax := taxonomy.Default()
		secs, secsErr = db.Structure(render.StructurePagesMax, func(sector string) string { return tax.Label(sector, "en") })
	}()
	defer func() { <-structured }() // never return while it reads the database
	site, docs := len(p.site), p.rep.Documents
	merged := false
	var err error
	if p.delta {
		merged, err = p.mergeSitemaps(db, limit, part)
		if ferr := w.flush(); err == nil {
			err = ferr
		}
	}
	if err == nil && !merged {
		// What a merge wrote is left in the pack, unindexed.
		p.site, p.rep.Documents, names, lastmods, first = p.site[:site], docs, nil, nil, nil
		err = db.SitemapParts(s.BaseURL, limit, func(lines string, lastmod time.Time) error {
			return part(func() []byte { return render.SitemapURLSet(lines) }, lastmod)
		})
		if ferr := w.flush(); err == nil {
			err = ferr
		}
	}
	if err != nil {
		return nil, fmt.Errorf("sitemaps: %w", err)
	}
	p.rep.Sitemaps = "made"
	if merged {
		p.rep.Sitemaps = "merged"
	}
	p.steps.mark("sitemaps")
	<-structured
	if secsErr != nil {
		return nil, fmt.Errorf("structure: %w", secsErr)
	}
	p.steps.mark("structure")
	sitemap := siteFile{"/sitemap.xml", "application/xml", render.SitemapIndex(s, names, lastmods)}
	if len(names) <= 1 {
		sitemap.body = render.SitemapURLSet("")
		if first != nil {
			sitemap.body = first()
		}
	}
	return []siteFile{sitemap, {"/awp/content/structure.json", "application/json", render.AWPStructureOf(p.now, secs)}}, nil
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
		{"/awp/content/", "application/json", render.AWPContentIndex(s)},
		{"/awp/api/", "application/json", render.AWPAPIIndex(s)},
	}
	for _, f := range append(files, extra...) {
		if err := p.writeSiteFile(f); err != nil {
			return err
		}
	}
	p.rep.Bytes = p.offset
	return nil
}

// writeSiteFile appends a registry-level file to the pack.
func (p *publisher) writeSiteFile(f siteFile) error { return p.appendSiteFile(prepareSiteFile(f)) }

// preparedSite is a registry-level file hashed and compressed, ready to
// append to the pack.
type preparedSite struct {
	path, media, etag, enc string
	stored                 []byte
	length                 int64 // of the file as served
}

// prepareSiteFile compresses and hashes a registry-level file: stored
// compressed like the entries' documents (issue 18), its ETag a hash of
// the bytes stored. Those are the file's bytes as served, losslessly
// compressed by the engine's encoder, so one ETag is still one file; and
// a tenth of the bytes to hash for the sitemaps, a gigabyte of lines at
// 10M entries (D128).
func prepareSiteFile(f siteFile) preparedSite {
	stored, enc := publication.EncodeDoc(nil, f.body)
	sum := sha256.Sum256(stored)
	return preparedSite{path: f.path, media: f.media, etag: `"` + hex.EncodeToString(sum[:10]) + `"`, enc: enc, stored: stored, length: int64(len(f.body))}
}

// appendSiteFile appends a prepared file to the pack and indexes it.
func (p *publisher) appendSiteFile(f preparedSite) error {
	p.site = append(p.site, publication.DocRow{Kind: publication.KindSite, Path: f.path, Pack: publication.OwnPack(p.rep.ID), Offset: p.offset, Length: int64(len(f.stored)), MediaType: f.media,
		ETag: f.etag, LastModified: p.now, Checksum: publication.DocChecksum(f.stored), Encoding: f.enc, IdentityLength: f.length})
	if _, err := p.packOut.Write(f.stored); err != nil {
		return err
	}
	p.offset += int64(len(f.stored))
	p.rep.Documents++
	return nil
}

// siteWriter makes, hashes and compresses registry-level files on
// goroutines of their own, a few at once, and appends them to the pack in
// the order they were added: the sitemap parts of a delta at 10M entries
// are a gigabyte of lines, and one goroutine hashing and compressing them
// in turn took most of the step (issue 18).
type siteWriter struct {
	p       *publisher
	pending []chan preparedSite
}

// siteWriterAhead is how many files a siteWriter prepares at once (each a
// sitemap part of up to 50,000 lines, a few megabytes, and its
// compressed bytes).
var siteWriterAhead = max(2, runtime.GOMAXPROCS(0))

// add starts making the file at path from body; the earliest pending file
// is appended once siteWriterAhead are under way.
func (w *siteWriter) add(path, media string, body func() []byte) error {
	c := make(chan preparedSite, 1) // the goroutine never blocks, whatever becomes of w
	go func() { c <- prepareSiteFile(siteFile{path, media, body()}) }()
	w.pending = append(w.pending, c)
	if len(w.pending) < siteWriterAhead {
		return nil
	}
	return w.next()
}

// next appends the earliest pending file.
func (w *siteWriter) next() error {
	f := <-w.pending[0]
	w.pending = w.pending[1:]
	return w.p.appendSiteFile(f)
}

// flush appends every pending file.
func (w *siteWriter) flush() error {
	for len(w.pending) > 0 {
		if err := w.next(); err != nil {
			return err
		}
	}
	return nil
}

// mergeSitemaps makes a delta's sitemap parts from the previous
// publication's (D121): its lines, in slug order, without those of the
// entries this run rendered or removed (under their slugs before and
// now), merged with those entries' lines as they are now, cut again into
// parts of limit. The result is the bytes db.SitemapParts would make from
// every listed entry, without DuckDB ordering them all. It reports false,
// having written nothing or leaving what it wrote unindexed, when it
// cannot be sure of that: the previous sitemaps are not readable as this
// engine writes them, a listed entry has no lastmod (a row without a
// line), or the lines merged are not the rows counted.
//
// At 10M entries the parts hold a gigabyte of lines, every one of which a
// delta of a thousand changes reads again (its entries are in every
// part). So the work is shared (issue 18): one goroutine reads and
// decodes the previous parts ahead, this one merges their lines, and fn
// compresses and hashes the parts made on goroutines of its own.
func (p *publisher) mergeSitemaps(db *export.RegistryDB, limit int, fn func(body func() []byte, lastmod time.Time) error) (bool, error) {
	prev := previousSitemaps(p.prevManifest.Site)
	if prev == nil {
		return false, nil
	}
	var adds []sitemapLine
	rows, unlined, err := db.SitemapLinesOfRun(p.cfg.Site.BaseURL, func(slug, line string) error {
		adds = append(adds, sitemapLine{slug, line})
		return nil
	})
	if err != nil || unlined > 0 {
		return false, err
	}
	var base strings.Builder
	xml.EscapeText(&base, []byte(p.cfg.Site.BaseURL))
	loc := "<url><loc>" + base.String() + "/"

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The previous parts, read and decoded ahead.
	type body struct {
		lines string
		ok    bool // read, checked and a urlset as this engine writes it
	}
	bodies := make(chan body, 2)
	var readErr error // the reader's, read once bodies is closed
	go func() {
		defer close(bodies)
		packs := map[string]*os.File{}
		defer func() {
			for _, f := range packs {
				f.Close()
			}
		}()
		for _, d := range prev {
			text, err := p.previousSiteFile(packs, d)
			if err != nil {
				readErr = fmt.Errorf("a sitemap of the previous publication is unreadable: %w", err)
			}
			lines, ok := urlsetLines(text)
			select {
			case bodies <- body{lines, err == nil && ok}:
			case <-ctx.Done():
				return
			}
			if err != nil || !ok {
				return
			}
		}
	}()
	// The parts made are handed to fn in order; fn (listingFiles's
	// siteWriter) compresses and hashes them on goroutines of their own.
	var werr error
	merged, err := mergeSitemapLines(func(yield func(lines string, ok bool) bool) {
		for b := range bodies {
			if !yield(b.lines, b.ok) {
				return
			}
		}
	}, loc, limit, p.sitemapDrop, adds, rows, func(body []byte, newest string) bool {
		werr = p.flushSitemapPart(body, newest, fn)
		return werr == nil
	})
	cancel()
	for range bodies { // the reader stops at its next part
	}
	if werr != nil {
		return false, werr
	}
	if err != nil {
		return false, err
	}
	if !merged {
		var why []any
		if readErr != nil {
			why = append(why, "err", readErr)
		}
		p.log.Warn("the previous sitemaps could not be merged; made again from every entry", why...)
	}
	return merged, nil
}

// flushSitemapPart hands a part's urlset to fn with its newest lastmod.
func (p *publisher) flushSitemapPart(body []byte, newest string, fn func(body func() []byte, lastmod time.Time) error) error {
	mod, err := time.Parse("2006-01-02T15:04:05Z", newest)
	if err != nil {
		return fmt.Errorf("a sitemap lastmod: %w", err)
	}
	return fn(func() []byte { return body }, mod)
}

// sitemapLine is an entry's line in a sitemap, under its slug.
type sitemapLine struct{ slug, line string }

// The tail of every sitemap line this engine writes: the lastmod's
// closing tags after its 20 characters (2006-01-02T15:04:05Z), and the
// tags between the loc and the lastmod.
const (
	sitemapLineTail = "</lastmod></url>\n"
	sitemapLineMid  = "</loc><lastmod>"
	sitemapLastmod  = len("2006-01-02T15:04:05Z")
)

// mergeSitemapLines merges the lines of the previous parts (prev, each
// with whether it was read as this engine writes it) with adds, in slug
// order, dropping the previous lines of the slugs in drop, and cuts them
// into parts of limit lines, each handed to part as its urlset
// (render.SitemapURLSet's bytes, built in place: a part is megabytes)
// with its newest lastmod (part reports false to stop, and owns the
// bytes). It reports false when the merge cannot
// be exact: a part was unreadable, a line is not as this engine writes
// it, or the lines merged are not rows.
func mergeSitemapLines(prev iter.Seq2[string, bool], loc string, limit int, drop map[string]bool, adds []sitemapLine, rows int64,
	part func(body []byte, newest string) bool) (bool, error) {
	b := []byte(render.SitemapURLSetHead)
	var newest string
	var n, total int64
	flush := func() bool {
		body := append(b, render.SitemapURLSetTail...)
		b = append(make([]byte, 0, cap(body)), render.SitemapURLSetHead...)
		return part(body, newest)
	}
	// emit adds a well-formed line (wellFormed) to the part.
	emit := func(line string) bool {
		if n == int64(limit) {
			if !flush() {
				return false
			}
			newest, n = "", 0
		}
		n++
		total++
		b = append(b, line...)
		newest = max(newest, line[len(line)-len(sitemapLineTail)-sitemapLastmod:len(line)-len(sitemapLineTail)])
		return true
	}
	// The slugs dropped, in order: the previous lines come in slug order,
	// so one cursor finds them (a map lookup a line was a tenth of the
	// merge at 10M).
	dropped := make([]string, 0, len(drop))
	for slug := range drop {
		dropped = append(dropped, slug)
	}
	sort.Strings(dropped)
	var lastSlug string
	next := 0
	// add emits the run's lines before slug ("" for all that are left).
	add := func(slug string) (bool, error) {
		for ; next < len(adds) && (slug == "" || adds[next].slug < slug); next++ {
			if !wellFormed(adds[next].line, loc) {
				return false, fmt.Errorf("a sitemap line not as this engine writes it: %q", adds[next].line)
			}
			if !emit(adds[next].line) {
				return false, nil
			}
		}
		return true, nil
	}
	for lines, ok := range prev {
		if !ok {
			return false, nil
		}
		if total == 0 && cap(b)-len(b) < len(lines) { // the first part's size, a little over
			b = append(make([]byte, 0, len(b)+len(lines)+len(lines)/8+len(render.SitemapURLSetTail)), b...)
		}
		for len(lines) > 0 {
			end := strings.IndexByte(lines, '\n') + 1
			if end == 0 {
				return false, nil
			}
			line := lines[:end]
			lines = lines[end:]
			slug, ok := sitemapLineSlug(line, loc)
			if !ok {
				return false, nil // not a line as this engine writes it
			}
			if slug < lastSlug {
				return false, nil // not in slug order: not as this engine writes them
			}
			lastSlug = slug
			if ok, err := add(slug); !ok {
				return false, err
			}
			for len(dropped) > 0 && dropped[0] < slug {
				dropped = dropped[1:]
			}
			if (len(dropped) == 0 || dropped[0] != slug) && !emit(line) {
				return false, nil
			}
		}
	}
	if ok, err := add(""); !ok || total != rows {
		return false, err
	}
	if n > 0 && !flush() {
		return false, nil
	}
	return true, nil
}

// sitemapLineSlug is the slug of a sitemap line as this engine writes it
// (loc, the slug, "/" and a language or nothing, then the lastmod); false
// for any other line.
func sitemapLineSlug(line, loc string) (string, bool) {
	if !wellFormed(line, loc) {
		return "", false
	}
	rest := line[len(loc):]
	for i := 0; i < len(rest); i++ {
		if rest[i] == '/' || rest[i] == '<' {
			return rest[:i], i > 0
		}
	}
	return "", false
}

// wellFormed reports whether a sitemap line has this engine's shape:
// loc first, then the tags around a lastmod of its length last.
func wellFormed(line, loc string) bool {
	tail := len(sitemapLineTail) + sitemapLastmod + len(sitemapLineMid)
	return len(line) > len(loc)+tail && line[:len(loc)] == loc && line[len(line)-len(sitemapLineTail):] == sitemapLineTail &&
		line[len(line)-tail:len(line)-tail+len(sitemapLineMid)] == sitemapLineMid
}

// previousSitemaps are the previous publication's sitemap urlsets in
// order: its parts, or its one sitemap when it had no index; nil when it
// has none.
func previousSitemaps(site []publication.DocRow) []publication.DocRow {
	var parts []publication.DocRow
	var one *publication.DocRow
	num := map[string]int{}
	for i, d := range site {
		if d.Kind != publication.KindSite {
			continue
		}
		if d.Path == "/sitemap.xml" {
			one = &site[i]
		}
		if n, ok := strings.CutPrefix(d.Path, "/sitemaps/sitemap-"); ok {
			if k, err := strconv.Atoi(strings.TrimSuffix(n, ".xml")); err == nil && strings.HasSuffix(n, ".xml") {
				parts = append(parts, d)
				num[d.Path] = k
			}
		}
	}
	if len(parts) == 0 {
		if one == nil {
			return nil
		}
		return []publication.DocRow{*one}
	}
	sort.Slice(parts, func(i, j int) bool { return num[parts[i].Path] < num[parts[j].Path] })
	for i, d := range parts {
		if num[d.Path] != i+1 {
			return nil // a part missing
		}
	}
	return parts
}

// previousSiteFile reads a registry-level file of the previous
// publication, checked and decoded.
func (p *publisher) previousSiteFile(packs map[string]*os.File, d publication.DocRow) (string, error) {
	f := packs[d.Pack]
	if f == nil {
		var err error
		if f, err = os.Open(filepath.Join(p.prevDir, filepath.FromSlash(d.Pack))); err != nil {
			return "", err
		}
		packs[d.Pack] = f
	}
	stored := make([]byte, d.Length)
	if _, err := f.ReadAt(stored, d.Offset); err != nil {
		return "", fmt.Errorf("%s: %w", d.Path, err)
	}
	if !publication.DocChecksumOK(stored, d.Checksum) {
		return "", fmt.Errorf("%s: the previous publication's bytes fail their checksum", d.Path)
	}
	// Decoded at its known length and kept as the string, not copied: a
	// sitemap part is megabytes, and a delta at 10M reads a gigabyte of
	// them (issue 18). Nothing else holds body.
	body, err := publication.DecodeDoc(make([]byte, 0, max(d.IdentityLength, 0)), stored, d.Encoding)
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.Path, err)
	}
	if len(body) == 0 {
		return "", nil
	}
	return unsafe.String(&body[0], len(body)), nil
}

// urlsetLines are the lines of a sitemap urlset as render.SitemapURLSet
// wraps them.
func urlsetLines(body string) (string, bool) {
	head, tail := render.SitemapURLSetHead, render.SitemapURLSetTail
	if !strings.HasPrefix(body, head) || !strings.HasSuffix(body, tail) {
		return "", false
	}
	return body[len(head) : len(body)-len(tail)], true
}
