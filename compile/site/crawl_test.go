package site_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/fixtures/sitearchive"
	"github.com/daawid/registry/fixtures/websites"
)

// archive starts the saved-site archive on a real loopback server and a
// crawler that reaches it (no internet, no mocks).
func archive(t testing.TB, timeout time.Duration) *site.Crawler {
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
	return site.NewCrawler(site.Options{Delay: -1, Timeout: timeout, Transport: srv.Transport()})
}

// TestCrawl_ExpectedFindings crawls every archived site and checks what
// the crawler reports and the extractor finds against expected.json.
func TestCrawl_ExpectedFindings(t *testing.T) {
	exp, err := websites.LoadExpected()
	if err != nil {
		t.Fatal(err)
	}
	c := archive(t, 2*time.Second)
	now := time.Date(2026, 10, 2, 4, 0, 0, 0, time.UTC)
	for host, want := range exp.Sites {
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			f := c.Crawl(context.Background(), host, want.Country, now)
			switch want.Crawl.Outcome {
			case "failed":
				if len(f.Problems) == 0 {
					t.Errorf("crawl should report a problem (%v)", want.Crawl.Report)
				}
				return
			case "timeout_or_ok":
				// A 5 s server against a 2 s timeout: a timeout, reported.
				if len(f.Problems) > 0 {
					if !strings.Contains(strings.Join(f.Problems, " "), "no answer") {
						t.Errorf("want a timeout, got %v", f.Problems)
					}
					return
				}
			case "ok":
				if len(f.Problems) > 0 {
					t.Errorf("problems on a good site: %v", f.Problems)
				}
			}
			if want.Facts == nil || want.Facts.Legal == nil {
				return
			}
			l := want.Facts.Legal
			got := f.Legal
			// A trading name may keep or drop ", Inhaber …".
			if l.LegalName != "" && got.Name != l.LegalName && !strings.HasPrefix(l.LegalName, got.Name+",") {
				t.Errorf("legal name %q, want %q", got.Name, l.LegalName)
			}
			if l.Phone != "" && got.Phone != l.Phone {
				t.Errorf("legal phone %q, want %q", got.Phone, l.Phone)
			}
			if l.Email != "" && got.Email != l.Email {
				t.Errorf("legal email %q, want %q", got.Email, l.Email)
			}
			if l.VatID != "" && got.VATID != l.VatID {
				t.Errorf("VAT ID %q, want %q", got.VATID, l.VatID)
			}
			if r := l.Register; r != nil && (got.Register == nil || got.Register.Number != r.Number || got.Register.Type != r.Type || (r.Court != "" && got.Register.Court != r.Court)) {
				t.Errorf("register %+v, want %+v", got.Register, *r)
			}
			if a := l.Address; a != nil && (got.Address == nil || got.Address.PostalCode != a.PostalCode || got.Address.Locality != a.Locality) {
				t.Errorf("address %+v, want %+v", got.Address, *a)
			}
			for _, p := range want.Facts.Profiles {
				if !contains(f.Profiles, p) {
					t.Errorf("profile %s not found in %v", p, f.Profiles)
				}
			}
			all := fmt.Sprintf("%+v %+v", *f, f.Legal)
			for _, bad := range want.Facts.MustNotFind {
				if strings.Contains(all, bad) {
					t.Errorf("found %q, which the page only mentions as a trap", bad)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
