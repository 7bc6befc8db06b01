package rest_test

import (
	"bytes"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/rest"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// zstdDecode decodes a response body with the reference zstd command (the
// C implementation, independent of the Go encoder the pipeline used), or,
// where it is not installed, with the Go decoder.
func zstdDecode(t *testing.T, b []byte) []byte {
	t.Helper()
	if path, err := exec.LookPath("zstd"); err == nil {
		cmd := exec.Command(path, "-d", "-c", "-q")
		cmd.Stdin = bytes.NewReader(b)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("zstd -d: %v", err)
		}
		return out
	}
	t.Log("no zstd command: decoding with the Go decoder")
	d, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out, err := d.DecodeAll(b, nil)
	if err != nil {
		t.Fatalf("zstd: %v", err)
	}
	return out
}

// atPublication is a server on loopback whose clock is the publication's
// own instant, where the time guard replaces nothing and every document is
// read from its pack, and the published revision of hkID.
func atPublication(t *testing.T) (*testServer, *schemas.Entry) {
	t.Helper()
	ts := newServer(t)
	sn := ts.Snaps.Acquire()
	created, err := time.Parse(time.RFC3339, sn.Manifest.CreatedAt)
	sn.Release()
	if err != nil {
		t.Fatal(err)
	}
	ts.Now = created
	rd, err := ts.Service.Begin(ts.Now)
	if err != nil {
		t.Fatal(err)
	}
	e, err := rd.PublishedRevision(hkID)
	rd.End()
	if err != nil {
		t.Fatal(err)
	}
	return ts, e
}

