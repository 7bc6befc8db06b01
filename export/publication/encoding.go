package publication

import (
	"fmt"
	"runtime"

	"github.com/klauspost/compress/zstd"
)

// The encodings a document can be stored in (DocRow.Encoding). They are
// HTTP content codings by name (RFC 9110 §8.4.1, RFC 8878 §7.2): a
// server answers a client that accepts the stored one with the stored
// bytes as they are (issue 18).
const (
	// EncodingIdentity is a document stored as it is served: a pack of a
	// publication written before issue 18, or a document compression
	// would not make smaller.
	EncodingIdentity = ""
	// EncodingZstd is a Zstandard frame (RFC 8878) without a dictionary,
	// so that any zstd decoder, a browser's too, reads it; see
	// docs/performance.md for the measurement that chose it.
	EncodingZstd = "zstd"
	// EncodingZstdDict is a Zstandard frame compressed with one of this
	// engine's dictionaries (Dictionaries), named by the frame's
	// Dictionary_ID (RFC 8878 §3.1.1.1.3). It is not an HTTP content
	// coding: only documents that are never served as they are stored (an
	// entry's card, search record and public revision, which have no path,
	// D120; its legal notice, served decoded, D130) are stored so, and
	// whoever reads one decodes it.
	EncodingZstdDict = "zstd-dict"
)

// ServedAsStored reports whether a document stored in encoding may be
// sent as it is stored, with that content coding: zstd, not a frame that
// needs a dictionary of this engine's.
func ServedAsStored(encoding string) bool { return encoding == EncodingZstd }

// FormatVersion is the publication format a manifest names
// (Manifest.Format). 5: as 4, and an entry's legal notice and JSON view
// may be stored with a dictionary (D130; a reader of 4 has not got them); 4: as 3, and the feed's segments are Parquet only
// (D122; a reader of 3 would find the feed empty); 3: as 2, and the documents that are never served
// may be compressed with a dictionary (EncodingZstdDict, D120); 2:
// documents stored compressed, each on its own (EncodeDoc); none (0):
// every document stored as it is served. A reader takes them all,
// document by document, by DocRow.Encoding.
const FormatVersion = 5

// zstdLevel is the level packs are written at: the pipeline compresses
// every document it renders, and on the documents measured
// (docs/performance.md) the fastest level keeps 94 % of the better
// level's gain (ratio 2.71 against 2.87) at 1.6 times its speed, which at
// 300k entries was the difference between a publication of 147 s and
// one of 276 s (D113). zstd's default level would take 143 bytes an
// entry fewer; at 10M it made the publication 2,416 s instead of 1,859–
// 1,895 s (D130), and was left.
const zstdLevel = zstd.SpeedFastest

// zstdMaxWindow bounds the window a stored frame may ask for: RFC 8878
// §3.1.1.1.2 has HTTP decoders accept 8 MB, and documents are far
// smaller, so every frame is a single segment with its size in the
// header.
const zstdMaxWindow = 8 << 20

// zstdWindow is the window the encoders use: an encoder holds twice its
// window for each document it compresses at once, which at 8 MB was 16 MB
// a core and encoder, all live heap (D120). A document under 1 MB (all
// but the largest sitemap parts) is one segment whatever the window, so
// its bytes do not depend on it.
const zstdWindow = 1 << 20

var (
	// The encoder holds one block encoder a core: EncodeAll takes one for
	// each call, so with one the pipeline's renderers took turns to
	// compress (issue 18).
	// No frame carries zstd's own checksum (4 bytes a document, D130): a
	// pack's reader checks the stored bytes against the index's checksum
	// before it decodes them (DocRow.Checksum, issue 15).
	zstdEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstdLevel), zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)),
		zstd.WithWindowSize(zstdWindow), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false))
	// The decoder reads any number of documents at once (DecodeAll is
	// safe for concurrent use) and refuses a frame that claims more memory
	// than a document could need.
	zstdDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxWindow(zstdMaxWindow),
		zstd.WithDecoderMaxMemory(1<<30), zstd.WithDecoderDicts(dictionaryBytes()...))
)

// EncodeDoc is the bytes a pack stores for a document and their
// encoding: the document compressed with zstd, on its own, so that it is
// still read by offset and length; the document itself (identity) when
// compressing would not make it smaller. dst is reused. An entry's
// documents are EncodeDocOf's, which uses a kind's dictionary.
func EncodeDoc(dst, body []byte) ([]byte, string) {
	return encodeWith(zstdEncoder, EncodingZstd, dst, body)
}

// encodeWith compresses body with enc into dst, stored as encoding, or
// keeps it as it is (identity) when compressing would not make it smaller.
func encodeWith(enc *zstd.Encoder, encoding string, dst, body []byte) ([]byte, string) {
	out := enc.EncodeAll(body, dst[:0])
	if len(out) >= len(body) {
		return append(out[:0], body...), EncodingIdentity
	}
	return out, encoding
}

// DecodeDoc appends the document stored as stored in encoding to dst:
// its bytes as served without a content coding.
func DecodeDoc(dst, stored []byte, encoding string) ([]byte, error) {
	switch encoding {
	case EncodingIdentity:
		return append(dst, stored...), nil
	case EncodingZstd, EncodingZstdDict:
		out, err := zstdDecoder.DecodeAll(stored, dst)
		if err != nil {
			return dst, fmt.Errorf("zstd: %w", err)
		}
		return out, nil
	}
	return dst, fmt.Errorf("unknown document encoding %q", encoding)
}
