package compile_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/sitearchive"
	"github.com/daawid/registry/fixtures/websites"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

func seededIdentities(t *testing.T) *compile.Identities {
	b, err := os.ReadFile("../fixtures/compile/identity-seed.json")
	if err != nil {
		t.Fatal(err)
	}
	var seed []*compile.Identity
	if err := json.Unmarshal(b, &seed); err != nil {
		t.Fatal(err)
	}
	ids := compile.NewIdentities()
	for _, id := range seed {
		ids.Add(id)
	}
	return ids
}

func orRecord(t *testing.T, number string) *register.Record {
	f, err := os.Open("../fixtures/registers/offeneregister-sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := register.NewOffeneRegister(f, "offeneregister-sample.jsonl")
	for {
		rec, err := r.Next()
		if err == io.EOF {
			t.Fatalf("no record %s", number)
		}
		var re *register.RowError
		if errors.As(err, &re) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Register.Number == number {
			return rec
		}
	}
}

func crawler(t *testing.T) *site.Crawler {
	sites, err := sitearchive.Load(websites.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sitearchive.Start(sites)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return site.NewCrawler(site.Options{Delay: -1, Timeout: 2 * time.Second, DialContext: srv.DialContext, PlainHTTP: true})
}

func newCompiler() *compile.Compiler {
	tax := taxonomy.Default()
	return compile.NewCompiler(compile.NewCategorizer(tax), tax)
}

// TestUnclaimed_MD23_SchreinereiBeispiel compiles the contract's unclaimed
// example from its register record and its saved website, at the example's
// date, and renders it: the markdown is §3.7 byte for byte.
func TestUnclaimed_MD23_SchreinereiBeispiel(t *testing.T) {
	now := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	rec := orRecord(t, "99902")
	web := crawler(t).Crawl(context.Background(), "schreinerei-beispiel.example", "DE", now)
	if len(web.Problems) > 0 {
		t.Fatalf("crawl: %v", web.Problems)
	}
	id, ok := seededIdentities(t).ByKey(rec.Key)
	if !ok {
		t.Fatalf("no seeded identity for %s", rec.Key)
	}
	e := newCompiler().Unclaimed(rec, web, id, nil, now)
	b, _ := json.Marshal(e)
	if _, issues := schemas.Validate(b); len(issues) > 0 {
		t.Fatalf("the compiled entry does not validate:\n%v", issues)
	}
	got := render.Markdown(e, "de", renderSite(t))
	if want := fixtures.Spec("schreinerei-beispiel.de.md"); string(got) != string(want) {
		t.Errorf("compiled markdown differs from §3.7:\n--- got\n%s", got)
	}
	// Idempotence: the same inputs again make no new revision.
	again := newCompiler().Unclaimed(rec, web, id, e, now.Add(24*time.Hour))
	if again != e {
		t.Errorf("recompiling the same sources issued revision %d", again.Record.Revision)
	}
}

// The pooled encoder writes what json.Marshal writes, byte for byte.
func TestEntryJSONIsMarshal(t *testing.T) {
	for _, e := range fixtures.Entries() {
		name := e.Slug
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got, err := compile.EntryJSON(e)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: EntryJSON differs from json.Marshal", name)
		}
	}
}

// ContentHashJSON of an entry's JSON is ContentHash of the entry, for
// every fixture and with revision and dates changed.
func TestContentHashJSON(t *testing.T) {
	for _, e := range fixtures.Entries() {
		js, err := compile.EntryJSON(e)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := compile.ContentHashJSON(js), compile.ContentHash(e); got != want {
			t.Errorf("%s: ContentHashJSON %s, ContentHash %s", e.Slug, got, want)
		}
		c := e.Clone()
		c.Record.Revision += 40
		c.Record.UpdatedAt = "2031-01-01T00:00:00Z"
		for i := range c.Provenance {
			c.Provenance[i].ObservedAt = "2031-01-02T00:00:00Z"
		}
		js2, _ := compile.EntryJSON(c)
		if compile.ContentHashJSON(js2) != compile.ContentHash(e) {
			t.Errorf("%s: the hash changed with the revision and dates", e.Slug)
		}
		c.DisplayName += " (neu)"
		js3, _ := compile.EntryJSON(c)
		if compile.ContentHashJSON(js3) == compile.ContentHash(e) {
			t.Errorf("%s: the hash did not change with the name", e.Slug)
		}
	}
}
