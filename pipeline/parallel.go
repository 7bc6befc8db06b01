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
	// places are where the workers put each row's key place (keyPlaces),
	// when the pass records them.
	places []*uint64
}

const scanBatchSize = 256

// scanFn handles one framed row on a worker; place is nil unless the pass
// records key places, else where the row's goes.
type scanFn func(worker int, rd register.Framed, raw register.Raw, place *uint64)

// scanOpts say what a pass over the register files does besides calling
// its function on each row.
type scanOpts struct {
	// count counts the rows read (the progress) and reports a file that
	// cannot be read to problem: one pass of a run does, the first.
	count   bool
	problem func(Problem)
	// places, when set, gets a place for every framed row, which the
	// worker fills with the place of the row's key.
	places *keyPlaces
}

// keyPlaces hold, for every framed row of a run's register files, the
// place of its key (keyPlace): 8 bytes a row, so that a run by key ranges
// writes each row to its range's file without parsing it again (issue
// 18, D123).
type keyPlaces struct {
	files [][][]uint64 // file → chunks of placeChunk rows
}

const placeChunk = 1 << 16

// slot gives the place of a row to fill (the framing goroutine only).
func (k *keyPlaces) slot(file, seq int) *uint64 {
	for len(k.files) <= file {
		k.files = append(k.files, nil)
	}
	c := seq / placeChunk
	for len(k.files[file]) <= c {
		k.files[file] = append(k.files[file], make([]uint64, placeChunk))
	}
	return &k.files[file][c][seq%placeChunk]
}

// get reads the place of a row after the pass that filled it.
func (k *keyPlaces) get(file, seq int) uint64 {
	if file >= len(k.files) || seq/placeChunk >= len(k.files[file]) {
		return 0
	}
	return k.files[file][seq/placeChunk][seq%placeChunk]
}

// sample appends every nth place of the rows framed, skipping place 0
// (rows Brief refused).
func (k *keyPlaces) sample(n int, out []uint64) []uint64 {
	for _, chunks := range k.files {
		for _, c := range chunks {
			for i := 0; i < len(c); i += n {
				if c[i] != 0 {
					out = append(out, c[i])
				}
			}
		}
	}
	return out
}

// scanFiles reads register files on every core: this goroutine frames
// each file's records in turn (cheap, sequential) and deals them to
// workers by company (Route), so a company's rows reach one worker in
// file order; the workers call fn.
func (r *run) scanFiles(ctx context.Context, files []registerFile, fn scanFn, opts scanOpts) error {
	return scanWith(ctx, fn, func(d *dealer) error {
		for i, f := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			r.frameFile(ctx, f, i, d, opts)
		}
		return nil
	})
}

// scanWith runs fn on every core over the rows frame deals (see
// scanFiles); it returns frame's error, or the context's.
func scanWith(ctx context.Context, fn scanFn, frame func(*dealer) error) error {
	n := runtime.GOMAXPROCS(0)
	ins := make([]chan scanBatch, n)
	var wg sync.WaitGroup
	for i := range ins {
		ins[i] = make(chan scanBatch, 4)
		wg.Add(1)
		go func(w int, in <-chan scanBatch) {
			defer wg.Done()
			for b := range in {
				for j, raw := range b.raws {
					var place *uint64
					if b.places != nil {
						place = b.places[j]
					}
					fn(w, b.rd, raw, place)
				}
			}
		}(i, ins[i])
	}
	d := &dealer{ins: ins, batches: make([]scanBatch, n)}
	err := frame(d)
	d.flush()
	for _, in := range ins {
		close(in)
	}
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// dealer deals framed rows to the workers in batches, each batch of one
// file's rows (its reader parses them).
type dealer struct {
	ins     []chan scanBatch
	batches []scanBatch
}

// deal gives a row to the worker of its company; place, when not nil, is
// where that worker puts the row's key place.
func (d *dealer) deal(rd register.Framed, raw register.Raw, place *uint64) {
	w := rd.Route(raw) % uint32(len(d.ins))
	b := &d.batches[w]
	if b.rd != rd && len(b.raws) > 0 {
		d.send(w)
	}
	if b.raws == nil {
		b.raws = make([]register.Raw, 0, scanBatchSize)
	}
	b.rd = rd
	b.raws = append(b.raws, raw)
	if place != nil {
		b.places = append(b.places, place)
	}
	if len(b.raws) == scanBatchSize {
		d.send(w)
	}
}

func (d *dealer) send(w uint32) {
	if len(d.batches[w].raws) > 0 {
		d.ins[w] <- d.batches[w]
		d.batches[w] = scanBatch{}
	}
}

// flush sends every batch begun.
func (d *dealer) flush() {
	for w := range d.batches {
		d.send(uint32(w))
	}
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

// frameFile frames one register file (the run's fileth) and deals its
// rows.
func (r *run) frameFile(ctx context.Context, src registerFile, file int, d *dealer, opts scanOpts) {
	path := src.path
	rd, _, closer, err := openRegister(src, r.now)
	if err != nil {
		if opts.count {
			opts.problem(Problem{File: filepath.Base(path), Reason: err.Error()})
		}
		return
	}
	defer closer.Close()
	defer d.flush()
	for seq := 0; ; seq++ {
		if seq%4096 == 0 && ctx.Err() != nil {
			return // stopped (the run fails with the context's error)
		}
		raw, err := rd.Frame()
		if err == io.EOF {
			return
		}
		if err != nil {
			if opts.count {
				opts.problem(Problem{File: filepath.Base(path), Reason: err.Error()})
			}
			return // an unreadable rest of a file is reported; the run goes on
		}
		if opts.count {
			if k := atomic.AddInt64(&r.rep.RowsRead, 1); r.cfg.Progress != nil && k%10000 == 0 {
				r.cfg.Progress(k)
			}
		}
		var place *uint64
		if opts.places != nil {
			place = opts.places.slot(file, seq)
		}
		d.deal(rd, raw, place)
	}
}

// heldRow is a framed row a key range's first pass keeps for its second.
type heldRow struct {
	rd  register.Framed
	raw register.Raw
}

// compileRows compiles framed rows on every core, with this goroutine as
// the only writer: feed calls its function with each row on the worker
// that owns the row's company. A company's identity is only touched under
// its stripe's lock (its rows go to one worker anyway; the lock covers two
// companies' rows that share a key).
func (r *run) compileRows(feed func(fn scanFn) error) error {
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
		err := feed(func(_ int, rd register.Framed, raw register.Raw, _ *uint64) {
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
		})
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

// replay feeds held rows, each worker's on that worker, in the order they
// were held, letting go of each once it is fed (a range's rows are its
// biggest part).
func replay(held [][]heldRow) func(fn scanFn) error {
	return func(fn scanFn) error {
		var wg sync.WaitGroup
		for w, rows := range held {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range rows {
					h := rows[i]
					rows[i] = heldRow{}
					fn(w, h.rd, h.raw, nil)
				}
			}()
		}
		wg.Wait()
		return nil
	}
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
