package places

import (
	"fmt"
	"github.com/daawid/registry/schemas/terms"
	"io"
	"slices"
	"strings"
)

// Joining a table's place names to towns when a name fits several towns
// of the country: the one nearest the middle of the codes with the same
// first three characters that were placed for sure, within tableNear3Km;
// else of those with the same first two, within tableNear2Km; the most
// populous when no code around was placed for sure.
// A town a name fits alone is not taken when it is more than tableFarKm
// from the middle of the codes with the same first two characters.
const (
	tableNear3Km = 60
	tableNear2Km = 120
	tableFarKm   = 150
)

// LoadPostalTable reads a country's postal codes from a table of codes and
// the places they cover, one pair a line, tab-separated, with a header:
// the bundled DE.tsv ("postal_code", "place") and FR.tsv ("postal_code",
// "place", "insee_commune"). The columns are found by the header's names;
// without a header the first two are the code and the place. The tables
// carry no coordinates, so each code is placed at its town, found among
// the loaded towns of that country:
//
//   - by the INSEE commune code, which GeoNames keeps as a French town's
//     admin4 code, when the row has one;
//   - else by the place's name (as written, without an arrondissement
//     ("Paris 1er Arrondissement" is Paris), or either half of a bilingual
//     "Forst (Lausitz) - Baršć"), in the same département when the row
//     has an INSEE code; a name that fits several towns is placed by the
//     codes around it (tableNear3Km, tableNear2Km), or the most populous.
//
// A code that covers several places is placed at the most populous of
// them. Codes none of whose places were found are noted (Unplaced).
func (g *Gazetteer) LoadPostalTable(country string, r io.Reader) error {
	country = strings.ToUpper(strings.TrimSpace(country))
	if len(country) != 2 || country[0] < 'A' || country[0] > 'Z' || country[1] < 'A' || country[1] > 'Z' {
		return fmt.Errorf("places: postal table: country %q", country)
	}
	le := lineErrors{source: "postal " + country}
	codeCol, placeCol, inseeCol := 0, 1, -1
	var rows []tableRow
	read := lines(r, func(n int, line string) {
		if strings.TrimSpace(line) == "" || line[0] == '#' {
			return
		}
		fields := strings.Split(line, "\t")
		if len(rows) == 0 && n == 1 && isHeader(fields) {
			codeCol, placeCol, inseeCol = -1, -1, -1
			for k, h := range fields {
				switch strings.ToLower(strings.TrimSpace(h)) {
				case "postal_code", "postcode", "postalcode", "code", "zip":
					codeCol = k
				case "place", "place_name", "name", "commune", "locality":
					placeCol = k
				case "insee_commune", "insee", "code_commune_insee":
					inseeCol = k
				}
			}
			if codeCol < 0 || placeCol < 0 {
				le.add(n, "header %q names no postal_code or place column", line)
				codeCol, placeCol = 0, 1
			}
			return
		}
		if len(fields) <= max(codeCol, placeCol) {
			le.add(n, "%d columns, want %d", len(fields), max(codeCol, placeCol)+1)
			return
		}
		row := tableRow{code: strings.TrimSpace(fields[codeCol]), name: strings.TrimSpace(fields[placeCol]), line: n}
		if row.code == "" || row.name == "" || len(row.code) > 20 {
			le.add(n, "postal code %q place %q", fields[codeCol], fields[placeCol])
			return
		}
		if inseeCol >= 0 && inseeCol < len(fields) {
			row.insee = strings.TrimSpace(fields[inseeCol])
		}
		rows = append(rows, row)
	})
	g.placeTable(country, rows)
	return le.err(read)
}

type tableRow struct {
	code, name, insee string
	line              int
	town              int32
	sure              bool    // placed by its INSEE code
	cands             []int32 // when the name fits several towns
}

func isHeader(fields []string) bool {
	for _, h := range fields {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "postal_code", "postcode", "postalcode", "zip", "place", "insee_commune":
			return true
		}
	}
	return false
}