// TestDocuments_REST34_ContentCoding: a markdown document and an HTML
// page of a real publication, served on loopback (issue 18). Without
// Accept-Encoding the bytes are render's output; with zstd they are the
// stored bytes, which the reference decoder turns into the same; gzip
// alone gets identity (nothing is recompressed). Every answer says Vary:
// Accept-Encoding; the zstd representation has its own strong ETag, and a
// 304 (REST-34) answers only the ETag of the representation asked for.
// A Range on identity gives the slice of the decoded bytes; HEAD answers
// the headers GET does.
func TestDocuments_REST34_ContentCoding(t *testing.T) {
	ts, e := atPublication(t)
	for _, c := range []struct {
		path string
		want []byte
	}{
		{"/" + e.Slug + ".md", render.Markdown(e, e.DefaultLanguage, reg.Site)},
		{"/" + e.Slug, render.HTML(e, e.DefaultLanguage, reg.Site)},
	} {
		plain, body := ts.get(t, c.path)
		if plain.StatusCode != 200 || !bytes.Equal(body, c.want) {
			t.Fatalf("%s without Accept-Encoding: %d, not render's bytes", c.path, plain.StatusCode)
		}
		if ce := plain.Header.Get("Content-Encoding"); ce != "" {
			t.Errorf("%s without Accept-Encoding: Content-Encoding %q", c.path, ce)
		}
		if !strings.Contains(plain.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q lacks Accept-Encoding", c.path, plain.Header.Get("Vary"))
		}
		etag := plain.Header.Get("ETag")

		zr, zbody := ts.get(t, c.path, "Accept-Encoding: gzip, deflate, br, zstd")
		if zr.StatusCode != 200 || zr.Header.Get("Content-Encoding") != "zstd" {
			t.Fatalf("%s with zstd: %d, Content-Encoding %q", c.path, zr.StatusCode, zr.Header.Get("Content-Encoding"))
		}
		if len(zbody) >= len(body) || !bytes.Equal(zstdDecode(t, zbody), c.want) {
			t.Errorf("%s with zstd: %d bytes do not decode to the %d of identity", c.path, len(zbody), len(body))
		}
		zetag := zr.Header.Get("ETag")
		if zetag == etag || zetag != strings.TrimSuffix(etag, `"`)+`-zstd"` {
			t.Errorf("%s: zstd ETag %s beside identity's %s", c.path, zetag, etag)
		}
		if !strings.Contains(zr.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s with zstd: Vary %q", c.path, zr.Header.Get("Vary"))
		}
		if zr.Header.Get("Content-Length") != strconv.Itoa(len(zbody)) {
			t.Errorf("%s with zstd: Content-Length %q for %d bytes", c.path, zr.Header.Get("Content-Length"), len(zbody))
		}

		// q-values decide: zstd refused, or identity preferred, is identity.
		for _, ae := range []string{"gzip", "zstd;q=0, gzip", "identity;q=1, zstd;q=0.5", "br"} {
			r, b := ts.get(t, c.path, "Accept-Encoding: "+ae)
			if r.Header.Get("Content-Encoding") != "" || !bytes.Equal(b, c.want) || r.Header.Get("ETag") != etag {
				t.Errorf("%s Accept-Encoding %q: Content-Encoding %q, ETag %s, identity bytes %v", c.path, ae, r.Header.Get("Content-Encoding"), r.Header.Get("ETag"), bytes.Equal(b, c.want))
			}
		}
		if r, _ := ts.get(t, c.path, "Accept-Encoding: *"); r.Header.Get("Content-Encoding") != "zstd" {
			t.Errorf("%s Accept-Encoding *: Content-Encoding %q", c.path, r.Header.Get("Content-Encoding"))
		}

		// REST-34 per encoding: each ETag matches its own representation only.
		if r, _ := ts.get(t, c.path, "If-None-Match: "+etag); r.StatusCode != http.StatusNotModified {
			t.Errorf("%s identity If-None-Match its ETag: %d", c.path, r.StatusCode)
		}
		if r, _ := ts.get(t, c.path, "If-None-Match: "+zetag, "Accept-Encoding: zstd"); r.StatusCode != http.StatusNotModified {
			t.Errorf("%s zstd If-None-Match its ETag: %d", c.path, r.StatusCode)
		}
		if r, b := ts.get(t, c.path, "If-None-Match: "+zetag); r.StatusCode != 200 || !bytes.Equal(b, c.want) {
			t.Errorf("%s identity If-None-Match the zstd ETag: %d", c.path, r.StatusCode)
		}
		if r, b := ts.get(t, c.path, "If-None-Match: "+etag, "Accept-Encoding: zstd"); r.StatusCode != 200 || !bytes.Equal(zstdDecode(t, b), c.want) {
			t.Errorf("%s zstd If-None-Match the identity ETag: %d", c.path, r.StatusCode)
		}

		// A Range on identity is a slice of the decoded bytes.
		if r, b := ts.get(t, c.path, "Range: bytes=10-49"); r.StatusCode != http.StatusPartialContent || !bytes.Equal(b, c.want[10:50]) {
			t.Errorf("%s Range bytes=10-49: %d, %q", c.path, r.StatusCode, b)
		}
		// A Range on zstd is a slice of the encoded bytes (RFC 9110 §14.1.2).
		if r, b := ts.get(t, c.path, "Range: bytes=0-3", "Accept-Encoding: zstd"); r.StatusCode != http.StatusPartialContent || !bytes.Equal(b, zbody[:4]) {
			t.Errorf("%s zstd Range bytes=0-3: %d, % x", c.path, r.StatusCode, b)
		}

		// HEAD answers GET's headers, per encoding.
		for _, ae := range []string{"", "zstd"} {
			var h []string
			if ae != "" {
				h = append(h, "Accept-Encoding: "+ae)
			}
			get, _ := ts.get(t, c.path, h...)
			head, hb := ts.do(t, http.MethodHead, c.path, h...)
			for _, k := range []string{"Content-Encoding", "Content-Length", "ETag", "Vary", "Content-Type"} {
				if get.Header.Get(k) != head.Header.Get(k) {
					t.Errorf("%s HEAD %q: %s %q, GET's %q", c.path, ae, k, head.Header.Get(k), get.Header.Get(k))
				}
			}
			if len(hb) != 0 {
				t.Errorf("%s HEAD has a body", c.path)
			}
		}
	}
}

// TestChooseEncoding_DictionaryFramesAlwaysDecoded: a document stored with
// one of the engine's dictionaries (D120) is never sent as stored, even
// to a client that names the stored encoding or accepts anything; a plain
// zstd one is.
func TestChooseEncoding_DictionaryFramesAlwaysDecoded(t *testing.T) {
	for _, ae := range []string{"*", "zstd", "zstd-dict", "gzip, zstd-dict;q=1, *;q=0.5"} {
		if got := rest.ChooseEncoding([]string{ae}, publication.EncodingZstdDict); got != "" {
			t.Errorf("Accept-Encoding %q: a dictionary frame goes out as %q", ae, got)
		}
	}
	if got := rest.ChooseEncoding([]string{"zstd"}, publication.EncodingZstd); got != publication.EncodingZstd {
		t.Errorf("Accept-Encoding zstd: a plain zstd document goes out as %q", got)
	}
}

