package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/daawid/registry/export/publication"

	"github.com/robfig/cron/v3"
)

// Lock is the pipeline's run lock: an flock on {state}/pipeline.lock. The
// kernel releases it when the process ends, however it ends, so a crashed
// run never leaves a lock behind (D61).
type Lock struct{ f *os.File }

// ErrLocked is returned when another run holds the lock.
var ErrLocked = errors.New("another pipeline run holds the lock")

// TryLock takes the run lock of a state directory without waiting.
func TryLock(stateDir string) (*Lock, error) {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(stateDir, "pipeline.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, err
	}
	f.Truncate(0)
	fmt.Fprintf(f, "%d\n", os.Getpid())
	return &Lock{f: f}, nil
}

// Unlock releases the lock.
func (l *Lock) Unlock() error {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return l.f.Close()
}

// RunConfig is one compile and one publication.
type RunConfig struct {
	Compile CompileConfig
	Publish PublishConfig
	// Keep is how many publications to keep (0: all); the current one is
	// always kept.
	Keep int
}

// RunReport is what one pipeline run did.
type RunReport struct {
	Kind    string         `json:"kind"` // nightly, delta, once
	Started time.Time      `json:"started"`
	Compile *Report        `json:"compile,omitempty"`
	Publish *PublishReport `json:"publish,omitempty"`
	Pruned  []string       `json:"pruned,omitempty"`
	Error   string         `json:"error,omitempty"`
}

// Run does one compile and one publication under the run lock, then
// prunes old publications, and keeps its report under {out}/reports.
func Run(ctx context.Context, cfg RunConfig, kind string) (*RunReport, error) {
	lock, err := TryLock(cfg.Compile.StateDir)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	rep := &RunReport{Kind: kind, Started: time.Now().UTC()}
	err = func() error {
		pc := cfg.Publish
		if pc.Delta {
			// The delta's copy of the current registry database is made
			// while the compile runs (D128).
			pc.precopy = startRegistryPrecopy(pc.OutDir)
			defer pc.precopy.discard()
		}
		c, err := Compile(ctx, cfg.Compile)
		rep.Compile = c // with the problems that failed it, if they did
		if err != nil {
			return fmt.Errorf("compile: %w", err)
		}
		pc.Now = cfg.Compile.Now
		p, err := Publish(ctx, pc)
		if err != nil {
			return fmt.Errorf("publish: %w", err)
		}
		rep.Publish = p
		if cfg.Keep > 0 {
			rep.Pruned, err = Prune(cfg.Publish.OutDir, cfg.Keep)
			if err != nil {
				return fmt.Errorf("prune: %w", err)
			}
		}
		return nil
	}()
	if err != nil {
		rep.Error = err.Error()
	}
	if werr := keepReport(cfg.Publish.OutDir, rep); werr != nil && err == nil {
		err = werr
	}
	return rep, err
}

func keepReport(out string, rep *RunReport) error {
	dir := filepath.Join(out, "reports")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	name := rep.Started.Format("20060102T150405.000000000Z") + "-" + rep.Kind + ".json"
	return os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644)
}

// Prune deletes all but the newest keep publications, each with its
// private routing file; the current one is never deleted. A routing file
// whose publication is gone (a run that died between writing it and its
// rename) goes too.
func Prune(out string, keep int) ([]string, error) {
	cur, _ := publication.Current(out)
	entries, err := os.ReadDir(filepath.Join(out, publication.PublicationsDir))
	if err != nil {
		return nil, err
	}
	var pubs []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasSuffix(e.Name(), ".tmp") {
			pubs = append(pubs, e.Name())
		}
	}
	sort.Strings(pubs) // publication IDs are ULIDs: time order
	var gone []string
	for i := 0; i < len(pubs)-keep; i++ {
		dir := filepath.Join(out, publication.PublicationsDir, pubs[i])
		if dir == cur {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			return gone, err
		}
		gone = append(gone, pubs[i])
	}
	return gone, pruneRouting(out)
}

