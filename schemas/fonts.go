package schemas

import (
	"slices"
	"strings"
)

// hostedFontFamilies are the font families Daawid hosts at
// /assets/fonts/{slug}/font.css (VIEW-29, decision D21), OFL families
// whose files and licences are in render/fonts. A brand kit may name only
// these: a family the registry does not host would give pages and brand
// kits a style sheet that answers 404. render's font test holds this list
// and the files equal.
var hostedFontFamilies = []string{"Fraunces", "Inter", "Lora", "Source Sans 3"}

// HostedFontFamilies lists the font families Daawid hosts, sorted.
func HostedFontFamilies() []string { return slices.Clone(hostedFontFamilies) }

// HostsFontFamily reports whether Daawid hosts a font family (its exact
// name, as the brand kit gives it).
func HostsFontFamily(family string) bool { return slices.Contains(hostedFontFamilies, family) }

// checkFonts refuses a brand font family the registry does not host,
// naming the field (VIEW-29).
func (c *checker) checkFonts(f *BrandFonts) {
	if f == nil {
		return
	}
	for _, r := range []struct {
		path string
		ref  *FontRef
	}{{"/brand/fonts/headings/family", f.Headings}, {"/brand/fonts/body/family", f.Body}} {
		if r.ref != nil && r.ref.Family != "" && !HostsFontFamily(r.ref.Family) {
			c.add(r.path, "%q is not a font family Daawid hosts; use one of %s", r.ref.Family, strings.Join(hostedFontFamilies, ", "))
		}
	}
}
