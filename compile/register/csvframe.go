package register

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// csvFrames cuts a CSV file into records one physical line at a time, so
// one broken quote costs one row and never the rest of the file. The
// Companies House and SIRENE readers share it: both are CSV with a header
// line, and both may quote a line break inside a field.
type csvFrames struct {
	file    string
	sc      *bufio.Scanner
	line    int // physical lines read
	pending []pendingLine
}

type pendingLine struct {
	n    int
	text string
}

// maxContinuation caps how many physical lines one record may span (a
// quoted address line with a line break); beyond it the quote is broken.
const maxContinuation = 8

func newCSVFrames(r io.Reader, file string) *csvFrames {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return &csvFrames{file: file, sc: sc}
}

// header reads the header line and returns its names, trimmed of the
// stray spaces some registers put in them, with their column numbers. n
// is the header's line number, for the caller's own complaints about it.
func (c *csvFrames) header() (col map[string]int, width, n int, err error) {
	n, head, ok := c.physical()
	if !ok {
		if err := c.sc.Err(); err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %w", c.file, err)
		}
		return nil, 0, 0, fmt.Errorf("%s: empty file, no header", c.file)
	}
	head = strings.TrimPrefix(head, "\ufeff")
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

// physical returns the next physical line, from the pushed-back ones first.
func (c *csvFrames) physical() (int, string, bool) {
	if len(c.pending) > 0 {
		p := c.pending[0]
		c.pending = c.pending[1:]
		return p.n, p.text, true
	}
	if !c.sc.Scan() {
		return 0, "", false
	}
	c.line++
	return c.line, strings.TrimSuffix(c.sc.Text(), "\r"), true
}

// Frame returns the next record's lines: one physical line, or a few when
// a quoted field holds a line break.
func (c *csvFrames) Frame() (Raw, error) {
	for {
		n, text, ok := c.physical()
		if !ok {
			if err := c.sc.Err(); err != nil {
				// The scanner stops for good (a line over its limit): the rest
				// of the file can't be read.
				return Raw{}, fmt.Errorf("%s:%d: unreadable line: %w", c.file, c.line+1, err)
			}
			return Raw{}, io.EOF
		}
		if strings.TrimSpace(text) == "" {
			continue // blank lines carry nothing
		}
		open := csvOpen(text)
		var extra []pendingLine
		for open && len(extra) < maxContinuation {
			m, more, ok := c.physical()
			if !ok {
				break
			}
			extra = append(extra, pendingLine{m, more})
			text += "\n" + more
			open = csvOpen(text)
		}
		if open {
			// Give the lines back: they are records of their own.
			c.pending = append(extra, c.pending...)
			return Raw{Line: n, Err: &RowError{File: c.file, Line: n, Msg: "unterminated quote"}}, nil
		}
		return Raw{Line: n, Text: []byte(text)}, nil
	}
}

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