// pruneRouting deletes the routing files of publications that are gone
// (issue 15); one whose publication is still being written (its .tmp
// folder) stays.
func pruneRouting(out string) error {
	ids, err := publication.RoutingIDs(out)
	if err != nil {
		return fmt.Errorf("prune routing: %w", err)
	}
	for _, id := range ids {
		dir := filepath.Join(out, publication.PublicationsDir, id)
		if _, err := os.Stat(dir); err == nil {
			continue
		}
		if _, err := os.Stat(dir + ".tmp"); err == nil {
			continue
		}
		if err := os.Remove(publication.RoutingPath(out, id)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("prune routing: %w", err)
		}
	}
	return nil
}

// ScheduleConfig is the pipeline's schedule.
type ScheduleConfig struct {
	// Nightly is the full run: the configured sources and the exports.
	Nightly RunConfig
	// Spec is the nightly run's cron spec (default "0 3 * * *") in
	// Location (default Europe/Berlin).
	Spec     string
	Location *time.Location
	// Delta, every minute: expiry, the owner inbox and the events, no
	// register files, published as a delta without exports.
	DeltaEvery string // cron spec, default "* * * * *"
	Log        *slog.Logger
	// Clock gives each run its instant (tests); nil is time.Now.
	Clock func() time.Time
	// Metrics, when set, record every run (issue 16); the caller
	// registers them with its own registry.
	Metrics *Metrics
}

// Schedule runs the pipeline on its schedule until ctx ends; then it
// cancels the running step (compile and publish roll back what they have
// not committed) and returns when it has stopped. Runs never overlap: a
// run due while another holds the lock is skipped and logged.
func Schedule(ctx context.Context, cfg ScheduleConfig) error {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	loc := cfg.Location
	if loc == nil {
		var err error
		if loc, err = time.LoadLocation("Europe/Berlin"); err != nil {
			return err
		}
	}
	spec, every := cfg.Spec, cfg.DeltaEvery
	if spec == "" {
		spec = "0 3 * * *"
	}
	if every == "" {
		every = "* * * * *"
	}
	clock := cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	c := cron.New(cron.WithLocation(loc), cron.WithChain(cron.Recover(cron.DefaultLogger)))
	runCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	job := func(kind string) func() {
		return func() {
			rc := cfg.Nightly
			rc.Compile.Now = clock()
			if kind == "delta" {
				rc.Compile.Registers, rc.Compile.Sites, rc.Publish.Exports, rc.Publish.Delta = nil, nil, false, true
			} else {
				rc.Publish.Exports, rc.Publish.Delta = true, false
			}
			log.Debug("run starting", "kind", kind, "now", rc.Compile.Now)
			start := time.Now()
			rep, err := Run(runCtx, rc, kind)
			// The metrics' times are the wall clock's, not the run's
			// instant: an operator asks when the last good run really was.
			end := time.Now()
			cfg.Metrics.observe(kind, rep, err, end, end.Sub(start))
			switch {
			case errors.Is(err, ErrLocked):
				log.Info("run skipped: another holds the lock", "kind", kind)
			case err != nil:
				log.Error("run failed", "kind", kind, "err", err)
			default:
				log.Info("run done", "kind", kind, "compiled", rep.Compile.Compiled, "expired", rep.Compile.Expired,
					"merged", rep.Compile.Merged, "publication", rep.Publish.ID, "changes", rep.Publish.Rendered, "seconds", rep.Publish.Seconds)
			}
		}
	}
	if _, err := c.AddFunc(spec, job("nightly")); err != nil {
		return fmt.Errorf("nightly spec %q: %w", spec, err)
	}
	if _, err := c.AddFunc(every, job("delta")); err != nil {
		return fmt.Errorf("delta spec %q: %w", every, err)
	}
	c.Start()
	log.Info("schedule started", "nightly", spec, "zone", loc.String(), "delta", every)
	<-ctx.Done()
	log.Info("stopping: the running step is cancelled and rolled back")
	stopped := c.Stop()
	cancel()
	<-stopped.Done()
	return nil
}
