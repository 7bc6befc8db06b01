package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/temoto/robotstxt"
	"golang.org/x/net/html/charset"
)

// UserAgent is how the crawler names itself, with where to read about it.
const UserAgent = "DaawidBot/0.1 (+https://daawid.example/docs/bot)"

// robotsAgent is the name robots.txt groups are matched against.
const robotsAgent = "DaawidBot"

// Crawler fetches business websites politely. The zero value is not
// usable; use NewCrawler.
type Crawler struct {
	client       *http.Client
	delay        time.Duration
	timeout      time.Duration
	maxBytes     int64
	maxRedirects int
	// rewrite maps the canonical https URL of a page to the URL fetched;
	// tests and the demo fetch the saved-site archive over plain http.
	rewrite func(*url.URL) *url.URL

	mu    sync.Mutex
	hosts map[string]*hostSlot
}

// hostSlot keeps one request at a time per host, with the delay between.
type hostSlot struct {
	mu   sync.Mutex
	last time.Time
}

// Options configure a Crawler; zero fields take the defaults.
type Options struct {
	Delay        time.Duration // between two requests to one host; default 1 s
	Timeout      time.Duration // per request, headers and body; default 15 s
	MaxBytes     int64         // per page; default 2 MiB
	MaxRedirects int           // default 5
	// DialContext replaces the network dialer (the saved-site archive's
	// loopback server in tests and the demo).
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// PlainHTTP fetches https pages over http (the archive serves http).
	PlainHTTP bool
	// Transport replaces the whole transport (the archive's, which also
	// tells its server the request was meant as https).
	Transport http.RoundTripper
}

// NewCrawler makes a crawler.
func NewCrawler(o Options) *Crawler {
	if o.Delay == 0 {
		o.Delay = time.Second
	}
	if o.Delay < 0 {
		o.Delay = 0
	}
	if o.Timeout == 0 {
		o.Timeout = 15 * time.Second
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = 2 << 20
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = 5
	}
	tr := &http.Transport{
		Proxy:                 nil,
		MaxIdleConnsPerHost:   1,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: o.Timeout,
		TLSHandshakeTimeout:   10 * time.Second,
	}
	if o.DialContext != nil {
		tr.DialContext = o.DialContext
	} else {
		tr.DialContext = (&net.Dialer{Timeout: 10 * time.Second}).DialContext
	}
	c := &Crawler{delay: o.Delay, timeout: o.Timeout, maxBytes: o.MaxBytes, maxRedirects: o.MaxRedirects, hosts: map[string]*hostSlot{}}
	var rt http.RoundTripper = tr
	if o.Transport != nil {
		rt = o.Transport
	}
	c.client = &http.Client{
		Transport: rt,
		// Redirects are followed by fetch itself, so each hop is checked
		// against robots.txt, counted and looked at for loops.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	c.rewrite = func(u *url.URL) *url.URL { return u }
	if o.PlainHTTP {
		c.rewrite = func(u *url.URL) *url.URL {
			v := *u
			v.Scheme = "http"
			return &v
		}
	}
	return c
}

func (c *Crawler) slot(host string) *hostSlot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.hosts[host]
	if !ok {
		s = &hostSlot{}
		c.hosts[host] = s
	}
	return s
}

// fetched is one page as it arrived.
type fetched struct {
	url    *url.URL // canonical, after redirects
	status int
	body   []byte // decoded to UTF-8
}

var errDisallowed = errors.New("robots.txt disallows it")

// get makes one request, waiting for the host's turn.
func (c *Crawler) get(ctx context.Context, u *url.URL) (*http.Response, []byte, error) {
	s := c.slot(u.Hostname())
	s.mu.Lock()
	defer s.mu.Unlock()
	if wait := c.delay - time.Since(s.last); !s.last.IsZero() && wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, nil, ctx.Err()
		case <-t.C:
		}
	}
	defer func() { s.last = time.Now() }()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.rewrite(u).String(), nil)
	if err != nil {
		return nil, nil, err
	}
	req.Host = u.Host
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	req.Header.Set("Accept-Language", "de,en;q=0.8,*;q=0.5")
	resp, err := c.client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, nil, fmt.Errorf("no answer within %s", c.timeout)
		}
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBytes+1))
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, nil, fmt.Errorf("no whole answer within %s", c.timeout)
		}
		return nil, nil, err
	}
	if int64(len(body)) > c.maxBytes {
		return resp, nil, fmt.Errorf("larger than %d bytes", c.maxBytes)
	}
	return resp, body, nil
}

