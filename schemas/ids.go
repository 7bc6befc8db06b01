package schemas

import (
	"crypto/rand"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
)

// IDPrefix names the kind of object an identifier points to.
type IDPrefix string

// The identifier prefixes of the registry (ENTRY-MODEL §1.1). Item IDs are
// unique within their entry and stable across revisions; entry and run IDs
// are unique registry-wide.
const (
	PrefixEntry      IDPrefix = "ent"
	PrefixOffering   IDPrefix = "off"
	PrefixAction     IDPrefix = "act"
	PrefixContact    IDPrefix = "cp"
	PrefixCredential IDPrefix = "crd"
	PrefixMedia      IDPrefix = "med"
	PrefixLocation   IDPrefix = "loc"
	PrefixRun        IDPrefix = "run"
)

// idBody is the 26-character lower-case Crockford base32 ULID. The first
// character is 0-7 because 26×5 = 130 bits hold a 128-bit ULID.
const idBody = `[0-7][0-9a-hjkmnp-tv-z]{25}`

var idPatterns = map[IDPrefix]*regexp.Regexp{}

func init() {
	for _, p := range []IDPrefix{PrefixEntry, PrefixOffering, PrefixAction, PrefixContact, PrefixCredential, PrefixMedia, PrefixLocation, PrefixRun} {
		idPatterns[p] = regexp.MustCompile(`^` + string(p) + `_` + idBody + `$`)
	}
}

// IDPattern returns the regular expression (without delimiters) that IDs of
// the prefix match, for JSON Schemas.
func IDPattern(p IDPrefix) string { return `^` + string(p) + `_` + idBody + `$` }

// ValidID reports whether id is a well-formed identifier with prefix p.
func ValidID(p IDPrefix, id string) bool {
	re, ok := idPatterns[p]
	return ok && re.MatchString(id)
}

// PrefixOf returns the prefix of a well-formed identifier, or "" if id is not
// one.
func PrefixOf(id string) IDPrefix {
	i := strings.IndexByte(id, '_')
	if i <= 0 {
		return ""
	}
	p := IDPrefix(id[:i])
	if !ValidID(p, id) {
		return ""
	}
	return p
}

// NewID makes a fresh identifier from the time t and the entropy source
// (crypto/rand when nil). Passing both in keeps callers deterministic in
// tests.
func NewID(p IDPrefix, t time.Time, entropy io.Reader) (string, error) {
	if entropy == nil {
		entropy = rand.Reader
	}
	u, err := ulid.New(ulid.Timestamp(t), entropy)
	if err != nil {
		return "", err
	}
	return string(p) + "_" + strings.ToLower(u.String()), nil
}
