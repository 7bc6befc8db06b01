package publication_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/daawid/registry/export/publication"
)

// TestDictionaries_NeverChange holds every shipped dictionary to its
// SHA-256 (D120): packs name a dictionary by its ID, so one that changed
// under its ID would decode them into other bytes. A new dictionary is
// added to this list, never put in an old one's place.
func TestDictionaries_NeverChange(t *testing.T) {
	shipped := map[string]string{
		"card-2104281068.zdict":  "d5b6045a9299e68da6fa18ae532a25eee8a0798392411cd6d9639b6dfcdd65da",
		"entry-172418808.zdict":  "1018903232b7429ef039ad12abded61615835a5d331ec0d3ca33e39929ad2f37",
		"search-657066433.zdict": "062e116e30588637f75385b072f895e9e406a74a066879c59badc7a3df99bf70",
		// D130
		"legal-html-1061284179.zdict": "165bfacca4f3996a37559a9aef9768dd038b3f27012ddff4f950395b1d5097f7",
		"view-1334001872.zdict":       "3c022a14c775d9335d3ea00eba38e08e94e9c4cdc6b269da1c31e8987506ec69",
	}
	seen := map[string]bool{}
	ids := map[uint32]string{}
	for _, d := range publication.Dictionaries() {
		sum := sha256.Sum256(d.Data)
		want, ok := shipped[d.Name]
		switch {
		case !ok:
			t.Errorf("dicts/%s is not in the list of shipped dictionaries", d.Name)
		case hex.EncodeToString(sum[:]) != want:
			t.Errorf("dicts/%s changed: SHA-256 %x, shipped as %s", d.Name, sum, want)
		}
		if other, dup := ids[d.ID]; dup {
			t.Errorf("dicts/%s and dicts/%s share the ID %d", d.Name, other, d.ID)
		}
		ids[d.ID] = d.Name
		seen[d.Name] = true
	}
	for name := range shipped {
		if !seen[name] {
			t.Errorf("the shipped dictionary %s is gone: the packs written with it no longer decode", name)
		}
	}
}

// TestEncodeDocOf_DictionaryFrames: a document of a kind with a
// dictionary is stored with it (D120), in fewer bytes than plain zstd, and
// decodes back; the frame names the dictionary, so a decoder without it
// (any HTTP client's) refuses it, which is why such documents are never
// served as stored. The legal notice and the JSON view have one too
// (D130). A kind without a dictionary is stored as EncodeDoc stores it:
// plain zstd that any decoder reads, without zstd's own checksum (the
// index's covers the stored bytes).
func TestEncodeDocOf_DictionaryFrames(t *testing.T) {
	card := []byte(`{"id":"ent_01hzx5k7w2q8r9v3m4n6p0s1tb","slug":"thornbury-hale-solicitors","name":"Thornbury Hale Solicitors LLP","summary":"Solicitors in Bristol for conveyancing, wills and probate.","category":"Law firm","locality":"Bristol","country":"GB","url":"https://daawid.example/thornbury-hale-solicitors"}`)
	if !publication.HasDictionary("card") || !publication.HasDictionary("legal-html") || !publication.HasDictionary("view") ||
		publication.HasDictionary("md") || publication.HasDictionary("html") || publication.HasDictionary("jsonld") {
		t.Fatal("the card, the legal notice or the view has no dictionary, or a kind served as stored has one")
	}
	stored, enc := publication.EncodeDocOf("card", nil, card)
	if enc != publication.EncodingZstdDict || publication.ServedAsStored(enc) {
		t.Fatalf("a card is stored as %q", enc)
	}
	plain, _ := publication.EncodeDoc(nil, card)
	if len(stored) >= len(plain) {
		t.Errorf("with its dictionary a card takes %d bytes, without %d", len(stored), len(plain))
	}
	back, err := publication.DecodeDoc(nil, stored, enc)
	if err != nil || !bytes.Equal(back, card) {
		t.Fatalf("the card does not decode back: %v", err)
	}
	bare, _ := zstd.NewReader(nil)
	defer bare.Close()
	if _, err := bare.DecodeAll(stored, nil); err == nil || !strings.Contains(err.Error(), "dictionary") {
		t.Errorf("a decoder without the dictionary read the frame (err %v)", err)
	}
	md := []byte(strings.Repeat("# Thornbury Hale\n\nSolicitors in Bristol, conveyancing, wills and probate since 1962.\n", 3) +
		"- Address: 14 Corn Street, Bristol BS1 1HT, GB\n- Phone: +44 117 496 0123\n- Category: Law firm (legal.solicitor)\n")
	s1, e1 := publication.EncodeDocOf("md", nil, md)
	s2, e2 := publication.EncodeDoc(nil, md)
	if e1 != publication.EncodingZstd || e1 != e2 || !bytes.Equal(s1, s2) {
		t.Errorf("markdown is stored as %q in %d bytes, EncodeDoc stores it as %q in %d", e1, len(s1), e2, len(s2))
	}
	// RFC 8878 §3.1.1.1.1: the descriptor's bit 2 is Content_Checksum_flag.
	if len(s1) < 5 || s1[4]&0x04 != 0 {
		t.Errorf("a frame carries zstd's checksum: % x", s1[:min(len(s1), 8)])
	}
	if back, err := bare.DecodeAll(s1, nil); err != nil || !bytes.Equal(back, md) {
		t.Errorf("a plain zstd frame does not decode without a dictionary: %v", err)
	}
}

