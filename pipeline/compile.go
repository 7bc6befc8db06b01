package pipeline

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// CompileConfig is one compile run's inputs.
type CompileConfig struct {
	StateDir string
	// Registers are register files, each "FILE" or "KIND:FILE": the
	// register table (compile/register.Kinds) recognises a file by its
	// content, or reads it as the register KIND names. A file no register
	// recognises stops the run before it changes anything.
	Registers []string
	// Sites reads websites; nil reads none.
	Sites SiteSource
	// OwnerInbox is a folder of owner revisions (*.json). Accepted files
	// move to accepted/, refused ones to refused/ with a .reasons.json
	// beside them, after the run is committed.
	OwnerInbox string
	// Verification are JSON-lines files of verification events.
	Verification []string
	// Seed is an identity map to start from (JSON array of identities),
	// for importing existing entries such as the contract's examples.
	Seed string
	// Now is the run's instant; everything compiled is dated with it.
	Now time.Time
	// Log receives structured progress and problems; nil discards.
	Log *slog.Logger
	// Progress, when set, is called with rows read so far (a progress bar
	// on a terminal).
	Progress func(rows int64)
	// MemoryLimit is the Go heap's budget for the run (DuckDB has its own,
	// in OpenState); 0 means DefaultMemoryLimit.
	MemoryLimit int64
	// Clock reads wall time for the run's own durations; nil uses time.Now.
	Clock func() time.Time
	// MaxBadRows is how many bad rows (rows skipped) a run may report and
	// still commit: past it the run fails and the state stays as it was.
	// nil means DefaultMaxBadRows; a negative value, no limit.
	MaxBadRows *int
	// RangeEntries is how many identities the run holds at once; a
	// registry bigger than that is compiled by key ranges. 0 means
	// DefaultRangeEntries.
	RangeEntries int
}

// DefaultMaxBadRows is how many bad rows a run may have by default: a
// register file has a few a month; a thousand means the file or its
// reader is wrong, and a night that records it as a success hides it.
const DefaultMaxBadRows = 1000

// InputError is a named input of a run (a register file, the owner inbox,
// a verification file) that is missing or unreadable: the run fails
// before it changes anything (exit status 1).
type InputError struct {
	Input, Path string
	Err         error
}

func (e *InputError) Error() string { return e.Input + " " + e.Path + ": " + e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// BadRowsError is a run whose bad rows passed CompileConfig.MaxBadRows:
// nothing is committed; the report lists the problems.
type BadRowsError struct{ Rows, Max int }

func (e *BadRowsError) Error() string {
	return fmt.Sprintf("%d bad rows, more than the %d a run may have (--max-bad-rows); nothing was committed", e.Rows, e.Max)
}

// SiteSource crawls the websites of a run.
type SiteSource interface {
	// Hosts lists the hosts to crawl (a saved-site archive knows them).
	Hosts() []string
	Crawl(ctx context.Context, host, region string, now time.Time) *site.Facts
}

// DefaultMemoryLimit is the Go heap budget of a compile run: a million
// companies need about 1.3 GB live. At 1M the run took as long with 2.5
// and 2.75 GiB as with 3 GiB (user CPU 54–61 s against 59–66 s) and its
// peak follows the budget (D136).
const DefaultMemoryLimit = 11 << 28 // 2.75 GiB

// DefaultRangedMemoryLimit is the Go heap budget of a run by key ranges
// when none is set: a range of DefaultRangeEntries holds up to about 2.5
// GB live (German rows are the bigger ones), which 3 GiB would make the
// collector run all the time for; the budget stays the same whatever the
// registry's size (D114).
const DefaultRangedMemoryLimit = 9 << 29 // 4.5 GiB

// Report is what a compile run did.
type Report struct {
	RunID        string    `json:"runId"`
	Now          time.Time `json:"now"`
	RowsRead     int64     `json:"rowsRead"`
	RowsSkipped  int64     `json:"rowsSkipped"`
	Warnings     int64     `json:"warnings"`
	FilesSkipped int       `json:"filesSkipped"`
	Compiled     int64     `json:"compiled"` // new revisions of any cause
	Unchanged    int64     `json:"unchanged"`
	NewEntries   int64     `json:"newEntries"`
	Merged       int64     `json:"merged"` // owner revisions accepted
	Refused      int64     `json:"refused"`
	Events       int64     `json:"events"`
	Expired      int64     `json:"expired"`
	Removed      int64     `json:"removed"`
	SitesCrawled int64     `json:"sitesCrawled"`
	SitesMatched int64     `json:"sitesMatched"`
	// KeyRanges is how many key ranges a run with register files compiled
	// the registry in (1: all at once; CompileConfig.RangeEntries).
	KeyRanges int `json:"keyRanges,omitempty"`
	Seconds   struct {
		Read, Compile, Commit, Total float64
	} `json:"seconds"`
	Problems []Problem `json:"problems"`
}

// Problem is one bad input, kept with where it was.
type Problem struct {
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Path   string `json:"path,omitempty"`
	Reason string `json:"reason"`
	Kept   bool   `json:"kept,omitempty"` // a warning: the row was compiled without the field
}

// maxReportedProblems caps the problems the report lists one by one; all
// of them are in the state's refused table.
const maxReportedProblems = 1000

// problem keeps a problem for the report: the first maxReportedProblems
// in (file, line, path) order, whatever order the workers found them in.
func (r *Report) problem(p Problem) {
	r.Problems = append(r.Problems, p)
	if len(r.Problems) >= 2*maxReportedProblems {
		r.sortProblems()
	}
}

func (r *Report) sortProblems() {
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Reason < b.Reason
	})
	if len(r.Problems) > maxReportedProblems {
		r.Problems = r.Problems[:maxReportedProblems]
	}
}

