package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

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
	var kept []publication.DocRow
	for _, d := range p.prevManifest.Site {
		if d.Kind == publication.KindSite && keptSite(d.Path) {
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
func (p *publisher) siteFilesExcept(db *export.RegistryDB, keep bool) error {
	s := p.cfg.Site
	if keep {
		return p.writeSiteFiles(nil)
	}
	lines, lastmods, err := db.SitemapLines(s.BaseURL, render.SitemapLimit)
	if err != nil {
		return fmt.Errorf("sitemaps: %w", err)
	}
	tax := taxonomy.Default()
	sections, err := db.Structure(render.StructurePagesMax, func(sector string) string { return tax.Label(sector, "en") })
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
		p.docs = append(p.docs, publication.DocRow{Kind: publication.KindSite, Path: f.path, Pack: publication.OwnPack(p.rep.ID), Offset: p.offset, Length: int64(len(f.body)), MediaType: f.media,
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
