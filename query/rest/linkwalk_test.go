package rest_test

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/cmd/daawid/demo"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/fairuse"
	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/query/rest"
)

// The link walker (issue 15, DISC-06): the registry publishes no dead
// link. It reads what a new reader or an agent reads first and follows
// every link on the registry's own origins (pages, API, MCP), as a
// crawler would, and every address a published document names; each
// must answer 200, or a redirect the docs document (an old slug's 301,
// the default language's 301, /id/{id}'s 303) that ends in a 200.

// walkSeeds are where readers start: llms.txt, robots.txt, the AWP
// files, the server card, the AI catalog, the sitemap, the pages for
// people (the home page, the API and the docs, the privacy notice, the
// vocabulary) and the published schemas' index.
var walkSeeds = []string{"/", "/llms.txt", "/robots.txt", "/.well-known/agentic-web-protocol.json", "/awp/manifest.json",
	"/mcp/server-card", "/.well-known/ai-catalog.json", "/sitemap.xml", "/docs/api", "/docs/ranking", "/privacy", "/ns", "/schemas/0.1/"}

// notWalked are the addresses on the registry's origins that are not
// documents to GET, with the reason; every other one is walked.
var notWalked = []struct {
	re     *regexp.Regexp
	reason string
}{
	{regexp.MustCompile(`\{[^}]*\}`), "a URL template ({slug}, {host}), not an address"},
	{regexp.MustCompile(`^/mcp$`), "the MCP endpoint: JSON-RPC over POST (HTTP-06), tested by the MCP tests"},
	{regexp.MustCompile(`^/v1/actions/act_[^/]+/runs$`), "starting a run is a POST; a GET answers 405 with how (§8)"},
	{regexp.MustCompile(`^/v1$`), "the API's base URL (the AWP manifest's base_url), under which the routes are"},
	{regexp.MustCompile(`^/v1/search$`), "the search endpoint named as an endpoint (AWP manifest): it needs q, and answers 422 without it as /docs/api says"},
}

// walker walks the registry's links from a set of paths.
type walker struct {
	t       *testing.T
	ts      *testServer
	reg     *testserver.Registry // the registry walked
	origins []string             // the site's base, API and MCP origins
	key     string               // the buyer key, for the feeds that need one
	seen    map[string]bool
	from    map[string]string // an address, to the first document that named it
	dead    map[string]string // an address, to what it answered
}

func newWalker(t *testing.T) *walker { return newWalkerOf(t, reg) }

// newWalkerOf walks the publication of another registry.
func newWalkerOf(t *testing.T, r *testserver.Registry) *walker {
	// The walk reads thousands of addresses from one address at a fixed
	// clock: the fair-use limit is set past that, since it is not what
	// this test is about.
	ts := &testServer{testserver.New(t, r, func(c *rest.Config) { c.Limiter = fairuse.NewLimiter(1 << 30) })}
	mcp, _ := url.Parse(r.Site.MCPURL)
	return &walker{t: t, ts: ts, reg: r, origins: []string{r.Site.BaseURL, r.Site.APIURL, mcp.Scheme + "://" + mcp.Host},
		key: r.BuyerKey, seen: map[string]bool{}, from: map[string]string{}, dead: map[string]string{}}
}

// local gives the path (and query) of an address on one of the
// registry's origins; ok is false for any other address.
func (w *walker) local(addr string) (string, bool) {
	if strings.HasPrefix(addr, "/") && !strings.HasPrefix(addr, "//") {
		return addr, true
	}
	for _, o := range w.origins {
		if rest, ok := strings.CutPrefix(addr, o); ok && (rest == "" || rest[0] == '/' || rest[0] == '?') {
			if rest == "" {
				rest = "/"
			}
			return rest, true
		}
	}
	return "", false
}

// skipped says why an address is not walked, or "".
func (w *walker) skipped(path string) string {
	p, _, _ := strings.Cut(path, "?")
	for _, n := range notWalked {
		if n.re.MatchString(p) {
			return n.reason
		}
	}
	return ""
}

