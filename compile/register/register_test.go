package register

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

const dir = "../../fixtures/registers/"

// readAll reads a file with a reader and returns the records and row
// errors by line.
func readAll(t testing.TB, r Reader) (recs map[int]*Record, errs map[int]*RowError) {
	recs, errs = map[int]*Record{}, map[int]*RowError{}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return
		}
		var re *RowError
		if errors.As(err, &re) {
			errs[re.Line] = re
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		recs[rec.Line] = rec
	}
}

// expectations reads a *.expect.txt file: line number → verdict.
func expectations(t *testing.T, name string) map[int]string {
	f, err := os.Open(dir + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") || sc.Text() == "" {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		n, err := strconv.Atoi(cols[0])
		if err != nil {
			t.Fatalf("%s: %q", name, sc.Text())
		}
		out[n] = cols[1]
	}
	return out
}

func checkExpectations(t *testing.T, expect map[int]string, recs map[int]*Record, errs map[int]*RowError) {
	for line, verdict := range expect {
		switch verdict {
		case "keep":
			if recs[line] == nil {
				t.Errorf("line %d: want a record, got %v", line, errs[line])
			}
		case "skip":
			if errs[line] == nil {
				t.Errorf("line %d: want a row error naming it", line)
			}
			if recs[line] != nil {
				t.Errorf("line %d: a bad row was kept", line)
			}
		}
	}
	for line := range recs {
		if expect[line] != "keep" {
			t.Errorf("line %d: unexpected record", line)
		}
	}
}