// TestDecodeDoc_FramesOfBothEncoders (D132): packs written before D132
// hold frames of klauspost's encoder, with and without a dictionary, and
// a delta publication keeps pointing at them; they decode as before
// beside libzstd's. A document larger than libzstd's window (a big
// sitemap part) decodes within the 8 MB window an HTTP client allows
// (RFC 8878 §3.1.1.1.2), and its frame says its window is no larger.
func TestDecodeDoc_FramesOfBothEncoders(t *testing.T) {
	view := []byte(`{"id":"ent_01hzx5k7w2q8r9v3m4n6p0s1tb","slug":"thornbury-hale-solicitors","name":"Thornbury Hale Solicitors LLP","revision":3,"languages":["en"],"category":{"id":"legal.solicitor","label":"Law firm"}}`)
	var dict []byte
	for _, d := range publication.Dictionaries() {
		if d.Kind == "view" {
			dict = d.Data // the last, by ID; any of the kind's decodes
		}
	}
	for _, withDict := range []bool{false, true} {
		opts := []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(false), zstd.WithWindowSize(1 << 20)}
		enc := publication.EncodingZstd
		if withDict {
			opts = append(opts, zstd.WithEncoderDict(dict))
			enc = publication.EncodingZstdDict
		}
		old, err := zstd.NewWriter(nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		frame := old.EncodeAll(view, nil)
		old.Close()
		back, err := publication.DecodeDoc(nil, frame, enc)
		if err != nil || !bytes.Equal(back, view) {
			t.Errorf("a frame of klauspost's encoder (dictionary %v) does not decode: %v", withDict, err)
		}
	}
	stored, got := publication.EncodeDocOf("view", nil, view)
	if got != publication.EncodingZstdDict {
		t.Fatalf("a view is stored as %q", got)
	}
	if back, err := publication.DecodeDoc(nil, stored, got); err != nil || !bytes.Equal(back, view) {
		t.Errorf("libzstd's frame does not decode: %v", err)
	}
	var big bytes.Buffer
	for i := 0; big.Len() < 3<<20; i++ {
		fmt.Fprintf(&big, "<url><loc>https://daawid.example/e%07d</loc><lastmod>2026-12-0%dT10:00:00Z</lastmod></url>\n", i*7919%9999991, i%9+1)
	}
	stored, enc := publication.EncodeDoc(nil, big.Bytes())
	t.Logf("%d bytes of sitemap stored in %d", big.Len(), len(stored))
	if enc != publication.EncodingZstd || len(stored) >= big.Len()/2 {
		t.Fatalf("3 MB of sitemap stored as %q in %d bytes", enc, len(stored))
	}
	var h zstd.Header
	if err := h.Decode(stored); err != nil || h.SingleSegment || h.WindowSize > 8<<20 || h.WindowSize == 0 {
		t.Errorf("the frame's header: %+v, %v; want a window of at most 8 MB", h, err)
	}
	t.Logf("its window: %d bytes", h.WindowSize)
	bare, _ := zstd.NewReader(nil, zstd.WithDecoderMaxWindow(8<<20))
	defer bare.Close()
	if back, err := bare.DecodeAll(stored, nil); err != nil || !bytes.Equal(back, big.Bytes()) {
		t.Errorf("a decoder with the 8 MB window does not read it back: %v", err)
	}
}
