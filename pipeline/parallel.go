package pipeline

import (
	"context"
	"hash/fnv"
	"runtime"
	"sync"

	"github.com/daawid/registry/compile/register"
)

// compileFiles compiles the records of the register files on every core:
// one reader, workers that each own the keys that hash to them (so a
// company's identity is only ever touched by one goroutine), and this
// goroutine as the only writer.
func (r *run) compileFiles(ctx context.Context, files []string) error {
	n := runtime.GOMAXPROCS(0)
	r.pending = map[string]*EntryRow{}
	defer r.flushRows()
	ins := make([]chan *register.Record, n)
	out := make(chan outcome, 256*n)
	var wg sync.WaitGroup
	for i := range ins {
		ins[i] = make(chan *register.Record, 256)
		wg.Add(1)
		go func(in <-chan *register.Record) {
			defer wg.Done()
			for rec := range in {
				out <- r.record(ctx, rec)
			}
		}(ins[i])
	}
	// problems found while reading go through the writer too
	var readProblems []Problem
	var pmu sync.Mutex
	readErr := make(chan error, 1)
	go func() {
		defer func() {
			for _, in := range ins {
				close(in)
			}
		}()
		for _, f := range files {
			err := r.scanWith(f, func(rec *register.Record) {
				h := fnv.New32a()
				h.Write([]byte(rec.Key))
				ins[int(h.Sum32()%uint32(n))] <- rec
			}, func(p Problem) {
				pmu.Lock()
				readProblems = append(readProblems, p)
				pmu.Unlock()
			})
			if err != nil {
				readErr <- err
				return
			}
		}
		readErr <- nil
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	var firstErr error
	for o := range out {
		pmu.Lock()
		ps := readProblems
		readProblems = nil
		pmu.Unlock()
		for _, p := range ps {
			r.refuse(p)
		}
		if firstErr == nil {
			if err := r.apply(o); err != nil {
				firstErr = err
			}
		}
	}
	for _, p := range readProblems {
		r.refuse(p)
	}
	if err := <-readErr; err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}
