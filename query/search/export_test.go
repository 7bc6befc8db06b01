package search

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"sync/atomic"

	"github.com/daawid/registry/export/publication"
)

// SetWeighPath forces how tier 1 is weighed (1: by looking each entry
// up; 2: by tallying the postings whole, as without the spatial order; 3:
// by reading the lists between the first and the last entry; 0: by
// cost), so every way runs the relevance set.
func SetWeighPath(p int) { weighPath = p }

// SetIDHash makes IDs hash with h until restore is called, so that tests
// make IDs share a hash.
func SetIDHash(h func(string) uint64) (restore func()) {
	idHash = h
	return func() { idHash = fnvHash }
}

// IDHash is the hash IDs have.
func IDHash(id string) uint64 { return fnvHash(id) }

// AliasedTypes are the types OpenIndex takes from a file's bytes as they
// are, while open runs.
func AliasedTypes(open func()) []reflect.Type {
	var out []reflect.Type
	aliasing = func(elem any) {
		if t := reflect.TypeOf(elem); !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	defer func() { aliasing = nil }()
	open()
	return out
}

// SectionSpan is where a section of an index file is, by its name: its
// entry in the table, its offset and length.
func SectionSpan(b []byte, name string) (entry, off, n int, err error) {
	f, err := readHeader(b)
	if err != nil {
		return 0, 0, 0, err
	}
	for s := section(1); s < numSections; s++ {
		if sections[s].name != name {
			continue
		}
		for e := headerSize; e < len(b); e += tableEntry {
			if binary.LittleEndian.Uint32(b[e:]) == uint32(s) {
				return e, int(f.secs[s].off), int(f.secs[s].n), nil
			}
		}
	}
	return 0, 0, 0, fmt.Errorf("no section %s", name)
}

// SetSpillChunk makes spilling builders write their columns out every n
// bytes until restore is called.
func SetSpillChunk(n int) (restore func()) {
	old := publication.SpillChunk
	publication.SpillChunk = n
	return func() { publication.SpillChunk = old }
}

// FileVersion is the index file's format version.
const FileVersion = fileVersion

// SetNoRings makes queries near a place tally the postings whole (true)
// or find tier 3 by rings (false); runs counts the rings run, stops
// those that stopped early, until restore.
func SetNoRings(no bool) (runs, stops *atomic.Int64, restore func()) {
	noRings, ringRuns, ringStops = no, &atomic.Int64{}, &atomic.Int64{}
	return ringRuns, ringStops, func() { noRings, ringRuns, ringStops = false, nil, nil }
}
