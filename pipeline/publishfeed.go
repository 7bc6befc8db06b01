package pipeline

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/feeds"
)

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
	p.feedDir = fdir
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
	reg, err := publication.OpenRegistry(p.prevDir)
	if err != nil {
		return nil, err
	}
	defer reg.Close()
	ids := make([]string, len(p.changed))
	for i, c := range p.changed {
		ids[i] = c.EntryID
	}
	states, err := reg.EntryStates(context.Background(), ids)
	if err != nil {
		return nil, err
	}
	for _, s := range states {
		out[s.EntryID] = feeds.State{EntryID: s.EntryID, Slug: s.Slug, Status: s.Status, Listed: s.Listed, Revision: s.Revision}
	}
	return out, nil
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
