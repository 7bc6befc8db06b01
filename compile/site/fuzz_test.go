package site

import (
	"bytes"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/daawid/registry/fixtures/sitearchive"
	"github.com/daawid/registry/fixtures/websites"
)

// FuzzImpressum feeds the legal-notice extractor any page: it must not
// panic or hang, and what it returns must be well-formed (phones in E.164,
// emails with an @).
func FuzzImpressum(f *testing.F) {
	sites, err := sitearchive.Load(websites.FS, ".")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range sites {
		for _, p := range s.Pages {
			if len(p.Body) < 64<<10 {
				f.Add(p.Body)
			}
		}
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
		if err != nil {
			return
		}
		p := ExtractPage("https://fuzz.example/impressum", doc)
		for _, region := range []string{"DE", "GB", "FR"} {
			l := ParseLegal(p.Lines, region)
			if l.Phone != "" && !strings.HasPrefix(l.Phone, "+") {
				t.Fatalf("phone %q is not E.164", l.Phone)
			}
			if l.Email != "" && !strings.Contains(l.Email, "@") {
				t.Fatalf("email %q", l.Email)
			}
		}
	})
}
