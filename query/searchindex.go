package query

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// The search index of a publication is built from its entries' search
// records (render.KindSearch, written at publish) when the snapshot
// opens, one index per layer of the document index: a delta publication
// shares the full layer's search index too, and builds only its own
// (D71, D72). An entry of the delta layer hides the full layer's, and so
// does a delta entry without a record (removed, unlisted or suspended).

// searchLayer is a docIndex's search index, built once.
type searchLayer struct {
	once sync.Once
	ix   *search.Index
	err  error
	// mapped is the layer's search index as its publication wrote it
	// (D115); nil: it is built from the search records. mappedErr says
	// why it was built all the same.
	mapped    *publication.Mapped
	mappedErr error
}

// buildSearch builds the search index of one layer of a snapshot.
func (s *Snapshot) buildSearch(ix *docIndex, gaz *places.Gazetteer) (*search.Index, error) {
	return buildSearchIndex(ix, s.packs, gaz)
}

// buildSearchIndex builds the search index of a document index from its
// entries' search records, read from the packs it points into.
func buildSearchIndex(ix *docIndex, packs map[string]*pack, gaz *places.Gazetteer) (*search.Index, error) {
	return buildSearchFrom(func(fn func(id string, rec *publication.DocRow) error) error {
		for at := range ix.ents {
			id := string(ix.idOf(int32(at)))
			i, ok := ix.entryDoc(int32(at), render.KindSearch, "")
			if ix.ents[at].removed || !ok {
				if err := fn(id, nil); err != nil {
					return err
				}
				continue
			}
			row := ix.row(i)
			if err := fn(id, &row); err != nil {
				return err
			}
		}
		return nil
	}, packs, gaz)
}

// searchRows calls fn with every entry of a document index file, in its
// order, and the row of its search record (nil: removed, or none): the
// rows stream from the file, so a publication builds its search index
// without holding its documents (D115). An index lists each entry's rows
// together (D59).
func searchRows(path string) func(fn func(id string, rec *publication.DocRow) error) error {
	return func(fn func(id string, rec *publication.DocRow) error) error {
		var cur string
		var rec *publication.DocRow
		flush := func() error {
			if cur == "" {
				return nil
			}
			return fn(cur, rec)
		}
		err := publication.ScanDocIndex(path, func(rows []publication.DocRow) error {
			for i := range rows {
				r := &rows[i]
				if r.Kind == publication.KindSite {
					continue
				}
				if r.EntryID != cur {
					if err := flush(); err != nil {
						return err
					}
					cur, rec = strings.Clone(r.EntryID), nil
				}
				switch r.Kind {
				case publication.KindRemoved:
					rec = nil
				case render.KindSearch:
					row := *r
					rec = &row
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		return flush()
	}
}

// buildSearchFrom builds a search index from the entries rows gives, each
// with the row of its search record (nil: the entry is hidden).
func buildSearchFrom(rows func(fn func(id string, rec *publication.DocRow) error) error, packs map[string]*pack, gaz *places.Gazetteer) (*search.Index, error) {
	b := search.NewBuilder(gaz)
	var buf, dec []byte
	err := rows(func(id string, row *publication.DocRow) error {
		if row == nil {
			b.Hide(id)
			return nil
		}
		p, ok := packs[row.Pack]
		if !ok {
			return fmt.Errorf("search index: no pack %s", row.Pack)
		}
		if int64(cap(buf)) < row.Length {
			buf = make([]byte, row.Length)
		}
		buf = buf[:row.Length]
		// Not through the document cache: search records are read once.
		if _, err := p.f.ReadAt(buf, row.Offset); err != nil && err != io.EOF {
			return fmt.Errorf("search index: entry %s: %w", id, err)
		}
		if !publication.DocChecksumOK(buf, row.Checksum) {
			// A damaged record leaves the entry out of search rather than the
			// publication out of service; its documents answer 503 when read
			// (issue 15).
			b.Hide(id)
			return nil
		}
		body := buf
		if row.Encoding != publication.EncodingIdentity {
			var err error
			if dec, err = publication.DecodeDoc(dec[:0], buf, row.Encoding); err != nil {
				// Bytes that pass their checksum and do not decode are a
				// writer's fault; the entry stays out of search, as a
				// damaged record does (issue 18).
				b.Hide(id)
				return nil
			}
			body = dec
		}
		var rec schemas.SearchRecord
		if err := json.Unmarshal(body, &rec); err != nil {
			return fmt.Errorf("search index: entry %s: %w", id, err)
		}
		return b.Add(&rec)
	})
	if err != nil {
		return nil, err
	}
	return b.Build(), nil
}

// openSearch builds (or, for the shared full layer, reuses) the search
// indexes of a snapshot's layers.
func (s *Snapshot) openSearch(gaz *places.Gazetteer) error {
	var layers []*search.Index
	for _, ix := range s.ix.list() {
		sl := ix.search
		sl.once.Do(func() {
			if sl.mapped != nil {
				// A search file this server cannot use (its taxonomy or
				// zones differ, or it is damaged) is built again instead.
				if sl.ix, sl.mappedErr = search.OpenIndex(sl.mapped.Bytes()); sl.mappedErr == nil {
					return
				}
			}
			sl.ix, sl.err = s.buildSearch(ix, gaz)
		})
		if sl.err != nil {
			return sl.err
		}
		layers = append(layers, sl.ix)
	}
	s.search = &search.Searcher{Layers: layers, Gaz: gaz}
	if err := s.ix.base.search.mappedErr; err != nil && s.ServeFilesErr == nil {
		s.ServeFilesErr = err
	}
	return nil
}

// SearchAgain builds another copy of the snapshot's search indexes,
// for measuring what they cost (daawid bench search); the snapshot keeps
// its own.
func (s *Snapshot) SearchAgain() (*search.Searcher, error) {
	var layers []*search.Index
	for _, ix := range s.ix.list() {
		six, err := s.buildSearch(ix, s.search.Gaz)
		if err != nil {
			return nil, err
		}
		layers = append(layers, six)
	}
	return &search.Searcher{Layers: layers, Gaz: s.search.Gaz}, nil
}

// Searcher is the snapshot's search.
func (s *Snapshot) Searcher() *search.Searcher { return s.search }
