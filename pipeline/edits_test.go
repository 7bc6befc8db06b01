package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/schemas"
)

const hkID = "ent_01k8r2m5n7p9q3s4t6v8w0x2yz"

func writeEdit(t *testing.T, inbox, name string, basedOn int, at time.Time, tool string, set map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"type": schemas.EditType, "entry": hkID, "basedOn": basedOn,
		"declaredAt": schemas.FormatTime(at), "tool": tool, "set": set})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inbox, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func current(t *testing.T, state string) *schemas.Entry {
	t.Helper()
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := st.Revision(context.Background(), hkID, 0)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestCompile_OwnerEdits checks the pipeline's half of the owner tools
// (decision D95): edits based on the current revision all apply in one
// run, over the owner's declaration, and confirm the entry; an edit based
// on an older revision is refused as changed_since, and one that would
// make the entry invalid is refused by its field, leaving the entry as it
// was; confirm_entry renews lastConfirmedAt and changes nothing else.
func TestCompile_OwnerEdits(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	state, inbox := filepath.Join(dir, "state"), filepath.Join(dir, "inbox")
	if err := os.MkdirAll(inbox, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := CompileConfig{StateDir: state, Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl"}, OwnerInbox: inbox,
		Seed: "../fixtures/compile/identity-seed.json", Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	if _, err := Compile(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../fixtures/compile/inbox/holzwerk-krause.json", filepath.Join(inbox, "holzwerk-krause.json"))
	cfg.Now, cfg.Registers = time.Date(2026, 10, 28, 9, 14, 3, 0, time.UTC), nil
	if _, err := Compile(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	before := current(t, state)
	n := before.Record.Revision

	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	writeEdit(t, inbox, "1-update.json", n, at, schemas.EditUpdateEntry, map[string]any{"summary": "Tischlerei in Wuppertal: Küchen nach Maß."})
	writeEdit(t, inbox, "2-capacity.json", n, at.Add(time.Minute), schemas.EditSetCapacity, map[string]any{"capacity": map[string]any{
		"status": "accepting", "asOf": schemas.FormatTime(at), "expiresAt": schemas.FormatTime(at.Add(30 * 24 * time.Hour))}})
	writeEdit(t, inbox, "3-stale.json", n-1, at, schemas.EditUpdateEntry, map[string]any{"foundingYear": 1990})
	writeEdit(t, inbox, "4-bad.json", n, at, schemas.EditUpdateEntry, map[string]any{"employees": "lots"})
	cfg.Now = at.Add(2 * time.Minute)
	rep, err := Compile(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Merged != 2 || rep.Refused != 2 {
		t.Errorf("merged %d, refused %d: %+v", rep.Merged, rep.Refused, rep.Problems)
	}
	reasons := map[string]string{}
	for _, p := range rep.Problems {
		reasons[p.File] += p.Path + " " + p.Reason + "; "
	}
	if !strings.Contains(reasons["3-stale.json"], "changed_since") || !strings.Contains(reasons["4-bad.json"], "/employees") {
		t.Errorf("reasons: %v", reasons)
	}
	after := current(t, state)
	if after.Record.Revision != n+1 || after.Summary["de"] != "Tischlerei in Wuppertal: Küchen nach Maß." || after.Summary["en"] != before.Summary["en"] {
		t.Errorf("revision %d, summary %v", after.Record.Revision, after.Summary)
	}
	if after.Capacity == nil || after.Capacity.Status != "accepting" || after.FoundingYear != before.FoundingYear || after.Employees != before.Employees {
		t.Errorf("capacity %+v, founding year %d, employees %v", after.Capacity, after.FoundingYear, after.Employees)
	}
	if after.Record.LastConfirmedAt != schemas.FormatTime(at.Add(time.Minute)) {
		t.Errorf("lastConfirmedAt %s", after.Record.LastConfirmedAt)
	}
	for _, f := range []string{"accepted/1-update.json", "accepted/2-capacity.json", "refused/3-stale.json", "refused/4-bad.reasons.json"} {
		if _, err := os.Stat(filepath.Join(inbox, f)); err != nil {
			t.Errorf("inbox: %v", err)
		}
	}

	writeEdit(t, inbox, "5-confirm.json", n+1, at.Add(time.Hour), schemas.EditConfirmEntry, nil)
	cfg.Now = at.Add(time.Hour + time.Minute)
	if _, err := Compile(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	confirmed := current(t, state)
	if confirmed.Record.LastConfirmedAt != schemas.FormatTime(at.Add(time.Hour)) || confirmed.Summary["de"] != after.Summary["de"] || confirmed.Capacity.Status != "accepting" {
		t.Errorf("confirm_entry: revision %+v", confirmed.Record)
	}
}

// TestCompile_ClaimEdit checks that a claim (decision D96) makes an
// unclaimed entry its owner's: the claim_entry edit and the proof's
// verification event, in one run, give a published entry at level
// contact, with the register's facts as they read.
func TestCompile_ClaimEdit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	state, inbox := filepath.Join(dir, "state"), filepath.Join(dir, "inbox")
	if err := os.MkdirAll(inbox, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := CompileConfig{StateDir: state, Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl"}, OwnerInbox: inbox,
		Seed: "../fixtures/compile/identity-seed.json", Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}
	if _, err := Compile(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	const id = "ent_01k8r3a0b1c2d3e4f5g6h7j8k9"
	st, err := OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	before, err := st.Revision(ctx, id, 0)
	st.Close()
	if err != nil || before.Status != schemas.StatusUnclaimed {
		t.Fatalf("before: %v %v", err, before.Status)
	}
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	b, _ := json.Marshal(map[string]any{"type": schemas.EditType, "entry": id, "basedOn": before.Record.Revision, "declaredAt": schemas.FormatTime(at), "tool": schemas.EditClaimEntry})
	if err := os.WriteFile(filepath.Join(inbox, "claim.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	events := filepath.Join(dir, "events.jsonl")
	ev, _ := json.Marshal(map[string]string{"entry": id, "type": "contact_confirmed", "at": schemas.FormatTime(at)})
	if err := os.WriteFile(events, append(ev, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Registers, cfg.Verification, cfg.Now = nil, []string{events}, at.Add(time.Minute)
	rep, err := Compile(ctx, cfg)
	if err != nil || rep.Merged != 1 {
		t.Fatalf("claim run: %v %+v", err, rep)
	}
	st, err = OpenState(state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	after, err := st.Revision(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != schemas.StatusPublished || after.Verification.Level != schemas.LevelContact || after.DisplayName != before.DisplayName {
		t.Errorf("after the claim: status %s, level %s, name %q", after.Status, after.Verification.Level, after.DisplayName)
	}
}
