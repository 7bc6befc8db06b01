package pipeline

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/fixtures/sitearchive"
)

// TestCompile_WebsitesFromListURL: --websites URL reads a list of sites
// over HTTP and crawls them; lines that name no site are reported with
// their line and skipped. The sites are the saved-site archive served on
// loopback (the crawler's dialer points there; everything else is real
// HTTP).
func TestCompile_WebsitesFromListURL(t *testing.T) {
	sites, err := sitearchive.Load(os.DirFS("../fixtures/websites"), ".")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sitearchive.Start(sites)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	list := "# sites to crawl\n" +
		"schreinerei-beispiel.example\n" +
		"https://Holzwerk-Krause.example/impressum   # a URL counts for its host\n" +
		"\n" +
		"ftp://files.example/\n" +
		"holzwerk-krause.example\n" +
		"not a host\n"
	lists := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(list))
	}))
	defer lists.Close()
	ctx := context.Background()
	sl, err := OpenSiteList(ctx, lists.URL+"/sites.txt", site.Options{Delay: -1, Timeout: 5 * time.Second, Transport: srv.Transport()})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sl.Hosts(), ","); got != "holzwerk-krause.example,schreinerei-beispiel.example" {
		t.Fatalf("hosts %s", got)
	}
	state := filepath.Join(t.TempDir(), "state")
	rep, err := Compile(ctx, CompileConfig{StateDir: state, Registers: []string{"../fixtures/registers/offeneregister-sample.jsonl"},
		Sites: sl, Seed: "../fixtures/compile/identity-seed.json", Now: time.Date(2025, 10, 27, 10, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.SitesCrawled != 2 || rep.SitesMatched != 2 {
		t.Fatalf("crawled %d, matched %d; want 2 and 2", rep.SitesCrawled, rep.SitesMatched)
	}
	var lines []int
	for _, p := range rep.Problems {
		if strings.HasSuffix(p.File, "/sites.txt") {
			lines = append(lines, p.Line)
		}
	}
	if len(lines) != 2 || lines[0] != 5 || lines[1] != 7 {
		t.Fatalf("problems of the list at lines %v, want [5 7]", lines)
	}
	// A list that cannot be fetched fails the run's start, naming its URL.
	lists.Close()
	if _, err := OpenSiteList(ctx, lists.URL+"/sites.txt", site.Options{}); err == nil || !strings.Contains(err.Error(), lists.URL) {
		t.Fatalf("a list server that is gone: %v", err)
	}
}