// fetch GETs a path, following redirects on the registry's origins, and
// gives the final answer's status, media type and body.
func (w *walker) fetch(path string) (int, string, []byte, error) {
	for hop := 0; hop < 5; hop++ {
		req, err := http.NewRequest(http.MethodGet, w.ts.URL+path, nil)
		if err != nil {
			return 0, "", nil, err
		}
		if strings.HasPrefix(path, "/v1/changes") || strings.HasPrefix(path, "/v1/exports") {
			req.Header.Set("Authorization", "Bearer "+w.key)
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, "", nil, err
		}
		switch resp.StatusCode {
		case http.StatusMovedPermanently, http.StatusSeeOther, http.StatusPermanentRedirect:
			next, ok := w.local(resp.Header.Get("Location"))
			if !ok {
				return 0, "", nil, fmt.Errorf("redirects off the registry to %s", resp.Header.Get("Location"))
			}
			path = next
			continue
		}
		return resp.StatusCode, resp.Header.Get("Content-Type"), body, nil
	}
	return 0, "", nil, fmt.Errorf("more than 5 redirects")
}

// walk reads each path and, when follow, every same-origin address the
// answers name, until none is left.
func (w *walker) walk(follow bool, paths ...string) {
	queue := slices.Clone(paths)
	for _, p := range paths {
		w.seen[p] = true
	}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		status, media, body, err := w.fetch(path)
		switch {
		case err != nil:
			w.dead[path] = err.Error()
			continue
		case status == http.StatusGone && w.removed(path):
			continue // identifiers.md §4: an entry that left answers 410
		case status != http.StatusOK:
			w.dead[path] = fmt.Sprintf("%d %.120s", status, body)
			continue
		}
		for _, addr := range addresses(path, media, body) {
			next, ok := w.local(addr)
			if !ok || w.skipped(next) != "" {
				continue
			}
			next, _, _ = strings.Cut(next, "#")
			if next == "" || w.seen[next] {
				continue
			}
			w.seen[next] = true
			w.from[next] = path
			if follow {
				queue = append(queue, next)
			} else {
				w.dead[next] = "" // checked below
			}
		}
	}
}

// removed reports whether a path is a removed entry's document, which
// the change feed names (a `removed` change) and which answers 410 Gone
// as identifiers.md §4 documents.
func (w *walker) removed(path string) bool {
	slug := w.reg.RemovedSlug
	if slug == "" {
		return false
	}
	return strings.HasPrefix(path, "/"+slug+".") || strings.HasPrefix(path, "/"+slug+"/") || path == "/"+slug
}

// report fails the test for every dead address, naming where it was
// found, in path order.
func (w *walker) report() {
	var dead []string
	for p := range w.dead {
		dead = append(dead, p)
	}
	slices.Sort(dead)
	for _, p := range dead {
		w.t.Errorf("dead link %s (named by %s): %s", p, w.from[p], w.dead[p])
	}
}

var (
	absoluteURL = regexp.MustCompile(`https?://[^\s"'<>()\[\]\\]+`)
	hrefAttr    = regexp.MustCompile(`(?:href|src|action)="(/[^"]*)"`)
	mdLink      = regexp.MustCompile(`\]\((/[^)\s]+)\)`)
)

var (
	fencedBlock = regexp.MustCompile("(?s)\n```+text\n.*?\n```+\n")
	preBlock    = regexp.MustCompile(`(?s)<pre>.*?</pre>`)
)

// addresses are the addresses a document names: absolute URLs anywhere
// in it, root-relative links of HTML and markdown, and, in the AWP
// files, every JSON string value that is a root-relative path (they give
// paths; elsewhere such strings are JSON pointers of provenance). Quoted
// text (a fenced text block, <pre>: the data contract's own examples,
// whose fictional entries are not this registry's) names no address.
func addresses(path, media string, body []byte) []string {
	text := string(body)
	if strings.HasPrefix(media, "text/html") {
		text = html.UnescapeString(preBlock.ReplaceAllString(text, ""))
	} else if strings.HasPrefix(media, "text/markdown") {
		text = fencedBlock.ReplaceAllString(text, "\n")
	}
	out := absoluteURL.FindAllString(text, -1)
	for i, u := range out {
		out[i] = strings.TrimRight(u, ".,;:`*")
	}
	for _, m := range hrefAttr.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	if strings.HasPrefix(path, "/awp/") || path == "/.well-known/agentic-web-protocol.json" {
		var v any
		if json.Unmarshal(body, &v) == nil {
			jsonPaths(v, &out)
		}
	}
	return out
}