// run holds one compile run's working state.
type run struct {
	cfg     CompileConfig
	st      *State
	w       *writer
	rep     *Report
	log     *slog.Logger
	now     time.Time
	ids     *compile.Identities
	rows    map[string]*EntryRow              // by key
	newDecl map[string]*compile.OwnerRevision // accepted this run
	events  map[string][]compile.Event
	sites   map[string]*site.Facts // by register key, and by "name:" keys
	comp    *compile.Compiler
	touched map[string]bool // entry IDs whose sources this run has handled
	pending *[]*EntryRow    // new rows waiting, in order, while workers read rows
	// deferred are register records of entries with a history to merge
	// over (claimed, suspended, with events or an open window): they are
	// compiled after the parallel pass, with their previous revisions and
	// declarations loaded in one go.
	deferred []deferredRecord
	// complete are the registers whose files in this run make up a whole
	// data product: a company missing from them has left (D54).
	complete []*register.Kind
	// small: no register file to compile; only the identities and entries
	// the run touches are loaded, and the index is written as a delta.
	small bool
	// whole: the run loaded every identity and entry row (a registry that
	// fits one key range); else it goes by key ranges (byRanges), and
	// byRange says it did.
	whole, byRange bool
	indexRows      int                 // rows of the state's index chain
	rangedLimit    int64               // the heap budget by key ranges (0: the run's)
	seed           []*compile.Identity // identities to start from (CompileConfig.Seed)
	moves          []inboxMove
	edits          []inboxRead // owner edits waiting for applyEdits, in file order
}

type deferredRecord struct {
	id  *compile.Identity
	rec *register.Record
	web *siteFacts
}

type inboxMove struct {
	file, dir string
	reasons   []byte
}

