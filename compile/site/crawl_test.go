package site_test

import (
	"context"
	"testing"
	"time"

	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/fixtures/sitearchive"
	"github.com/daawid/registry/fixtures/websites"
)

// archive starts the saved-site archive on a real loopback server and a
// crawler that reaches it (no internet, no mocks).
func archive(t testing.TB) (*site.Crawler, *sitearchive.Server) {
	t.Helper()
	sites, err := sitearchive.Load(websites.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sitearchive.Start(sites)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c := site.NewCrawler(site.Options{Delay: -1, Timeout: 2 * time.Second, DialContext: srv.DialContext, PlainHTTP: true})
	return c, srv
}

func TestCrawl_Dump(t *testing.T) {
	c, _ := archive(t)
	f := c.Crawl(context.Background(), "schreinerei-beispiel.example", "DE", time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC))
	t.Logf("%+v", f)
	t.Logf("%+v", f.Legal)
}
