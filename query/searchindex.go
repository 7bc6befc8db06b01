package query

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
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
	return buildSearchFrom(searchRefs(ix), packs, gaz)
}

// searchRef is where an entry's search record lies (pack nil: the entry
// is hidden): what building its search index needs of a document index.
type searchRef struct {
	id, pack, encoding string
	offset, length     int64
	checksum           uint32
	has                bool
}

func refOf(id string, row *publication.DocRow) searchRef {
	if row == nil {
		return searchRef{id: id}
	}
	return searchRef{id: id, pack: row.Pack, encoding: row.Encoding, offset: row.Offset, length: row.Length, checksum: row.Checksum, has: true}
}

// searchRefs are the entries of a document index with their search
// records, in its order, so that the index's arrays may go before the
// search index grows (D115).
func searchRefs(ix *docIndex) []searchRef {
	refs := make([]searchRef, 0, len(ix.ents))
	for at := range ix.ents {
		id := string(ix.idOf(int32(at)))
		if i, ok := ix.entryDoc(int32(at), render.KindSearch, ""); ok && !ix.ents[at].removed {
			d := &ix.docs[i]
			ref := searchRef{id: id, pack: ix.packs[d.pack], encoding: docEncodings[d.encoding], offset: d.offset, length: int64(d.length),
				checksum: d.sum, has: true}
			if r, replaced := ix.full[i]; replaced {
				ref = refOf(id, &r)
			}
			refs = append(refs, ref)
			continue
		}
		refs = append(refs, searchRef{id: id})
	}
	return refs
}

// searchItem is a search record read and decoded for the builder (rec
// nil: hide the entry).
type searchItem struct {
	id  string
	rec *schemas.SearchRecord
}

// searchBatch is a run of entries decoded by one worker; done closes when
// they are.
type searchBatch struct {
	refs  []searchRef
	items []searchItem
	err   error
	done  chan struct{}
}

// buildSearchFrom builds a search index from the entries refs gives, each
// with where its search record lies (none: the entry is hidden). The
// records are read, checked, decompressed and decoded on every core, a
// batch at a time, and added in their order (the index is the same).
func buildSearchFrom(refs []searchRef, packs map[string]*pack, gaz *places.Gazetteer) (*search.Index, error) {
	const batchSize = 512
	workers := max(1, runtime.GOMAXPROCS(0))
	jobs, order := make(chan *searchBatch, 2*workers), make(chan *searchBatch, 2*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf, dec []byte
			for b := range jobs {
				b.items = make([]searchItem, len(b.refs))
				for i, r := range b.refs {
					b.items[i].id = r.id
					if r.has && b.err == nil {
						b.items[i].rec, b.err = readSearchRecord(r, packs, &buf, &dec)
					}
				}
				close(b.done)
			}
		}()
	}
	go func() {
		defer close(order)
		defer close(jobs)
		cur := &searchBatch{done: make(chan struct{})}
		send := func() bool {
			select {
			case order <- cur:
			case <-stop:
				return false
			}
			jobs <- cur
			cur = &searchBatch{done: make(chan struct{})}
			return true
		}
		for start := 0; start < len(refs); start += batchSize {
			cur.refs = refs[start:min(start+batchSize, len(refs))]
			if !send() {
				return
			}
		}
	}()
	b := search.NewBuilder(gaz)
	err := func() error {
		for batch := range order {
			<-batch.done
			if batch.err != nil {
				return batch.err
			}
			for _, it := range batch.items {
				if it.rec == nil {
					b.Hide(it.id)
				} else if err := b.Add(it.rec); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	if err != nil {
		close(stop)
		for range order { // let the producer end
		}
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return b.Build(), nil
}

// readSearchRecord reads an entry's search record from its pack: nil when
// the entry stays out of search (damaged or undecodable bytes).
func readSearchRecord(r searchRef, packs map[string]*pack, buf, dec *[]byte) (*schemas.SearchRecord, error) {
	p, ok := packs[r.pack]
	if !ok {
		return nil, fmt.Errorf("search index: no pack %s", r.pack)
	}
	if int64(cap(*buf)) < r.length {
		*buf = make([]byte, r.length)
	}
	b := (*buf)[:r.length]
	// Not through the document cache: search records are read once.
	if _, err := p.f.ReadAt(b, r.offset); err != nil && err != io.EOF {
		return nil, fmt.Errorf("search index: entry %s: %w", r.id, err)
	}
	if !publication.DocChecksumOK(b, r.checksum) {
		// A damaged record leaves the entry out of search rather than the
		// publication out of service; its documents answer 503 when read
		// (issue 15).
		return nil, nil
	}
	body := b
	if r.encoding != publication.EncodingIdentity {
		var err error
		if *dec, err = publication.DecodeDoc((*dec)[:0], b, r.encoding); err != nil {
			// Bytes that pass their checksum and do not decode are a
			// writer's fault; the entry stays out of search, as a damaged
			// record does (issue 18).
			return nil, nil
		}
		body = *dec
	}
	var rec schemas.SearchRecord
	if err := json.Unmarshal(body, &rec); err != nil {
		return nil, fmt.Errorf("search index: entry %s: %w", r.id, err)
	}
	return &rec, nil
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
