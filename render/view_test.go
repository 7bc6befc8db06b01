package render_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestView_VIEW01_VIEW24 checks the view rules on the fixtures that
// exercise them.
func TestView_VIEW01_VIEW24(t *testing.T) {
	site := testSite(t)
	hk := fixtures.Entry("holzwerk-krause")

	t.Run("VIEW-02 per-field fallback and VIEW-03 languages", func(t *testing.T) {
		v := render.View(hk, "en", site, nil)
		if v.Summary != hk.Summary["en"] {
			t.Errorf("summary = %q, want the en text", v.Summary)
		}
		if v.Offerings[0].Description != hk.Offerings[0].Description["de"] {
			t.Errorf("offering description should fall back to de: %q", v.Offerings[0].Description)
		}
		if v.Language != "en" || strings.Join(v.AvailableLanguages, ",") != "de,en" {
			t.Errorf("language %q, available %v", v.Language, v.AvailableLanguages)
		}
	})
	t.Run("VIEW-06 sections", func(t *testing.T) {
		v := render.View(hk, "de", site, []schemas.SectionKey{"offerings"})
		if len(v.Offerings) != 4 || v.Capacity != nil || v.ContactPoints != nil || v.Operator != nil || v.Categories != nil {
			t.Errorf("sections=offerings kept other sections: %+v", v)
		}
		if v.Kind == "" || v.Verification.Level == "" || v.ID == "" || v.Links.HTML == "" {
			t.Error("kind, verification.level, id and links must always be present")
		}
	})
	t.Run("VIEW-04 expired capacity", func(t *testing.T) {
		if v := render.View(fixtures.Entry("panaderia-la-espiga"), "es", site, nil); v.Capacity != nil {
			t.Error("expired capacity is in the view")
		}
		if v := render.View(hk, "de", site, nil); v.Capacity == nil {
			t.Error("capacity still valid at the revision is missing")
		}
	})
	t.Run("VIEW-05 private contact points", func(t *testing.T) {
		e := fixtures.Entry("thornbury-hale-joinery")
		v := render.View(e, "en", site, nil)
		for _, c := range e.ContactPoints {
			if c.Visibility == "private" {
				for _, vc := range v.ContactPoints {
					if vc.ID == c.ID {
						t.Errorf("private contact point %s is in the view", c.ID)
					}
				}
				b, _ := json.Marshal(v)
				if c.Email != "" && strings.Contains(string(b), c.Email) {
					t.Errorf("private email %s is in the view", c.Email)
				}
			}
		}
	})
	t.Run("VIEW-17 form only with a web form, VIEW-18 links, VIEW-19 legal", func(t *testing.T) {
		v := render.View(hk, "de", site, nil)
		if v.Actions[0].Form == "" || v.Actions[1].Form != "" {
			t.Errorf("forms: %q, %q", v.Actions[0].Form, v.Actions[1].Form)
		}
		want := schemas.Links{
			HTML: "https://daawid.example/holzwerk-krause", Markdown: "https://daawid.example/holzwerk-krause.md",
			JSONLD: "https://daawid.example/holzwerk-krause.json", Legal: "https://daawid.example/holzwerk-krause/impressum",
			Privacy: "https://daawid.example/holzwerk-krause/datenschutz",
		}
		if v.Links != want {
			t.Errorf("links = %+v, want %+v", v.Links, want)
		}
		if l := render.View(fixtures.Entry("thornbury-hale-joinery"), "en", site, nil).Links.Legal; l != "https://daawid.example/thornbury-hale-joinery/legal" {
			t.Errorf("UK legal link = %q", l)
		}
		if l := render.View(fixtures.Entry("person-miriam-hoffmann"), "de", site, nil).Links.Legal; l != "" {
			t.Errorf("an entry without operator has legal link %q", l)
		}
	})
	t.Run("VIEW-21 local copies use http", func(t *testing.T) {
		local, err := render.NewSite("http://localhost:8080", nil)
		if err != nil {
			t.Fatal(err)
		}
		v := render.View(hk, "de", local, nil)
		if v.Links.HTML != "http://localhost:8080/holzwerk-krause" || v.Actions[0].Rest != "http://localhost:8080/v1/actions/act_01k8r2m7aa1b2c3d4e5f6g7h8j/runs" {
			t.Errorf("local links: %q %q", v.Links.HTML, v.Actions[0].Rest)
		}
		if _, err := render.NewSite("http://daawid.example", nil); err == nil {
			t.Error("plain http is allowed on a public host")
		}
	})
	t.Run("VIEW-24 suspended", func(t *testing.T) {
		e := fixtures.Entry("kfz-rasant-dortmund")
		b := render.ViewJSON(e, "de", site, nil)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for k := range m {
			switch k {
			case "id", "slug", "kind", "status", "language", "availableLanguages", "record", "verification", "displayName", "links":
			default:
				t.Errorf("suspended view has %q", k)
			}
		}
		for _, leak := range []string{"Werkstattweg", "+492319999066"} {
			for _, f := range render.Formats {
				if out := f.Render(e, "de", site, nil); strings.Contains(string(out), leak) {
					t.Errorf("suspended %s shows %q", f.Name, leak)
				}
			}
		}
	})
	t.Run("PRIV-17 representatives only in the legal section", func(t *testing.T) {
		v := render.View(hk, "de", site, []schemas.SectionKey{"facts", "contact", "offerings"})
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), "Jana Krause") {
			t.Error("a representative's name is outside the legal section of the view")
		}
		if strings.Contains(string(render.JSONLD(hk, site)), "Jana Krause") {
			t.Error("a representative's name is in the JSON-LD (LD-25)")
		}
	})
}

// TestBrandKit_VIEW28 checks the brand kit's media views and fonts.
func TestBrandKit_VIEW28(t *testing.T) {
	k := render.BrandKit(fixtures.Entry("holzwerk-krause"), "de", testSite(t))
	if k == nil || k.Logo == nil || k.Logo.URL != "https://media.daawid.example/3f9a2c7e41b0d5a8.svg" {
		t.Fatalf("logo: %+v", k)
	}
	if k.Fonts.Body.Family != "Source Sans 3" || k.Fonts.Body.CSSURL != "https://daawid.example/assets/fonts/source-sans-3/font.css" {
		t.Errorf("body font: %+v", k.Fonts.Body)
	}
	if k.Imagery != nil {
		t.Error("imagery the owner did not give is present (VIEW-30)")
	}
	if render.BrandKit(fixtures.Entry("schreinerei-beispiel"), "de", testSite(t)) != nil {
		t.Error("an entry without a brand has a brand kit")
	}
}
