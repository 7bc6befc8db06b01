package pipeline

import (
	"context"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/fixtures/sitearchive"
)

// Archive is a saved-site archive served on loopback for a run: the
// crawler fetches the archived pages over real HTTP, as it would fetch the
// live sites (tests and the demo).
type Archive struct {
	srv     *sitearchive.Server
	crawler *site.Crawler
	hosts   []string
}

// OpenArchive loads a folder of *.txtar sites and starts its server.
func OpenArchive(dir string, timeout time.Duration) (*Archive, error) {
	sites, err := sitearchive.Load(os.DirFS(dir), ".")
	if err != nil {
		return nil, fmt.Errorf("websites %s: %w", dir, err)
	}
	srv, err := sitearchive.Start(sites)
	if err != nil {
		return nil, err
	}
	a := &Archive{srv: srv, crawler: site.NewCrawler(site.Options{Delay: -1, Timeout: timeout, Transport: srv.Transport()})}
	for h := range sites {
		a.hosts = append(a.hosts, h)
	}
	sort.Strings(a.hosts)
	return a, nil
}

// Hosts lists the archived hosts.
func (a *Archive) Hosts() []string { return a.hosts }

// Crawl reads one archived site.
func (a *Archive) Crawl(ctx context.Context, host, region string, now time.Time) *site.Facts {
	return a.crawler.Crawl(ctx, host, region, now)
}

// Close stops the server.
func (a *Archive) Close() error { return a.srv.Close() }
