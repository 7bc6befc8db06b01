package register

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/schemas"
)

// TestKinds_RowsAreWhole checks every row of the register table says
// everything a register needs: a unique name, a zone the clock knows, a
// key for its own register type that begins with its prefix.
func TestKinds_RowsAreWhole(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if k.Name == "" || seen[k.Name] || !kindPrefix.MatchString(k.Name) {
			t.Errorf("row %q: names must be unique and fit KIND:FILE", k.Name)
		}
		seen[k.Name] = true
		if k.Display == "" || k.Product == "" || k.Jurisdiction == "" || k.Language == "" || k.Expect == "" ||
			k.Sniff == nil || k.Open == nil || k.Key == nil || k.Reference == nil || len(k.RegisterTypes) == 0 {
			t.Errorf("row %q is missing a field: %+v", k.Name, k)
		}
		if _, err := time.LoadLocation(k.TimeZone); err != nil {
			t.Errorf("row %q: time zone %q: %v", k.Name, k.TimeZone, err)
		}
		if KindNamed(k.Name) != k {
			t.Errorf("row %q is not found by its name", k.Name)
		}
	}
	for _, c := range []struct {
		reg  schemas.Register
		kind string
		key  string
	}{
		{schemas.Register{Type: "GB:CompaniesHouse", Number: "SC999001"}, "companies-house", "gb/sc999001"},
		{schemas.Register{Type: "DE:Handelsregister", Court: "Amtsgericht Wuppertal", Section: "HRB", Number: "99901"}, "offeneregister", "de/wuppertal/hrb/99901"},
		{schemas.Register{Type: "DE:Vereinsregister", Court: "Amtsgericht Köln", Section: "VR", Number: "9901"}, "offeneregister", "de/koeln/vr/9901"},
		{schemas.Register{Type: "FR:SIREN", Number: "999999901"}, "sirene", "fr/999999901"},
		// A website's legal notice names the RCS; its number is the SIREN.
		{schemas.Register{Type: "FR:RCS", Court: "RCS Paris", Number: "999 999 901"}, "sirene", "fr/999999901"},
		{schemas.Register{Type: "FR:RCS", Court: "RCS Paris", Number: "99999"}, "sirene", ""},
		{schemas.Register{Type: "ES:RegistroMercantil", Number: "M-1"}, "", ""},
	} {
		k := KindOfType(c.reg.Type)
		if (k == nil && c.kind != "") || (k != nil && k.Name != c.kind) {
			t.Errorf("%s belongs to %v, want %q", c.reg.Type, k, c.kind)
		}
		if got := KeyFor(c.reg); got != c.key {
			t.Errorf("KeyFor(%+v) = %q, want %q", c.reg, got, c.key)
		}
		if k != nil && c.key != "" && !k.Owns(c.key) {
			t.Errorf("%s: key %q outside the row's prefix %q", k.Name, c.key, k.KeyPrefix)
		}
	}
	// References: each row's own, and a court, section and number for
	// registers no row knows (as an owner declares them).
	for _, c := range []struct{ reg schemas.Register }{
		{schemas.Register{Type: "FR:RCS", Court: "RCS Paris", Number: "999999901"}},
		{schemas.Register{Type: "ES:RegistroMercantil", Court: "Registro Mercantil de Madrid", Number: "M-99901"}},
	} {
		want := c.reg.Court + " " + c.reg.Number
		if got := (&Record{Register: c.reg}).Reference(); got != want {
			t.Errorf("Reference(%+v) = %q, want %q", c.reg, got, want)
		}
	}
}

