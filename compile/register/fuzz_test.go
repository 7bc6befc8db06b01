package register

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// drain reads everything and checks the reader's promises: it ends, every
// error but the end is a RowError with a line, and records have keys.
func drain(t *testing.T, r Reader) {
	for i := 0; ; i++ {
		if i > 1<<20 {
			t.Fatal("the reader does not end")
		}
		rec, err := r.Next()
		if err == io.EOF {
			return
		}
		var re *RowError
		if errors.As(err, &re) {
			if re.Line <= 0 {
				t.Fatalf("row error without a line: %v", re)
			}
			continue
		}
		if err != nil {
			return // an I/O error ends the read; it is reported by the caller
		}
		if rec.Key == "" || rec.LegalName == "" || rec.Line <= 0 {
			t.Fatalf("record without key, name or line: %+v", rec)
		}
	}
}

func FuzzCompaniesHouse(f *testing.F) {
	for _, name := range []string{"companies-house-sample.csv", "companies-house-bad.csv"} {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewCompaniesHouse(bytes.NewReader(data), "fuzz.csv", time.Time{})
		if err != nil {
			return // not a header: refused at once, with a message
		}
		drain(t, r)
	})
}

func FuzzOffeneRegister(f *testing.F) {
	for _, name := range []string{"offeneregister-sample.jsonl", "offeneregister-bad.jsonl"} {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			f.Fatal(err)
		}
		// Seeds of a few lines each: the fuzzer minimises what it finds
		// interesting, and whole files make that slow.
		lines := bytes.SplitAfter(b, []byte("\n"))
		for i := 0; i < len(lines); i += 3 {
			f.Add(bytes.Join(lines[i:min(i+3, len(lines))], nil))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		drain(t, NewOffeneRegister(bytes.NewReader(data), "fuzz.jsonl"))
	})
}
