package register

import (
	"bufio"
	"io"
)

// lineReader reads a register file one physical line at a time. A line
// longer than max is reported as too long and skipped to its end: the
// reader goes on with the next line, so one overlong line costs one row,
// never the rest of the file (a bufio.Scanner stops for good there).
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 256<<10), max: max}
}

// next returns the next line without its end (a line ending in "\r\n"
// keeps the "\r"), whether it was too long (then the line is nil), or
// io.EOF after the last line.
func (l *lineReader) next() ([]byte, bool, error) {
	var buf []byte
	tooLong, any := false, false
	for {
		part, isPrefix, err := l.r.ReadLine()
		if err != nil {
			if err == io.EOF && any {
				return buf, tooLong, nil
			}
			return nil, false, err
		}
		any = true
		if !tooLong {
			buf = append(buf, part...)
			if len(buf) > l.max {
				tooLong, buf = true, nil
			}
		}
		if !isPrefix {
			return buf, tooLong, nil
		}
	}
}
