package compile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/daawid/registry/schemas"
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
// the bytes to use, which must not keep them.
func encode(v any, use func([]byte)) error {
	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return err
	}
	use(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return nil
}
