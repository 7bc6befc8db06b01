package query

import (
	"errors"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/daawid/registry/export/publication"
)

// A publication writes the server's document file (WriteServeFiles) from
// its full index without holding the index's arrays (D116): the index is
// read as the server reads it (readDocIndex), but its documents, entries
// and strings are spilled to temporary files an entry at a time, once
// the entry is complete, and copied into the document file at the end.
// What stays in memory grows by about 40 bytes an entry: the ID table's
// slots, the IDs' and slugs' hashes (the tables are made from them, the
// keys read back only when two hashes agree) and where each entry's
// search record lies (searchRefs, for the search index built next).
//
// One index file is read this way: a full publication's, in which an
// entry's rows are together (D59), so that nothing of an entry already
// spilled is ever looked at again.

// docSpill is what a spilling read keeps besides the entry being read.
type docSpill struct {
	docs  publication.Column[docRec]
	ents  publication.Column[entryRec]
	arena publication.Column[byte]
	// idHashes and slugHashes are the entries' IDs' and slugs' hashes,
	// live which of them are live; refs where their search records lie.
	idHashes, slugHashes []uint64
	live                 []bool
	refs                 *searchRefs
	err                  error
}

// newDocSpill spills into temporary files in dir; close removes them.
func newDocSpill(dir string) (*docSpill, error) {
	sp := &docSpill{refs: &searchRefs{}}
	for _, c := range sp.columns() {
		if err := c.SpillTo(dir); err != nil {
			sp.close()
			return nil, err
		}
	}
	return sp, nil
}

func (sp *docSpill) columns() []interface {
	SpillTo(string) error
	Close() error
} {
	return []interface {
		SpillTo(string) error
		Close() error
	}{&sp.docs, &sp.ents, &sp.arena}
}

func (sp *docSpill) close() error {
	var errs []error
	for _, c := range sp.columns() {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

func (sp *docSpill) idHash(at int32) uint64 { return sp.idHashes[at] }

// spilledID is an entry's ID, read back from the files when the entry
// was spilled (only when its hash is the one looked up).
func (ix *docIndex) spilledID(at int32) []byte {
	if at >= ix.entBase {
		return ix.idOf(at)
	}
	sp := ix.sp
	e, err := sp.ents.ReadAt(int(at), 1)
	if err == nil {
		var id []byte
		if id, err = sp.arena.ReadAt(int(e[0].id), int(e[0].idLen)); err == nil {
			return id
		}
	}
	if sp.err == nil {
		sp.err = err
	}
	return nil
}

// spillEntry is called before an entry (id) is added: the entry before
// it is complete, and is spilled when the entries held fill a chunk.
func (ix *docIndex) spillEntry(id string) error {
	sp := ix.sp
	if len(ix.ents) > 0 {
		if err := ix.finishEntry(ix.entBase + int32(len(ix.ents)) - 1); err != nil {
			return err
		}
		held := len(ix.docs)*int(unsafe.Sizeof(docRec{})) + len(ix.ents)*int(unsafe.Sizeof(entryRec{})) + len(ix.arena)
		if held >= publication.SpillChunk {
			ix.spill()
		}
	}
	sp.idHashes = append(sp.idHashes, xxhash.Sum64String(id))
	return sp.err
}

// finishEntry notes a complete entry's slug, whether it is live and
// where its search record lies.
func (ix *docIndex) finishEntry(at int32) error {
	sp := ix.sp
	sp.slugHashes = append(sp.slugHashes, xxhash.Sum64(ix.slugOf(at)))
	sp.live = append(sp.live, !ix.ent(at).removed)
	return sp.refs.add(ix, at)
}

// spill writes the entries held out.
func (ix *docIndex) spill() {
	sp := ix.sp
	sp.docs.SetMem(ix.docs)
	sp.docs.Flush()
	sp.ents.SetMem(ix.ents)
	sp.ents.Flush()
	sp.arena.SetMem(ix.arena)
	sp.arena.Flush()
	ix.docs, ix.ents, ix.arena = sp.docs.Mem(), sp.ents.Mem(), sp.arena.Mem()
	ix.docBase, ix.entBase, ix.arenaBase = int32(sp.docs.Len()), int32(sp.ents.Len()), uint32(sp.arena.Len())
}

// spillEnd finishes the last entry and makes the slug table from the
// slugs' hashes; the columns then hold the entries still in memory,
// for the document file (writeDocFile).
func (ix *docIndex) spillEnd() error {
	sp := ix.sp
	if len(ix.ents) > 0 {
		if err := ix.finishEntry(ix.entBase + int32(len(ix.ents)) - 1); err != nil {
			return err
		}
	}
	live := 0
	for _, l := range sp.live {
		if l {
			live++
		}
	}
	ix.slugs = newHashTable(live, ix.slugOf)
	ix.slugs.hashOf = func(at int32) uint64 { return sp.slugHashes[at] }
	for at, l := range sp.live {
		if l {
			ix.slugs.insert(int32(at))
		}
	}
	sp.docs.SetMem(ix.docs)
	sp.ents.SetMem(ix.ents)
	sp.arena.SetMem(ix.arena)
	sp.idHashes, sp.slugHashes, sp.live = nil, nil, nil
	return sp.err
}
