package register

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
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

// FuzzCSVFraming checks that the framer's quick scans agree with the
// splitter the parser uses: csvOpen with splitCSVLine's open, csvField
// with its fields (where no field holds a doubled quote).
func FuzzCSVFraming(f *testing.F) {
	for _, s := range []string{`"a","b","c"`, `"a,b",c`, `"open`, `a"b,"c""d",e`, `"x"y,z`, ``, `,,`, `"a""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fields, open := splitCSVLine(s, nil)
		slow, slowOpen := splitCSVSlow(s)
		if open != slowOpen || strings.Join(fields, "\x00") != strings.Join(slow, "\x00") || len(fields) != len(slow) {
			t.Fatalf("splitCSVLine(%q) = %q, %v; the plain splitter gives %q, %v", s, fields, open, slow, slowOpen)
		}
		if got := csvOpen(s); got != open {
			t.Fatalf("csvOpen(%q) = %v, splitCSVLine says %v", s, got, open)
		}
		if open || strings.Contains(s, `""`) {
			return
		}
		for i, want := range fields {
			got, ok := csvField([]byte(s), i)
			if !ok || string(got) != want && !strings.HasPrefix(want, string(got)) {
				t.Fatalf("csvField(%q, %d) = %q, %v; splitCSVLine has %q", s, i, got, ok, want)
			}
		}
	})
}

// splitCSVSlow is splitCSVLine without its fast path for plain quoted
// fields: the reference the fast path must agree with.
func splitCSVSlow(s string) (out []string, open bool) {
	var b strings.Builder
	for i := 0; ; {
		if i < len(s) && s[i] == '"' {
			b.Reset()
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				if c == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					closed = true
					i++
					break
				}
				b.WriteByte(c)
				i++
			}
			if !closed {
				return out, true
			}
			j := strings.IndexByte(s[i:], ',')
			if j < 0 {
				b.WriteString(s[i:])
				return append(out, b.String()), false
			}
			b.WriteString(s[i : i+j])
			out = append(out, b.String())
			i += j + 1
			continue
		}
		j := strings.IndexByte(s[i:], ',')
		if j < 0 {
			return append(out, s[i:]), false
		}
		out = append(out, s[i:i+j])
		i += j + 1
	}
}
