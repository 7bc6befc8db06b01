package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/synth"
	"github.com/daawid/registry/schemas"
)

// TestLoadSome_SameAsLoadingEvery: what a small run loads (by entry ID,
// by key, and every live entry whose next change is due) is each key's
// current row as loading the whole chain gives it, over a full index and
// two deltas that gave some of its entries new rows: a key due in the
// full index but not in its delta row is not loaded (issue 18).
func TestLoadSome_SameAsLoadingEvery(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, state, _ := compileSynth(t, dir, 600, 7)
	for i, n := range []int{30, 60} {
		compileReports(t, state, synth.DefaultRunNow.Add(time.Duration(i+1)*time.Hour), n, 0)
	}
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if len(st.chain) != 3 {
		t.Fatalf("the chain has %d files, not a full index and two deltas", len(st.chain))
	}
	_, all, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	var keys, ids []string
	var changes []time.Time
	for k, r := range all {
		keys = append(keys, k)
		if !r.NextChangeAt.IsZero() {
			changes = append(changes, r.NextChangeAt)
		}
	}
	sort.Strings(keys)
	sort.Slice(changes, func(i, j int) bool { return changes[i].Before(changes[j]) })
	if len(changes) < 10 {
		t.Fatalf("%d entries have a next change: too few", len(changes))
	}
	var wantKeys []string
	for i, k := range keys {
		switch i % 7 {
		case 0:
			ids = append(ids, all[k].EntryID)
		case 1:
			wantKeys = append(wantKeys, k)
		}
	}
	for _, due := range []time.Time{{}, changes[len(changes)/2], changes[len(changes)-1]} {
		_, got, err := st.LoadSome(ctx, ids, wantKeys, due)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]*EntryRow{}
		byID := map[string]bool{}
		for _, id := range ids {
			byID[id] = true
		}
		byKey := map[string]bool{}
		for _, k := range wantKeys {
			byKey[k] = true
		}
		for k, r := range all {
			if byID[r.EntryID] || byKey[k] || (r.Revision > 0 && r.RemovedAt.IsZero() && !r.NextChangeAt.IsZero() && !r.NextChangeAt.After(due)) {
				want[k] = r
			}
		}
		if len(got) != len(want) || !reflect.DeepEqual(got, want) {
			t.Errorf("due %s: loaded %d rows, loading every row and choosing gives %d (or they differ)", due, len(got), len(want))
		}
	}
}

// TestLoadChanged_SameAsTheWholeChain: the entries a delta publication
// renders after the publication of each run (the latest rows with a
// revision issued after that run) are the same whether read from the
// index files of the later runs alone, as LoadChanged does, or chosen
// from every current row; an unknown run reads the whole chain (D128).
func TestLoadChanged_SameAsTheWholeChain(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, state, _ := compileSynth(t, dir, 600, 7)
	// Reports opened on other entries each run: 30, then 60, then 45.
	for i, n := range []int{30, 60, 45} {
		compileReports(t, state, synth.DefaultRunNow.Add(time.Duration(i+1)*time.Hour), n, 100*i)
	}
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, _, err := st.committedRuns(st.db)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.chain) != 4 || len(runs) != 4 {
		t.Fatalf("%d runs and %d index files, not a full index and three deltas", len(runs), len(st.chain))
	}
	_, all, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	for i, since := range append(runs, "run_unknown") {
		var at time.Time
		if i < len(runs) {
			if err := st.db.QueryRow(`SELECT now FROM runs WHERE run_id = ?`, since).Scan(&at); err != nil {
				t.Fatal(err)
			}
		}
		want := map[string]*EntryRow{}
		for k, r := range all {
			if r.Revision > 0 && (r.RevisionRun > since || (!r.RemovedAt.IsZero() && !at.IsZero() && r.RemovedAt.After(at))) {
				want[k] = r
			}
		}
		got, err := st.LoadChanged(ctx, since)
		if err != nil {
			t.Fatal(err)
		}
		if i < len(runs)-1 && len(want) == 0 {
			t.Fatalf("no entry changed after run %d: the test shows nothing", i)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("after run %d: loaded %d rows, choosing from every row gives %d (or they differ)", i, len(got), len(want))
		}
		files := len(st.chainAfter(since))
		if wantFiles := len(runs) - 1 - i; i < len(runs) && files != wantFiles {
			t.Errorf("after run %d: %d index files read, not the %d of the later runs", i, files, wantFiles)
		}
		if i == len(runs) && files != len(st.chain) {
			t.Errorf("after an unknown run: %d index files read, not the whole chain's %d", files, len(st.chain))
		}
	}
}

// compileReports compiles a report opened at at on n live entries, from
// the offset-th in entry ID order, a minute later.
func compileReports(t *testing.T, state string, at time.Time, n, offset int) {
	t.Helper()
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rs, err := st.db.Query(`SELECT entry_id FROM entries WHERE removed_at IS NULL ORDER BY entry_id LIMIT ? OFFSET ?`, n, offset)
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `{"entry":%q,"type":"report_opened","at":%q}`+"\n", id, schemas.FormatTime(at))
	}
	rs.Close()
	st.Close()
	events := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(events, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(context.Background(), CompileConfig{StateDir: state, Verification: []string{events}, Now: at.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
}
