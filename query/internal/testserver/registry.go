package testserver

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
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
	"github.com/daawid/registry/query/keys"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// Registry is the test registry: every claimed fixture entry (as its
// owner's first revision, with the verification events its fixture
// states) and three companies from a Companies House product, compiled
// and published twice the way the pipeline does it (the pipeline is only
// the tests' way to make publications; the server reads the snapshot
// format). Between the runs one company leaves the register (410) and one
// is renamed (an old slug). The server's clock is after Holzwerk Krause's
// capacity expired and after the last publication, so the time guard is
// at work.
type Registry struct {
	Dir, State, Out, Inbox, Events string
	Site                           render.Site
	RemovedSlug, OldSlug, NewSlug  string
	RemovedID, RenamedID           string
	// BuyerKey is a buyer key of the store Dir/keys.json.
	BuyerKey string
}

// The runs' clocks and the server's.
var (
	Run1     = time.Date(2026, 11, 20, 4, 0, 0, 0, time.UTC)
	Run2     = time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	ServeNow = time.Date(2026, 11, 29, 12, 0, 17, 0, time.UTC)
)

// Holzwerk Krause, the contract's example entry.
const (
	HKID   = "ent_01k8r2m5n7p9q3s4t6v8w0x2yz"
	HKSlug = "holzwerk-krause"
)

// Run builds the test registry in a temporary folder, sets *reg, runs the
// tests and removes the folder; it returns the exit code (TestMain's).
func Run(m *testing.M, reg **Registry) int {
	dir, err := os.MkdirTemp("", "daawid-query-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "building the test registry:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	r, err := Build(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "building the test registry:", err)
		return 1
	}
	*reg = r
	return m.Run()
}

// Build builds the test registry in dir.
func Build(dir string) (*Registry, error) {
	reg := &Registry{Dir: dir}
	reg.State, reg.Out, reg.Inbox = filepath.Join(dir, "state"), filepath.Join(dir, "out"), filepath.Join(dir, "inbox")
	reg.Events = filepath.Join(dir, "events.jsonl")
	var err error
	if reg.Site, err = render.NewSite(render.DefaultBaseURL, taxonomy.Default()); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(reg.Inbox, 0o755); err != nil {
		return nil, err
	}
	var events []string
	for _, e := range fixtures.Entries() {
		if e.Status == schemas.StatusUnclaimed {
			continue
		}
		events = append(events, fixtureEvents(e)...)
		e.Record.Revision = 1 // a new entry's first revision (D69)
		b, _ := json.Marshal(e)
		if err := os.WriteFile(filepath.Join(reg.Inbox, e.Slug+".json"), b, 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(reg.Events, []byte(strings.Join(events, "\n")+"\n"), 0o644); err != nil {
		return nil, err
	}
	ctx := context.Background()
	ch1 := filepath.Join(dir, "BasicCompanyData-2026-11-01-part1_1.csv")
	if err := chProduct(ch1, nil, "09999992", "09999901"); err != nil {
		return nil, err
	}
	cfg := pipeline.RunConfig{
		Compile: pipeline.CompileConfig{StateDir: reg.State, Registers: []string{ch1}, OwnerInbox: reg.Inbox, Verification: []string{reg.Events}, Now: Run1},
		Publish: pipeline.PublishConfig{StateDir: reg.State, OutDir: reg.Out, Site: reg.Site, Exports: true, ServeIndexes: query.ServeIndexer(nil)},
	}
	if _, err := pipeline.Run(ctx, cfg, "test"); err != nil {
		return nil, err
	}
	// The second product: Hollybank has left the register, Ashdown & Pryce
	// has a new name.
	ch2 := filepath.Join(dir, "BasicCompanyData-2026-11-25-part1_1.csv")
	if err := chProduct(ch2, map[string]string{"ASHDOWN & PRYCE ACCOUNTANTS LTD": "ASHDOWN PRYCE & PARTNERS LTD"}, "09999992"); err != nil {
		return nil, err
	}
	cfg.Compile.Registers, cfg.Compile.Now = []string{ch2}, Run2
	if _, err := pipeline.Run(ctx, cfg, "test"); err != nil {
		return nil, err
	}
	pub, err := publication.Current(reg.Out)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("duckdb", filepath.Join(pub, "registry.duckdb")+"?access_mode=read_only")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT entry_id, slug FROM entries WHERE status = 'removed'`).Scan(&reg.RemovedID, &reg.RemovedSlug); err != nil {
		return nil, fmt.Errorf("no removed entry: %w", err)
	}
	if err := db.QueryRow(`SELECT o.slug, o.entry_id, e.slug FROM old_slugs o JOIN entries e USING (entry_id)`).Scan(&reg.OldSlug, &reg.RenamedID, &reg.NewSlug); err != nil {
		return nil, fmt.Errorf("no renamed entry: %w", err)
	}
	secret, _, err := keys.CreateKey(filepath.Join(dir, "keys.json"), "Test Buyer", Run1)
	reg.BuyerKey = secret
	return reg, err
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
	b, err := fs.ReadFile(fixtures.Demo, "registers/companies-house-sample.csv")
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

// Copy is the registry with its state and publications copied into a
// temporary folder of t, so a test can run the pipeline on (a delta
// publication over an owner inbox) without changing what the other tests
// of its package read. `cp -a` keeps the hard links a delta publication
// shares with the one before it.
func (r *Registry) Copy(t testing.TB) *Registry {
	t.Helper()
	c := *r
	dir := t.TempDir()
	for _, p := range []*string{&c.State, &c.Out} {
		dst := filepath.Join(dir, filepath.Base(*p))
		if out, err := exec.Command("cp", "-a", *p, dst).CombinedOutput(); err != nil {
			t.Fatalf("copy the test registry's %s: %v %s", filepath.Base(*p), err, out)
		}
		*p = dst
	}
	return &c
}
