package bench

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/zstd"

	"github.com/daawid/registry/export/publication"
)

// benchCodecs measures, kind by kind on a publication's own documents,
// what each way of storing a document costs in bytes and in one core's
// time: zstd at the fastest, default and better levels (without zstd's
// checksum, as packs are written since D130), and the fastest level with
// a dictionary trained on other documents of the kind; and the engine's
// own encoder, libzstd with the kind's shipped dictionary (D132). It
// prints one table, the figures D120, D130 and D132 chose from:
//
//	daawid bench codecs --publication OUT/current [--docs 5000]
func benchCodecs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench codecs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pub := fs.String("publication", "", "a publication's folder (an output's current/)")
	n := fs.Int("docs", 5000, "documents of each kind measured; as many others, spread over the publication, train its dictionary")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pub == "" || *n < 100 {
		fmt.Fprintln(stderr, "bench codecs: --publication is required, and --docs at least 100")
		return 2
	}
	rows, err := measureCodecs(*pub, *n)
	if err != nil {
		fmt.Fprintln(stderr, "bench codecs:", err)
		return 1
	}
	fmt.Fprintf(stdout, "\n| kind (documents) | identity B | as stored B (encoding) | %s | this engine (D132) |\n|---|---:|---:|---:|", codecNames())
	for range codecSet {
		fmt.Fprint(stdout, "---:|")
	}
	fmt.Fprintln(stdout)
	for _, r := range rows {
		fmt.Fprintf(stdout, "| %s (%d) | %.0f | %.0f (%s) |", r.kind, r.docs, r.identity, r.stored, r.encoding)
		for _, c := range r.codecs {
			fmt.Fprintf(stdout, " %.0f B, %.1f µs |", c.bytes, c.micros)
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "\nB: mean bytes a document; µs: mean time to compress one on one core (GOMAXPROCS %d, the best of three passes).\n", runtime.GOMAXPROCS(0))
	return 0
}

// codecSet are the ways measured; dict is trained per kind.
var codecSet = []struct {
	name  string
	level zstd.EncoderLevel
	dict  bool
}{
	{"zstd fastest", zstd.SpeedFastest, false},
	{"zstd default", zstd.SpeedDefault, false},
	{"zstd better", zstd.SpeedBetterCompression, false},
	{"zstd fastest, dictionary", zstd.SpeedFastest, true},
}

func codecNames() string {
	s := ""
	for i, c := range codecSet {
		if i > 0 {
			s += " | "
		}
		s += c.name
	}
	return s
}

type codecRow struct {
	kind, encoding   string
	docs             int
	identity, stored float64
	codecs           []codecFigure
}

type codecFigure struct{ bytes, micros float64 }

func measureCodecs(pub string, n int) ([]codecRow, error) {
	docs, err := publication.ReadPublicationDocs(pub)
	if err != nil {
		return nil, err
	}
	byKind := map[string][]publication.DocRow{}
	for _, d := range docs {
		if d.EntryID != "" {
			byKind[d.Kind] = append(byKind[d.Kind], d)
		}
	}
	packs := publication.NewPackDocs(pub)
	defer packs.Close()
	var kinds []string
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var rows []codecRow
	for _, kind := range kinds {
		of := byKind[kind]
		if len(of) < 2*100 {
			continue
		}
		// 2n documents spread evenly: even ones train, odd ones are measured.
		step := max(1, len(of)/(2*n))
		var train, test [][]byte
		r := codecRow{kind: kind}
		encodings := map[string]int{}
		for i := 0; i < len(of) && len(test) < n; i += step {
			body, err := packs.Body(of[i])
			if err != nil {
				return nil, err
			}
			if (i/step)%2 == 0 {
				train = append(train, body)
				continue
			}
			test = append(test, body)
			r.identity += float64(len(body))
			r.stored += float64(of[i].Length)
			encodings[of[i].Encoding]++
		}
		r.docs = len(test)
		r.identity /= float64(r.docs)
		r.stored /= float64(r.docs)
		for e, c := range encodings {
			if r.encoding == "" || c > encodings[r.encoding] || (c == encodings[r.encoding] && e < r.encoding) {
				r.encoding = e
			}
		}
		if r.encoding == "" {
			r.encoding = "identity"
		}
		dictionary, err := dict.BuildZstdDict(train, dict.Options{MaxDictSize: 32 << 10, HashBytes: 6, ZstdDictID: 1 << 15})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kind, err)
		}
		for _, c := range codecSet {
			opts := []zstd.EOption{zstd.WithEncoderLevel(c.level), zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1 << 20),
				zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false)}
			if c.dict {
				opts = append(opts, zstd.WithEncoderDict(dictionary))
			}
			enc, err := zstd.NewWriter(nil, opts...)
			if err != nil {
				return nil, err
			}
			r.codecs = append(r.codecs, timeCodec(test, func(dst, b []byte) []byte { return enc.EncodeAll(b, dst) }))
			enc.Close()
		}
		// The engine's own encoder as packs are written now (D132):
		// libzstd, with the kind's shipped dictionary when it has one.
		r.codecs = append(r.codecs, timeCodec(test, func(dst, b []byte) []byte {
			out, _ := publication.EncodeDocOf(kind, dst, b)
			return out
		}))
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no kind has 200 documents to measure", pub)
	}
	return rows, nil
}

// timeCodec compresses every document of test with encode, three
// times: the mean bytes a document and the best pass's mean time.
func timeCodec(test [][]byte, encode func(dst, b []byte) []byte) codecFigure {
	var f codecFigure
	best := time.Duration(1 << 62)
	var buf []byte
	for pass := 0; pass < 3; pass++ {
		total := 0
		start := time.Now()
		for _, b := range test {
			buf = encode(buf[:0], b)
			total += len(buf)
		}
		best = min(best, time.Since(start))
		f.bytes = float64(total) / float64(len(test))
	}
	f.micros = float64(best.Nanoseconds()) / 1e3 / float64(len(test))
	return f
}
