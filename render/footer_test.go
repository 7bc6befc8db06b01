package render_test

import (
	"strings"
	"testing"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestHTML_HTTP21_EveryPageLinksAPrivacyNotice: every fixture's page in
// every language, and its legal page, links a privacy notice in the
// footer: the entry's own where it has one, Daawid's /privacy where it
// has none (HTTP-21).
func TestHTML_HTTP21_EveryPageLinksAPrivacyNotice(t *testing.T) {
	site := testSite(t)
	daawid := 0
	for _, e := range allEntries(t) {
		if e.Status == schemas.StatusSuspended {
			continue // a suspended entry's page shows only its notice
		}
		want := render.PrivacyURL(site, e)
		if want == "" {
			want = site.BaseURL + "/privacy"
			daawid++
		}
		for _, lang := range e.Languages {
			pages := map[string][]byte{"page": render.HTML(e, lang, site)}
			if legal, ok := render.LegalPage(e, lang, site); ok {
				pages["legal page"] = legal
			}
			for kind, page := range pages {
				_, footer, ok := strings.Cut(string(page), "<footer>")
				if !ok || !strings.Contains(footer, `href="`+want+`"`) {
					t.Errorf("%s %s %s: no privacy link to %s in the footer", e.Slug, lang, kind, want)
				}
			}
		}
	}
	if daawid == 0 {
		t.Error("no fixture lacks a privacy notice: the fallback is not tested")
	}
}
