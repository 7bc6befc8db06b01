package register

import (
	"strings"
)

// Display names drop the legal form; the legal name keeps it (D97): a
// reader looking for "Thornbury & Hale Joinery" wants the business, and
// the operator section says "Thornbury & Hale Joinery Ltd" with the form.

// germanForms are the legal forms that end German company names, longest
// first so "GmbH & Co. KG" wins over "KG". They are matched without regard
// to case, so a name in capitals loses its form too.
var germanForms = []struct{ suffix, form string }{
	{"UG (haftungsbeschränkt) & Co. KG", "UG (haftungsbeschränkt) & Co. KG"},
	{"GmbH & Co. KGaA", "GmbH & Co. KGaA"},
	{"GmbH & Co. OHG", "GmbH & Co. OHG"},
	{"GmbH & Co. KG", "GmbH & Co. KG"},
	{"GmbH & Co.KG", "GmbH & Co. KG"},
	{"GmbH & Co KG", "GmbH & Co. KG"},
	{"GmbH u. Co. KG", "GmbH & Co. KG"},
	{"GmbH + Co. KG", "GmbH & Co. KG"},
	{"AG & Co. KG", "AG & Co. KG"},
	{"SE & Co. KG", "SE & Co. KG"},
	{"UG (haftungsbeschränkt)", "UG (haftungsbeschränkt)"},
	{"UG (haftungsbeschraenkt)", "UG (haftungsbeschränkt)"},
	{"Partnerschaftsgesellschaft mbB", "PartG mbB"},
	{"Partnerschaftsgesellschaft", "PartG"},
	{"Partnerschaft mbB", "PartG mbB"},
	{"PartG mbB", "PartG mbB"},
	{"mbB", "PartG mbB"},
	{"PartG", "PartG"},
	{"gGmbH", "gGmbH"},
	{"GmbH", "GmbH"},
	{"KGaA", "KGaA"},
	{"AG", "AG"},
	{"SE", "SE"},
	{"UG", "UG (haftungsbeschränkt)"},
	{"e. K.", "e.K."},
	{"e.K.", "e.K."},
	{"e.Kfm.", "e.K."},
	{"e.Kfr.", "e.K."},
	{"OHG", "OHG"},
	{"KG", "KG"},
	{"e. V.", "e.V."},
	{"e.V.", "e.V."},
	{"eG", "eG"},
	{"GbR", "GbR"},
	{"Ltd.", "Ltd"},
	{"Ltd", "Ltd"},
	// "Steuerberatungsgesellschaft mbH": the form closes a compound.
	{"mbH", "GmbH"},
}

// germanLiquidation are the words a German register adds to the name of a
// company being wound up ("Altstadt Gastro GmbH i.L."); D98 leaves such
// companies out.
var germanLiquidation = []string{"in Liquidation", "in Abwicklung", "i. L.", "i.L.", "i.Liq.", "in Liqu."}

// splitGermanForm returns the name without its legal form, and the form,
// after taking off a liquidation marker (liquidating says whether there
// was one).
func splitGermanForm(name string) (display, form string, liquidating bool) {
	name = strings.TrimSpace(name)
	for _, m := range germanLiquidation {
		if d, ok := cutSuffixFold(name, m); ok {
			name, liquidating = strings.TrimRight(strings.TrimSpace(d), ","), true
			break
		}
	}
	for _, f := range germanForms {
		if d, ok := cutSuffixFold(name, f.suffix); ok {
			d = strings.TrimRight(strings.TrimSpace(d), ",")
			if d != "" {
				return d, f.form, liquidating
			}
		}
	}
	return name, "", liquidating
}

// cutSuffixFold cuts suffix off s, ignoring case, when it is a whole word
// (after a space, or after a letter for "mbH" in a compound).
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) <= len(suffix) || !strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s, false
	}
	rest := s[:len(s)-len(suffix)]
	if !strings.HasSuffix(rest, " ") && !strings.HasSuffix(rest, ",") {
		return s, false
	}
	return rest, true
}

// ukForms map Companies House company categories to the short legal form.
var ukForms = map[string]string{
	"private limited company":              "Ltd",
	"public limited company":               "PLC",
	"limited liability partnership":        "LLP",
	"limited partnership":                  "LP",
	"community interest company":           "CIC",
	"charitable incorporated organisation": "CIO",
	"registered society":                   "Registered society",
	"private unlimited company":            "Unlimited company",
	"private unlimited":                    "Unlimited company",
	"scottish partnership":                 "Scottish partnership",
	"overseas entity":                      "Overseas entity",
}

// ukForm reads the legal form off a company category; guarantee companies
// are "Ltd" too ("PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no
// share capital)").
func ukForm(category string) string {
	c := strings.ToLower(strings.TrimSpace(category))
	if f, ok := ukForms[c]; ok {
		return f
	}
	if strings.Contains(c, "ltd by guar") || strings.Contains(c, "limited by guarantee") {
		return "Ltd"
	}
	return strings.TrimSpace(category)
}

// ukSuffixes end UK company names; the display name drops them, longest
// first. Welsh companies may end in "Cyfyngedig" or "Cyf" (Companies Act
// 2006 s.59).
var ukSuffixes = []string{
	" COMMUNITY INTEREST COMPANY", " LIMITED LIABILITY PARTNERSHIP", " PUBLIC LIMITED COMPANY", " CYFYNGEDIG", " LIMITED",
	" LTD.", " LTD", " PLC.", " PLC", " P.L.C.", " LLP", " L.L.P.", " CIC", " C.I.C.", " CYF", " LP",
}

// ukDisplayName drops the legal suffix: "THORNBURY & HALE JOINERY LTD" →
// "THORNBURY & HALE JOINERY".
func ukDisplayName(name string) string {
	u := strings.ToUpper(name)
	for _, s := range ukSuffixes {
		if strings.HasSuffix(u, s) && len(u) > len(s) {
			return strings.TrimRight(strings.TrimSpace(name[:len(name)-len(s)]), ",")
		}
	}
	return name
}
