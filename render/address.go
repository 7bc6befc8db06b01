package render

import (
	"strings"

	"github.com/daawid/registry/schemas"
)

// localityFirst are the countries whose addresses put the town before the
// postal code ("London SW1A 1AA").
var localityFirst = map[string]bool{"GB": true, "IE": true, "US": true, "CA": true, "AU": true, "NZ": true}

// townLine is "42285 Wuppertal" or "London SW1A 1AA".
func townLine(a schemas.Address) string {
	switch {
	case a.PostalCode == "":
		return a.Locality
	case localityFirst[a.Country]:
		return a.Locality + " " + a.PostalCode
	}
	return a.PostalCode + " " + a.Locality
}

// streetParts are the street lines of an address, or none when the location
// is shown at locality level (I15, PRIV-18).
func streetParts(a schemas.Address, display schemas.AddressDisplay) []string {
	if display == schemas.DisplayLocalityOnly {
		return nil
	}
	var out []string
	if a.Street != "" {
		out = append(out, a.Street)
	}
	if a.Extra != "" {
		out = append(out, a.Extra)
	}
	return out
}

// addressText is "Am Sägewerk 7, 42285 Wuppertal" (without the country).
func addressText(a schemas.Address, display schemas.AddressDisplay) string {
	return strings.Join(append(streetParts(a, display), townLine(a)), ", ")
}

// countryNames are the English and German names of the countries the
// legal notices name; other countries fall back to their ISO code.
var countryNames = map[string][2]string{
	"AT": {"Austria", "Österreich"}, "BE": {"Belgium", "Belgien"}, "BG": {"Bulgaria", "Bulgarien"},
	"CH": {"Switzerland", "Schweiz"}, "CY": {"Cyprus", "Zypern"}, "CZ": {"Czechia", "Tschechien"},
	"DE": {"Germany", "Deutschland"}, "DK": {"Denmark", "Dänemark"}, "EE": {"Estonia", "Estland"},
	"ES": {"Spain", "Spanien"}, "FI": {"Finland", "Finnland"}, "FR": {"France", "Frankreich"},
	"GB": {"United Kingdom", "Vereinigtes Königreich"}, "GR": {"Greece", "Griechenland"},
	"HR": {"Croatia", "Kroatien"}, "HU": {"Hungary", "Ungarn"}, "IE": {"Ireland", "Irland"},
	"IS": {"Iceland", "Island"}, "IT": {"Italy", "Italien"}, "LI": {"Liechtenstein", "Liechtenstein"},
	"LT": {"Lithuania", "Litauen"}, "LU": {"Luxembourg", "Luxemburg"}, "LV": {"Latvia", "Lettland"},
	"MT": {"Malta", "Malta"}, "NL": {"Netherlands", "Niederlande"}, "NO": {"Norway", "Norwegen"},
	"PL": {"Poland", "Polen"}, "PT": {"Portugal", "Portugal"}, "RO": {"Romania", "Rumänien"},
	"SE": {"Sweden", "Schweden"}, "SI": {"Slovenia", "Slowenien"}, "SK": {"Slovakia", "Slowakei"},
	"TR": {"Türkiye", "Türkei"}, "UA": {"Ukraine", "Ukraine"}, "US": {"United States", "Vereinigte Staaten"},
	"CA": {"Canada", "Kanada"}, "AU": {"Australia", "Australien"}, "NZ": {"New Zealand", "Neuseeland"},
}

func countryEN(code string) string {
	if n, ok := countryNames[code]; ok {
		return n[0]
	}
	return code
}

func countryDE(code string) string {
	if n, ok := countryNames[code]; ok {
		return n[1]
	}
	return code
}
