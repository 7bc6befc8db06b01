package pipeline

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/synth"
	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
)

// TestCompile_ByKeyRangesSameAsWhole compiles the same inputs twice, once
// holding the whole registry and once by key ranges of a few hundred
// identities (issue 18: the compile in bounded memory), and finds the
// same state: identities, entry rows, revisions and the report. The runs
// cover a first run (every company new), then a second run with a changed
// register file (renamed companies, dissolved ones, new ones), owner
// revisions and verification events, then a third run with expiries.
func TestCompile_ByKeyRangesSameAsWhole(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	run1 := synth.DefaultRunNow
	regs := synthRegisters(t, synth.Config{Entries: 3000, Seed: 11, Out: data, RunNow: run1, SiteSample: -1})
	// The second run's Companies House product: every 50th company gone
	// (dissolved, D54), every 37th renamed, and the same file's rows
	// again otherwise.
	var ch string
	for _, f := range regs {
		if strings.Contains(f, "BasicCompanyData") {
			ch = f
		}
	}
	if ch == "" {
		t.Fatal("no Companies House file generated")
	}
	ch2 := filepath.Join(dir, "next", filepath.Base(ch))
	changeCompaniesHouse(t, ch, ch2, 50, 37, "A")
	ch3 := filepath.Join(dir, "third", filepath.Base(ch))
	changeCompaniesHouse(t, ch2, ch3, 43, 31, "B")
	// Two bad rows at the end of the second run's file: one its parser
	// refuses (no key to place it by), one the framing finds bad (a quote
	// never closed), which a compile by ranges keeps in memory (D123).
	badRows, err := os.OpenFile(ch2, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := badRows.WriteString("BROKEN ROW LTD,,\n\"NEVER CLOSED LTD,09999999\n"); err != nil {
		t.Fatal(err)
	}
	if err := badRows.Close(); err != nil {
		t.Fatal(err)
	}
	regs2, regs3 := []string{ch2}, []string{ch3}
	for _, f := range regs {
		if f != ch {
			regs2, regs3 = append(regs2, f), append(regs3, f)
		}
	}

	type result struct {
		reports []*Report
		dump    map[string][][]any
	}
	compileAll := func(rangeEntries int) result {
		state := filepath.Join(dir, fmt.Sprintf("state-%d", rangeEntries))
		inbox := filepath.Join(dir, fmt.Sprintf("inbox-%d", rangeEntries))
		if err := os.CopyFS(inbox, os.DirFS(filepath.Join(data, "inbox"))); err != nil {
			t.Fatal(err)
		}
		// Entries that begin with their owner (D69): compiled after the
		// last key range, as after the one pass.
		for _, e := range fixtures.Entries() {
			if e.Status == schemas.StatusUnclaimed {
				continue
			}
			e.Record.Revision = 1
			b, _ := json.Marshal(e)
			if err := os.WriteFile(filepath.Join(inbox, e.Slug+".json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ctx := context.Background()
		var res result
		runs := []CompileConfig{
			{Registers: regs, Now: run1},
			{Registers: regs2, OwnerInbox: inbox, Verification: []string{filepath.Join(data, "verification.jsonl")}, Now: run1.Add(24 * time.Hour)},
			{Registers: regs3, Now: run1.Add(200 * 24 * time.Hour)},
		}
		for i, cfg := range runs {
			cfg.StateDir, cfg.RangeEntries = state, rangeEntries
			at := time.Date(2026, 11, 1, 0, 0, i, 0, time.UTC) // the same run IDs in both states
			cfg.Clock = func() time.Time { return at }
			rep, err := Compile(ctx, cfg)
			if err != nil {
				t.Fatalf("run %d with ranges of %d: %v", i+1, rangeEntries, err)
			}
			res.reports = append(res.reports, rep)
		}
		st, err := OpenState(state)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		res.dump = map[string][][]any{
			"identities": queryAll(t, st.DB(), `SELECT key, entry_id, slug, array_to_string(old_slugs, ' '), created_at, items::VARCHAR, last_revision FROM identities ORDER BY key`),
			"entries": queryAll(t, st.DB(), `SELECT entry_id, key, slug, revision, status, claimed, held, content_hash, source_hash, updated_at,
				next_change_at, removed_at, removed_reason, revision_run, cause FROM entries ORDER BY entry_id`),
			"revisions":    queryAll(t, st.DB(), `SELECT entry_id, revision, issued_at, run_id, cause, entry FROM revisions ORDER BY entry_id, revision`),
			"declarations": queryAll(t, st.DB(), `SELECT entry_id, based_on, declared_at, file, entry FROM declarations ORDER BY entry_id`),
			"refused":      queryAll(t, st.DB(), `SELECT run_id, file, line, path, reason FROM refused ORDER BY ALL`),
		}
		return res
	}
	whole := compileAll(0)
	ranged := compileAll(400)

	for i := range whole.reports {
		w, r := *whole.reports[i], *ranged.reports[i]
		if w.KeyRanges != 1 {
			t.Errorf("run %d held the whole registry but reports %d key ranges", i+1, w.KeyRanges)
		}
		if r.KeyRanges < 5 {
			t.Errorf("run %d with ranges of 400 identities went in %d ranges", i+1, r.KeyRanges)
		}
		t.Logf("run %d: %d key ranges; read %d, compiled %d, new %d, merged %d, events %d, expired %d, removed %d",
			i+1, r.KeyRanges, r.RowsRead, r.Compiled, r.NewEntries, r.Merged, r.Events, r.Expired, r.Removed)
		w.KeyRanges, r.KeyRanges, w.Seconds = 0, 0, r.Seconds
		if !reflect.DeepEqual(w, r) {
			t.Errorf("run %d reports differ:\nwhole  %+v\nranges %+v", i+1, w, r)
		}
	}
	rep2 := whole.reports[1]
	if rep2.NewEntries == 0 || rep2.Removed == 0 || rep2.Merged == 0 || rep2.Events == 0 || rep2.Compiled == 0 {
		t.Errorf("the second run does not cover new, removed, merged and verified entries: %+v", rep2)
	}
	if refused := whole.dump["refused"]; len(refused) < 2 {
		t.Errorf("the second run's two bad rows were not both refused: %v", refused)
	}
	if whole.reports[2].Expired == 0 {
		t.Errorf("the third run expired nothing: %+v", whole.reports[2])
	}
	renamed, owners := 0, 0
	for _, row := range whole.dump["identities"] {
		if row[3] != "" {
			renamed++
		}
		if strings.HasPrefix(row[0].(string), "owner/") {
			owners++
		}
	}
	if renamed == 0 || owners == 0 {
		t.Errorf("%d identities have an old slug, %d began with their owner: the runs must rename and take new owner entries", renamed, owners)
	}
	for table, rows := range whole.dump {
		got := ranged.dump[table]
		if len(rows) == 0 && table != "refused" {
			t.Errorf("%s: empty", table)
		}
		if len(got) != len(rows) {
			t.Errorf("%s: %d rows by key ranges, %d whole", table, len(got), len(rows))
			continue
		}
		for i := range rows {
			if !reflect.DeepEqual(rows[i], got[i]) {
				t.Errorf("%s row %d differs:\nwhole  %v\nranges %v", table, i, rows[i], got[i])
				break
			}
		}
	}
}

// changeCompaniesHouse writes the next product of a Companies House file:
// every drop-th company left out, every rename-th renamed, and every 60th
// followed by a new company (tag makes its name and number new).
func changeCompaniesHouse(t *testing.T, src, dst string, drop, rename int, tag string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 0; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case n > 0 && n%drop == 0:
			continue
		case n > 0 && n%rename == 0:
			end := strings.Index(line, `","`)
			line = fmt.Sprintf(`"RENAMED %s TRADING %d LIMITED`, tag, n) + line[end:]
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if n > 0 && n%60 == 0 {
			// A new company: a new name and number, the same address.
			fields := strings.SplitN(line, `","`, 3)
			fmt.Fprintf(&b, `"NEWLY FORMED %s %d LTD","%s%06d","%s`+"\n", tag, n, map[string]string{"A": "77", "B": "78"}[tag], n, fields[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// queryAll reads every row of a query as values.
func queryAll(t *testing.T, db *sql.DB, q string) [][]any {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKeyPlace_OrderOfKeys checks what key ranges rest on: places sort as
// keys do, and a key is at or after a place exactly when it sorts at or
// after the place's key (placeKey), for keys of every length.
func TestKeyPlace_OrderOfKeys(t *testing.T) {
	keys := []string{"", "a", "de", "de/", "de/berlin-charlottenburg/hrb/1", "de/berli", "de/berlin", "de/berlio", "gb/0", "gb/00000001",
		"gb/09999991", "gb/sc123456", "owner/ent_01", "fr/123456789", "gb/0999", "gb/09999", "z", "\xff\xff\xff\xff\xff\xff\xff\xff\xff"}
	for _, a := range keys {
		for _, b := range keys {
			pa, pb := keyPlace(a), keyPlace(b)
			if a < b && pa > pb {
				t.Errorf("%q < %q but place %x > %x", a, b, pa, pb)
			}
			if got, want := a >= placeKey(pb), pa >= pb; got != want {
				t.Errorf("%q >= placeKey(%q) = %v, place order says %v", a, b, got, want)
			}
		}
	}
}

// TestRangeBounds_AtMostSizeAndWholePlaces: ranges hold at most about
// size identities (sample counts × sampleEvery, the larger of the index's
// and the rows'), are never cut inside a place, and a place bigger than
// size is a range of its own.
func TestRangeBounds_AtMostSizeAndWholePlaces(t *testing.T) {
	var idx, rows []uint64
	for p := uint64(1); p <= 100; p++ {
		n := 2 // 32 identities a place
		if p == 40 {
			n = 100 // 1,600: more than a range
		}
		for range n {
			idx = append(idx, p)
			rows = append(rows, p)
		}
	}
	rows = append(rows, 101, 101, 101) // new companies after the index's keys
	got := rangeBounds(idx, rows, 200)
	weight := func(lo, hi uint64) int {
		w := 0
		for p := lo; p < hi; p++ {
			switch {
			case p == 40:
				w += 1600
			case p == 101:
				w += 48
			case p > 0:
				w += 32
			}
		}
		return w
	}
	from := uint64(0)
	for _, b := range append(got, 102) {
		if b <= from {
			t.Fatalf("bounds not rising: %v", got)
		}
		if w := weight(from, b); w > 200 && !(from == 40 && b == 41) {
			t.Errorf("range [%d, %d) holds %d identities, more than 200 (bounds %v)", from, b, w, got)
		}
		from = b
	}
	if !slices.Contains(got, 40) || !slices.Contains(got, 41) {
		t.Errorf("the big place 40 is not a range of its own: %v", got)
	}
	if len(got) < 15 {
		t.Errorf("%d ranges for about 4,800 identities in ranges of 200", len(got)+1)
	}
	if rangeBounds(nil, nil, 200) != nil {
		t.Error("no key: more than one range")
	}
}

// TestCompile_StopsWhenCancelled: a run whose context ends (SIGTERM, an
// operator's Ctrl-C) stops reading and commits nothing.
func TestCompile_StopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	regs := synthRegisters(t, synth.Config{Entries: 2000, Seed: 3, Out: dir, RunNow: synth.DefaultRunNow, SiteSample: -1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	state := filepath.Join(dir, "state")
	for _, size := range []int{0, 300} {
		_, err := Compile(ctx, CompileConfig{StateDir: state, Registers: regs, Now: synth.DefaultRunNow, RangeEntries: size})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ranges of %d: a cancelled run ended with %v", size, err)
		}
	}
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var runs int
	if err := st.DB().QueryRow(`SELECT count(*) FROM runs`).Scan(&runs); err != nil || runs != 0 {
		t.Errorf("%d runs committed (%v)", runs, err)
	}
}

// TestScanIndexGroups_SkipsGroupsOutsideTheRange: a range's identities are
// read without reading the row groups of the index that hold none.
func TestScanIndexGroups_SkipsGroupsOutsideTheRange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[indexRow](f, parquet.MaxRowsPerRowGroup(10))
	for i := range 100 {
		if _, err := w.Write([]indexRow{{Key: fmt.Sprintf("gb/%08d", i), EntryID: fmt.Sprint(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	read, kept := 0, 0
	err = scanIndexGroups(path, "gb/00000035", "gb/00000052", func(rows []indexRow) error {
		for _, r := range rows {
			read++
			if r.Key >= "gb/00000035" && r.Key < "gb/00000052" {
				kept++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kept != 17 || read != 30 {
		t.Errorf("read %d rows (want the 30 of the three groups the range touches), %d in the range (want 17)", read, kept)
	}
}

// synthRegisters generates synthetic data and returns its register files.
func synthRegisters(t *testing.T, cfg synth.Config) []string {
	t.Helper()
	sum, err := synth.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var regs []string
	for _, f := range sum.Files {
		if filepath.Dir(f) == "registers" {
			regs = append(regs, filepath.Join(cfg.Out, f))
		}
	}
	return regs
}