// TestDetect checks that sniffing names the right register for every
// sample file, by content alone, and that a file no register reads is
// refused with its name and what was expected.
func TestDetect(t *testing.T) {
	for file, want := range map[string]string{
		"companies-house-sample.csv":  "companies-house",
		"companies-house-bad.csv":     "companies-house",
		"offeneregister-sample.jsonl": "offeneregister",
		"offeneregister-bad.jsonl":    "offeneregister",
		"sirene-sample.csv":           "sirene",
		"sirene-bad.csv":              "sirene",
	} {
		b, err := os.ReadFile(dir + file)
		if err != nil {
			t.Fatal(err)
		}
		// The file name says nothing: sniffing reads the content.
		k, err := Detect(NewSniffer(bytes.NewReader(b)), "upload.dat")
		if err != nil || k.Name != want {
			t.Errorf("%s: detected %v, %v; want %s", file, k, err, want)
			continue
		}
		// What sniffing looked at is still there for the reader.
		br := NewSniffer(bytes.NewReader(b))
		k, _ = Detect(br, file)
		rd, err := k.Open(k, br, Opening{File: file, Now: time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		recs, _ := readAll(t, rd)
		if len(recs) == 0 {
			t.Errorf("%s: detected, but no record read after sniffing", file)
		}
	}
	for _, c := range []struct{ name, content, want string }{
		{"notes.txt", "Dear operator,\nthis is not a register.\n", `notes.txt: not a register file this registry reads (its first line begins "Dear operator,")`},
		{"empty.csv", "", "empty.csv: not a register file this registry reads (it is empty)"},
		{"StockUniteLegale_utf8.csv", "siren,statutDiffusionUniteLegale,denominationUniteLegale\n", "StockUniteLegale_utf8.csv: not a register file"},
		{"other.jsonl", `{"company_number":"1","name":"X"}` + "\n", "other.jsonl: not a register file"},
	} {
		_, err := Detect(NewSniffer(strings.NewReader(c.content)), c.name)
		var unknown *UnknownFileError
		if !errors.As(err, &unknown) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to begin %q", c.name, err, c.want)
			continue
		}
		for _, k := range Kinds() {
			if !strings.Contains(err.Error(), k.Name+": "+k.Expect) {
				t.Errorf("%s: the error does not say what %s expects: %v", c.name, k.Name, err)
			}
		}
	}
}

// TestParseSource checks the --register argument: a bare FILE is sniffed,
// KIND:FILE names the register, and a name that is none is refused with
// the names there are.
func TestParseSource(t *testing.T) {
	for _, c := range []struct{ arg, kind, path, err string }{
		{"../registers/sirene-sample.csv", "", "../registers/sirene-sample.csv", ""},
		{"sirene:/data/StockEtablissement_utf8.csv", "sirene", "/data/StockEtablissement_utf8.csv", ""},
		{"companies-house:BasicCompanyData-2026-10-01-part1_7.csv", "companies-house", "BasicCompanyData-2026-10-01-part1_7.csv", ""},
		{"offeneregister:dump:v2.jsonl", "offeneregister", "dump:v2.jsonl", ""},
		{`C:\data\register.csv`, "", `C:\data\register.csv`, ""},
		{"./sirne:x.csv", "", "./sirne:x.csv", ""},
		{"sirne:x.csv", "", "", `"sirne" is not a register this registry reads (companies-house, offeneregister, sirene)`},
		{"sirene:", "", "", "no file after"},
	} {
		src, err := ParseSource(c.arg)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: err = %v, want %q", c.arg, err, c.err)
			}
			continue
		}
		name := ""
		if src.Kind != nil {
			name = src.Kind.Name
		}
		if err != nil || name != c.kind || src.Path != c.path {
			t.Errorf("%q: %q %q %v, want %q %q", c.arg, name, src.Path, err, c.kind, c.path)
		}
	}
}

func TestDateInName(t *testing.T) {
	now := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	if got := DateInName("BasicCompanyData-2026-10-01-part1_7.csv", now); !got.Equal(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date in the name: %v", got)
	}
	if got := DateInName("StockEtablissement_utf8.csv", now); !got.Equal(now) {
		t.Errorf("no date in the name: %v", got)
	}
}
