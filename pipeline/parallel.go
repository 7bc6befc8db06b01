package pipeline

import (
	"context"
	"errors"
	"hash/fnv"
	"io"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/daawid/registry/compile/register"
)

// scanBatch is framed records of one file for one worker.
type scanBatch struct {
	rd   register.Framed
	raws []register.Raw
}

const scanBatchSize = 256

// scanFiles reads register files on every core: a helper goroutine frames
// each file's records in turn (cheap, sequential) and deals them to
// workers by company (Route), so a company's rows reach one worker in
// file order; the workers call fn. Unreadable files go to problem when it
// is set, and framed rows then count as rows read.
func (r *run) scanFiles(ctx context.Context, files []registerFile, fn func(worker int, rd register.Framed, raw register.Raw), problem func(Problem)) error {
	n := runtime.GOMAXPROCS(0)
	ins := make([]chan scanBatch, n)
	var wg sync.WaitGroup
	for i := range ins {
		ins[i] = make(chan scanBatch, 4)
		wg.Add(1)
		go func(w int, in <-chan scanBatch) {
			defer wg.Done()
			for b := range in {
				for _, raw := range b.raws {
					fn(w, b.rd, raw)
				}
			}
		}(i, ins[i])
	}
	var err error
	func() {
		defer func() {
			for _, in := range ins {
				close(in)
			}
		}()
		for _, f := range files {
			if err = ctx.Err(); err != nil {
				return
			}
			r.frameFile(f, ins, problem != nil, problem)
		}
	}()
	wg.Wait()
	return err
}

// parsed parses a framed record, reporting a bad row or a warning; nil
// for a bad row.
func parsed(rd register.Framed, raw register.Raw, problem func(Problem)) *register.Record {
	rec, err := rd.Parse(raw)
	if err != nil {
		var re *register.RowError
		if errors.As(err, &re) {
			problem(Problem{File: re.File, Line: re.Line, Path: re.Field, Reason: re.Msg})
		} else {
			problem(Problem{Line: raw.Line, Reason: err.Error()})
		}
		return nil
	}
	for _, w := range rec.Warnings {
		problem(Problem{File: w.File, Line: w.Line, Path: w.Field, Reason: w.Msg, Kept: true})
	}
	return rec
}

// frameFile frames one register file into the workers' channels.
func (r *run) frameFile(src registerFile, ins []chan scanBatch, report bool, problem func(Problem)) {
	path := src.path
	rd, _, closer, err := openRegister(src, r.now)
	if err != nil {
		if report {
			problem(Problem{File: filepath.Base(path), Reason: err.Error()})
		}
		return
	}
	defer closer.Close()
	n := uint32(len(ins))
	batches := make([][]register.Raw, n)
	send := func(w uint32) {
		if len(batches[w]) > 0 {
			ins[w] <- scanBatch{rd: rd, raws: batches[w]}
			batches[w] = make([]register.Raw, 0, scanBatchSize)
		}
	}
	defer func() {
		for w := range n {
			send(w)
		}
	}()
	for {
		raw, err := rd.Frame()
		if err == io.EOF {
			return
		}
		if err != nil {
			if report {
				problem(Problem{File: filepath.Base(path), Reason: err.Error()})
			}
			return // an unreadable rest of a file is reported; the run goes on
		}
		if report {
			if k := atomic.AddInt64(&r.rep.RowsRead, 1); r.cfg.Progress != nil && k%10000 == 0 {
				r.cfg.Progress(k)
			}
		}
		w := rd.Route(raw) % n
		batches[w] = append(batches[w], raw)
		if len(batches[w]) == scanBatchSize {
			send(w)
		}
	}
}

// compileFiles compiles the records of the register files on every core,
// with this goroutine as the only writer. A company's identity is only
// touched under its stripe's lock (its rows go to one worker anyway; the
// lock covers two companies' rows that share a key).
func (r *run) compileFiles(ctx context.Context, files []registerFile) error {
	r.pending = &[]*EntryRow{}
	defer r.flushRows()
	out := make(chan outcome, 1024)
	var stripes [256]sync.Mutex
	var pmu sync.Mutex
	var readProblems []Problem
	scanErr := make(chan error, 1)
	go func() {
		report := func(p Problem) {
			pmu.Lock()
			readProblems = append(readProblems, p)
			pmu.Unlock()
		}
		err := r.scanFiles(ctx, files, func(_ int, rd register.Framed, raw register.Raw) {
			rec := parsed(rd, raw, report)
			if rec == nil {
				return
			}
			h := fnv.New32a()
			h.Write([]byte(rec.Key))
			mu := &stripes[h.Sum32()%uint32(len(stripes))]
			mu.Lock()
			o := r.record(rec)
			mu.Unlock()
			out <- o
		}, report)
		close(out)
		scanErr <- err
	}()
	var firstErr error
	drain := func() {
		pmu.Lock()
		ps := readProblems
		readProblems = nil
		pmu.Unlock()
		for _, p := range ps {
			r.refuse(p)
		}
	}
	for o := range out {
		drain()
		if firstErr == nil {
			if err := r.apply(o); err != nil {
				firstErr = err
			}
		}
	}
	drain()
	if err := <-scanErr; err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}

// parallelFor calls fn(0..n-1) on every core.
func parallelFor(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
