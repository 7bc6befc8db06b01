package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

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
	b, err := json.Marshal(&c)
	if err != nil {
		panic("compile: an entry does not marshal: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
