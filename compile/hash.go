package compile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/daawid/registry/schemas"
	sjson "github.com/segmentio/encoding/json"
)

// ContentHash is a hash of what an entry says, leaving out what changes
// with every compile although nothing was learnt: the revision number, its
// date and the dates facts were observed at. Two revisions with the same
// hash project the same facts (the incremental publish keys on it too).
func ContentHash(e *schemas.Entry) string {
	c := *e
	c.Record.Revision, c.Record.UpdatedAt = 0, ""
	prov := make([]schemas.Provenance, len(e.Provenance))
	for i, p := range e.Provenance {
		p.ObservedAt = ""
		prov[i] = p
	}
	c.Provenance = prov
	var sum [sha256.Size]byte
	if err := encode(&c, func(b []byte) { sum = sha256.Sum256(b) }); err != nil {
		panic("compile: an entry does not marshal: " + err.Error())
	}
	return hex.EncodeToString(sum[:])
}

// EntryJSON is the entry in the open format, as json.Marshal writes it,
// encoded through a reused buffer (a compile run encodes millions).
func EntryJSON(e *schemas.Entry) (string, error) {
	var s string
	err := encode(e, func(b []byte) { s = string(b) })
	return s, err
}

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encode writes v as json.Marshal would into a pooled buffer and passes
// the bytes to use, which must not keep them. The encoder is
// segmentio/encoding/json's, which writes encoding/json's bytes (HTML
// escaped, map keys sorted, the same numbers) about twice as fast: every
// compiled entry is encoded once, a twentieth of a compile (D135;
// TestEntryJSON_SameAsEncodingJSON, FuzzEntryJSON).
func encode(v any, use func([]byte)) error {
	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	buf.Reset()
	if err := sjson.NewEncoder(buf).Encode(v); err != nil {
		return err
	}
	use(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return nil
}

// ContentHashJSON is ContentHash of an entry from its JSON as EntryJSON
// writes it: the revision, its date and the observation dates are blanked
// in the bytes (those keys occur nowhere else in an entry, and never
// inside a string, where quotes are escaped), so a compile that writes an
// entry's JSON anyway need not encode it twice.
func ContentHashJSON(js string) string {
	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	buf.Reset()
	rest := js
	for {
		i := strings.IndexByte(rest, '"')
		if i < 0 {
			buf.WriteString(rest)
			break
		}
		buf.WriteString(rest[:i])
		rest = rest[i:]
		switch {
		case strings.HasPrefix(rest, `"revision":`):
			buf.WriteString(`"revision":0`)
			rest = strings.TrimLeft(rest[len(`"revision":`):], "-0123456789")
		case strings.HasPrefix(rest, `"updatedAt":"`):
			buf.WriteString(`"updatedAt":""`)
			rest = skipString(rest[len(`"updatedAt":`):])
		case strings.HasPrefix(rest, `"observedAt":"`):
			buf.WriteString(`"observedAt":""`)
			rest = skipString(rest[len(`"observedAt":`):])
		default:
			// any other string, key or value: copied whole
			end := len(rest) - len(skipString(rest))
			buf.WriteString(rest[:end])
			rest = rest[end:]
		}
	}
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:])
}

// skipString returns what follows the JSON string s starts with.
func skipString(s string) string {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return s[i+1:]
		}
	}
	return ""
}
