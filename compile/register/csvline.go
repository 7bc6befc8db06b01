package register

import (
	"bytes"
	"strings"
)

// splitCSVLine splits one CSV record (RFC 4180: fields in double quotes,
// doubled quotes inside). It reports open == true when a quoted field is
// still open at the end of s, so the caller can add the next physical line.
// Reading a file line by line this way keeps one broken quote from
// swallowing the rest of the file, which encoding/csv would do.
func splitCSVLine(s string, fields []string) (out []string, open bool) {
	out = fields[:0]
	var b strings.Builder
	for i := 0; ; {
		if i < len(s) && s[i] == '"' {
			// A quoted field without doubled quotes, followed by its comma
			// or the end, is a substring: no copying (the common case).
			if j := strings.IndexByte(s[i+1:], '"'); j >= 0 {
				end := i + 1 + j
				if end+1 == len(s) {
					out = append(out, s[i+1:end])
					return out, false
				}
				if s[end+1] == ',' {
					out = append(out, s[i+1:end])
					i = end + 2
					continue
				}
			}
			// quoted field
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
			// text after the closing quote up to the comma belongs to the field
			j := strings.IndexByte(s[i:], ',')
			if j < 0 {
				b.WriteString(s[i:])
				out = append(out, b.String())
				return out, false
			}
			b.WriteString(s[i : i+j])
			out = append(out, b.String())
			i += j + 1
			continue
		}
		j := strings.IndexByte(s[i:], ',')
		if j < 0 {
			out = append(out, s[i:])
			return out, false
		}
		out = append(out, s[i:i+j])
		i += j + 1
	}
}

// csvOpen reports what splitCSVLine reports as open, without building the
// fields: a field that starts with a quote is not closed at the end.
func csvOpen(s string) bool {
	for i := 0; ; {
		if i < len(s) && s[i] == '"' {
			i++
			closed := false
			for i < len(s) {
				q := strings.IndexByte(s[i:], '"')
				if q < 0 {
					break
				}
				i += q
				if i+1 < len(s) && s[i+1] == '"' {
					i += 2
					continue
				}
				closed = true
				i++
				break
			}
			if !closed {
				return true
			}
		}
		j := strings.IndexByte(s[i:], ',')
		if j < 0 {
			return false
		}
		i += j + 1
	}
}

// csvField returns field n of a CSV record, quotes removed (doubled quotes
// left doubled: it is for routing, not for reading).
func csvField(b []byte, n int) ([]byte, bool) {
	for k, i := 0, 0; i <= len(b); k++ {
		start, end := i, 0
		if i < len(b) && b[i] == '"' {
			j := i + 1
			for j < len(b) {
				if b[j] == '"' {
					if j+1 < len(b) && b[j+1] == '"' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			start, end = i+1, min(j, len(b))
			i = j
		}
		c := bytes.IndexByte(b[i:], ',')
		if start == i {
			if c < 0 {
				end = len(b)
			} else {
				end = i + c
			}
		}
		if k == n {
			return b[start:end], true
		}
		if c < 0 {
			return nil, false
		}
		i += c + 1
	}
	return nil, false
}