// Compile runs one compile: it reads the sources, compiles and merges,
// expires what time ended, and commits everything to the state in one
// transaction; inbox files move only after that commit.
func Compile(ctx context.Context, cfg CompileConfig) (*Report, error) {
	clock := cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	started := clock()
	now, log, st, err := begin("compile", cfg.Now, cfg.Log, cfg.StateDir)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	// A batch run allocates a lot of short-lived memory over a large live
	// set (the identity map): collecting only as the heap nears the memory
	// budget halves the time spent collecting (docs/performance.md).
	limit := cfg.MemoryLimit
	if limit == 0 {
		limit = DefaultMemoryLimit
	}
	defer debug.SetGCPercent(debug.SetGCPercent(1000))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	runID := compile.DeterministicID(schemas.PrefixRun, started, started.String())
	r := &run{cfg: cfg, st: st, log: log, now: now, rep: &Report{RunID: runID, Now: now, Problems: []Problem{}},
		newDecl: map[string]*compile.OwnerRevision{}, events: map[string][]compile.Event{}, sites: map[string]*site.Facts{},
		touched: map[string]bool{}}
	tax := taxonomy.Default()
	r.comp = compile.NewCompiler(compile.NewCategorizer(tax), tax)
	if r.w, err = st.newWriter(ctx, runID); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			r.w.abort()
		}
	}()
	if cfg.MemoryLimit == 0 {
		r.rangedLimit = DefaultRangedMemoryLimit
	}
	t0 := clock()
	files, err := r.registerFiles(ctx)
	if err != nil {
		return nil, err
	}
	inbox, err := r.readInboxFiles()
	if err != nil {
		return nil, err
	}
	events, err := r.readEventFiles()
	if err != nil {
		return nil, err
	}
	// A run with no register file to compile touches only what its owner
	// revisions, events and due expiries name: it loads just those, and
	// its cost grows with them, not with the registry (D57).
	r.small = len(files) == 0
	if err := r.load(ctx, inbox, events); err != nil {
		return nil, err
	}
	r.decideInbox(inbox)
	if err := r.applyEdits(ctx); err != nil {
		return nil, err
	}
	r.acceptEvents(events)
	if !r.small {
		r.crawl(ctx)
		if err := r.registers(ctx, files); err != nil {
			return nil, err
		}
	}
	r.rep.Seconds.Read = clock().Sub(t0).Seconds()

	t1 := clock()
	if !r.byRange {
		if err := r.withHistory(ctx, nil); err != nil {
			return nil, err
		}
		r.dissolved()
		if err := r.expire(); err != nil {
			return nil, err
		}
	}
	r.rep.Seconds.Compile = clock().Sub(t1).Seconds()
	t2 := clock()
	r.logMemory("before commit")
	r.rep.sortProblems()
	if max := r.maxBadRows(); max >= 0 && r.rep.RowsSkipped > int64(max) {
		return r.rep, &BadRowsError{Rows: int(r.rep.RowsSkipped), Max: max}
	}
	report, _ := json.Marshal(r.rep)
	if err := r.w.commit(ctx, r.runRow(started, clock(), report), r.ids, r.rows, r.small); err != nil {
		return nil, err
	}
	ok = true
	r.rep.Seconds.Commit = clock().Sub(t2).Seconds()
	r.rep.Seconds.Total = clock().Sub(started).Seconds()
	r.moveInbox()
	log.Info("compile done", "run", runID, "read", r.rep.RowsRead, "compiled", r.rep.Compiled, "unchanged", r.rep.Unchanged,
		"merged", r.rep.Merged, "refused", r.rep.Refused, "expired", r.rep.Expired, "removed", r.rep.Removed, "seconds", r.rep.Seconds.Total)
	return r.rep, nil
}

func (r *run) runRow(started, finished time.Time, report []byte) []driver.Value {
	p := r.rep
	return []driver.Value{p.RunID, r.now, started.UTC(), finished.UTC(), p.RowsRead, p.RowsSkipped, p.Warnings, p.Compiled,
		p.Unchanged, p.NewEntries, p.Merged, p.Refused, p.Events, p.Expired, p.Removed, p.SitesCrawled,
		p.Seconds.Read, p.Seconds.Compile, p.Seconds.Commit, string(report)}
}

