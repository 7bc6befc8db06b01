package register

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unsafe"
)

// csvFrames cuts a CSV file into records one physical line at a time, so
// one broken quote costs one row and never the rest of the file. The
// Companies House and SIRENE readers share it: both are CSV with a header
// line, and both may quote a line break inside a field.
type csvFrames struct {
	file    string
	lines   *lineReader
	line    int // physical lines read
	pending []pendingLine
}

type pendingLine struct {
	n    int
	text []byte
	long bool // over maxCSVLine: reported when it is read again
}

// maxCSVLine caps one physical line of a CSV register file; a longer one
// is reported by its line number and skipped.
const maxCSVLine = 1 << 20

// maxContinuation caps how many physical lines one record may span (a
// quoted address line with a line break); beyond it the quote is broken.
const maxContinuation = 8

func newCSVFrames(r io.Reader, file string) *csvFrames {
	return &csvFrames{file: file, lines: newLineReader(r, maxCSVLine)}
}

// header reads the header line and returns its names, trimmed of the
// stray spaces some registers put in them, with their column numbers. n
// is the header's line number, for the caller's own complaints about it.
func (c *csvFrames) header() (col map[string]int, width, n int, err error) {
	n, b, ok, err := c.physical()
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%s: %w", c.file, err)
	}
	if !ok {
		return nil, 0, 0, fmt.Errorf("%s: empty file, no header", c.file)
	}
	head := strings.TrimPrefix(string(b), "\ufeff")
	names, open := splitCSVLine(head, nil)
	if open {
		return nil, 0, 0, fmt.Errorf("%s:%d: header has an unterminated quote", c.file, n)
	}
	col = make(map[string]int, len(names))
	for i, name := range names {
		col[strings.TrimSpace(name)] = i
	}
	return col, len(names), n, nil
}

// physical returns the next physical line (the caller's to keep), from
// the pushed-back ones first; ok is false at the end of the file. A line
// over maxCSVLine is errTooLong.
func (c *csvFrames) physical() (n int, text []byte, ok bool, err error) {
	if len(c.pending) > 0 {
		p := c.pending[0]
		c.pending = c.pending[1:]
		if p.long {
			return p.n, nil, true, errTooLong
		}
		return p.n, p.text, true, nil
	}
	b, tooLong, err := c.lines.next()
	if err == io.EOF {
		return 0, nil, false, nil
	}
	if err != nil {
		return 0, nil, false, fmt.Errorf("line %d: %w", c.line+1, err)
	}
	c.line++
	if tooLong {
		return c.line, nil, true, errTooLong
	}
	return c.line, bytes.TrimSuffix(b, []byte("\r")), true, nil
}

// errTooLong is a physical line over maxCSVLine.
var errTooLong = fmt.Errorf("line longer than %d bytes", maxCSVLine)

// Frame returns the next record's lines: one physical line, or a few when
// a quoted field holds a line break.
func (c *csvFrames) Frame() (Raw, error) {
	for {
		n, text, ok, err := c.physical()
		if err == errTooLong {
			// Reported by its line; the reader goes on with the next line.
			return Raw{Line: n, Err: &RowError{File: c.file, Line: n, Msg: err.Error()}}, nil
		}
		if err != nil {
			return Raw{}, fmt.Errorf("%s: %w", c.file, err)
		}
		if !ok {
			return Raw{}, io.EOF
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue // blank lines carry nothing
		}
		open := csvOpenBytes(text)
		var extra []pendingLine
		for open && len(extra) < maxContinuation {
			m, more, ok, err := c.physical()
			if err == errTooLong {
				// An overlong line ends the quote's search: it goes back
				// with the others and is reported as a row of its own.
				extra = append(extra, pendingLine{n: m, long: true})
				break
			}
			if err != nil || !ok {
				break
			}
			extra = append(extra, pendingLine{n: m, text: more})
			// A new slice: text itself may be given back as a record.
			text = append(append(append(make([]byte, 0, len(text)+1+len(more)), text...), '\n'), more...)
			open = csvOpenBytes(text)
		}
		if open {
			// Give the lines back: they are records of their own.
			c.pending = append(extra, c.pending...)
			return Raw{Line: n, Err: &RowError{File: c.file, Line: n, Msg: "unterminated quote"}}, nil
		}
		return Raw{Line: n, Text: text}, nil
	}
}

// csvOpenBytes is csvOpen of a line's bytes, read in place.
func csvOpenBytes(b []byte) bool { return csvOpen(unsafe.String(unsafe.SliceData(b), len(b))) }

// missingColumns lists the wanted columns a header lacks, in want's order.
func missingColumns(col map[string]int, want []string) []string {
	var missing []string
	for _, w := range want {
		if _, ok := col[w]; !ok {
			missing = append(missing, w)
		}
	}
	return missing
}
