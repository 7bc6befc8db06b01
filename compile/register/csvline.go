package register

import "strings"

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
