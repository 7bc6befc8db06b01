package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

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
	var first string // the first part's lines, written once a second one shows there are parts
	limit := p.cfg.SitemapLimit
	if limit <= 0 {
		limit = render.SitemapLimit
	}
	part := func(lines string, lastmod time.Time) error {
		names, lastmods = append(names, fmt.Sprintf("sitemap-%d.xml", len(names)+1)), append(lastmods, lastmod)
		switch len(names) {
		case 1:
			first = lines
			return nil
		case 2:
			if err := p.writeSiteFile(siteFile{"/sitemaps/" + names[0], "application/xml", render.SitemapURLSet(first)}); err != nil {
				return err
			}
			first = ""
		}
		return p.writeSiteFile(siteFile{"/sitemaps/" + names[len(names)-1], "application/xml", render.SitemapURLSet(lines)})
	}
	site, docs := len(p.site), p.rep.Documents
	merged := false
	var err error
	if p.delta {
		merged, err = p.mergeSitemaps(db, limit, part)
	}
	if err == nil && !merged {
		// What a merge wrote is left in the pack, unindexed.
		p.site, p.rep.Documents, names, lastmods, first = p.site[:site], docs, nil, nil, ""
		err = db.SitemapParts(s.BaseURL, limit, part)
	}
	if err != nil {
		return nil, fmt.Errorf("sitemaps: %w", err)
	}
	p.rep.Sitemaps = "made"
	if merged {
		p.rep.Sitemaps = "merged"
	}
	p.steps.mark("sitemaps")
	tax := taxonomy.Default()
	sections, err := db.Structure(render.StructurePagesMax, func(sector string) string { return tax.Label(sector, "en") })
	if err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
	p.steps.mark("structure")
	sitemap := siteFile{"/sitemap.xml", "application/xml", render.SitemapIndex(s, names, lastmods)}
	if len(names) <= 1 {
		sitemap.body = render.SitemapURLSet(first)
	}
	return []siteFile{sitemap, {"/awp/content/structure.json", "application/json", render.AWPStructureOf(p.now, sections)}}, nil
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
func (p *publisher) writeSiteFile(f siteFile) error {
	sum := sha256.Sum256(f.body)
	// Stored compressed like the entries' documents (issue 18); the ETag
	// stays the hash of the bytes as served.
	stored, enc := publication.EncodeDoc(nil, f.body)
	p.site = append(p.site, publication.DocRow{Kind: publication.KindSite, Path: f.path, Pack: publication.OwnPack(p.rep.ID), Offset: p.offset, Length: int64(len(stored)), MediaType: f.media,
		ETag: `"` + hex.EncodeToString(sum[:10]) + `"`, LastModified: p.now, Checksum: publication.DocChecksum(stored),
		Encoding: enc, IdentityLength: int64(len(f.body))})
	if _, err := p.packOut.Write(stored); err != nil {
		return err
	}
	p.offset += int64(len(stored))
	p.rep.Documents++
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
func (p *publisher) mergeSitemaps(db *export.RegistryDB, limit int, fn func(lines string, lastmod time.Time) error) (bool, error) {
	prev := previousSitemaps(p.prevManifest.Site)
	if prev == nil {
		return false, nil
	}
	type added struct{ slug, line string }
	var adds []added
	rows, unlined, err := db.SitemapLinesOfRun(p.cfg.Site.BaseURL, func(slug, line string) error {
		adds = append(adds, added{slug, line})
		return nil
	})
	if err != nil || unlined > 0 {
		return false, err
	}
	var base strings.Builder
	xml.EscapeText(&base, []byte(p.cfg.Site.BaseURL))
	loc := "<url><loc>" + base.String() + "/"
	var part strings.Builder
	var newest string
	var n, total int64
	emit := func(line string) error {
		if n == int64(limit) {
			if err := p.flushSitemapPart(&part, newest, fn); err != nil {
				return err
			}
			newest, n = "", 0
		}
		n++
		total++
		part.WriteString(line)
		at := strings.LastIndex(line, "<lastmod>")
		if at < 0 {
			return fmt.Errorf("a sitemap line without its lastmod: %q", line)
		}
		newest = max(newest, line[at+len("<lastmod>"):len(line)-len("</lastmod></url>\n")])
		return nil
	}
	packs := map[string]*os.File{}
	defer func() {
		for _, f := range packs {
			f.Close()
		}
	}()
	next := 0
	for _, d := range prev {
		body, err := p.previousSiteFile(packs, d)
		if err != nil {
			p.log.Warn("a sitemap of the previous publication is unreadable; made again from every entry", "err", err)
			return false, nil
		}
		lines, ok := urlsetLines(body)
		if !ok {
			return false, nil
		}
		for len(lines) > 0 {
			end := strings.IndexByte(lines, '\n') + 1
			if end == 0 || !strings.HasPrefix(lines, loc) || !strings.HasSuffix(lines[:end], "</lastmod></url>\n") ||
				!strings.Contains(lines[:end], "</loc><lastmod>") {
				return false, nil // not a line as this engine writes it
			}
			line := lines[:end]
			lines = lines[end:]
			slug := line[len(loc):]
			slug = slug[:strings.IndexAny(slug, "/<")]
			for next < len(adds) && adds[next].slug < slug {
				if err := emit(adds[next].line); err != nil {
					return false, err
				}
				next++
			}
			if p.sitemapDrop[slug] {
				continue
			}
			if err := emit(line); err != nil {
				return false, err
			}
		}
	}
	for ; next < len(adds); next++ {
		if err := emit(adds[next].line); err != nil {
			return false, err
		}
	}
	if total != rows {
		p.log.Warn("the sitemaps merged hold another number of URLs than the listed entries; made again from every entry", "merged", total, "rows", rows)
		return false, nil
	}
	if n > 0 {
		return true, p.flushSitemapPart(&part, newest, fn)
	}
	return true, nil
}

func (p *publisher) flushSitemapPart(part *strings.Builder, newest string, fn func(lines string, lastmod time.Time) error) error {
	mod, err := time.Parse("2006-01-02T15:04:05Z", newest)
	if err != nil {
		return fmt.Errorf("a sitemap lastmod: %w", err)
	}
	lines := part.String()
	part.Reset()
	return fn(lines, mod)
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
	body, err := publication.DecodeDoc(nil, stored, d.Encoding)
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.Path, err)
	}
	return string(body), nil
}

// urlsetLines are the lines of a sitemap urlset as render.SitemapURLSet
// wraps them.
func urlsetLines(body string) (string, bool) {
	head, tail := string(render.SitemapURLSet("")), "</urlset>\n"
	head = strings.TrimSuffix(head, tail)
	if !strings.HasPrefix(body, head) || !strings.HasSuffix(body, tail) {
		return "", false
	}
	return body[len(head) : len(body)-len(tail)], true
}
