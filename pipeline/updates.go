package pipeline

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// The AWP updates file (AWP-31 to AWP-33) is made from the change feed,
// which every publication carries whole, so it shows the latest changes
// across publications however few the last one made. The feed is cut into
// numbered pages of a fixed size by sequence number: page n holds changes
// (n-1)·size+1 to n·size and is published once it is full, never to change
// within the day. updates.json holds the newest full page and whatever
// came after it, so it never shows fewer than a page's worth of changes
// once there are that many, and names the page before it as next.

// updatesPageSize is how many changes a numbered page holds (decision
// D60's window of 1 000).
const updatesPageSize = 1000

// updatesPagesKept is how many numbered pages a full publication
// publishes, the newest; the whole feed stays at /v1/changes.
const updatesPagesKept = 100

// updatesFiles makes updates.json and the numbered pages this publication
// must write. A delta carries every page of the publication before it and
// writes only the pages that became full, so every page's next is still
// published; a full publication (nightly) writes the kept pages again,
// with the names of now, so a removed entry's name leaves them within a
// day.
func (p *publisher) updatesFiles(db *export.RegistryDB) ([]siteFile, error) {
	size := int64(p.cfg.UpdatesPageSize)
	if size <= 0 {
		size = updatesPageSize
	}
	last := p.prevFeed + p.feedCount
	full := last / size
	oldest := max(1, full-updatesPagesKept+1)
	carried := map[int64]bool{}
	if p.delta && p.prevManifest != nil {
		for _, d := range p.prevManifest.Site {
			if n, ok := updatesPage(d.Path); ok && d.Kind == publication.KindSite {
				carried[n] = true
				oldest = min(oldest, n)
				p.packs[d.Pack] = true
				p.site = append(p.site, d)
				p.rep.Documents++
			}
		}
	}
	nextOf := func(n int64) string {
		if n >= 1 && n >= oldest {
			return render.AWPUpdatesPagePath(n)
		}
		return ""
	}
	// The files' ranges of sequence numbers: updates.json first, then
	// the pages to write. The feed is read once, from the lowest (issue
	// 18: a page at a time rescanned the feed for each, and a first
	// publication of millions has 100 pages to write).
	type part struct {
		path        string
		after, n    int64
		nextOfAfter int64
	}
	parts := []part{{render.AWPUpdatesPath, max(0, (full-1)*size), 0, full - 1}}
	parts[0].n = last - parts[0].after
	for n := oldest; n <= full; n++ {
		if !carried[n] {
			parts = append(parts, part{render.AWPUpdatesPagePath(n), (n - 1) * size, size, n - 1})
		}
	}
	lo := parts[0].after
	for _, pt := range parts {
		lo = min(lo, pt.after)
	}
	changes, _, err := publication.ReadFeed(p.feedDir, lo, int(last-lo))
	if err != nil {
		return nil, fmt.Errorf("updates: %w", err)
	}
	ids := make([]string, len(changes))
	for i, c := range changes {
		ids[i] = c.EntryID
	}
	titles, err := db.Titles(ids)
	if err != nil {
		return nil, fmt.Errorf("updates: %w", err)
	}
	var out []siteFile
	for _, pt := range parts {
		from := min(int64(len(changes)), pt.after-lo)
		to := min(int64(len(changes)), from+pt.n)
		out = append(out, siteFile{pt.path, "application/json", p.updatesBody(changes[from:to], titles, nextOf(pt.nextOfAfter))})
	}
	return out, nil
}

// updatesBody makes an updates file of changes, with the entries' names
// and token estimates.
func (p *publisher) updatesBody(changes []schemas.Change, titles map[string]export.EntryTitle, next string) []byte {
	list := make([]render.Update, len(changes))
	for i, c := range changes {
		t := titles[c.EntryID]
		list[i] = render.Update{Type: c.Type, ID: c.EntryID, At: c.At, Path: "/" + c.Slug + ".md", Title: t.Name, Tokens: t.Tokens, Seq: c.Seq}
	}
	return render.AWPUpdates(p.now, list, next)
}

// updatesPage reads a numbered page's number from its path.
func updatesPage(path string) (int64, bool) {
	rest, ok := strings.CutPrefix(path, "/awp/content/feeds/updates-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(rest, ".json"), 10, 64)
	return n, err == nil && n > 0 && strings.HasSuffix(rest, ".json")
}