// tableNames are the readings of a table's place name, most exact first;
// from loose on, they are looser: a name they find is placed only near
// the codes around it, as if it fitted several towns.
func tableNames(name string) (names []string, loose int) {
	names = []string{name}
	lower := strings.ToLower(name)
	if i := strings.Index(lower, " arrondissement"); i > 0 {
		// "Paris 1er Arrondissement", "Marseille 12e Arrondissement"
		head := strings.TrimSpace(name[:i])
		if j := strings.LastIndexByte(head, ' '); j > 0 {
			names = append(names, strings.TrimSpace(head[:j]))
		}
	}
	if a, b, ok := strings.Cut(name, " - "); ok {
		names = append(names, strings.TrimSpace(a), strings.TrimSpace(b))
	}
	if i := strings.IndexByte(name, '('); i > 0 {
		names = append(names, strings.TrimSpace(name[:i]))
	}
	loose = len(names)
	// "Hermsdorf/Erzgebirge", "Sohland an der Spree", "Belgern-Schildau":
	// a municipality named after its main town.
	if i := strings.IndexByte(name, '/'); i > 0 {
		names = append(names, strings.TrimSpace(name[:i]))
	}
	for _, sep := range []string{" an der ", " am ", " im ", " in der ", " bei ", " ob der ", " auf der ", " sur ", " lès ", " les "} {
		if i := strings.Index(lower, sep); i > 0 {
			names = append(names, strings.TrimSpace(name[:i]))
			break
		}
	}
	if i := strings.IndexByte(name, '-'); i > 0 && !strings.Contains(name[:i], " ") {
		names = append(names, strings.TrimSpace(name[:i]))
	}
	return names, loose
}

// département is the French département of an INSEE commune code ("75",
// "2A", "971"), or "".
func département(insee string) string {
	switch {
	case len(insee) != 5:
		return ""
	case strings.HasPrefix(insee, "97"):
		return insee[:3]
	default:
		return insee[:2]
	}
}

// frenchOverseas are the countries GeoNames files France's overseas
// départements under, by département.
var frenchOverseas = map[string]string{
	"971": "GP", "972": "MQ", "973": "GF", "974": "RE", "975": "PM",
	"976": "YT", "977": "BL", "978": "MF",
}

var overseasCodes = []string{"GP", "MQ", "GF", "RE", "PM", "YT", "BL", "MF"}

// rowCountry is the country of a table row's towns: France's overseas
// départements are countries of their own in GeoNames.
func rowCountry(country, dep string) string {
	if c, ok := frenchOverseas[dep]; ok && country == "FR" {
		return c
	}
	return country
}

// placeTable places a postal code table's rows at towns in four steps:
// each row at the town its INSEE code or its name says, the middle of the
// codes around each placed row, the rows left between candidates at the
// one near that middle, then each code at the most populous town of its
// rows.
func (g *Gazetteer) placeTable(country string, rows []tableRow) {
	byInsee := g.byInsee(country, rows)
	for k := range rows {
		g.placeRow(country, &rows[k], byInsee)
	}
	middles := middlesOf(g, rows)
	for k := range rows {
		g.placeNear(&rows[k], middles)
	}
	g.addTable(country, rows)
}

// byInsee indexes the country's towns by their INSEE commune code (admin4),
// when the table has INSEE codes (France and its overseas departments).
func (g *Gazetteer) byInsee(country string, rows []tableRow) map[string][]int32 {
	byInsee := map[string][]int32{}
	for _, r := range rows {
		if r.insee != "" {
			for i := range g.places {
				cc := g.country(int32(i))
				if a4 := g.code(g.places[i].admin4); len(a4) > 0 && (cc == country || (country == "FR" && slices.Contains(overseasCodes, cc))) {
					k := cc + string(a4)
					byInsee[k] = append(byInsee[k], int32(i))
				}
			}
			break
		}
	}
	return byInsee
}

// placeRow places a row at the town of its INSEE code (sure), at the one
// town its name fits, or notes the towns it may be (cands).
func (g *Gazetteer) placeRow(country string, r *tableRow, byInsee map[string][]int32) {
	var cbuf [64]int32
	r.town = -1
	names, loose := tableNames(r.name)
	folded := make([]string, len(names))
	for n, s := range names {
		folded[n] = terms.Fold(s)
	}
	dep := département(r.insee)
	in := rowCountry(country, dep)
	if ts := byInsee[in+r.insee]; len(ts) > 0 {
		for _, t := range ts {
			if slices.Contains(folded, string(g.foldedName(t))) && (r.town < 0 || g.better(t, r.town)) {
				r.town = t
			}
		}
		if r.town < 0 {
			for _, t := range ts {
				if r.town < 0 || g.better(t, r.town) {
					r.town = t
				}
			}
		}
		r.sure = true
		return
	}
	for n := 0; n < len(names); n++ {
		cands := cbuf[:0]
		for _, t := range g.readings(names[n], folded[n], cbuf[:0]) {
			if g.country(t) == in && (dep == "" || string(g.code(g.places[t].admin2)) == dep) {
				cands = append(cands, t)
			}
		}
		switch {
		case len(cands) == 0:
			continue
		case len(cands) == 1 && n < loose:
			r.town = cands[0]
		default:
			r.cands = slices.Clone(cands)
		}
		return
	}
}

