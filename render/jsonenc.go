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

// indentSpaces is sliced for indentation instead of appending in a loop.
const indentSpaces = "                                                                "

func (w *jsonWriter) newline(depth int) {
	if w.indent == "" {
		return
	}
	w.buf = append(w.buf, '\n')
	n := depth * len(w.indent)
	for n > len(indentSpaces) {
		w.buf = append(w.buf, indentSpaces...)
		n -= len(indentSpaces)
	}
	w.buf = append(w.buf, indentSpaces[:n]...)
}

const hexDigits = "0123456789abcdef"

// str writes a JSON string: control characters, U+2028 and U+2029 escaped
// always, and <, >, & when the JSON goes into HTML.
func (w *jsonWriter) str(s string) {
	w.buf = append(w.buf, '"')
	w.strBody(s)
	w.buf = append(w.buf, '"')
}

// jsonPlain marks the ASCII bytes a JSON string holds as they are; the
// second table is for JSON inside HTML, where <, > and & are escaped too.
var jsonPlain, jsonPlainHTML [utf8.RuneSelf]bool

func init() {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain := c != '"' && c != '\\'
		jsonPlain[c] = plain
		jsonPlainHTML[c] = plain && c != '<' && c != '>' && c != '&'
	}
}

// strBody appends s escaped, without the quotes.
func (w *jsonWriter) strBody(s string) {
	plain := &jsonPlain
	if w.html {
		plain = &jsonPlainHTML
	}
	valid := utf8.ValidString(s)
	start := 0 // s[start:i] is written in one append when an escape comes
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			w.buf = append(w.buf, s[start:i]...)
			switch c {
			case '"', '\\':
				w.buf = append(w.buf, '\\', c)
			case '\n':
				w.buf = append(w.buf, '\\', 'n')
			case '\r':
				w.buf = append(w.buf, '\\', 'r')
			case '\t':
				w.buf = append(w.buf, '\\', 't')
			default:
				w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		// Valid UTF-8 passes through, but for U+2028 and U+2029 (E2 80 A8/A9),
		// which JavaScript reads as line ends.
		if valid {
			if c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				w.buf = append(w.buf, s[start:i]...)
				w.buf = append(w.buf, '\\', 'u', '2', '0', '2', hexDigits[s[i+2]&0xf])
				i += 3
				start = i
				continue
			}
			i++
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
