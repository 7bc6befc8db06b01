package compile

import (
	"crypto/sha256"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/daawid/registry/schemas"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	"unicode"
)

// Identity is what keeps a company the same entry across runs: its entry
// ID and slug, the slugs it had before (they redirect), when it was first
// compiled, and the IDs of the items compiled for it ("location:register",
// "contact:website"), so they are stable too.
type Identity struct {
	Key       string            `json:"key"`
	EntryID   string            `json:"entryId"`
	Slug      string            `json:"slug"`
	OldSlugs  []string          `json:"oldSlugs,omitempty"`
	CreatedAt string            `json:"createdAt"`
	Items     map[string]string `json:"items,omitempty"`
	// LastRevision is the last revision number ever issued for the entry,
	// so numbers continue (and never repeat) even after the entry left the
	// registry and came back, or when an existing registry is imported.
	LastRevision int `json:"lastRevision,omitempty"`
}

// Identities is the identity map of the registry: keys (register
// references, or "owner/{entryId}" for entries that began with an owner)
// to identities, and every slug ever given, so no slug is ever reused.
type Identities struct {
	byKey   map[string]*Identity
	byEntry map[string]*Identity
	slugs   *SlugSet // every slug given (current or old), of these identities and any others
}

// SlugSet is every slug ever given, held as 64-bit FNV-1a hashes: about
// 16 bytes a slug instead of the slug and its entry ID, so a compile that
// holds a share of the registry's identities at a time still knows every
// slug (issue 18). Two slugs of one hash count as one: the second is
// then taken for given and the name gets its next form (a town, a
// number); the odds are about one in 200,000 runs at ten million slugs,
// and the outcome is the same in every run.
//
// The set also remembers, for each slug that had to be numbered, the
// number it got last (next): slugs are only ever added, so every number
// below it is still taken, and the next name of that slug starts there
// instead of at 2. Without it a name shared by n companies costs n²/2
// lookups, which was 56 s of one core's time in a 10M compile (D135).
// next is keyed by the same hash; two slugs of one hash share a start,
// which can only skip numbers, never give one twice.
type SlugSet struct {
	m    map[uint64]struct{}
	next map[uint64]int
}

// NewSlugSet makes an empty set with room for n slugs.
func NewSlugSet(n int) *SlugSet {
	return &SlugSet{m: make(map[uint64]struct{}, n), next: map[uint64]int{}}
}

func slugHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// Add records a slug as given.
func (s *SlugSet) Add(slug string) { s.m[slugHash(slug)] = struct{}{} }

// Has reports whether a slug was given.
func (s *SlugSet) Has(slug string) bool {
	_, ok := s.m[slugHash(slug)]
	return ok
}

// Len is how many slugs the set holds.
func (s *SlugSet) Len() int { return len(s.m) }

// NewIdentities makes an empty map.
func NewIdentities() *Identities { return NewIdentitiesSized(0) }

// NewIdentitiesSized makes an empty map with room for n identities.
func NewIdentitiesSized(n int) *Identities { return NewIdentitiesWith(NewSlugSet(n), n) }

// NewIdentitiesWith makes an empty map with room for n identities that
// records and checks slugs in a set shared with other maps (a compile
// run that loads the registry's identities a share at a time).
func NewIdentitiesWith(slugs *SlugSet, n int) *Identities {
	return &Identities{byKey: make(map[string]*Identity, n), byEntry: make(map[string]*Identity, n), slugs: slugs}
}

// Len is how many identities the map holds.
func (ids *Identities) Len() int { return len(ids.byKey) }

// Grown returns the map with room for n more identities (its slug set
// stays shared).
func (ids *Identities) Grown(n int) *Identities {
	g := NewIdentitiesWith(ids.slugs, len(ids.byKey)+n)
	maps.Copy(g.byKey, ids.byKey)
	maps.Copy(g.byEntry, ids.byEntry)
	return g
}

