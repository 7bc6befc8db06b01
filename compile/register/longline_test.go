package register

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestCompaniesHouse_OverlongLineIsOneBadRow: a 10 MB line (line 3) of a
// BasicCompanyData file is reported by its line and skipped; every other
// good row of the file is read (a scanner with a line limit used to stop
// there and drop the rest of the file silently).
func TestCompaniesHouse_OverlongLineIsOneBadRow(t *testing.T) {
	sample, err := os.ReadFile(dir + "companies-house-sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(sample), "\n")
	want := countRecords(t, sample)
	var b bytes.Buffer
	b.WriteString(lines[0]) // the header
	b.WriteString(lines[1])
	b.WriteString(strings.Repeat("x", 10<<20) + "\n") // line 3
	for _, l := range lines[2:] {
		b.WriteString(l)
	}
	ch, err := NewCompaniesHouse(&b, "BasicCompanyData-long.csv", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := readAll(t, ch)
	if len(recs) != want {
		t.Errorf("%d good rows read, want every one of the %d", len(recs), want)
	}
	if len(errs) != 1 || errs[3] == nil || !strings.Contains(errs[3].Error(), "longer than") {
		t.Errorf("want one row error, at line 3, saying the line is too long; got %v", errs)
	}
}

// TestOffeneRegister_OverlongLineIsOneBadRow: the same for the JSON lines
// of OffeneRegister.
func TestOffeneRegister_OverlongLineIsOneBadRow(t *testing.T) {
	sample, err := os.ReadFile(dir + "offeneregister-sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(sample), "\n")
	_, errs0 := readAll(t, NewOffeneRegister(bytes.NewReader(sample), "sample.jsonl"))
	recs0, _ := readAll(t, NewOffeneRegister(bytes.NewReader(sample), "sample.jsonl"))
	var b bytes.Buffer
	b.WriteString(lines[0])
	b.WriteString(lines[1])
	b.WriteString(`{"company_number":"` + strings.Repeat("9", 10<<20) + `"}` + "\n") // line 3
	for _, l := range lines[2:] {
		b.WriteString(l)
	}
	recs, errs := readAll(t, NewOffeneRegister(&b, "long.jsonl"))
	if len(recs) != len(recs0) {
		t.Errorf("%d good rows read, want every one of the %d", len(recs), len(recs0))
	}
	if errs[3] == nil || !strings.Contains(errs[3].Error(), "longer than") || len(errs) != len(errs0)+1 {
		t.Errorf("want the sample's row errors and one more at line 3; got %v", errs)
	}
}

func countRecords(t *testing.T, csv []byte) int {
	ch, err := NewCompaniesHouse(bytes.NewReader(csv), "BasicCompanyData-sample.csv", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := readAll(t, ch)
	if len(recs) < 3 {
		t.Fatalf("the sample has %d good rows", len(recs))
	}
	return len(recs)
}
