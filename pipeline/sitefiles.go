package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
	err := db.SitemapParts(s.BaseURL, limit, func(lines string, lastmod time.Time) error {
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
	})
	if err != nil {
		return nil, fmt.Errorf("sitemaps: %w", err)
	}
	tax := taxonomy.Default()
	sections, err := db.Structure(render.StructurePagesMax, func(sector string) string { return tax.Label(sector, "en") })
	if err != nil {
		return nil, fmt.Errorf("structure: %w", err)
	}
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
