package query

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	sjson "github.com/segmentio/encoding/json"
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
	refs, err := searchRefsOf(ix)
	if err != nil {
		return nil, err
	}
	b := search.NewBuilder(gaz)
	if err := addSearchRecords(b, refs, packs); err != nil {
		return nil, err
	}
	return b.Build(), nil
}

// searchRefs are where the entries of a document index have their
// search records, in its order: what building its search index needs of
// it, so that the index's arrays may go before the search index grows
// (D115). 24 bytes an entry, without a pointer (D116).
type searchRefs struct {
	refs   []searchRef
	packs  []string // a ref's pack
	hidden []string // the IDs of the entries without a record
	// idOf is the ID of the i'th entry, for hiding one whose record is
	// damaged; nil in a full layer, which has no layer under it to hide
	// an entry in: there such an entry is only left out.
	idOf func(i int) string
}

// searchRef is where an entry's search record lies, or (has false) the
// entry hidden, hidden[at] its ID.
type searchRef struct {
	offset           int64
	length, checksum uint32
	at               int32 // hidden's index
	pack             uint16
	encoding         uint8 // in docEncodings
	has              bool
}

// searchRefsOf are a document index's searchRefs.
func searchRefsOf(ix *docIndex) (*searchRefs, error) {
	out := &searchRefs{refs: make([]searchRef, 0, len(ix.ents)), idOf: func(i int) string { return string(ix.idOf(int32(i))) }}
	for at := range ix.ents {
		if err := out.add(ix, int32(at)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// add adds where an entry's search record lies, or the entry hidden.
func (rs *searchRefs) add(ix *docIndex, at int32) error {
	i, ok := ix.entryDoc(at, render.KindSearch, "")
	if !ok || ix.ent(at).removed {
		rs.refs = append(rs.refs, searchRef{at: int32(len(rs.hidden))})
		rs.hidden = append(rs.hidden, string(ix.idOf(at)))
		return nil
	}
	d := ix.doc(i)
	pack, enc, length, offset, sum := ix.packs[d.pack], d.encoding, d.length, d.offset, d.sum
	if r, replaced := ix.full[i]; replaced {
		var err error
		if enc, err = encodingCode(r.Encoding); err != nil {
			return err
		}
		if r.Length > math.MaxUint32 {
			return fmt.Errorf("search index: entry %s: a search record of %d bytes", ix.idOf(at), r.Length)
		}
		pack, length, offset, sum = r.Pack, uint32(r.Length), r.Offset, r.Checksum
	}
	p := slices.Index(rs.packs, pack)
	if p < 0 {
		if p = len(rs.packs); p > math.MaxUint16 {
			return fmt.Errorf("search index: more than %d packs", math.MaxUint16)
		}
		rs.packs = append(rs.packs, pack)
	}
	rs.refs = append(rs.refs, searchRef{offset: offset, length: length, checksum: sum, pack: uint16(p), encoding: enc, has: true})
	return nil
}

// searchItem is a search record read and decoded for the builder (rec
// nil: hide the entry, its ID id).
type searchItem struct {
	id  string
	rec *schemas.SearchRecord
}

// searchBatch is a run of entries decoded by one worker; done closes when
// they are.
type searchBatch struct {
	refs  []searchRef
	start int // the first ref's place
	items []searchItem
	err   error
	done  chan struct{}
}

// addSearchRecords adds to b the entries rs gives, each with where its
// search record lies (none: the entry is hidden). The records are read,
// checked, decompressed and decoded on every core, a batch at a time,
// and added in their order (the index is the same).
func addSearchRecords(b *search.Builder, rs *searchRefs, packs map[string]*pack) error {
	const batchSize = 512
	ps := make([]*pack, len(rs.packs))
	for i, name := range rs.packs {
		if ps[i] = packs[name]; ps[i] == nil {
			return fmt.Errorf("search index: no pack %s", name)
		}
	}
	refs := rs.refs
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
					if !r.has {
						b.items[i].id = rs.hidden[r.at]
					} else if b.err == nil {
						b.items[i].rec, b.err = readSearchRecord(r, ps[r.pack], rs.packs[r.pack], &buf, &dec)
						if b.items[i].rec == nil && rs.idOf != nil {
							b.items[i].id = rs.idOf(b.start + i)
						}
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
			cur.refs, cur.start = refs[start:min(start+batchSize, len(refs))], start
			if !send() {
				return
			}
		}
	}()
	err := func() error {
		for batch := range order {
			<-batch.done
			if batch.err != nil {
				return batch.err
			}
			for _, it := range batch.items {
				if it.rec == nil {
					if it.id != "" {
						b.Hide(it.id)
					}
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
	return err
}

// readSearchRecord reads an entry's search record from its pack: nil when
// the entry stays out of search (damaged or undecodable bytes).
func readSearchRecord(r searchRef, p *pack, packName string, buf, dec *[]byte) (*schemas.SearchRecord, error) {
	if cap(*buf) < int(r.length) {
		*buf = make([]byte, r.length)
	}
	b := (*buf)[:r.length]
	// Not through the document cache: search records are read once.
	if _, err := p.f.ReadAt(b, r.offset); err != nil && err != io.EOF {
		return nil, fmt.Errorf("search index: the search record at %d in %s: %w", r.offset, packName, err)
	}
	if !publication.DocChecksumOK(b, r.checksum) {
		// A damaged record leaves the entry out of search rather than the
		// publication out of service; its documents answer 503 when read
		// (issue 15).
		return nil, nil
	}
	body := b
	if enc := docEncodings[r.encoding]; enc != publication.EncodingIdentity {
		var err error
		if *dec, err = publication.DecodeDoc((*dec)[:0], b, enc); err != nil {
			// Bytes that pass their checksum and do not decode are a
			// writer's fault; the entry stays out of search, as a damaged
			// record does (issue 18).
			return nil, nil
		}
		body = *dec
	}
	var rec schemas.SearchRecord
	if err := decodeSearchRecord(body, &rec); err != nil {
		return nil, fmt.Errorf("search index: the search record at %d in %s: %w", r.offset, packName, err)
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

// decodeSearchRecord decodes a stored search record: JSON render wrote
// with encoding/json, decoded with segmentio/encoding/json into the same
// value (TestDecodeSearchRecord_SameAsEncodingJSON), as the pipeline
// decodes revisions (D119). Decoding every entry's record with
// encoding/json was a sixth of the server indexes' build (D133).
func decodeSearchRecord(b []byte, rec *schemas.SearchRecord) error {
	return sjson.Unmarshal(b, rec)
}
