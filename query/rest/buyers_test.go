package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/daawid/registry/schemas"
)

// TestBuyers_D62_ExportsAndChanges: the exports and the change feed need
// a buyer key; with one, the manifest, files with Range requests, and the
// feed page by page.
func TestBuyers_D62_ExportsAndChanges(t *testing.T) {
	ts := newServer(t)
	auth := "Authorization: Bearer " + reg.BuyerKey
	for _, p := range []string{"/v1/exports", "/v1/changes", "/v1/exports/manifest.json"} {
		resp, body := ts.get(t, p)
		if resp.StatusCode != 401 || problemOf(t, resp, body).Code != "sign_in_required" || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s without a key: %d", p, resp.StatusCode)
		}
		if resp, _ := ts.get(t, p, "Authorization: Bearer dwk_notakey"); resp.StatusCode != 401 {
			t.Errorf("%s with a wrong key: %d", p, resp.StatusCode)
		}
	}
	resp, body := ts.get(t, "/v1/exports", auth)
	var m struct {
		Files []struct {
			Path  string `json:"path"`
			Table string `json:"table"`
			Rows  int64  `json:"rows"`
		} `json:"files"`
	}
	if err := json.Unmarshal(body, &m); err != nil || resp.StatusCode != 200 || len(m.Files) == 0 {
		t.Fatalf("manifest: %d %v %s", resp.StatusCode, err, body)
	}
	var parquet string
	for _, f := range m.Files {
		if strings.HasSuffix(f.Path, ".parquet") {
			parquet = f.Path
			break
		}
	}
	full, fb := ts.get(t, "/v1/exports/"+parquet, auth)
	if full.StatusCode != 200 || full.Header.Get("Content-Type") != "application/vnd.apache.parquet" || string(fb[:4]) != "PAR1" {
		t.Fatalf("%s: %d %q", parquet, full.StatusCode, full.Header.Get("Content-Type"))
	}
	// The footer by a suffix range, as Parquet readers ask for it.
	part, pb := ts.get(t, "/v1/exports/"+parquet, auth, "Range: bytes=-8")
	if part.StatusCode != http.StatusPartialContent || string(pb) != string(fb[len(fb)-8:]) || string(pb[4:]) != "PAR1" {
		t.Errorf("range: %d %q", part.StatusCode, pb)
	}
	for _, p := range []string{"/v1/exports/../manifest.json", "/v1/exports/%2e%2e/registry.duckdb", "/v1/exports/nope.parquet"} {
		if resp, _ := ts.get(t, p, auth); resp.StatusCode != 404 {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
	// The change feed, two at a time, gapless.
	var seqs []int64
	cursor := ""
	for i := 0; i < 100; i++ {
		resp, body := ts.get(t, "/v1/changes?limit=2"+cursor, auth)
		var page schemas.ChangesAnswer
		if err := json.Unmarshal(body, &page); err != nil || resp.StatusCode != 200 {
			t.Fatalf("changes: %d %v", resp.StatusCode, err)
		}
		for _, c := range page.Changes {
			seqs = append(seqs, c.Seq)
		}
		if !page.HasMore {
			break
		}
		cursor = "&cursor=" + page.NextCursor
	}
	if len(seqs) < 10 {
		t.Fatalf("only %d changes", len(seqs))
	}
	for i, s := range seqs {
		if s != int64(i+1) {
			t.Fatalf("sequence %v has a gap at %d", seqs, i)
		}
	}
	if resp, body := ts.get(t, "/v1/changes?cursor=abc", auth); resp.StatusCode != 422 || problemOf(t, resp, body).Issues[0].Field != "cursor" {
		t.Errorf("a bad cursor: %d", resp.StatusCode)
	}
}