// TestDocuments_HTTP31_DictionaryKindsDecoded: an entry's Impressum
// (HTTP-31) is stored with its dictionary (D130), so it goes out decoded
// to every client, a zstd one too, with the identity ETag and Vary:
// Accept-Encoding; its bytes are render's; a Range and a 304 work on
// them, and HEAD answers GET's headers. The JSON view, stored with its
// dictionary too, is answered by the REST mirror as JSON it writes
// (never the stored bytes): the same to a zstd client as to any.
func TestDocuments_HTTP31_DictionaryKindsDecoded(t *testing.T) {
	ts, e := atPublication(t)
	legal, ok := render.LegalPage(e, e.DefaultLanguage, reg.Site)
	if !ok {
		t.Fatalf("%s has no legal notice", hkID)
	}
	path, want := "/"+e.Slug+"/impressum", legal
	plain, body := ts.get(t, path)
	if plain.StatusCode != 200 || len(body) < 100 || !bytes.Equal(body, want) {
		t.Fatalf("%s: %d, %d bytes, render's %v", path, plain.StatusCode, len(body), bytes.Equal(body, want))
	}
	etag := plain.Header.Get("ETag")
	for _, ae := range []string{"zstd", "gzip, deflate, br, zstd", "*"} {
		r, b := ts.get(t, path, "Accept-Encoding: "+ae)
		if r.StatusCode != 200 || r.Header.Get("Content-Encoding") != "" || !bytes.Equal(b, want) || r.Header.Get("ETag") != etag {
			t.Errorf("%s Accept-Encoding %q: %d, Content-Encoding %q, ETag %s (identity %s), the identity bytes %v", path, ae, r.StatusCode,
				r.Header.Get("Content-Encoding"), r.Header.Get("ETag"), etag, bytes.Equal(b, want))
		}
		if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s Accept-Encoding %q: Vary %q", path, ae, r.Header.Get("Vary"))
		}
		if r.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
			t.Errorf("%s Accept-Encoding %q: Content-Length %q for %d bytes", path, ae, r.Header.Get("Content-Length"), len(want))
		}
	}
	if r, _ := ts.get(t, path, "If-None-Match: "+etag, "Accept-Encoding: zstd"); r.StatusCode != http.StatusNotModified {
		t.Errorf("%s If-None-Match its ETag: %d", path, r.StatusCode)
	}
	if r, b := ts.get(t, path, "Range: bytes=5-24", "Accept-Encoding: zstd"); r.StatusCode != http.StatusPartialContent || !bytes.Equal(b, want[5:25]) {
		t.Errorf("%s Range bytes=5-24: %d, %q", path, r.StatusCode, b)
	}
	get, _ := ts.get(t, path, "Accept-Encoding: zstd")
	head, hb := ts.do(t, http.MethodHead, path, "Accept-Encoding: zstd")
	for _, k := range []string{"Content-Encoding", "Content-Length", "ETag", "Vary", "Content-Type"} {
		if get.Header.Get(k) != head.Header.Get(k) {
			t.Errorf("%s HEAD: %s %q, GET's %q", path, k, head.Header.Get(k), get.Header.Get(k))
		}
	}
	if len(hb) != 0 {
		t.Errorf("%s HEAD has a body", path)
	}

	view := "/v1/entries/" + hkID
	plain, body = ts.get(t, view)
	zr, zbody := ts.get(t, view, "Accept-Encoding: gzip, deflate, br, zstd")
	if plain.StatusCode != 200 || zr.StatusCode != 200 || zr.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, zbody) ||
		!bytes.Contains(body, []byte(`"id":"`+hkID+`"`)) || zr.Header.Get("ETag") != plain.Header.Get("ETag") {
		t.Errorf("%s: %d and with zstd %d, Content-Encoding %q, the same bytes %v", view, plain.StatusCode, zr.StatusCode, zr.Header.Get("Content-Encoding"), bytes.Equal(body, zbody))
	}
}
