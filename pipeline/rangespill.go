package pipeline

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/daawid/registry/compile/register"
)

// A compile by key ranges (byRanges) reads every register row once more
// after its first pass, framing each file from its start, and writes
// each row to the file of its key range; each range then reads its own
// file, not every register file again (D123). At 10M companies in 11
// ranges that is one framing of the registers where there were eleven.
//
// A range file is the range's rows in the order they were framed (file
// by file, each in order): for each row its file's number, its line and
// its text, as unsigned varints and bytes. A row the framing found bad
// (Raw.Err) has no key; it stays in memory with the first range's rows,
// where a compile by ranges has always read it.

// rangeSpill is a run's register rows dealt to the files of their key
// ranges.
type rangeSpill struct {
	dir     string
	paths   []string          // by range
	readers []register.Framed // by file: each file's reader parses its rows
	closers []io.Closer
	bad     []heldRow // the rows the framing found bad, in order: the first range's
}

// spillDir is where a run by key ranges keeps its range files, in the
// state's folder (the rows are the registers' public data, but the
// state's folder is the one the run owns); a run that dies leaves it for
// the next to remove.
const spillDir = "ranges.tmp"

// spillRanges frames the register files and writes each row to the file
// of the range of its key place (places, from the first pass; bounds,
// the places where the ranges after the first begin).
func (r *run) spillRanges(ctx context.Context, files []registerFile, places *keyPlaces, bounds []uint64) (*rangeSpill, error) {
	sp := &rangeSpill{dir: filepath.Join(r.st.dir, spillDir)}
	if err := os.RemoveAll(sp.dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(sp.dir, 0o700); err != nil {
		return nil, err
	}
	outs := make([]*os.File, len(bounds)+1)
	ws := make([]*bufio.Writer, len(outs))
	fail := func(err error) (*rangeSpill, error) {
		for _, f := range outs {
			if f != nil {
				f.Close()
			}
		}
		sp.close()
		return nil, fmt.Errorf("key ranges: %w", err)
	}
	for i := range outs {
		path := filepath.Join(sp.dir, fmt.Sprintf("range-%04d", i))
		f, err := os.Create(path)
		if err != nil {
			return fail(err)
		}
		outs[i], ws[i] = f, bufio.NewWriterSize(f, 256<<10)
		sp.paths = append(sp.paths, path)
	}
	var head [3 * binary.MaxVarintLen64]byte
	for file, src := range files {
		rd, _, closer, err := openRegister(src, r.now)
		if err != nil {
			// Reported by the first pass; its rows are none of any range.
			sp.readers, sp.closers = append(sp.readers, nil), append(sp.closers, nil)
			continue
		}
		sp.readers, sp.closers = append(sp.readers, rd), append(sp.closers, closer)
		for seq := 0; ; seq++ {
			if seq%4096 == 0 && ctx.Err() != nil {
				return fail(ctx.Err())
			}
			raw, err := rd.Frame()
			if err != nil {
				break // io.EOF, or an unreadable rest the first pass reported
			}
			if raw.Err != nil {
				sp.bad = append(sp.bad, heldRow{rd: rd, raw: raw})
				continue
			}
			place := places.get(file, seq)
			p := sort.Search(len(bounds), func(j int) bool { return bounds[j] > place })
			n := binary.PutUvarint(head[:], uint64(file))
			n += binary.PutUvarint(head[n:], uint64(raw.Line))
			n += binary.PutUvarint(head[n:], uint64(len(raw.Text)))
			if _, err := ws[p].Write(head[:n]); err != nil {
				return fail(err)
			}
			if _, err := ws[p].Write(raw.Text); err != nil {
				return fail(err)
			}
		}
	}
	for i, w := range ws {
		if err := w.Flush(); err != nil {
			return fail(err)
		}
		err := outs[i].Close()
		outs[i] = nil
		if err != nil {
			return fail(err)
		}
	}
	return sp, nil
}

// frame deals the rows of range p: the bad rows first for the first
// range, then the range file's rows in order.
func (sp *rangeSpill) frame(ctx context.Context, p int, d *dealer) error {
	if p == 0 {
		for _, h := range sp.bad {
			d.deal(h.rd, h.raw, nil)
		}
	}
	f, err := os.Open(sp.paths[p])
	if err != nil {
		return fmt.Errorf("key range %d: %w", p+1, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		file, err := binary.ReadUvarint(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		var line, size uint64
		if err == nil {
			line, err = binary.ReadUvarint(br)
		}
		if err == nil {
			size, err = binary.ReadUvarint(br)
		}
		if err == nil && (file >= uint64(len(sp.readers)) || sp.readers[file] == nil || size > 1<<30) {
			err = errors.New("a row of no register file read")
		}
		var text []byte
		if err == nil {
			text = make([]byte, size)
			_, err = io.ReadFull(br, text)
		}
		if err != nil {
			// The file this run wrote is not as it wrote it: the run fails
			// rather than compile a range without some of its rows.
			return fmt.Errorf("key range %d: %s, row %d: %w", p+1, filepath.Base(sp.paths[p]), n+1, err)
		}
		d.deal(sp.readers[file], register.Raw{Line: int(line), Text: text}, nil)
	}
}

// close closes the register files and removes the range files.
func (sp *rangeSpill) close() error {
	for _, c := range sp.closers {
		if c != nil {
			c.Close()
		}
	}
	sp.closers = nil
	return os.RemoveAll(sp.dir)
}
