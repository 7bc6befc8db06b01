package pipeline

import (
	"context"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/daawid/registry/fixtures/synth"
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
		at := synth.DefaultRunNow.Add(time.Duration(i+1) * time.Hour)
		events := filepath.Join(dir, "events.jsonl")
		if err := ReportEvents(state, events, n, at); err != nil {
			t.Fatal(err)
		}
		if _, err := Compile(ctx, CompileConfig{StateDir: state, Verification: []string{events}, Now: at.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
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
