package pipeline

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/schemas"
)

// chProduct writes a Companies House product file: the sample's header and
// the sample's rows for the given company numbers.
func chProduct(t *testing.T, path string, numbers ...string) {
	t.Helper()
	b, err := os.ReadFile("../fixtures/registers/companies-house-sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	out := []string{lines[0]}
	for _, n := range numbers {
		found := false
		for _, l := range lines[1:] {
			if strings.Contains(l, `,"`+n+`",`) {
				out = append(out, l)
				found = true
			}
		}
		if !found {
			t.Fatalf("company %s is not in the sample", n)
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func entryRow(t *testing.T, state, key string) (removed sql.NullString, revision int) {
	t.Helper()
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.DB().QueryRow(`SELECT removed_reason, revision FROM entries WHERE key = ?`, key).Scan(&removed, &revision); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return removed, revision
}

// TestCompile_DissolvedByAbsence_D54: a company the next complete
// BasicCompanyData product leaves out has left the register; a product
// read only in part removes nobody.
func TestCompile_DissolvedByAbsence_D54(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	oct := filepath.Join(dir, "BasicCompanyData-2026-10-01-part1_1.csv")
	chProduct(t, oct, "09999991", "09999992", "09999901")
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{oct}, Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	// One part of two: incomplete, Hollybank (09999901) stays.
	novA := filepath.Join(dir, "BasicCompanyData-2026-11-01-part1_2.csv")
	chProduct(t, novA, "09999991")
	rep, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{novA}, Now: time.Date(2026, 11, 2, 4, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Removed != 0 {
		t.Fatalf("an incomplete product removed %d entries", rep.Removed)
	}
	if reason, _ := entryRow(t, state, "gb/09999901"); reason.Valid {
		t.Fatalf("removed after an incomplete product: %s", reason.String)
	}
	// The whole December product, without Hollybank.
	dec := filepath.Join(dir, "BasicCompanyData-2026-12-01-part1_1.csv")
	chProduct(t, dec, "09999991", "09999992")
	rep, err = Compile(ctx, CompileConfig{StateDir: state, Registers: []string{dec}, Now: time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Removed != 1 {
		t.Fatalf("removed %d entries, want 1 (Hollybank Bakehouse)", rep.Removed)
	}
	reason, before := entryRow(t, state, "gb/09999901")
	if !strings.Contains(reason.String, "no longer in Companies House BasicCompanyData") {
		t.Fatalf("removed reason %q", reason.String)
	}
	if r, _ := entryRow(t, state, "gb/09999991"); r.Valid {
		t.Fatalf("Thornbury & Hale removed: %s", r.String)
	}
	// Hollybank back in January's product: listed again, same entry.
	jan := filepath.Join(dir, "BasicCompanyData-2027-01-01-part1_1.csv")
	chProduct(t, jan, "09999901", "09999991", "09999992") // not October's bytes: a new file
	rep, err = Compile(ctx, CompileConfig{StateDir: state, Registers: []string{jan}, Now: time.Date(2027, 1, 2, 4, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if reason, rev := entryRow(t, state, "gb/09999901"); reason.Valid || rev <= before {
		t.Fatalf("after coming back: removed %v, revision %d (want listed again, after revision %d)", reason, rev, before)
	}
}

// TestCompile_ReportWindowSurvivesRecompile: an open report window (§2.2
// noindex) on an unclaimed entry stays when its register row changes.
func TestCompile_ReportWindowSurvivesRecompile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	reg := filepath.Join(dir, "BasicCompanyData-2026-10-01-part1_1.csv")
	chProduct(t, reg, "09999901", "09999902")
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{reg}, Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	var entryID string
	if err := st.DB().QueryRow(`SELECT entry_id FROM entries WHERE key = 'gb/09999901'`).Scan(&entryID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	events := filepath.Join(dir, "events.jsonl")
	ev, _ := json.Marshal(map[string]string{"entry": entryID, "type": "report_opened", "at": "2026-10-03T10:00:00Z"})
	if err := os.WriteFile(events, append(ev, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{reg}, Verification: []string{events}, Now: time.Date(2026, 10, 4, 4, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	// That run compiled no register file: it loaded only Hollybank and wrote
	// its index as a delta (D57); the views show one row per entry.
	st, err = OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.chain) != 2 || !strings.HasSuffix(st.chain[1], ".delta.parquet") {
		t.Fatalf("index chain after the events run: %v", st.chain)
	}
	var rows, keys int
	var open sql.NullString
	if err := st.DB().QueryRow(`SELECT count(*), count(DISTINCT key) FROM entries`).Scan(&rows, &keys); err != nil || rows != 2 || keys != 2 {
		t.Fatalf("entries view over the chain: %d rows, %d keys, %v", rows, keys, err)
	}
	if err := st.DB().QueryRow(`SELECT r.entry::JSON->'record'->>'openReportAt' FROM entries e JOIN revisions r USING (entry_id, revision) WHERE e.entry_id = ?`, entryID).Scan(&open); err != nil || open.String != "2026-10-03T10:00:00Z" {
		t.Fatalf("the report through the views: %v %v", open, err)
	}
	st.Close()
	// The next product moves Hollybank to another street.
	b, _ := os.ReadFile(reg)
	moved := filepath.Join(dir, "BasicCompanyData-2026-10-05-part1_1.csv")
	if err := os.WriteFile(moved, []byte(strings.Replace(string(b), "UNIT 7 KIRKSTALL MILLS", "UNIT 9 KIRKSTALL MILLS", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{moved}, Now: time.Date(2026, 10, 6, 4, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Compiled != 1 {
		t.Fatalf("compiled %d revisions, want 1 (the moved company)", rep.Compiled)
	}
	st, err = OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := st.Revision(ctx, entryID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e.Record.OpenReportAt != "2026-10-03T10:00:00Z" {
		t.Fatalf("openReportAt = %q after the recompile, want the report's time", e.Record.OpenReportAt)
	}
	if !strings.Contains(e.Locations[0].Address.Street, "Unit 9") {
		t.Fatalf("the new address was not compiled: %+v", e.Locations[0].Address)
	}
	if noindex, _ := e.HTMLNoindex(); !noindex {
		t.Fatal("the entry is not noindex inside its report window")
	}
}

// TestState_ViewsExplainThemselves: an analyst opening state.duckdb finds
// the identities, entries and revisions as views over the run files, with
// comments, and can read an entry's JSON with DuckDB's JSON functions.
func TestState_ViewsExplainThemselves(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	cfg := CompileConfig{StateDir: state, Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl"},
		Seed: "../fixtures/compile/identity-seed.json", Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	rep, err := Compile(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.DB()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM duckdb_views() WHERE view_name IN ('identities', 'entries', 'revisions') AND length(comment) > 40`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("views with comments: %d, %v", n, err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM revisions`).Scan(&n); err != nil || int64(n) != rep.Compiled {
		t.Fatalf("revisions: %d (%v), the run compiled %d", n, err, rep.Compiled)
	}
	var name, slug string
	err = db.QueryRow(`SELECT r.entry::JSON->>'displayName', e.slug FROM entries e JOIN revisions r ON r.entry_id = e.entry_id AND r.revision = e.revision WHERE e.key = 'de/wuppertal/hrb/99901'`).Scan(&name, &slug)
	if err != nil || name != "Holzwerk Krause" || slug != "holzwerk-krause" {
		t.Fatalf("Holzwerk Krause through the views: %q %q %v", name, slug, err)
	}
	var items string
	if err := db.QueryRow(`SELECT items::VARCHAR FROM identities WHERE key = 'de/wuppertal/hrb/99901'`).Scan(&items); err != nil || !strings.Contains(items, "location:register") {
		t.Fatalf("seeded item IDs: %q %v", items, err)
	}
	var created time.Time
	if err := db.QueryRow(`SELECT created_at FROM identities WHERE key = 'de/wuppertal/hrb/99901'`).Scan(&created); err != nil || created.IsZero() {
		t.Fatalf("created_at: %v %v", created, err)
	}
	// The run's current revision is where the index says.
	e, err := st.Revision(ctx, "ent_01k8r2m5n7p9q3s4t6v8w0x2yz", 0)
	if err != nil || e.DisplayName != "Holzwerk Krause" || e.Status != schemas.StatusUnclaimed {
		t.Fatalf("current revision: %+v %v", e, err)
	}
}
