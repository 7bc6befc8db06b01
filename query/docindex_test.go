package query

import (
	"strconv"
	"testing"
)

// TestHashTable: keys kept in an arena are found after the table grew
// many times, and keys never inserted are not.
func TestHashTable(t *testing.T) {
	var arena []byte
	var offs []int
	keyOf := func(at int32) []byte {
		end := len(arena)
		if int(at)+1 < len(offs) {
			end = offs[at+1]
		}
		return arena[offs[at]:end]
	}
	h := newHashTable(1, keyOf)
	const n = 200_000
	for i := 0; i < n; i++ {
		offs = append(offs, len(arena))
		arena = append(arena, "ent_"+strconv.Itoa(i*7919)...)
		h.insert(int32(i))
	}
	for i := 0; i < n; i++ {
		if at, ok := h.find("ent_" + strconv.Itoa(i*7919)); !ok || at != int32(i) {
			t.Fatalf("key %d: %d %v", i, at, ok)
		}
	}
	for _, k := range []string{"", "ent_1", "ent_" + strconv.Itoa(n*7919)} {
		if _, ok := h.find(k); ok {
			t.Errorf("%q found", k)
		}
	}
	if 2*h.n > len(h.slots) {
		t.Errorf("%d keys in %d slots", h.n, len(h.slots))
	}
}
