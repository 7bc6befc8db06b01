package render

import (
	"unicode/utf8"
)

// jsonWriter holds the output buffer and the string escaping of the JSON
// the renderers write (see lw for members and containers).
type jsonWriter struct {
	buf []byte
	// html escapes <, > and & so JSON-LD embedded in a <script> element
	// can't close it (the injection rule of HTML).
	html   bool
	indent string
}

func (w *jsonWriter) newline(depth int) {
	if w.indent == "" {
		return
	}
	w.buf = append(w.buf, '\n')
	for range depth {
		w.buf = append(w.buf, w.indent...)
	}
}

const hexDigits = "0123456789abcdef"

// str writes a JSON string: control characters, U+2028 and U+2029 escaped
// always, and <, >, & when the JSON goes into HTML.
func (w *jsonWriter) str(s string) {
	w.buf = append(w.buf, '"')
	w.strBody(s)
	w.buf = append(w.buf, '"')
}

// strBody appends s escaped, without the quotes.
func (w *jsonWriter) strBody(s string) {
	start := 0 // s[start:i] is written in one append when an escape comes
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!w.html || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
			w.buf = append(w.buf, s[start:i]...)
			switch {
			case c == '"' || c == '\\':
				w.buf = append(w.buf, '\\', c)
			case c == '\n':
				w.buf = append(w.buf, '\\', 'n')
			case c == '\r':
				w.buf = append(w.buf, '\\', 'r')
			case c == '\t':
				w.buf = append(w.buf, '\\', 't')
			default:
				w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == 0x2028 || r == 0x2029 {
			w.buf = append(w.buf, s[start:i]...)
			if r == utf8.RuneError {
				w.buf = append(w.buf, `\ufffd`...)
			} else {
				w.buf = append(w.buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	w.buf = append(w.buf, s[start:]...)
}
