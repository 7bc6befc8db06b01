package pipeline

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/feeds"
)

// writeFeed numbers the changes since the previous publication and writes
// them as a new segment of the feed, which the publication carries whole
// (the earlier segments linked from the previous one): a publication that
// never becomes current takes its segment with it, so the feed has no gap
// and no duplicate whatever happens. The states come back from the
// registry database joined with the previous publication's, in entry ID
// order, and the changes go to the segment as they are found (issue 18:
// nothing here grows with the registry).
func (p *publisher) writeFeed(ctx context.Context, dir string, db *export.RegistryDB) error {
	fdir := filepath.Join(dir, feeds.Dir)
	p.feedDir = fdir
	prevFeedDir, prevDB := "", ""
	if p.prevDir != "" {
		prevFeedDir, prevDB = filepath.Join(p.prevDir, feeds.Dir), filepath.Join(p.prevDir, publication.RegistryFile)
	}
	if err := feeds.Carry(prevFeedDir, fdir); err != nil {
		return err
	}
	sw := feeds.NewSegmentWriter(fdir)
	next, at := p.prevFeed+1, p.now.UTC()
	seen := map[string]bool{}
	err := db.ScanFeedStates(ctx, prevDB, func(c feeds.State, was *feeds.State) error {
		if was == nil || was.Slug != c.Slug || was.Listed != c.Listed || (was.Status == "removed") != (c.Status == "removed") ||
			(was.Status == "suspended") != (c.Status == "suspended") {
			p.listingChanged = true
		}
		if p.delta {
			// A delta's sitemaps are the previous ones with these
			// entries' lines taken out and put back as they are now (D121).
			p.sitemapDrop[c.Slug] = true
			if was != nil {
				p.sitemapDrop[was.Slug] = true
			}
		}
		typ := feeds.Classify(was, c)
		if typ == "" {
			return nil
		}
		if err := sw.Add(feeds.Change{Seq: next, Type: typ, EntryID: c.EntryID, Slug: c.Slug, Revision: c.Revision, At: at, Publication: p.rep.ID}); err != nil {
			return err
		}
		next++
		if u := p.cfg.Site.PageURL(c.Slug); len(p.notifyURLs) < indexNowMax && !seen[u] {
			seen[u] = true
			p.notifyURLs = append(p.notifyURLs, u)
		}
		return nil
	})
	if err != nil {
		sw.Abort()
		return err
	}
	p.feedCount = sw.Count()
	return sw.Close()
}

// indexNowMax is how many changed pages a publication tells IndexNow of:
// one request's worth (the protocol takes at most 10,000 URLs a
// request). A publication that changes more (a first or a nightly full
// one) leaves the rest to the sitemaps' lastmod (D113).
const indexNowMax = 10_000

// notify tells IndexNow the pages that changed (every language's page of
// each entry of the feed's new records); a failure is logged, the notices
// are kept in the outbox.
func (p *publisher) notify(ctx context.Context) {
	if len(p.notifyURLs) == 0 {
		return
	}
	in := p.cfg.IndexNow
	if in.Outbox == "" {
		in.Outbox = filepath.Join(p.cfg.OutDir, "indexnow", "outbox.jsonl")
	}
	urls := p.notifyURLs
	host := strings.TrimPrefix(strings.TrimPrefix(p.cfg.Site.BaseURL, "https://"), "http://")
	if err := in.Notify(ctx, host, urls); err != nil {
		p.log.Warn("indexnow", "err", err)
	}
}
