package render

import (
	"strconv"
)

// lw writes JSON straight into a buffer, member by member, in the order
// the calls come (LD-62). A member whose value turns out empty (an object
// or array with no members, an empty string) is rolled back, so "omitted
// when absent" holds without building a tree first: building one boxed
// every value and cost more than the rendering itself.
type lw struct {
	jsonWriter
	depth int
	first bool // the next member is the first of its container
}

// open writes the separator, the indentation and the key (when k != "")
// of a new member, and returns the state to roll back to.
func (w *lw) open(k string) (mark int, first bool) {
	mark, first = len(w.buf), w.first
	if !w.first {
		w.buf = append(w.buf, ',')
	}
	if w.depth > 0 { // the root value starts the document
		w.newline(w.depth)
	}
	if k != "" {
		w.jsonWriter.str(k)
		w.buf = append(w.buf, ':')
		if w.indent != "" {
			w.buf = append(w.buf, ' ')
		}
	}
	w.first = false
	return mark, first
}

func (w *lw) rollback(mark int, first bool) {
	w.buf = w.buf[:mark]
	w.first = first
}

// container writes k: {…} or k: […] with body writing its members; nothing
// at all when body writes no member. It reports whether it wrote.
func (w *lw) container(k string, openC, closeC byte, body func()) bool {
	mark, first := w.open(k)
	w.buf = append(w.buf, openC)
	w.depth++
	w.first = true
	body()
	w.depth--
	if w.first { // no member: roll back the whole member
		w.rollback(mark, first)
		return false
	}
	w.newline(w.depth)
	w.buf = append(w.buf, closeC)
	w.first = false
	return true
}

// obj writes an object member (k == "" inside an array or at the root).
func (w *lw) obj(k string, body func()) bool { return w.container(k, '{', '}', body) }

// arr writes an array member.
func (w *lw) arr(k string, body func()) bool { return w.container(k, '[', ']', body) }

// s writes a string member, or nothing for "".
func (w *lw) s(k, v string) {
	if v == "" {
		return
	}
	w.open(k)
	w.jsonWriter.str(v)
}

// s2 writes a string member made of two parts (an IRI prefix and an ID)
// without concatenating them first.
func (w *lw) s2(k, a, b string) {
	w.open(k)
	w.buf = append(w.buf, '"')
	w.strBody(a)
	w.strBody(b)
	w.buf = append(w.buf, '"')
}

// i writes an integer member.
func (w *lw) i(k string, n int) {
	w.open(k)
	w.buf = strconv.AppendInt(w.buf, int64(n), 10)
}

// f writes a number member.
func (w *lw) f(k string, x float64) {
	w.open(k)
	w.buf = strconv.AppendFloat(w.buf, x, 'f', -1, 64)
}

// b writes a boolean member.
func (w *lw) b(k string, v bool) {
	w.open(k)
	w.buf = strconv.AppendBool(w.buf, v)
}

// strs writes an array of strings, or nothing when it is empty.
func (w *lw) strs(k string, vs []string) {
	if len(vs) == 0 {
		return
	}
	w.arr(k, func() {
		for _, v := range vs {
			w.s("", v)
		}
	})
}

// oneOrMany writes one string as a string and several as an array
// (availableLanguage, dayOfWeek, knowsLanguage: LD-28, LD-35).
func (w *lw) oneOrMany(k string, vs []string) {
	if len(vs) == 1 {
		w.s(k, vs[0])
		return
	}
	w.strs(k, vs)
}
