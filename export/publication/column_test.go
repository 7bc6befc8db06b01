package publication

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestColumn_Reorder: a column reordered holds each element at its new
// position, in memory and spilled, whatever the block (one element, a
// few, all), with elements both written out and still held.
func TestColumn_Reorder(t *testing.T) {
	defer func(c int) { SpillChunk = c }(SpillChunk)
	SpillChunk = 64
	type elem struct {
		a uint64
		b int32
		_ [4]byte
	}
	const n = 1000
	r := rand.New(rand.NewPCG(1, 2))
	to := make([]int32, n)
	for i := range to {
		to[i] = int32(i)
	}
	r.Shuffle(n, func(i, j int) { to[i], to[j] = to[j], to[i] })
	want := make([]elem, n)
	for i := range n {
		want[to[i]] = elem{a: uint64(i) * 7, b: int32(i)}
	}
	for _, spill := range []bool{false, true} {
		for _, block := range []int{1, 16 * 5, 16 * n, 1 << 20} {
			var c Column[elem]
			if spill {
				if err := c.SpillTo(t.TempDir()); err != nil {
					t.Fatal(err)
				}
			}
			for i := range n {
				c.Push(elem{a: uint64(i) * 7, b: int32(i)})
				if i < n-3 { // the last few stay held
					c.MaybeFlush()
				}
			}
			if spill && (c.base == 0 || len(c.mem) == 0) {
				t.Fatalf("spilled %d, held %d: the test must have both", c.base, len(c.mem))
			}
			if err := c.Reorder(to, block); err != nil {
				t.Fatal(err)
			}
			got, err := c.ReadAt(0, n)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || c.Len() != n {
				t.Fatalf("spill %v, block %d: reordered wrong", spill, block)
			}
			if err := c.Reorder(to[:n-1], block); err == nil {
				t.Fatal("a permutation of another length was taken")
			}
			c.Close()
		}
	}
}
