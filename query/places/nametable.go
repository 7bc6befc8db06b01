package places

import (
	"hash/maphash"
	"unicode/utf8"
)

// nameTable maps folded names to towns: an open-addressing hash table
// whose keys live in one byte arena, so that its million names are three
// flat slices the garbage collector never walks, and a town's names are
// filed without an allocation each.
type nameTable struct {
	seed  maphash.Seed
	slots []uint64 // 0: empty; else the key's hash's top 32 bits << 32 | entry index + 1
	ents  []nameEnt
	arena []byte
	sink  uint64 // what touch read, so that its reads are not left out
}

type nameEnt struct {
	off, n  uint32 // the key: arena[off : off+n]
	v       uint32 // its towns: an index into places, or with listBit set, into lists
	written bool   // some town's name folds to it as people write names (see written)
}

func newNameTable(hint int) *nameTable {
	size := 1024
	for size < hint*2 {
		size <<= 1
	}
	return &nameTable{
		seed:  maphash.MakeSeed(),
		slots: make([]uint64, size),
		ents:  make([]nameEnt, 0, hint),
		arena: make([]byte, 0, hint*12),
	}
}

func (t *nameTable) key(e int) []byte {
	return t.arena[t.ents[e].off : t.ents[e].off+t.ents[e].n]
}

// find answers the entry of key, or -1.
func (t *nameTable) find(key string) int {
	h := maphash.String(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	tag := h >> 32 << 32
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return -1
		}
		if s&^0xffffffff == tag {
			e := int(uint32(s)) - 1
			if string(t.key(e)) == key {
				return e
			}
		}
	}
}

func (t *nameTable) hash(key []byte) uint64 { return maphash.Bytes(t.seed, key) }

// reserve makes room for n entries in all.
func (t *nameTable) reserve(n int) {
	for 2*n > len(t.slots) {
		t.grow()
	}
}

// touch reads the slots of the hashes, and the keys in them that may be
// theirs: independent reads, which the processor overlaps, so that insert
// then finds them in its caches.
func (t *nameTable) touch(hashes []uint64) {
	mask := uint64(len(t.slots) - 1)
	var sum uint64
	for _, h := range hashes {
		sum += t.slots[h&mask]
	}
	for _, h := range hashes {
		if s := t.slots[h&mask]; s != 0 && s&^0xffffffff == h>>32<<32 {
			e := &t.ents[uint32(s)-1]
			if e.n > 0 {
				sum += uint64(t.arena[e.off])
			}
		}
	}
	t.sink += sum
}

// insert answers the entry of key, whose hash is h, adding it with value
// v when new.
func (t *nameTable) insert(key []byte, h uint64, v uint32) (e int, added bool) {
	if 2*(len(t.ents)+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	tag := h >> 32 << 32
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			e = len(t.ents)
			t.ents = append(t.ents, nameEnt{off: uint32(len(t.arena)), n: uint32(len(key)), v: v})
			t.arena = append(t.arena, key...)
			t.slots[i] = tag | uint64(e+1)
			return e, true
		}
		if s&^0xffffffff == tag {
			e := int(uint32(s)) - 1
			if string(t.key(e)) == string(key) {
				return e, false
			}
		}
	}
}

func (t *nameTable) grow() {
	t.slots = make([]uint64, 2*len(t.slots))
	mask := uint64(len(t.slots) - 1)
	for e := range t.ents {
		h := maphash.Bytes(t.seed, t.key(e))
		i := h & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = h>>32<<32 | uint64(e+1)
	}
}

// runeCount is the number of runes of entry e's key.
func (t *nameTable) runeCount(e int) int {
	return utf8.RuneCount(t.key(e))
}