// codeMiddles are the mean points of the placed rows by code prefix.
type codeMiddles map[string]*pointSum

type pointSum struct {
	lat, lng float64
	n        int
}

func (m codeMiddles) middle(prefix string) (lat, lng float64, ok bool) {
	s := m[prefix]
	if s == nil {
		return 0, 0, false
	}
	return s.lat / float64(s.n), s.lng / float64(s.n), true
}

// middlesOf sums the points of the placed rows by the first three and the
// first two characters of their codes.
func middlesOf(g *Gazetteer, rows []tableRow) codeMiddles {
	middles := codeMiddles{}
	for _, r := range rows {
		if r.town >= 0 && len(r.code) >= 3 {
			for _, prefix := range []string{r.code[:3], r.code[:2]} {
				s := middles[prefix]
				if s == nil {
					s = &pointSum{}
					middles[prefix] = s
				}
				lat, lng := g.places[r.town].point()
				s.lat += lat
				s.lng += lng
				s.n++
			}
		}
	}
	return middles
}

// placeNear settles a row by the middle of the codes around it.
func (g *Gazetteer) placeNear(r *tableRow, middles codeMiddles) {
	// A name that fits one town only is that town, unless the town is
	// far from the codes around it: the place is then a village
	// cities500 doesn't have, named like a town elsewhere ("Berlin"
	// in Mecklenburg, "Esslingen" in the Eifel).
	if r.town >= 0 && !r.sure && len(r.code) >= 3 {
		if lat, lng, ok := middles.middle(r.code[:2]); ok && g.distanceTo(r.town, lat, lng) > tableFarKm {
			r.cands, r.town = []int32{r.town}, -1
		}
	}
	if r.town >= 0 || len(r.cands) == 0 {
		return
	}
	placed := false
	for _, near := range []struct {
		n  int
		km float64
	}{{3, tableNear3Km}, {2, tableNear2Km}} {
		if len(r.code) < near.n {
			continue
		}
		lat, lng, ok := middles.middle(r.code[:near.n])
		if !ok {
			continue
		}
		placed = true // a middle is known: far towns are not this one
		bestD := 0.0
		for _, t := range r.cands {
			d := g.distanceTo(t, lat, lng)
			if d <= near.km && (r.town < 0 || d < bestD) {
				r.town, bestD = t, d
			}
		}
		if r.town >= 0 {
			break
		}
	}
	if !placed {
		for _, t := range r.cands {
			if r.town < 0 || g.better(t, r.town) {
				r.town = t
			}
		}
	}
}

// addTable files each code at the most populous town of its rows, in
// table order, and notes the codes no town was found for.
func (g *Gazetteer) addTable(country string, rows []tableRow) {
	towns := map[string]int32{}
	var order []string
	for _, r := range rows {
		t, seen := towns[r.code]
		if !seen {
			order = append(order, r.code)
			towns[r.code] = r.town
			continue
		}
		if r.town >= 0 && (t < 0 || g.better(r.town, t)) {
			towns[r.code] = r.town
		}
	}
	var unplaced []string
	for _, code := range order {
		if t := towns[code]; t >= 0 {
			g.addPostal(country, code, postalEntry{town: t, extra: -1})
			if c := g.country(t); c != country {
				g.addPostal(c, code, postalEntry{town: t, extra: -1}) // 97100 in GP too
			}
		} else if _, ok := g.postal[postalKey(country, code)]; !ok {
			unplaced = append(unplaced, code)
		}
	}
	if len(unplaced) > 0 {
		u := append(g.unplaced[country], unplaced...)
		slices.Sort(u)
		g.unplaced[country] = slices.Compact(u)
	}
}
