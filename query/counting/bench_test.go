package counting

import (
	"fmt"
	"sync/atomic"
	"testing"
)

func benchCounter(b *testing.B) (*Counter, []string, []string) {
	c := open(b, b.TempDir())
	b.Cleanup(func() { c.Close() })
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("01J%023d", i)
	}
	return c, ids, []string{"openai", "anthropic", "other"}
}

// REST-38: counting a read is on the path of every entry served; it must
// cost little and allocate nothing once an entry has been counted.
func BenchmarkRead(b *testing.B) {
	c, ids, cats := benchCounter(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.Read(ids[i%len(ids)], cats[i%len(cats)], day1)
		i++
	}
}

// Reads from many goroutines at once, as a busy server makes them.
func BenchmarkReadParallel(b *testing.B) {
	c, ids, cats := benchCounter(b)
	b.ReportAllocs()
	var start atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		// Each goroutine starts elsewhere in the entries, as concurrent
		// requests mostly ask for different ones.
		i := int(start.Add(1)) * 337
		for pb.Next() {
			c.Read(ids[i%len(ids)], cats[i%len(cats)], day1)
			i++
		}
	})
}