// load reads the identity map and entry rows: all of them, or for a small
// run those its inputs name and those due to expire. A run whose registry
// is more than a key range holds loads only what its inputs name (to
// decide its owner revisions and events), and each range later.
func (r *run) load(ctx context.Context, inbox []inboxRead, events []compile.Event) error {
	if r.cfg.Seed != "" {
		b, err := os.ReadFile(r.cfg.Seed)
		if err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		if err := json.Unmarshal(b, &r.seed); err != nil {
			return fmt.Errorf("seed %s: %w", r.cfg.Seed, err)
		}
	}
	var err error
	if r.indexRows, err = r.st.IndexRows(); err != nil {
		return err
	}
	r.whole = !r.small && r.indexRows <= r.rangeEntries()
	if r.whole {
		r.ids, r.rows, err = r.st.Load()
	} else {
		var ids, keys []string
		for _, in := range inbox {
			if in.decl != nil {
				ids = append(ids, in.decl.Entry.ID)
			}
			if in.edit != nil {
				ids = append(ids, in.edit.Entry)
			}
		}
		for _, ev := range events {
			ids = append(ids, ev.Entry)
		}
		for _, id := range r.seed {
			keys = append(keys, id.Key)
		}
		due := r.now
		if !r.small {
			due = time.Time{} // the ranges expire what is due
		}
		r.ids, r.rows, err = r.st.LoadSome(ctx, ids, keys, due)
	}
	if err != nil {
		return err
	}
	for _, id := range r.seed {
		if _, ok := r.ids.ByKey(id.Key); !ok {
			r.ids.Add(id)
		}
	}
	return nil
}

// begin starts a compile or a publication: its instant (to the second),
// its logger (discarding when none) and the state it works on.
func begin(op string, at time.Time, log *slog.Logger, stateDir string) (time.Time, *slog.Logger, *State, error) {
	now := at.UTC().Truncate(time.Second)
	if now.IsZero() {
		return now, nil, nil, errors.New(op + ": now is not set")
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	st, err := OpenState(stateDir)
	return now, log, st, err
}

// logMemory logs where the run's memory is: the Go heap and DuckDB's.
func (r *run) logMemory(at string) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var duck sql.NullInt64
	r.st.db.QueryRow(`SELECT sum(memory_usage_bytes) FROM duckdb_memory()`).Scan(&duck)
	r.log.Info("memory", "at", at, "goHeapMB", ms.HeapInuse>>20, "goSysMB", ms.Sys>>20, "duckdbMB", duck.Int64>>20)
}

// refuse records a refused or skipped input.
func (r *run) refuse(p Problem) {
	if p.Kept {
		r.rep.Warnings++
	} else {
		r.rep.RowsSkipped++
	}
	r.rep.problem(p)
	if err := r.w.refused(p.File, p.Line, p.Path, p.Reason); err != nil {
		r.log.Error("state", "err", err)
	}
	r.log.Warn("input", "file", p.File, "line", p.Line, "path", p.Path, "reason", p.Reason, "kept", p.Kept)
}

// inboxRead is one owner revision file, read and validated.
type inboxRead struct {
	file   string
	decl   *compile.OwnerRevision
	edit   *schemas.OwnerEdit // an owner tool's edit (D95), instead of decl
	issues []Problem
}

// maxBadRows is the run's limit of bad rows (negative: none).
func (r *run) maxBadRows() int {
	if r.cfg.MaxBadRows == nil {
		return DefaultMaxBadRows
	}
	return *r.cfg.MaxBadRows
}

// readInboxFiles reads and validates the owner revisions, on every core
// (the costly part); the decisions come after the state is loaded. An
// inbox folder that is not there fails the run; a file too big to be an
// entry is refused from its size, without being read.
func (r *run) readInboxFiles() ([]inboxRead, error) {
	if r.cfg.OwnerInbox == "" {
		return nil, nil
	}
	if st, err := os.Stat(r.cfg.OwnerInbox); err != nil {
		return nil, &InputError{Input: "owner inbox", Path: r.cfg.OwnerInbox, Err: err}
	} else if !st.IsDir() {
		return nil, &InputError{Input: "owner inbox", Path: r.cfg.OwnerInbox, Err: errors.New("is not a folder")}
	}
	files, _ := filepath.Glob(filepath.Join(r.cfg.OwnerInbox, "*.json"))
	sort.Strings(files)
	reads := make([]inboxRead, len(files))
	parallelFor(len(files), func(i int) {
		name := filepath.Base(files[i])
		reads[i].file = files[i]
		data, err := readBounded(files[i], schemas.MaxEntryBytes)
		if err != nil {
			reads[i].issues = []Problem{{File: name, Reason: err.Error()}}
			return
		}
		if edit, isEdit, issues := schemas.ParseOwnerEdit(data); isEdit {
			for _, is := range issues {
				reads[i].issues = append(reads[i].issues, Problem{File: name, Path: is.Path, Reason: is.Message})
			}
			if len(issues) == 0 {
				reads[i].edit = edit
			}
			return
		}
		decl, issues := compile.ReadOwnerRevision(name, data)
		for _, is := range issues {
			reads[i].issues = append(reads[i].issues, Problem{File: name, Path: is.Path, Reason: is.Message})
		}
		if len(issues) == 0 {
			reads[i].decl = decl
		}
	})
	return reads, nil
}

