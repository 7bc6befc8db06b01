package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/schemas"
)

const sireneSample = "../fixtures/registers/sirene-sample.csv"

// loadState opens the state and finds entry rows and IDs by key.
func loadState(t *testing.T, dir string) (*State, func(key string) (*EntryRow, string)) {
	t.Helper()
	st, err := OpenState(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids, rows, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	return st, func(key string) (*EntryRow, string) {
		id, ok := ids.ByKey(key)
		if !ok {
			return nil, ""
		}
		return rows[key], id.EntryID
	}
}

// TestCompile_SireneSample compiles the SIRENE sample, recognised by its
// content: one unclaimed entry per open, diffusible head office, in
// French, with the SIREN as register and provenance saying INSEE's file
// asserted the legal facts on the day it was read (PRIV-10). Withheld and
// closed companies get no entry (D77).
func TestCompile_SireneSample(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	now := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	rep, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{sireneSample}, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	// 14 head offices read (the 2 secondary establishments are passed
	// over), 10 of them open and diffusible.
	if rep.RowsRead != 14 || rep.NewEntries != 10 || rep.RowsSkipped != 0 || rep.Warnings != 0 {
		t.Errorf("report: read %d, new %d, skipped %d, warnings %d: %+v", rep.RowsRead, rep.NewEntries, rep.RowsSkipped, rep.Warnings, rep.Problems)
	}
	st, find := loadState(t, state)
	defer st.Close()
	row, entryID := find("fr/999999901")
	if row == nil {
		t.Fatal("no entry for SIREN 999999901")
	}
	e, err := st.Revision(ctx, entryID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e.DisplayName != "Librairie Les Deux Quais" || e.DefaultLanguage != "fr" || !slices.Equal(e.Languages, []string{"fr"}) ||
		e.Status != schemas.StatusUnclaimed {
		t.Errorf("entry: %q %q %v %q", e.DisplayName, e.DefaultLanguage, e.Languages, e.Status)
	}
	if op := e.Operator; op == nil || op.Register == nil || *op.Register != (schemas.Register{Type: "FR:SIREN", Number: "999999901"}) ||
		op.Address != (schemas.Address{Street: "27 rue du Quai-Fictif", PostalCode: "75011", Locality: "Paris", Country: "FR"}) {
		t.Errorf("operator: %+v", e.Operator)
	}
	if !slices.Equal(e.Categories, []string{"retail.bookshop"}) || !slices.Equal(e.NACECodes, []string{"47.61"}) {
		t.Errorf("category from NAF 47.61Z: %v %v", e.Categories, e.NACECodes)
	}
	if got := e.Summary["fr"]; got != "Librairie à Paris. SIREN 999999901." {
		t.Errorf("summary: %q", got)
	}
	var legal *schemas.Provenance
	for i, p := range e.Provenance {
		if p.Path == "/operator" {
			legal = &e.Provenance[i]
		}
	}
	if legal == nil || legal.Source != schemas.SourceRegister || legal.Reference != "SIREN 999999901" || legal.ObservedAt != "2026-10-02T04:00:00Z" {
		t.Errorf("PRIV-10: the operator's provenance: %+v", legal)
	}
	for _, key := range []string{"fr/999999908", "fr/999999909", "fr/999999910", "fr/999999912"} {
		if row, id := find(key); row != nil || id != "" {
			t.Errorf("%s is withheld or closed, yet has an entry", key)
		}
	}
}

// TestCompile_SireneWithdrawal checks D77 over two runs: a company that
// asks INSEE to withhold its data after its entry was compiled loses the
// entry, as a company that closes does.
func TestCompile_SireneWithdrawal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	if _, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{sireneSample}, Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(sireneSample)
	if err != nil {
		t.Fatal(err)
	}
	nov := strings.NewReplacer(
		// 999999902 asks for "diffusion partielle": INSEE masks its name.
		"999999902,00012,99999990200012,O,", "999999902,00012,99999990200012,P,",
		"BOULANGERIE DU PONT FICTIF", "[ND]",
		// 999999903 closes its head office.
		",2016-02-29,A,RESTAURANT LE PETIT ZINC", ",2026-10-15,F,RESTAURANT LE PETIT ZINC",
	).Replace(string(b))
	if nov == string(b) {
		t.Fatal("the sample changed; the test's edits no longer apply")
	}
	next := filepath.Join(dir, "StockEtablissement_utf8-2026-11-01.csv")
	if err := os.WriteFile(next, []byte(nov), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{next}, Now: time.Date(2026, 11, 2, 4, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Removed != 2 || rep.NewEntries != 0 {
		t.Errorf("second run: removed %d, new %d", rep.Removed, rep.NewEntries)
	}
	st, find := loadState(t, state)
	defer st.Close()
	for key, reason := range map[string]string{
		"fr/999999902": "register: withheld at the company's request (diffusion partielle)",
		"fr/999999903": "register: fermé",
	} {
		if row, _ := find(key); row == nil || !row.Removed || row.RemovedReason != reason {
			t.Errorf("%s: %+v, want removed: %q", key, row, reason)
		}
	}
	if row, _ := find("fr/999999901"); row == nil || row.Removed {
		t.Errorf("an unchanged company lost its entry: %+v", row)
	}
}

// TestCompile_RegisterKinds checks how a run finds the register of each
// file: by content for all three samples whatever their names, as the
// command line names it with KIND:FILE, and a loud refusal, before the
// state changes, of a file no register reads or a register name that
// does not exist.
func TestCompile_RegisterKinds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	// The samples under names that say nothing: content decides.
	var renamed []string
	for i, f := range []string{"companies-house-sample.csv", "offeneregister-sample.jsonl", "sirene-sample.csv"} {
		dst := filepath.Join(dir, "in", "upload-"+string(rune('a'+i))+".dat")
		copyFile(t, filepath.Join("../fixtures/registers", f), dst)
		renamed = append(renamed, dst)
	}
	state := filepath.Join(dir, "state")
	rep, err := Compile(ctx, CompileConfig{StateDir: state, Registers: renamed, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if rep.RowsSkipped != 0 {
		t.Errorf("rows skipped: %+v", rep.Problems)
	}
	st, find := loadState(t, state)
	for _, key := range []string{"gb/09999991", "de/wuppertal/hrb/99902", "fr/999999901"} {
		if row, _ := find(key); row == nil {
			t.Errorf("no entry for %s: its file was not read as its register", key)
		}
	}
	st.Close()

	// KIND:FILE reads a file as the register named.
	state2 := filepath.Join(dir, "state2")
	rep, err = Compile(ctx, CompileConfig{StateDir: state2, Registers: []string{"sirene:" + renamed[2]}, Now: now})
	if err != nil || rep.NewEntries != 10 {
		t.Fatalf("sirene:FILE: %v, %+v", err, rep)
	}

	notes := filepath.Join(dir, "in", "notes.txt")
	if err := os.WriteFile(notes, []byte("Dear operator,\nthese are notes.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		regs []string
		want []string
	}{
		{[]string{renamed[2], notes}, []string{"notes.txt: not a register file this registry reads", "companies-house: a CSV header", "offeneregister: JSON lines", "sirene: a CSV header of INSEE's StockEtablissement"}},
		{[]string{"companies-house:" + renamed[2]}, []string{"as companies-house", "not a Companies House BasicCompanyData header"}},
		{[]string{"sirne:" + renamed[2]}, []string{`"sirne" is not a register this registry reads (companies-house, offeneregister, sirene)`}},
	} {
		fresh := filepath.Join(t.TempDir(), "state")
		_, err := Compile(ctx, CompileConfig{StateDir: fresh, Registers: c.regs, Now: now})
		if err == nil {
			t.Errorf("%v: the run went on", c.regs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %v\nlacks %q", c.regs, err, w)
			}
		}
		// The run stopped before it committed anything, not even the
		// good file before the bad one.
		st, find := loadState(t, fresh)
		if row, _ := find("fr/999999901"); row != nil {
			t.Errorf("%v: the failed run left entries behind", c.regs)
		}
		st.Close()
	}
}