// fetch gets a page of the site, following redirects on the same site, each
// checked against robots.txt.
func (c *Crawler) fetch(ctx context.Context, u *url.URL, robots *robotstxt.Group) (*fetched, error) {
	seen := map[string]bool{}
	for hop := 0; ; hop++ {
		if robots != nil && !robots.Test(u.EscapedPath()) {
			return nil, errDisallowed
		}
		key := u.String()
		if seen[key] {
			return nil, fmt.Errorf("redirect loop at %s", key)
		}
		seen[key] = true
		resp, body, err := c.get(ctx, u)
		if err != nil {
			return nil, err
		}
		switch {
		case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "":
			if hop >= c.maxRedirects {
				return nil, fmt.Errorf("more than %d redirects", c.maxRedirects)
			}
			next, err := u.Parse(resp.Header.Get("Location"))
			if err != nil {
				return nil, fmt.Errorf("bad redirect %q", resp.Header.Get("Location"))
			}
			// http → https on the same host is the same site; another host is not.
			if !sameSite(next, u) {
				return nil, fmt.Errorf("redirects to another site (%s)", next.Host)
			}
			next.Scheme = "https"
			next.Fragment = ""
			u = next
			continue
		case resp.StatusCode != http.StatusOK:
			return &fetched{url: u, status: resp.StatusCode}, fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		ct := resp.Header.Get("Content-Type")
		if ct != "" && !strings.Contains(ct, "html") && !strings.Contains(ct, "text/plain") {
			return nil, fmt.Errorf("not HTML (%s)", ct)
		}
		return &fetched{url: u, status: resp.StatusCode, body: decode(body, ct)}, nil
	}
}

// decode turns a page into UTF-8, from the charset of its Content-Type or
// of its <meta> tags (ISO-8859-1, windows-1252, …).
func decode(body []byte, contentType string) []byte {
	enc, name, _ := charset.DetermineEncoding(body, contentType)
	if name == "utf-8" || enc == nil {
		return bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	return out
}

// robots reads the site's robots.txt: missing (4xx) allows everything; a
// server error or no answer allows nothing this time, as Google does.
func (c *Crawler) robots(ctx context.Context, base *url.URL) (*robotstxt.Group, error) {
	u := *base
	u.Path, u.RawQuery = "/robots.txt", ""
	resp, body, err := c.get(ctx, &u)
	if err != nil {
		return nil, fmt.Errorf("robots.txt: %w", err)
	}
	status := resp.StatusCode
	if status >= 300 && status < 400 {
		status = http.StatusNotFound // a moved robots.txt is treated as none; the pages' own redirects are checked
	}
	data, err := robotstxt.FromStatusAndBytes(status, body)
	if err != nil {
		return nil, fmt.Errorf("robots.txt: %w", err)
	}
	return data.FindGroup(robotsAgent), nil
}

// Crawl reads a site: robots.txt, the home page, and the legal notice page
// it links to (or the legal notice in its footer). region is the site's
// country for national phone numbers; now is the observation date.
func (c *Crawler) Crawl(ctx context.Context, host, region string, now time.Time) *Facts {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	home := &url.URL{Scheme: "https", Host: host, Path: "/"}
	f := &Facts{Host: host, HomeURL: home.String(), ObservedAt: now.UTC().Truncate(time.Second)}
	robots, err := c.robots(ctx, home)
	if err != nil {
		f.Problems = append(f.Problems, err.Error())
		return f
	}
	hp, err := c.fetch(ctx, home, robots)
	if err != nil {
		f.Problems = append(f.Problems, "home page: "+err.Error())
		return f
	}
	f.HomeURL = hp.url.String()
	homePage, err := parse(hp)
	if err != nil {
		f.Problems = append(f.Problems, "home page: "+err.Error())
		return f
	}
	pages := []Page{homePage}
	var legal *Page
	for _, link := range homePage.LegalLinks {
		lu, err := url.Parse(link)
		if err != nil {
			continue
		}
		lu.Scheme = "https"
		lp, err := c.fetch(ctx, lu, robots)
		if err != nil {
			f.Problems = append(f.Problems, "legal notice "+lu.String()+": "+err.Error())
			continue
		}
		page, err := parse(lp)
		if err != nil {
			f.Problems = append(f.Problems, "legal notice: "+err.Error())
			continue
		}
		pages = append(pages, page)
		legal = &pages[len(pages)-1]
		f.LegalURL = lp.url.String()
		break
	}
	if legal == nil && hasLegalHeading(homePage.Lines) {
		legal = &pages[0] // the notice is in the home page's footer
		f.LegalURL = f.HomeURL
	}
	for _, p := range pages {
		structuredFacts(f, p.Structured, region)
		for _, tel := range p.Phones {
			if e, ok := E164(tel, region); ok {
				f.Phones = appendNew(f.Phones, e)
			}
		}
		for _, m := range p.Emails {
			if e := cleanEmail(m); e != "" {
				f.Emails = appendNew(f.Emails, e)
			}
		}
		f.Profiles = appendAll(f.Profiles, p.Profiles)
	}
	f.Profiles = appendAll(f.Profiles, f.SameAs)
	if legal != nil {
		f.Legal = ParseLegal(legal.Lines, region)
		f.Legal.FoundOnURL = f.LegalURL
	}
	return f
}

func hasLegalHeading(lines []string) bool {
	for _, l := range lines {
		if headingRE.MatchString(strings.TrimSpace(l)) {
			return true
		}
	}
	return false
}

func parse(p *fetched) (Page, error) {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(p.body))
	if err != nil {
		return Page{}, err
	}
	return ExtractPage(p.url.String(), doc), nil
}
