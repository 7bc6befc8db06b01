package register

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// FuzzSirene reads arbitrary input behind the sample's header (and as a
// header of its own): the reader ends, every error but the end is a
// RowError with a line, every record has a key, and a withheld record
// carries nothing but its key and status (D77).
func FuzzSirene(f *testing.F) {
	for _, name := range []string{"sirene-sample.csv", "sirene-bad.csv"} {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			f.Fatal(err)
		}
		// Seeds of a few rows each, each behind the header.
		lines := bytes.SplitAfter(b, []byte("\n"))
		for i := 1; i < len(lines); i += 3 {
			f.Add(bytes.Join(append([][]byte{lines[0]}, lines[i:min(i+3, len(lines))]...), nil))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewSirene(bytes.NewReader(data), "fuzz.csv", time.Time{})
		if err != nil {
			return // not a header: refused at once, with a message
		}
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
				return
			}
			if rec.Key == "" || rec.Line <= 0 || (rec.Active && rec.LegalName == "") {
				t.Fatalf("record without key, line or name: %+v", rec)
			}
			if rec.Withheld && (rec.Active || rec.Name != "" || rec.Address.Locality != "" || len(rec.NACE) != 0) {
				t.Fatalf("a withheld record carries data: %+v", rec)
			}
		}
	})
}

// FuzzDetect feeds the sniffers arbitrary file heads: they never panic,
// and a file they name is one that register's reader at least starts on
// or refuses with an error.
func FuzzDetect(f *testing.F) {
	for _, name := range []string{"companies-house-sample.csv", "offeneregister-sample.jsonl", "sirene-sample.csv"} {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	f.Add([]byte("\ufeff{\"company_number\":"))
	f.Fuzz(func(t *testing.T, data []byte) {
		br := NewSniffer(bytes.NewReader(data))
		k, err := Detect(br, "fuzz")
		if err != nil {
			var unknown *UnknownFileError
			if !errors.As(err, &unknown) {
				t.Fatalf("not an UnknownFileError: %v", err)
			}
			return
		}
		if rd, err := k.Open(k, br, Opening{File: "fuzz"}); err == nil {
			rd.Next()
		}
	})
}
