package publication

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/dict"
)

// TrainDictionary trains a zstd dictionary for the documents of kind in
// the publication in dir (D120): samples documents spread evenly over the
// publication's index are decoded and given to klauspost/compress's
// dictionary builder. Its Dictionary_ID is derived from its content
// (SHA-256, in the range RFC 8878 §5 leaves free, 32,768 to 2^31 - 1), so
// two different dictionaries do not share one.
func TrainDictionary(dir, kind string, samples, size int) (*Dictionary, error) {
	docs, err := ReadPublicationDocs(dir)
	if err != nil {
		return nil, err
	}
	var of []DocRow
	for _, d := range docs {
		if d.Kind == kind {
			of = append(of, d)
		}
	}
	if len(of) < 100 {
		return nil, fmt.Errorf("%s: %d documents of kind %q; a dictionary wants at least 100", dir, len(of), kind)
	}
	step := max(1, len(of)/samples)
	packs := NewPackDocs(dir)
	defer packs.Close()
	var input [][]byte
	for i := 0; i < len(of) && len(input) < samples; i += step {
		body, err := packs.Body(of[i])
		if err != nil {
			return nil, err
		}
		input = append(input, body)
	}
	data, err := dict.BuildZstdDict(input, dict.Options{MaxDictSize: size, HashBytes: 6, ZstdDictID: 1 << 15})
	if err != nil {
		return nil, fmt.Errorf("kind %s: %w", kind, err)
	}
	h := sha256.New()
	h.Write(data[:4])
	h.Write(data[8:])
	id := 1<<15 + binary.LittleEndian.Uint32(h.Sum(nil))%(1<<31-1<<15)
	binary.LittleEndian.PutUint32(data[4:], id)
	return &Dictionary{Kind: kind, ID: id, Name: fmt.Sprintf("%s-%d.zdict", kind, id), Data: data}, nil
}

// PackDocs reads a publication's documents from its packs by their
// index rows, each pack opened once; Close closes them.
type PackDocs struct {
	dir   string
	packs map[string]*os.File
}

// NewPackDocs reads the documents of the publication in dir.
func NewPackDocs(dir string) *PackDocs { return &PackDocs{dir: dir, packs: map[string]*os.File{}} }

// Body is a document's bytes as served without a content coding: read
// from its pack and decoded.
func (p *PackDocs) Body(d DocRow) ([]byte, error) {
	f := p.packs[d.Pack]
	if f == nil {
		var err error
		if f, err = os.Open(filepath.Join(p.dir, filepath.FromSlash(d.Pack))); err != nil {
			return nil, err
		}
		p.packs[d.Pack] = f
	}
	stored := make([]byte, d.Length)
	if _, err := f.ReadAt(stored, d.Offset); err != nil {
		return nil, fmt.Errorf("%s at %d: %w", d.Pack, d.Offset, err)
	}
	body, err := DecodeDoc(nil, stored, d.Encoding)
	if err != nil {
		return nil, fmt.Errorf("%s at %d: %w", d.Pack, d.Offset, err)
	}
	return body, nil
}

// Close closes the packs opened.
func (p *PackDocs) Close() {
	for _, f := range p.packs {
		f.Close()
	}
}