// TestCompaniesHouse_BadRows checks every kind of bad input: each is
// reported with its file and line, skipped or kept with a warning, and the
// good rows after it are still read.
func TestCompaniesHouse_BadRows(t *testing.T) {
	f, err := os.Open(dir + "companies-house-bad.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewCompaniesHouse(f, "companies-house-bad.csv", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := readAll(t, r)
	checkExpectations(t, expectations(t, "companies-house-bad.expect.txt"), recs, errs)
	if w := recs[4].Warnings; len(w) != 1 || w[0].Field != "IncorporationDate" || recs[4].IncorporatedOn != "" {
		t.Errorf("a bad date is dropped with a warning: %+v", recs[4])
	}
	if got := recs[9].Address.Street; got != "Unit 2, The Sidings" {
		t.Errorf("multi-line address: %q", got)
	}
	if recs[8].RetrievedAt.IsZero() || strings.HasSuffix(recs[8].Address.PostalCode, "\r") {
		t.Errorf("CR LF line: %+v", recs[8])
	}
	if len(recs[11].NACE) != 0 {
		t.Errorf("a SIC 2003 code must not map to NACE: %v", recs[11].NACE)
	}
	if e := errs[3]; e == nil || !strings.Contains(e.Error(), "companies-house-bad.csv:3: 54 columns") {
		t.Errorf("column count error: %v", e)
	}
}

func TestCompaniesHouse_Sample(t *testing.T) {
	f, err := os.Open(dir + "companies-house-sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewCompaniesHouse(f, "companies-house-sample.csv", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := readAll(t, r)
	if len(errs) != 0 || len(recs) < 40 {
		t.Fatalf("%d records, errors %v", len(recs), errs)
	}
	th := recs[2]
	if th.Key != "gb/09999991" || th.LegalName != "Thornbury & Hale Joinery Ltd" || th.Name != "Thornbury & Hale Joinery" ||
		th.LegalForm != "Ltd" || th.Reference() != "Companies House 09999991" || strings.Join(th.NACE, ",") != "43.32,16.23" ||
		th.IncorporatedOn != "2014-05-14" || !th.Active || th.Address.Locality != "London" || th.Address.Country != "GB" {
		t.Errorf("Thornbury & Hale: %+v", th)
	}
	dissolved := 0
	for _, r := range recs {
		if !r.Active {
			dissolved++
		}
	}
	if dissolved == 0 {
		t.Error("the sample has dissolved companies; none read as inactive")
	}
}

func TestCompaniesHouse_NotAHeader(t *testing.T) {
	_, err := NewCompaniesHouse(strings.NewReader("a,b,c\n1,2,3\n"), "x.csv", time.Time{})
	if err == nil || !strings.Contains(err.Error(), "x.csv:1: not a Companies House BasicCompanyData header") {
		t.Errorf("err = %v", err)
	}
}

func TestOffeneRegister_BadLines(t *testing.T) {
	f, err := os.Open(dir + "offeneregister-bad.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, errs := readAll(t, NewOffeneRegister(f, "offeneregister-bad.jsonl"))
	checkExpectations(t, expectations(t, "offeneregister-bad.expect.txt"), recs, errs)
	if w := recs[4].Warnings; len(w) != 1 || w[0].Field != "officers" {
		t.Errorf("a wrong type in officers is dropped with a warning: %+v", recs[4])
	}
	if recs[8].Active {
		t.Error("a removed company reads as active")
	}
}

func TestOffeneRegister_Sample(t *testing.T) {
	f, err := os.Open(dir + "offeneregister-sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, errs := readAll(t, NewOffeneRegister(f, "offeneregister-sample.jsonl"))
	if len(errs) != 0 || len(recs) < 40 {
		t.Fatalf("%d records, errors %v", len(recs), errs)
	}
	var sb *Record
	for _, r := range recs {
		if r.Register.Number == "99902" {
			sb = r
		}
	}
	if sb == nil || sb.Key != "de/wuppertal/hrb/99902" || sb.Name != "Schreinerei Beispiel" || sb.LegalForm != "GmbH" ||
		sb.Reference() != "Amtsgericht Wuppertal HRB 99902" || sb.Address.Street != "Beispielweg 3" ||
		sb.Address.PostalCode != "42103" || sb.Address.Locality != "Wuppertal" ||
		!sb.RetrievedAt.Equal(time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)) {
		t.Errorf("Schreinerei Beispiel: %+v", sb)
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ in, display, form string }{
		{"Holzwerk Krause GmbH", "Holzwerk Krause", "GmbH"},
		{"Müller Bau GmbH & Co. KG", "Müller Bau", "GmbH & Co. KG"},
		{"Elektro Sommer e.K.", "Elektro Sommer", "e.K."},
		{"Nordlicht Software UG (haftungsbeschränkt)", "Nordlicht Software", "UG (haftungsbeschränkt)"},
		{"Turnverein 1860 e.V.", "Turnverein 1860", "e.V."},
		{"Bäckerei Sonnenschein", "Bäckerei Sonnenschein", ""},
	} {
		if d, f, _ := splitGermanForm(tc.in); d != tc.display || f != tc.form {
			t.Errorf("%q → %q, %q", tc.in, d, f)
		}
	}
	for in, want := range map[string]string{
		"THORNBURY & HALE JOINERY LTD": "Thornbury & Hale Joinery Ltd",
		"O'NEILL AND SONS LIMITED":     "O'Neill and Sons Limited",
		"SMITH-JONES UK PLC":           "Smith-Jones UK PLC",
		"Already Mixed Ltd":            "Already Mixed Ltd",
	} {
		if got := titleCase(in); got != want {
			t.Errorf("titleCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// Brief agrees with Parse on every record Parse accepts: same key, name,
// town and status (the first pass of a compile gives identities from it).
func TestBriefAgreesWithParse(t *testing.T) {
	for _, name := range []string{"companies-house-sample.csv", "companies-house-bad.csv", "offeneregister-sample.jsonl", "offeneregister-bad.jsonl"} {
		f, err := os.Open(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		var rd Framed
		if strings.HasSuffix(name, ".csv") {
			c, err := NewCompaniesHouse(f, name, time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			rd = c
		} else {
			rd = NewOffeneRegister(f, name)
		}
		parsed := 0
		for {
			raw, err := rd.Frame()
			if err != nil {
				break
			}
			rec, perr := rd.Parse(raw)
			b, ok := rd.Brief(raw)
			if perr != nil {
				continue
			}
			parsed++
			if !ok {
				t.Errorf("%s:%d: Parse accepts the row, Brief refuses it", name, raw.Line)
				continue
			}
			want := Brief{Key: rec.Key, Name: rec.Name, Locality: rec.Address.Locality, Active: rec.Active}
			if b != want {
				t.Errorf("%s:%d: Brief = %+v, Parse gives %+v", name, raw.Line, b, want)
			}
		}
		f.Close()
		if parsed == 0 {
			t.Errorf("%s: no record parsed", name)
		}
	}
}
