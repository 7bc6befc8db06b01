package pipeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures/synth"
	"github.com/daawid/registry/render"
	"github.com/klauspost/compress/zstd"
)

// TestTrainDictionary_FromAPublication trains a dictionary for a kind
// that is never served from a published registry (D120, `daawid fixtures
// train-dicts`): a zstd dictionary whose ID comes from its content, in the
// range RFC 8878 leaves free, that compresses the kind's documents
// smaller than zstd without it and decodes them back.
func TestTrainDictionary_FromAPublication(t *testing.T) {
	dir := t.TempDir()
	_, state, site := compileSynth(t, dir, 400, 9)
	out := filepath.Join(dir, "out")
	if _, err := Publish(context.Background(), PublishConfig{StateDir: state, OutDir: out, Site: site, Now: synth.DefaultRunNow.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	pub, _ := publication.Current(out)
	d, err := publication.TrainDictionary(pub, render.KindCard, 300, 8<<10)
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint32(d.Data) != 0xEC30A437 || d.ID < 1<<15 || d.ID >= 1<<31 ||
		binary.LittleEndian.Uint32(d.Data[4:]) != d.ID || d.Name != fmt.Sprintf("card-%d.zdict", d.ID) {
		t.Fatalf("dictionary %s: magic %x, ID %d", d.Name, d.Data[:4], d.ID)
	}
	if _, err := publication.TrainDictionary(pub, "no-such-kind", 300, 8<<10); err == nil {
		t.Error("a dictionary trained from no documents")
	}
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderDict(d.Data))
	dec, _ := zstd.NewReader(nil, zstd.WithDecoderDicts(d.Data))
	defer dec.Close()
	plain, _ := zstd.NewWriter(nil)
	docs, err := publication.ReadPublicationDocs(pub)
	if err != nil {
		t.Fatal(err)
	}
	var with, without, n int
	for _, row := range docs {
		if row.Kind != render.KindCard || n == 50 {
			continue
		}
		n++
		body := docBytes(t, pub, row)
		c := enc.EncodeAll(body, nil)
		if back, err := dec.DecodeAll(c, nil); err != nil || !bytes.Equal(back, body) {
			t.Fatalf("a card does not decode back with the dictionary: %v", err)
		}
		with, without = with+len(c), without+len(plain.EncodeAll(body, nil))
	}
	if n < 50 || with >= without {
		t.Errorf("%d cards: %d bytes with the dictionary, %d without", n, with, without)
	}
}
