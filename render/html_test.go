package render_test

import (
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
)

// TestHTML_HTTP17_HTTP27 checks the page rules of §2.2 on the fixtures
// that exercise them: robots directives, outbound link rel, footer links,
// alternate and canonical links.
func TestHTML_HTTP17_HTTP27(t *testing.T) {
	site := testSite(t)
	page := func(slug string) string {
		e := fixtures.Entry(slug)
		return string(render.HTML(e, e.DefaultLanguage, site))
	}
	robots := func(p string) string {
		const m = `<meta name="robots" content="`
		i := strings.Index(p, m)
		if i < 0 {
			return ""
		}
		return p[i+len(m) : i+len(m)+strings.Index(p[i+len(m):], `"`)]
	}
	for _, tc := range []struct{ slug, want, why string }{
		{"holzwerk-krause", "", "verified at level domain: indexable"},
		{"schreinerei-beispiel", "noindex, follow", "HTTP-23 unclaimed"},
		{"person-miriam-hoffmann", "noindex, follow", "HTTP-24 below domain, first 30 days"},
		{"person-sanne-de-vries", "", "below domain after 30 days, no report"},
		{"injection-werkstatt-probe", "noindex, follow", "HTTP-24 open abuse report"},
		{"elektro-sommer-kassel", "noindex", "HTTP-27 unlisted"},
		{"kfz-rasant-dortmund", "noindex", "suspended"},
	} {
		if got := robots(page(tc.slug)); got != tc.want {
			t.Errorf("%s (%s): robots %q, want %q", tc.slug, tc.why, got, tc.want)
		}
	}

	hk := page("holzwerk-krause")
	for _, want := range []string{
		`<link rel="canonical" href="https://daawid.example/holzwerk-krause">`,                         // HTTP-20
		`<link rel="alternate" type="text/markdown" href="https://daawid.example/holzwerk-krause.md">`, // HTTP-19
		`<a href="https://daawid.example/holzwerk-krause/impressum">Impressum</a>`,                     // HTTP-21, HTTP-31
		`<a href="https://daawid.example/holzwerk-krause/datenschutz">Datenschutz</a>`,
		`<a href="https://daawid.example/holzwerk-krause/report">`, // HTTP-22
		`--primary:#2F4B3A`, `--heading-font:"Lora"`, // brand colours and fonts
		`href="https://daawid.example/assets/fonts/source-sans-3/font.css"`,
		`<a href="https://holzwerk-krause.example">`, // verified: no ugc
	} {
		if !strings.Contains(hk, want) {
			t.Errorf("Holzwerk Krause page lacks %s", want)
		}
	}
	uk := page("thornbury-hale-joinery")
	if !strings.Contains(uk, `>Legal notice</a>`) || !strings.Contains(uk, `>Privacy</a>`) || strings.Contains(uk, "Impressum") {
		t.Error("a UK operator's footer must read Legal notice and Privacy (HTTP-21)")
	}
	if sb := page("schreinerei-beispiel"); !strings.Contains(sb, `<a href="https://schreinerei-beispiel.example" rel="ugc nofollow">`) {
		t.Error("links below level domain must carry rel=\"ugc nofollow\" (HTTP-25)")
	}
	if s := page("kfz-rasant-dortmund"); strings.Contains(s, "/report") || !strings.Contains(s, "This entry is suspended.") {
		t.Error("a suspended page shows only its notice, without a report link (HTTP-22)")
	}
	if strings.Contains(hk, "<script>") || strings.Contains(hk, "cookie") {
		t.Error("no client-side script and no cookie on a page (HTTP-17, PRIV-21)")
	}
}

// TestLegalPage_HTTP31_HTTP32 checks the legal notice pages.
func TestLegalPage_HTTP31_HTTP32(t *testing.T) {
	site := testSite(t)
	de, ok := render.LegalPage(fixtures.Entry("holzwerk-krause"), "en", site)
	if !ok || !strings.Contains(string(de), `<html lang="de">`) || !strings.Contains(string(de), "Vertreten durch die Geschäftsführerin Jana Krause") {
		t.Error("the Impressum page must be German whatever the language asked (MD-38)")
	}
	uk, ok := render.LegalPage(fixtures.Entry("thornbury-hale-joinery"), "en", site)
	if !ok || !strings.Contains(string(uk), "Legal name and form: Thornbury &amp; Hale Joinery Ltd") || strings.Contains(string(uk), "DDG") {
		t.Error("the UK legal notice must use English labels and name no German law (MD-39)")
	}
	if _, ok := render.LegalPage(fixtures.Entry("person-miriam-hoffmann"), "de", site); ok {
		t.Error("an entry without an operator block has no legal page")
	}
}
