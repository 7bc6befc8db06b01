package testserver

import (
	"database/sql"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/counting"
	"github.com/daawid/registry/query/fairuse"
	qmcp "github.com/daawid/registry/query/mcp"
	"github.com/daawid/registry/query/rest"
)

// Server is a real server on loopback over the test registry. Now is its
// clock: a test moves time by setting it, never by sleeping.
type Server struct {
	*httptest.Server
	Snaps   *query.Snapshots
	Counter *counting.Counter
	Now     time.Time
	REST    *rest.Server
	Service *query.Service
}

// Option changes the server's configuration.
type Option func(*rest.Config)

// New serves the test registry with the contract's fair-use limit, a
// counter of its own, the buyer keys and a reports folder; opts change
// that.
func New(t testing.TB, reg *Registry, opts ...Option) *Server {
	t.Helper()
	// The server's document cache is on, as in production (D74).
	snaps := query.NewSnapshots(reg.Out)
	snaps.DocCacheBytes = 32 << 20
	if _, err := snaps.Refresh(); err != nil {
		t.Fatal(err)
	}
	ts := &Server{Snaps: snaps, Now: ServeNow}
	counter, err := counting.Open(counting.Config{Dir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.Counter = counter
	cfg := rest.Config{Limiter: fairuse.NewLimiter(300), Counter: counter, Keys: filepath.Join(reg.Dir, "keys.json"),
		Reports: t.TempDir(), Now: func() time.Time { return ts.Now }}
	for _, o := range opts {
		o(&cfg)
	}
	ts.Service = query.NewService(snaps, reg.Site)
	srv, err := rest.New(cfg, ts.Service)
	if err != nil {
		t.Fatal(err)
	}
	ts.REST = srv
	ts.Server = httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		counter.Close()
		snaps.Close()
	})
	return ts
}

// NewEmpty serves a folder with no publication yet.
func NewEmpty(t testing.TB, reg *Registry) *Server {
	t.Helper()
	snaps := query.NewSnapshots(t.TempDir())
	srv, err := rest.New(rest.Config{}, query.NewService(snaps, reg.Site))
	if err != nil {
		t.Fatal(err)
	}
	ts := &Server{Server: httptest.NewServer(srv.Handler()), Snaps: snaps, REST: srv}
	t.Cleanup(ts.Close)
	return ts
}

// MCPOptions are the MCP endpoint's options as daawid serve gives them:
// the server's clock, and the REST mirror's fair-use limit and counting
// of reads (§7.8, §8).
func (ts *Server) MCPOptions() qmcp.Options {
	return qmcp.Options{Now: func() time.Time { return ts.Now }, Allow: ts.REST.ReadAllowed, Count: ts.REST.CountRead}
}

// MountMCP mounts the MCP endpoint at /mcp (HTTP-06) with opt.
func (ts *Server) MountMCP(opt qmcp.Options) {
	ts.REST.MountMCP(qmcp.Handler(ts.Service, opt))
}

// Do sends a request with headers ("Name: value") and reads the answer;
// redirects are answers, not followed.
func (ts *Server) Do(t testing.TB, method, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// Get is Do with GET.
func (ts *Server) Get(t testing.TB, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	return ts.Do(t, http.MethodGet, path, headers...)
}

// Counts is a counter of reads and searches of the test's own, whose
// files DuckDB reads back once it is flushed.
type Counts struct {
	*counting.Counter
	dir string
}

// NewCounts opens a counter in a temporary folder.
func NewCounts(t testing.TB) Counts {
	t.Helper()
	dir := t.TempDir()
	c, err := counting.Open(counting.Config{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Counts{c, dir}
}

// Flushed closes the counter (flushing it) and opens DuckDB on its files:
// Glob("reads") or Glob("searches") names them.
func (c Counts) Flushed(t testing.TB) *sql.DB {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Glob is the DuckDB table function reading a kind of count's files.
func (c Counts) Glob(kind string) string {
	return "read_parquet('" + filepath.Join(c.dir, kind, "**", "*.parquet") + "', hive_partitioning=false)"
}

// UserAgent sends every request with a User-Agent.
type UserAgent struct{ UA string }

// RoundTrip sends r with the User-Agent.
func (u UserAgent) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("User-Agent", u.UA)
	return http.DefaultTransport.RoundTrip(r)
}

// ChatGPT-User's and a browser's user agents: two categories of reader.
const (
	UAChatGPT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	UABrowser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
)