// Add puts an identity into the map (loading state, seeding examples).
func (ids *Identities) Add(id *Identity) {
	ids.byKey[id.Key] = id
	ids.byEntry[id.EntryID] = id
	ids.slugs.Add(id.Slug)
	for _, s := range id.OldSlugs {
		ids.slugs.Add(s)
	}
}

// ByKey finds the identity of a key.
func (ids *Identities) ByKey(key string) (*Identity, bool) {
	id, ok := ids.byKey[key]
	return id, ok
}

// ByEntry finds the identity of an entry ID.
func (ids *Identities) ByEntry(entryID string) (*Identity, bool) {
	id, ok := ids.byEntry[entryID]
	return id, ok
}

// All returns every identity, sorted by key.
func (ids *Identities) All() []*Identity {
	out := make([]*Identity, 0, len(ids.byKey))
	for _, id := range ids.byKey {
		out = append(out, id)
	}
	slices.SortFunc(out, func(a, b *Identity) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// NewCompany is a company the map does not know yet.
type NewCompany struct {
	Key      string
	Name     string // display name, for the slug
	Locality string // to tell two companies of one name apart
	// what Prepare works out ahead (pure functions of the fields above)
	prepared       bool
	entryID        string
	base, withTown string // the slugs to try first: the name's, then with its town
}

// Prepare works out ahead, on every core, what AssignNew would for each
// company apart from checking its slugs against the map: its entry ID and
// the slugs of its name and town. A million new companies otherwise spend
// seconds on one core (issue 18).
func Prepare(news []NewCompany, now time.Time, parallel func(n int, fn func(i int))) {
	parallel(len(news), func(i int) {
		n := &news[i]
		n.entryID = DeterministicID(schemas.PrefixEntry, now, n.Key)
		n.base, n.withTown = slugTries(n.Name, n.Locality)
		n.prepared = true
	})
}

// AssignNew gives new companies their identities, deterministically: the
// same companies get the same IDs and slugs whatever order they came in
// (they are taken in key order), and a slug taken before, even one that
// now only redirects, is never given again (identifiers, decision D47).
func (ids *Identities) AssignNew(news []NewCompany, now time.Time) []*Identity {
	sort.Slice(news, func(i, j int) bool { return news[i].Key < news[j].Key })
	out := make([]*Identity, 0, len(news))
	created := schemas.FormatTime(now)
	for _, n := range news {
		if _, ok := ids.byKey[n.Key]; ok {
			continue
		}
		if !n.prepared {
			n.entryID = DeterministicID(schemas.PrefixEntry, now, n.Key)
			n.base, n.withTown = slugTries(n.Name, n.Locality)
		}
		id := &Identity{Key: n.Key, EntryID: n.entryID, CreatedAt: created}
		id.Slug = ids.firstFree(n.base, n.withTown)
		ids.Add(id)
		out = append(out, id)
	}
	return out
}

// RenameDue reports whether a name calls for a new slug: its slug does
// not start with the name's (so a slug with a town added stays).
func RenameDue(id *Identity, name string) bool {
	base := Slugify(name)
	return base != "" && !strings.HasPrefix(id.Slug, base)
}

// Rename gives an identity the slug of a new name; the old slug stays
// reserved and redirects (decision D47). It reports whether the slug
// changed.
func (ids *Identities) Rename(id *Identity, name, locality string) bool {
	if !RenameDue(id, name) {
		return false
	}
	slug := ids.freeSlug(name, locality)
	id.OldSlugs = append(id.OldSlugs, id.Slug)
	id.Slug = slug
	ids.slugs.Add(slug)
	return true
}

// FreeSlug finds a slug no one has had for an entry that asks for one
// (an owner's own entry): the one asked for if free, else one made from
// the name.
func (ids *Identities) FreeSlug(asked, name string) string {
	if s := Slugify(asked); s == asked && ids.slugOK(s) {
		return s
	}
	return ids.freeSlug(name, "")
}

// freeSlug finds a slug for a name no one has had: the name, then the
// name with its town, then numbered.
func (ids *Identities) freeSlug(name, locality string) string {
	return ids.firstFree(slugTries(name, locality))
}

// slugTries are the slugs a name and town are tried as first: the name's
// ("entry" for a name with none), and the name's with the town's ("" when
// there is no town or the name ends with it).
func slugTries(name, locality string) (base, withTown string) {
	base = Slugify(name)
	if base == "" {
		base = "entry"
	}
	if l := Slugify(locality); l != "" && !strings.HasSuffix(base, l) {
		withTown = trimSlug(base + "-" + l)
	}
	return base, withTown
}

// firstFree is the first of the tries no one has had, else the last try
// numbered.
func (ids *Identities) firstFree(base, withTown string) string {
	if ids.slugOK(base) {
		return base
	}
	last := base
	if withTown != "" {
		if ids.slugOK(withTown) {
			return withTown
		}
		last = withTown
	}
	h := slugHash(last)
	for n := max(2, ids.slugs.next[h]); ; n++ {
		if s := numbered(last, n); ids.slugOK(s) {
			ids.slugs.next[h] = n
			return s
		}
	}
}

// numbered is a slug with a number: "-n" after it, the slug shortened to
// keep within 63 characters.
func numbered(slug string, n int) string {
	suffix := "-" + strconv.Itoa(n)
	if len(slug)+len(suffix) > 63 {
		slug = strings.TrimRight(slug[:63-len(suffix)], "-")
	}
	return slug + suffix
}

// AddSlug records a slug given to an identity that is not loaded (a run
// that loads only the identities it touches loads every slug before it
// gives one).
func (ids *Identities) AddSlug(slug string) { ids.slugs.Add(slug) }

func (ids *Identities) slugOK(s string) bool {
	return !ids.slugs.Has(s) && !schemas.ReservedSlugs[s] && len(s) >= 3
}

// Slugify makes a readable slug: lower case ASCII, German umlauts written
// out (ä → ae), other accents dropped, words joined by hyphens, at most 63
// characters ("Schreinerei Beispiel" → schreinerei-beispiel, "Bäckerei
// Müller & Söhne" → baeckerei-mueller-soehne).
func Slugify(s string) string {
	s = umlauts.Replace(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 { // accents left: decompose and drop the marks
			t := transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
			s, _, _ = transform.String(t, s)
			break
		}
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return trimSlug(b.String())
}

var umlauts = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "ae", "Ö", "oe", "Ü", "ue", "ß", "ss", "&", " ", "+", " ")

func trimSlug(s string) string {
	s = strings.Trim(s, "-")
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s
}

// DeterministicID makes an identifier from an instant and a stable key:
// the ULID's time is now and its entropy a hash of the key, so compiling
// the same company in two fresh runs at the same instant gives the same ID,
// and once given an ID lives on in the identity map.
func DeterministicID(p schemas.IDPrefix, now time.Time, key string) string {
	sum := sha256.Sum256([]byte(string(p) + "\x00" + key))
	id, err := schemas.NewID(p, now, strings.NewReader(string(sum[:])))
	if err != nil {
		panic("compile: ULID: " + err.Error()) // only for times before 1970 or after 10889
	}
	return id
}

// Item returns the ID of an item of the identity ("location:register"):
// the one recorded for it (a seeded identity keeps its examples' IDs),
// else one derived from the entry ID, the item key and when the identity
// was created, so it is the same in every run without being stored
// (decision D55).
func (id *Identity) Item(p schemas.IDPrefix, key string, now time.Time) string {
	if v, ok := id.Items[key]; ok {
		return v
	}
	at := schemas.ParseTime(id.CreatedAt)
	if at.IsZero() {
		at = now
	}
	return DeterministicID(p, at, id.EntryID+"/"+key)
}