// readBounded reads a file of at most max bytes; a bigger one is refused
// from its size, before any of it is read.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > max {
		return nil, fmt.Errorf("is %d bytes; an entry is at most %d bytes", st.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("is over %d bytes; an entry is at most %d bytes", max, max)
	}
	return data, nil
}

// decideInbox accepts, in file order, every valid owner revision based on
// its entry's current revision; the others are refused with every reason,
// kept in refused/.
func (r *run) decideInbox(reads []inboxRead) {
	for _, rd := range reads {
		f, name := rd.file, filepath.Base(rd.file)
		if len(rd.issues) > 0 {
			r.refuseFile(f, rd.issues)
			continue
		}
		if rd.edit != nil {
			r.edits = append(r.edits, rd)
			continue
		}
		decl := rd.decl
		id, known := r.ids.ByEntry(decl.Entry.ID)
		current := 0
		if known {
			if row := r.rows[id.Key]; row != nil {
				current = row.Revision
			}
		}
		if other, dup := r.newDecl[decl.Entry.ID]; dup {
			r.refuseFile(f, []Problem{{File: name, Reason: "another revision of the entry in this inbox (" + other.File + ") was taken first"}})
			continue
		}
		// A new entry (D69): nothing to be based on, so its first revision
		// says 1, the lowest the schema allows.
		if decl.BasedOn != current && !(current == 0 && decl.BasedOn == 1) {
			cs := &compile.ChangedSince{EntryID: decl.Entry.ID, BasedOn: decl.BasedOn, Current: current}
			r.refuseFile(f, []Problem{{File: name, Path: "/record/revision", Reason: cs.Error()}})
			continue
		}
		r.newDecl[decl.Entry.ID] = decl
		r.moves = append(r.moves, inboxMove{file: f, dir: "accepted"})
		r.rep.Merged++
	}
}

func (r *run) refuseFile(path string, ps []Problem) {
	r.rep.Refused++
	for _, p := range ps {
		r.refuse(p)
	}
	b, _ := json.MarshalIndent(map[string]any{"file": filepath.Base(path), "refusedAt": r.now, "reasons": ps}, "", "  ")
	r.moves = append(r.moves, inboxMove{file: path, dir: "refused", reasons: b})
}

// moveInbox files the inbox after the commit, so a failed run leaves it
// as it was.
func (r *run) moveInbox() {
	for _, m := range r.moves {
		dir := filepath.Join(filepath.Dir(m.file), m.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			r.log.Error("inbox", "err", err)
			continue
		}
		dst := filepath.Join(dir, filepath.Base(m.file))
		if err := os.Rename(m.file, dst); err != nil {
			r.log.Error("inbox", "err", err)
			continue
		}
		if m.reasons != nil {
			os.WriteFile(strings.TrimSuffix(dst, ".json")+".reasons.json", m.reasons, 0o644)
		}
	}
}

// readEventFiles reads the verification events, sorted; bad lines are
// refused, a file that is missing or unreadable fails the run.
func (r *run) readEventFiles() ([]compile.Event, error) {
	var all []compile.Event
	for _, f := range r.cfg.Verification {
		fh, err := os.Open(f)
		if err != nil {
			return nil, &InputError{Input: "verification file", Path: f, Err: err}
		}
		evs, bad := compile.ReadEvents(fh, filepath.Base(f))
		fh.Close()
		for _, b := range bad {
			r.refuse(Problem{File: b.File, Line: b.Line, Path: b.Field, Reason: b.Msg})
		}
		all = append(all, evs...)
	}
	compile.SortEvents(all)
	return all, nil
}

