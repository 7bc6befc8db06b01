package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/counting"
	"github.com/daawid/registry/query/fairuse"
	"github.com/daawid/registry/query/keys"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// The test registry: every claimed fixture entry (as its owner's first
// revision, with the verification events its fixture states) and three
// companies from a Companies House product, compiled and published twice
// the way the pipeline does it (the pipeline is only the tests' way to
// make publications; the server reads the snapshot format). Between the
// runs one company leaves the register (410) and one is renamed (an old
// slug). The server's clock is after Holzwerk Krause's capacity expired
// and after the last publication, so the time guard is at work.
var reg struct {
	dir, state, out, inbox, events, chFile string
	site                                   render.Site
	removedSlug, oldSlug, newSlug          string
	removedID, renamedID                   string
	buyerKey                               string
}

var (
	run1     = time.Date(2026, 11, 20, 4, 0, 0, 0, time.UTC)
	run2     = time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	serveNow = time.Date(2026, 11, 29, 12, 0, 17, 0, time.UTC)
)

const (
	hkID   = "ent_01k8r2m5n7p9q3s4t6v8w0x2yz" // Holzwerk Krause
	hkSlug = "holzwerk-krause"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "daawid-rest-")
	if err != nil {
		panic(err)
	}
	code := 1
	if err := buildRegistry(dir); err != nil {
		fmt.Fprintln(os.Stderr, "building the test registry:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func buildRegistry(dir string) error {
	reg.dir = dir
	reg.state, reg.out, reg.inbox = filepath.Join(dir, "state"), filepath.Join(dir, "out"), filepath.Join(dir, "inbox")
	reg.events = filepath.Join(dir, "events.jsonl")
	var err error
	if reg.site, err = render.NewSite(render.DefaultBaseURL, taxonomy.Default()); err != nil {
		return err
	}
	if err := os.MkdirAll(reg.inbox, 0o755); err != nil {
		return err
	}
	var events []string
	for _, e := range fixtures.Entries() {
		if e.Status == schemas.StatusUnclaimed {
			continue
		}
		events = append(events, fixtureEvents(e)...)
		e.Record.Revision = 1 // a new entry's first revision (D69)
		b, _ := json.Marshal(e)
		if err := os.WriteFile(filepath.Join(reg.inbox, e.Slug+".json"), b, 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(reg.events, []byte(strings.Join(events, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	ctx := context.Background()
	ch1 := filepath.Join(dir, "BasicCompanyData-2026-11-01-part1_1.csv")
	if err := chProduct(ch1, nil, "09999992", "09999901"); err != nil {
		return err
	}
	cfg := pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: reg.state, Registers: []string{ch1}, OwnerInbox: reg.inbox, Verification: []string{reg.events}, Now: run1},
		Publish: pipeline.PublishConfig{StateDir: reg.state, OutDir: reg.out, Site: reg.site, Exports: true},
	}
	if _, err := pipeline.Run(ctx, cfg, "test"); err != nil {
		return err
	}
	// The second product: Hollybank has left the register, Ashdown & Pryce
	// has a new name.
	ch2 := filepath.Join(dir, "BasicCompanyData-2026-11-25-part1_1.csv")
	if err := chProduct(ch2, map[string]string{"ASHDOWN & PRYCE ACCOUNTANTS LTD": "ASHDOWN PRYCE & PARTNERS LTD"}, "09999992"); err != nil {
		return err
	}
	cfg.Compile.Registers, cfg.Compile.Now = []string{ch2}, run2
	if _, err := pipeline.Run(ctx, cfg, "test"); err != nil {
		return err
	}
	pub, err := publication.Current(reg.out)
	if err != nil {
		return err
	}
	db, err := sql.Open("duckdb", filepath.Join(pub, "registry.duckdb")+"?access_mode=read_only")
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT entry_id, slug FROM entries WHERE status = 'removed'`).Scan(&reg.removedID, &reg.removedSlug); err != nil {
		return fmt.Errorf("no removed entry: %w", err)
	}
	if err := db.QueryRow(`SELECT o.slug, o.entry_id, e.slug FROM old_slugs o JOIN entries e USING (entry_id)`).Scan(&reg.oldSlug, &reg.renamedID, &reg.newSlug); err != nil {
		return fmt.Errorf("no renamed entry: %w", err)
	}
	secret, _, err := keys.CreateKey(filepath.Join(dir, "keys.json"), "Test Buyer", run1)
	reg.buyerKey = secret
	return err
}

// fixtureEvents are the verification events that make a fixture's status
// and verification what the fixture says (D49).
func fixtureEvents(e *schemas.Entry) []string {
	var out []string
	add := func(m map[string]string) {
		m["entry"] = e.ID
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	v := e.Verification
	if v.ContactConfirmedAt != "" {
		add(map[string]string{"type": "contact_confirmed", "at": v.ContactConfirmedAt})
	}
	at := "2026-11-01T00:00:00Z"
	for _, d := range v.Domains {
		switch d.Status {
		case schemas.DomainVerified:
			add(map[string]string{"type": "domain_verified", "at": at, "host": d.Host, "method": "dns_txt"})
		case schemas.DomainGrace:
			add(map[string]string{"type": "domain_verified", "at": at, "host": d.Host, "method": "dns_txt"})
			add(map[string]string{"type": "domain_check_failed", "at": "2026-11-02T00:00:00Z", "host": d.Host, "graceUntil": d.GraceUntil})
		}
	}
	switch v.Level {
	case schemas.LevelBusiness:
		add(map[string]string{"type": "business_verified", "at": at})
	case schemas.LevelIdentity:
		add(map[string]string{"type": "identity_verified", "at": at})
	}
	if e.Status == schemas.StatusSuspended {
		add(map[string]string{"type": "suspended", "at": "2026-11-03T00:00:00Z"})
	}
	return out
}

// chProduct writes a Companies House product with the sample's rows for
// the given company numbers, names replaced as asked.
func chProduct(path string, rename map[string]string, numbers ...string) error {
	b, err := os.ReadFile("../../fixtures/registers/companies-house-sample.csv")
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	out := []string{lines[0]}
	for _, n := range numbers {
		for _, l := range lines[1:] {
			if strings.Contains(l, `,"`+n+`",`) {
				for from, to := range rename {
					l = strings.Replace(l, from, to, 1)
				}
				out = append(out, l)
			}
		}
	}
	return os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644)
}

// testServer is a real server on loopback over the test registry.
type testServer struct {
	*httptest.Server
	snaps   *query.Snapshots
	counter *counting.Counter
	now     time.Time
	srv     *rest.Server
	svc     *query.Service
}

type serverOption func(*rest.Config)

func newServer(t testing.TB, opts ...serverOption) *testServer {
	t.Helper()
	// The server's document cache is on, as in production (D74).
	snaps := query.NewSnapshots(reg.out)
	snaps.DocCacheBytes = 32 << 20
	if _, err := snaps.Refresh(); err != nil {
		t.Fatal(err)
	}
	ts := &testServer{snaps: snaps, now: serveNow}
	counter, err := counting.Open(counting.Config{Dir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.counter = counter
	cfg := rest.Config{Limiter: fairuse.NewLimiter(300), Counter: counter, Keys: filepath.Join(reg.dir, "keys.json"),
		Reports: t.TempDir(), Now: func() time.Time { return ts.now }}
	for _, o := range opts {
		o(&cfg)
	}
	ts.svc = query.NewService(snaps, reg.site)
	srv, err := rest.New(cfg, ts.svc)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = srv
	ts.Server = httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		counter.Close()
		snaps.Close()
	})
	return ts
}

// get sends a request with headers ("Name: value") and reads the answer.
func (ts *testServer) do(t *testing.T, method, path string, headers ...string) (*http.Response, []byte) {
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

func (ts *testServer) get(t *testing.T, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	return ts.do(t, http.MethodGet, path, headers...)
}

// problem decodes a problem answer and checks its media type.
func problemOf(t *testing.T, resp *http.Response, body []byte) schemas.Problem {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("%d answer is %s, not a problem: %s", resp.StatusCode, ct, body)
	}
	var p schemas.Problem
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != resp.StatusCode {
		t.Errorf("problem status %d, HTTP status %d", p.Status, resp.StatusCode)
	}
	return p
}

// copyTree copies a state or publications folder as it is (symlinks and
// all), so a test can run the pipeline on without touching the shared
// registry.
func copyTree(src, dst string) error {
	out, err := exec.Command("cp", "-a", src, dst).CombinedOutput()
	if err != nil {
		return fmt.Errorf("cp -a %s %s: %v: %s", src, dst, err, out)
	}
	return nil
}

// publishAt runs the pipeline on a copy: expiry and a delta publication at
// now. It returns the new current publication.
func publishAt(t *testing.T, state, out string, now time.Time) string {
	t.Helper()
	_, err := pipeline.Run(context.Background(), pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: state, Now: now},
		Publish: pipeline.PublishConfig{StateDir: state, OutDir: out, Site: reg.site, Delta: true},
	}, "test")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := publication.Current(out)
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

func openPub(t *testing.T, pub string) *query.Snapshot {
	t.Helper()
	sn, err := query.OpenSnapshot(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sn
}

// readDoc reads a document of a publication by path.
func readDoc(t *testing.T, pub, path string) []byte {
	t.Helper()
	sn := openPub(t, pub)
	d, ok := sn.Doc(path)
	if !ok {
		t.Fatalf("%s has no %s", pub, path)
	}
	b, err := sn.Bytes(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func docETag(t *testing.T, pub, path string) string {
	t.Helper()
	d, ok := openPub(t, pub).Doc(path)
	if !ok {
		t.Fatalf("%s has no %s", pub, path)
	}
	return d.ETag
}

// newEmptyServer serves a folder with no publication yet.
func newEmptyServer(t *testing.T) *testServer {
	t.Helper()
	snaps := query.NewSnapshots(t.TempDir())
	srv, err := rest.New(rest.Config{}, query.NewService(snaps, reg.site))
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: httptest.NewServer(srv.Handler()), snaps: snaps}
	t.Cleanup(ts.Close)
	return ts
}

// counts is a counter of reads and searches of the test's own, whose
// files DuckDB reads back once it is flushed.
type counts struct {
	*counting.Counter
	dir string
}

func newCounts(t testing.TB) counts {
	t.Helper()
	dir := t.TempDir()
	c, err := counting.Open(counting.Config{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return counts{c, dir}
}

// flushed closes the counter (flushing it) and opens DuckDB on its files:
// glob("reads") or glob("searches") names them.
func (c counts) flushed(t testing.TB) *sql.DB {
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

func (c counts) glob(kind string) string {
	return "read_parquet('" + filepath.Join(c.dir, kind, "**", "*.parquet") + "', hive_partitioning=false)"
}
