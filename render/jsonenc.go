package render

import (
	"strconv"
	"unicode/utf8"
)

// obj is a JSON object whose keys keep the order they were added in, so the
// JSON-LD reads like the contract's example (LD-62) and is byte-stable.
type obj []kv

type kv struct {
	k string
	v any
}

// add appends a key unless the value is empty (nil, "", an empty slice or
// object), which keeps "omitted when absent" in one place.
func (o *obj) add(k string, v any) {
	switch x := v.(type) {
	case nil:
		return
	case string:
		if x == "" {
			return
		}
	case []any:
		if len(x) == 0 {
			return
		}
	case []string:
		if len(x) == 0 {
			return
		}
	case obj:
		if len(x) == 0 {
			return
		}
	}
	*o = append(*o, kv{k, v})
}

// jsonWriter appends JSON to a buffer. It is small on purpose: the values
// the renderers build are strings, numbers, booleans, slices and obj.
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

func (w *jsonWriter) value(v any, depth int) {
	switch x := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case string:
		w.str(x)
	case bool:
		w.buf = strconv.AppendBool(w.buf, x)
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	case float64:
		w.buf = strconv.AppendFloat(w.buf, x, 'f', -1, 64)
	case []string:
		w.buf = append(w.buf, '[')
		for i, s := range x {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(depth + 1)
			w.str(s)
		}
		if len(x) > 0 {
			w.newline(depth)
		}
		w.buf = append(w.buf, ']')
	case []any:
		w.buf = append(w.buf, '[')
		for i, e := range x {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(depth + 1)
			w.value(e, depth+1)
		}
		if len(x) > 0 {
			w.newline(depth)
		}
		w.buf = append(w.buf, ']')
	case obj:
		w.buf = append(w.buf, '{')
		for i, p := range x {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(depth + 1)
			w.str(p.k)
			w.buf = append(w.buf, ':')
			if w.indent != "" {
				w.buf = append(w.buf, ' ')
			}
			w.value(p.v, depth+1)
		}
		if len(x) > 0 {
			w.newline(depth)
		}
		w.buf = append(w.buf, '}')
	default:
		panic("render: unsupported JSON value")
	}
}

const hexDigits = "0123456789abcdef"

// str writes a JSON string: control characters, U+2028 and U+2029 escaped
// always, and <, >, & when the JSON goes into HTML.
func (w *jsonWriter) str(s string) {
	w.buf = append(w.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				w.buf = append(w.buf, '\\', c)
			case c == '\n':
				w.buf = append(w.buf, '\\', 'n')
			case c == '\r':
				w.buf = append(w.buf, '\\', 'r')
			case c == '\t':
				w.buf = append(w.buf, '\\', 't')
			case c < 0x20 || (w.html && (c == '<' || c == '>' || c == '&')):
				w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				w.buf = append(w.buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			w.buf = append(w.buf, `\ufffd`...)
		case r == 0x2028 || r == 0x2029:
			w.buf = append(w.buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			w.buf = append(w.buf, s[i:i+size]...)
		}
		i += size
	}
	w.buf = append(w.buf, '"')
}
