package pipeline

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"golang.org/x/net/idna"

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
	return OpenArchiveFS(os.DirFS(dir), dir, timeout)
}

// OpenArchiveFS is OpenArchive over a file system (the embedded archive
// of the demo); name is for errors.
func OpenArchiveFS(fsys fs.FS, name string, timeout time.Duration) (*Archive, error) {
	sites, err := sitearchive.Load(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("websites %s: %w", name, err)
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

// SiteList is a list of websites to crawl live, read from a URL: one site
// per line, a host (`schreinerei-beispiel.example`) or a URL
// (`https://schreinerei-beispiel.example/`), `#` starting a comment.
// Lines that name no site are reported and skipped.
type SiteList struct {
	crawler  *site.Crawler
	hosts    []string
	problems []Problem
}

// maxSiteList caps the list's size.
const maxSiteList = 16 << 20

// OpenSiteList fetches the list at listURL and prepares a crawler with
// opts (zero: the real network, the crawler's defaults).
func OpenSiteList(ctx context.Context, listURL string, opts site.Options) (*SiteList, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, listURL, nil)
	if err != nil {
		return nil, fmt.Errorf("websites %s: %w", listURL, err)
	}
	req.Header.Set("User-Agent", site.UserAgent)
	client := &http.Client{Timeout: 60 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("websites %s: %w", listURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("websites %s: %s", listURL, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSiteList+1))
	if err != nil {
		return nil, fmt.Errorf("websites %s: %w", listURL, err)
	}
	if len(body) > maxSiteList {
		return nil, fmt.Errorf("websites %s: longer than %d bytes", listURL, maxSiteList)
	}
	l := &SiteList{crawler: site.NewCrawler(opts)}
	seen := map[string]bool{}
	for i, line := range strings.Split(string(body), "\n") {
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		host, err := siteHost(line)
		if err != nil {
			l.problems = append(l.problems, Problem{File: listURL, Line: i + 1, Reason: err.Error()})
			continue
		}
		if !seen[host] {
			seen[host] = true
			l.hosts = append(l.hosts, host)
		}
	}
	sort.Strings(l.hosts)
	return l, nil
}

// siteHost reads the host of a list line: a host name or an http(s) URL.
func siteHost(line string) (string, error) {
	raw := line
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return "", fmt.Errorf("%q is not a host or an http(s) URL", line)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%q: only http and https sites are crawled", line)
	}
	host, err := idna.Lookup.ToASCII(strings.ToLower(u.Hostname()))
	if err != nil || !strings.Contains(host, ".") {
		return "", fmt.Errorf("%q is not a host name", line)
	}
	return host, nil
}

// Hosts lists the sites of the list.
func (l *SiteList) Hosts() []string { return l.hosts }

// Crawl reads one site over the network.
func (l *SiteList) Crawl(ctx context.Context, host, region string, now time.Time) *site.Facts {
	return l.crawler.Crawl(ctx, host, region, now)
}

// Problems are the list's lines that named no site.
func (l *SiteList) Problems() []Problem { return l.problems }