func jsonPaths(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, " \n") {
			*out = append(*out, v)
		}
	case []any:
		for _, x := range v {
			jsonPaths(x, out)
		}
	case map[string]any:
		for _, x := range v {
			jsonPaths(x, out)
		}
	}
}

// TestLinks_DISC06_NoDeadEnds walks the registry as a new reader and a
// crawler would, from llms.txt, the AWP files, the server card, the AI
// catalog, the sitemap and the pages for people, following every link on
// the registry's origins into every entry's documents (markdown, page,
// JSON-LD, view, offerings, legal and privacy pages): every one answers
// 200 or a documented redirect to a 200 (DISC-06).
func TestLinks_DISC06_NoDeadEnds(t *testing.T) {
	w := newWalker(t)
	w.walk(true, walkSeeds...)
	if len(w.seen) < 100 {
		t.Errorf("the walk reached only %d addresses: it does not follow links", len(w.seen))
	}
	for _, want := range []string{"/docs/data-contract.md", "/docs/entry-schema", "/docs/prices.md", "/holzwerk-krause.md", "/holzwerk-krause.json", "/holzwerk-krause/en.md", "/holzwerk-krause/impressum",
		"/v1/entries/ent_01k8r2m5n7p9q3s4t6v8w0x2yz", "/schemas/0.1/entry.json"} {
		if !w.seen[want] {
			t.Errorf("the walk never reached %s", want)
		}
	}
	w.report()
}

// TestLinks_DISC06_EveryPublishedAddressAnswers reads every document of
// the publication (every entry's documents in every language and every
// registry-level file, listed or not) and asks the server for every
// address on the registry's origins it names: none may be dead.
func TestLinks_DISC06_EveryPublishedAddressAnswers(t *testing.T) {
	dir, err := publication.Current(reg.Out)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := publication.ReadPublicationDocs(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := publication.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, d := range append(docs, m.Site...) {
		if d.Path != "" && d.Kind != publication.KindRemoved {
			paths = append(paths, d.Path)
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	w := newWalker(t)
	w.walk(false, paths...)
	named := 0
	for p, v := range w.dead {
		if v == "" {
			delete(w.dead, p)
			named++
			if status, _, body, err := w.fetch(p); (err != nil || status != http.StatusOK) && !(status == http.StatusGone && w.removed(p)) {
				w.dead[p] = fmt.Sprintf("%d %v %.120s", status, err, body)
			}
		}
	}
	if named < 50 {
		t.Errorf("the documents named only %d addresses: the scan finds no links", named)
	}
	w.report()
}

// TestLinks_DISC06_DemoHasNoDeadEnds: the same walk over the publication
// `daawid demo` makes (the bundled register samples, the saved websites,
// Holzwerk Krause's owner revision), served as the demo serves it, at the
// demo's own clock: zero dead links there too.
func TestLinks_DISC06_DemoHasNoDeadEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo's runs are skipped in -short mode")
	}
	dir := t.TempDir()
	d, err := demo.Prepare(dir, reg.Site, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// The buyer key of the test registry opens the demo's feeds too.
	keys, err := os.ReadFile(filepath.Join(reg.Dir, "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keys.json"), keys, 0o600); err != nil {
		t.Fatal(err)
	}
	w := newWalkerOf(t, &testserver.Registry{Dir: dir, Out: d.Out, Site: reg.Site, BuyerKey: reg.BuyerKey})
	w.ts.Now = time.Now().UTC() // the demo publishes at the wall clock
	w.walk(true, walkSeeds...)
	if len(w.seen) < 100 {
		t.Errorf("the walk reached only %d addresses of the demo", len(w.seen))
	}
	for _, want := range []string{"/holzwerk-krause.md", "/holzwerk-krause", "/docs/data-contract.md", "/assets/fonts/lora/font.css"} {
		if !w.seen[want] {
			t.Errorf("the walk never reached %s", want)
		}
	}
	w.report()
}
