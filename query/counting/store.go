package counting

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

const (
	readsDir    = "reads"
	searchesDir = "searches"
	lockFile    = "counting.lock"
	dayPrefix   = "day="
	fileExt     = ".parquet"
	tmpExt      = ".tmp"
)

// readRow is one row of a reads file: the reads of one entry by one
// category of reader on one day. The day is in the file as well as in its
// directory's name, so a file copied elsewhere still says its day; DuckDB
// reads the two as one column.
//
// Days are int32 days since 1970, what Parquet's DATE holds: parquet-go
// v0.32.0 writes a time.Time tagged date wrongly (a value DuckDB shows
// as the year 2752295), which hive partitioning would hide by taking the
// day from the directory instead.
type readRow struct {
	Day      int32  `parquet:"day,date"`
	EntryID  string `parquet:"entry_id"`
	Category string `parquet:"category,dict"`
	Reads    int64  `parquet:"reads"`
}

// writerOptions are the settings of the counting files, those of the
// pipeline's state files: ZSTD at its fastest, since a flush runs on the
// serving side.
func writerOptions() []parquet.WriterOption {
	return []parquet.WriterOption{parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest})}
}

func (c *Counter) path(elem ...string) string {
	return filepath.Join(append([]string{c.dir}, elem...)...)
}

// dayDir is the directory of one kind of file (reads, searches) for a day.
func (c *Counter) dayDir(kind string, day int32) string {
	return c.path(kind, dayPrefix+dayString(day))
}

// stampLayout is the time at the start of a file name.
const stampLayout = "20060102T150405Z"

// nextName is a new file name: the time and a sequence number. Names sort
// in the order the files were written (the search log's order across
// files) and never repeat: the sequence carries on from the largest on
// disk, and a clock that went back is held at the latest time used.
func (c *Counter) nextName() string {
	c.seq++
	c.stamp = max(c.stamp, time.Now().UTC().Format(stampLayout))
	return fmt.Sprintf("%s-%08d%s", c.stamp, c.seq, fileExt)
}

// stampOf is the time at the start of a file name, "" if it has none.
func stampOf(name string) string {
	if len(name) < len(stampLayout) {
		return ""
	}
	if _, err := time.Parse(stampLayout, name[:len(stampLayout)]); err != nil {
		return ""
	}
	return name[:len(stampLayout)]
}

// seqOf is the sequence number in a file name, 0 if it has none.
func seqOf(name string) uint64 {
	name, _, _ = strings.Cut(name, fileExt)
	_, s, ok := strings.Cut(name, "-")
	if !ok {
		return 0
	}
	n, _ := strconv.ParseUint(s, 10, 64)
	return n
}

// writeParquet writes rows to a new file at path: under a temporary name,
// synced, then renamed, and the directory synced so the rename outlasts a
// crash. committed says whether the rename happened: from then on the
// rows are in the store, even if syncing the directory failed.
func writeParquet[T any](path string, rows []T) (committed bool, err error) {
	if err := writeTemp(path, rows); err != nil {
		return false, err
	}
	if err := os.Rename(path+tmpExt, path); err != nil {
		os.Remove(path + tmpExt)
		return false, err
	}
	// The parent as well: the day's directory may be new.
	return true, errors.Join(syncDir(filepath.Dir(path)), syncDir(filepath.Dir(filepath.Dir(path))))
}

// writeTemp writes rows to path + ".tmp", synced and closed; nothing is
// left behind if it fails.
func writeTemp[T any](path string, rows []T) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path+tmpExt, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := parquet.NewGenericWriter[T](f, writerOptions()...)
	if _, err := w.Write(rows); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// readParquet reads all the rows of a file.
func readParquet[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rd := parquet.NewGenericReader[T](pf)
	defer rd.Close()
	rows := make([]T, pf.NumRows())
	n := 0
	for n < len(rows) {
		k, err := rd.Read(rows[n:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if k == 0 {
			return nil, fmt.Errorf("%s: %d rows of %d", path, n, len(rows))
		}
	}
	return rows[:n], nil
}

// dayDirs lists the day directories of one kind, oldest first.
func (c *Counter) dayDirs(kind string) ([]string, error) {
	des, err := os.ReadDir(c.path(kind))
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, de := range des {
		if de.IsDir() && strings.HasPrefix(de.Name(), dayPrefix) {
			dirs = append(dirs, c.path(kind, de.Name()))
		}
	}
	return dirs, nil
}

// dataFiles lists the finished files of a directory in name order, which
// is the order they were written in.
func dataFiles(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, de := range des {
		if de.Type().IsRegular() && strings.HasSuffix(de.Name(), fileExt) {
			names = append(names, de.Name())
		}
	}
	return names, nil
}

// recover clears what an interrupted flush or compaction left in each day
// directory and finds the largest sequence number and time in use.
func (c *Counter) recover() error {
	for _, kind := range []string{readsDir, searchesDir} {
		dirs, err := c.dayDirs(kind)
		if err != nil {
			return err
		}
		for _, dir := range dirs {
			if err := c.recoverDay(dir); err != nil {
				return err
			}
			names, err := dataFiles(dir)
			if err != nil {
				return err
			}
			for _, n := range names {
				c.seq, c.stamp = max(c.seq, seqOf(n)), max(c.stamp, stampOf(n))
			}
		}
	}
	return errors.Join(syncDir(c.dir), syncDir(c.path(readsDir)), syncDir(c.path(searchesDir)))
}

// lockDir takes an flock on the directory's lock file. The kernel drops it
// when the process ends, however it ends, so a crash leaves no lock.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("counting: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s", ErrLocked, dir)
		}
		return nil, fmt.Errorf("counting: %w", err)
	}
	return f, nil
}

func (c *Counter) unlock() {
	syscall.Flock(int(c.lock.Fd()), syscall.LOCK_UN)
	c.lock.Close()
}

// syncDir makes the renames and removals in a directory durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