// acceptEvents keeps the events of known entries up to the run's instant.
func (r *run) acceptEvents(all []compile.Event) {
	for _, ev := range all {
		if _, ok := r.ids.ByEntry(ev.Entry); !ok {
			r.refuse(Problem{File: "verification", Line: ev.Line, Path: "entry", Reason: ev.Entry + " is not an entry of the registry"})
			continue
		}
		if schemas.ParseTime(ev.At).After(r.now) {
			r.refuse(Problem{File: "verification", Line: ev.Line, Path: "at", Reason: "is after the run's instant; it waits for a later run"})
			continue
		}
		r.events[ev.Entry] = append(r.events[ev.Entry], ev)
		r.rep.Events++
	}
}

// crawl reads the websites and indexes them by the register reference in
// their legal notice, and by legal name and postal code.
func (r *run) crawl(ctx context.Context) {
	if r.cfg.Sites == nil {
		return
	}
	if lp, ok := r.cfg.Sites.(interface{ Problems() []Problem }); ok {
		for _, p := range lp.Problems() {
			r.refuse(p)
		}
	}
	hosts := r.cfg.Sites.Hosts()
	facts := make([]*site.Facts, len(hosts))
	// Hosts are crawled side by side; each host still gets one request at
	// a time (the crawler's per-host turns).
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, host := range hosts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			facts[i] = r.cfg.Sites.Crawl(ctx, host, regionOfHost(host), r.now)
		}()
	}
	wg.Wait()
	for i, host := range hosts {
		f := facts[i]
		r.rep.SitesCrawled++
		for _, p := range f.Problems {
			r.refuse(Problem{File: "https://" + host + "/", Reason: p, Kept: true})
		}
		if reg := f.Legal.Register; reg != nil {
			if k := register.KeyFor(*reg); k != "" {
				r.sites[k] = f
			}
		}
		if f.Legal.Name != "" && f.Legal.Address != nil {
			r.sites["name:"+nameKey(f.Legal.Name, f.Legal.Address.PostalCode)] = f
		}
	}
}

func regionOfHost(host string) string {
	switch {
	case strings.HasSuffix(host, ".de"):
		return "DE"
	case strings.HasSuffix(host, ".uk"):
		return "GB"
	case strings.HasSuffix(host, ".fr"):
		return "FR"
	case strings.HasSuffix(host, ".es"):
		return "ES"
	case strings.HasSuffix(host, ".tr"):
		return "TR"
	}
	return "DE"
}

var nonAlnum = regexp.MustCompile(`[^\pL\pN]+`)

func nameKey(name, postal string) string {
	return strings.ToLower(nonAlnum.ReplaceAllString(name, "")) + "@" + strings.ReplaceAll(strings.ToUpper(postal), " ", "")
}

// siteFor finds the website of a register record: by the register
// reference in its legal notice, else by legal name and postal code.
func (r *run) siteFor(rec *register.Record) *site.Facts {
	if f, ok := r.sites[rec.Key]; ok {
		return f
	}
	if f, ok := r.sites["name:"+nameKey(rec.LegalName, rec.Address.PostalCode)]; ok {
		return f
	}
	return nil
}

// openRegister opens a register file with the reader of its register:
// the one the command line named, else the one its first bytes show.
func openRegister(src registerFile, now time.Time) (register.Framed, *register.Kind, io.Closer, error) {
	f, err := os.Open(src.path)
	if err != nil {
		return nil, nil, nil, err
	}
	br := register.NewSniffer(f)
	name := filepath.Base(src.path)
	k := src.kind
	if k == nil {
		if k, err = register.Detect(br, name); err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("open %s: %w", src.path, err)
		}
	}
	rd, err := k.Open(k, br, register.Opening{File: name, Now: now})
	if err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("open %s as %s: %w", src.path, k.Name, err)
	}
	return rd, k, f, nil
}

// siteFacts is what a website says (compile/site).
type siteFacts = site.Facts

func sortStrings(s []string) { sort.Strings(s) }

func sortRows(rows []*EntryRow) {
	sort.Slice(rows, func(i, j int) bool { return rows[i].EntryID < rows[j].EntryID })
}
