package query

import (
	"slices"

	"github.com/daawid/registry/export/publication"
)

// layers are a publication's document index as the server holds it: the
// full index its chain starts with, and over it the delta indexes after
// it, read into a layer of their own. A delta publication (every minute)
// shares the full layer of the publication before it, so a swap reads
// only the deltas' few rows, not five million (D71). A later layer
// replaces every document of an entry it names, a tombstone included.
type layers struct {
	top  *docIndex // the deltas; nil when the chain is one full index
	base *docIndex // the full index
}

// entryRef is an entry in one of the layers.
type entryRef struct {
	ix *docIndex
	at int32
}

func (l *layers) list() []*docIndex {
	if l.top == nil {
		return []*docIndex{l.base}
	}
	return []*docIndex{l.top, l.base}
}

// byID finds a live entry by its ID.
func (l *layers) byID(id string) (entryRef, bool) {
	if l.top != nil {
		if at, ok := l.top.byID.find(id); ok {
			if l.top.ents[at].removed {
				return entryRef{}, false
			}
			return entryRef{l.top, at}, true
		}
	}
	if at, ok := l.base.byID.find(id); ok && !l.base.ents[at].removed {
		return entryRef{l.base, at}, true
	}
	return entryRef{}, false
}

// bySlug finds a live entry by its slug: in the deltas, else in the full
// index unless a delta has replaced that entry (renamed or removed it).
func (l *layers) bySlug(slug string) (entryRef, bool) {
	if l.top != nil {
		if at, ok := l.top.bySlug(slug); ok {
			return entryRef{l.top, at}, true
		}
	}
	at, ok := l.base.bySlug(slug)
	if !ok {
		return entryRef{}, false
	}
	if l.top != nil {
		if _, replaced := l.top.byID.findBytes(l.base.idOf(at)); replaced {
			return entryRef{}, false
		}
	}
	return entryRef{l.base, at}, true
}

// site is the registry-level files of the chain's last index.
func (l *layers) site() map[string]publication.DocRow {
	if l.top != nil {
		return l.top.site
	}
	return l.base.site
}

// docAt finds the document served at an entry's path.
func (l *layers) docAt(path string) (*docIndex, int32, bool) {
	if l.top != nil && len(l.top.extra) > 0 {
		if i, ok := l.top.extra[path]; ok {
			return l.top, i, true
		}
	}
	if len(l.base.extra) > 0 {
		if i, ok := l.base.extra[path]; ok {
			return l.base, i, true
		}
	}
	slug := path[1:]
	for j := 0; j < len(slug); j++ {
		if slug[j] == '/' || slug[j] == '.' {
			slug = slug[:j]
			break
		}
	}
	e, ok := l.bySlug(slug)
	if !ok {
		return nil, 0, false
	}
	i, ok := e.ix.docAtEntry(e.at, slug, path)
	return e.ix, i, ok
}

// packs are every pack the layers' documents are in.
func (l *layers) packs() []string {
	var out []string
	for _, ix := range l.list() {
		for _, p := range ix.packs {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// live is how many documents the layers serve.
func (l *layers) live() int {
	n := len(l.site())
	for _, ix := range l.list() {
		for i := range ix.ents {
			e := &ix.ents[i]
			if e.removed {
				continue
			}
			if ix == l.base && l.top != nil {
				if _, replaced := l.top.byID.find(string(ix.idOf(int32(i)))); replaced {
					continue
				}
			}
			n += int(e.n)
		}
	}
	return n
}
