package register

import (
	"strings"
	"unicode"
)

// germanForms are the legal forms that end German company names, longest
// first so "GmbH & Co. KG" wins over "KG".
var germanForms = []struct{ suffix, form string }{
	{"GmbH & Co. KGaA", "GmbH & Co. KGaA"},
	{"GmbH & Co. KG", "GmbH & Co. KG"},
	{"GmbH & Co KG", "GmbH & Co. KG"},
	{"UG (haftungsbeschränkt) & Co. KG", "UG (haftungsbeschränkt) & Co. KG"},
	{"UG (haftungsbeschränkt)", "UG (haftungsbeschränkt)"},
	{"gGmbH", "gGmbH"},
	{"GmbH", "GmbH"},
	{"KGaA", "KGaA"},
	{"AG", "AG"},
	{"SE", "SE"},
	{"e. K.", "e.K."},
	{"e.K.", "e.K."},
	{"e.Kfm.", "e.K."},
	{"e.Kfr.", "e.K."},
	{"OHG", "OHG"},
	{"KG", "KG"},
	{"PartG mbB", "PartG mbB"},
	{"PartG", "PartG"},
	{"e. V.", "e.V."},
	{"e.V.", "e.V."},
	{"eG", "eG"},
	{"GbR", "GbR"},
}

// splitGermanForm returns the name without its legal form, and the form.
func splitGermanForm(name string) (display, form string) {
	name = strings.TrimSpace(name)
	for _, f := range germanForms {
		if strings.HasSuffix(name, f.suffix) {
			d := strings.TrimSpace(strings.TrimSuffix(name, f.suffix))
			d = strings.TrimRight(d, ",")
			if d != "" {
				return d, f.form
			}
		}
	}
	return name, ""
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

// ukSuffixes end UK company names; the display name drops them.
var ukSuffixes = []string{" LIMITED", " LTD.", " LTD", " PLC", " P.L.C.", " LLP", " CIC", " C.I.C."}

// ukDisplayName drops the legal suffix: "THORNBURY & HALE JOINERY LTD" →
// "THORNBURY & HALE JOINERY".
func ukDisplayName(name string) string {
	u := strings.ToUpper(name)
	for _, s := range ukSuffixes {
		if strings.HasSuffix(u, s) {
			return strings.TrimSpace(name[:len(name)-len(s)])
		}
	}
	return name
}

// smallWords stay lower case inside a title-cased name.
var smallWords = map[string]bool{"and": true, "of": true, "the": true, "for": true, "in": true, "on": true, "at": true, "by": true, "de": true, "la": true, "le": true, "du": true, "des": true, "von": true, "und": true}

// upperWords stay upper case.
var upperWords = map[string]bool{"UK": true, "GB": true, "PLC": true, "LLP": true, "CIC": true, "IT": true, "BBQ": true, "TV": true, "DIY": true, "HR": true, "MOT": true, "B&B": true, "LP": true, "CIO": true}

// titleCase turns an all-capitals register name into normal case:
// "THORNBURY & HALE JOINERY LTD" → "Thornbury & Hale Joinery Ltd". Names
// that are already mixed case are left alone.
func titleCase(s string) string {
	if strings.ToUpper(s) != s {
		return s
	}
	words := strings.Fields(s)
	for i, w := range words {
		switch {
		case upperWords[w]:
		case i > 0 && smallWords[strings.ToLower(w)] && !strings.HasSuffix(words[i-1], ","):
			words[i] = strings.ToLower(w)
		case w == "LTD" || w == "LTD.":
			words[i] = "Ltd"
		default:
			words[i] = capitalizeWord(w)
		}
	}
	return strings.Join(words, " ")
}

// capitalizeWord upper-cases the first letter of each part of a word and
// lower-cases the rest ("O'NEILL" → "O'Neill", "SMITH-JONES" → "Smith-Jones").
func capitalizeWord(w string) string {
	rs := []rune(strings.ToLower(w))
	start := true
	for i, r := range rs {
		if unicode.IsLetter(r) {
			if start {
				rs[i] = unicode.ToUpper(r)
			}
			start = false
		} else {
			start = r == '-' || r == '\'' || r == '(' || r == '/' || r == '.'
		}
	}
	return string(rs)
}
