package pipeline

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/dict"
	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
)

// compressDocs are the documents the compression benchmark measures on:
// every document render.Documents makes for the seed examples (markdown,
// HTML, JSON-LD, the JSON view, offerings, legal pages, search records),
// the bytes a pack holds. Entries of even index train the dictionary,
// odd ones are measured, so no dictionary row sees its own test data.
func compressDocs(b *testing.B) (train, test [][]byte) {
	b.Helper()
	site := render.Site{BaseURL: "https://daawid.example", APIURL: "https://api.daawid.example", MCPURL: "https://mcp.daawid.example/mcp"}
	for i, e := range fixtures.Entries() {
		docs, _ := render.Documents(e, site)
		for _, d := range docs {
			if i%2 == 0 {
				train = append(train, d.Body)
			} else {
				test = append(test, d.Body)
			}
		}
	}
	if len(test) == 0 {
		b.Fatal("no documents")
	}
	return train, test
}

// codec is one way of compressing documents one by one.
type codec struct {
	name       string
	compress   func(dst, src []byte) []byte
	decompress func(dst, src []byte) ([]byte, error)
}

func zstdCodec(b *testing.B, name string, level zstd.EncoderLevel, dictionary []byte) codec {
	eopts := []zstd.EOption{zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1)}
	dopts := []zstd.DOption{zstd.WithDecoderConcurrency(1)}
	if dictionary != nil {
		eopts = append(eopts, zstd.WithEncoderDict(dictionary))
		dopts = append(dopts, zstd.WithDecoderDicts(dictionary))
	}
	enc, err := zstd.NewWriter(nil, eopts...)
	if err != nil {
		b.Fatal(err)
	}
	dec, err := zstd.NewReader(nil, dopts...)
	if err != nil {
		b.Fatal(err)
	}
	return codec{name: name, compress: func(dst, src []byte) []byte { return enc.EncodeAll(src, dst) },
		decompress: func(dst, src []byte) ([]byte, error) { return dec.DecodeAll(src, dst) }}
}

func brotliCodec(quality int) codec {
	return codec{name: fmt.Sprintf("brotli-q%d", quality),
		compress: func(dst, src []byte) []byte {
			buf := bytes.NewBuffer(dst)
			w := brotli.NewWriterLevel(buf, quality)
			w.Write(src)
			w.Close()
			return buf.Bytes()
		},
		decompress: func(dst, src []byte) ([]byte, error) {
			buf := bytes.NewBuffer(dst)
			_, err := io.Copy(buf, brotli.NewReader(bytes.NewReader(src)))
			return buf.Bytes(), err
		}}
}

// gzipCodec is what a server that recompresses for gzip-only clients
// would pay per response (klauspost's gzip, the fastest in Go).
func gzipCodec(level int) codec {
	return codec{name: fmt.Sprintf("gzip-%d", level),
		compress: func(dst, src []byte) []byte {
			buf := bytes.NewBuffer(dst)
			w, _ := kgzip.NewWriterLevel(buf, level)
			w.Write(src)
			w.Close()
			return buf.Bytes()
		},
		decompress: func(dst, src []byte) ([]byte, error) {
			r, err := gzip.NewReader(bytes.NewReader(src))
			if err != nil {
				return nil, err
			}
			buf := bytes.NewBuffer(dst)
			_, err = io.Copy(buf, r)
			return buf.Bytes(), err
		}}
}

// BenchmarkDocumentCompression measures, document by document as a pack
// stores them, each candidate's ratio (raw bytes over compressed bytes),
// compression and decompression speed (MB/s of raw bytes): the figures
// docs/performance.md records and the pack format's choice follows
// (issue 18).
//
//	go test ./pipeline -run '^$' -bench DocumentCompression -benchtime 200x
func BenchmarkDocumentCompression(b *testing.B) {
	train, test := compressDocs(b)
	dictionary, err := dict.BuildZstdDict(train, dict.Options{MaxDictSize: 32 << 10, HashBytes: 6, ZstdDictID: 1})
	if err != nil {
		b.Fatal(err)
	}
	var raw int64
	for _, d := range test {
		raw += int64(len(d))
	}
	codecs := []codec{
		zstdCodec(b, "zstd-fastest", zstd.SpeedFastest, nil),
		zstdCodec(b, "zstd-default", zstd.SpeedDefault, nil),
		zstdCodec(b, "zstd-better", zstd.SpeedBetterCompression, nil),
		zstdCodec(b, "zstd-best", zstd.SpeedBestCompression, nil),
		zstdCodec(b, "zstd-default-dict", zstd.SpeedDefault, dictionary),
		zstdCodec(b, "zstd-best-dict", zstd.SpeedBestCompression, dictionary),
		brotliCodec(4), brotliCodec(6), brotliCodec(9), brotliCodec(11),
		gzipCodec(1), gzipCodec(6),
		// The engine's own encoder as packs are written (D132): libzstd at
		// level 1, no dictionary (these documents are of every kind).
		{name: "engine-libzstd-1",
			compress: func(dst, src []byte) []byte { out, _ := publication.EncodeDoc(dst, src); return out },
			decompress: func(dst, src []byte) ([]byte, error) {
				// A document compression would not shrink is stored as it is.
				if !bytes.HasPrefix(src, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
					return append(dst, src...), nil
				}
				return publication.DecodeDoc(dst, src, publication.EncodingZstd)
			}},
	}
	for _, c := range codecs {
		stored := make([][]byte, len(test))
		var packed int64
		for i, d := range test {
			stored[i] = c.compress(nil, d)
			packed += int64(len(stored[i]))
			back, err := c.decompress(nil, stored[i])
			if err != nil || !bytes.Equal(back, d) {
				b.Fatalf("%s: document %d does not come back: %v", c.name, i, err)
			}
		}
		ratio := float64(raw) / float64(packed)
		b.Run("compress/"+c.name, func(b *testing.B) {
			b.SetBytes(raw)
			var buf []byte
			for b.Loop() {
				for _, d := range test {
					buf = c.compress(buf[:0], d)
				}
			}
			b.ReportMetric(ratio, "ratio")
			b.ReportMetric(float64(raw)/float64(len(test)), "raw-B/doc")
			b.ReportMetric(float64(packed)/float64(len(test)), "stored-B/doc")
		})
		b.Run("decompress/"+c.name, func(b *testing.B) {
			b.SetBytes(raw)
			var buf []byte
			for b.Loop() {
				for _, s := range stored {
					if buf, err = c.decompress(buf[:0], s); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
