package places

import (
	"github.com/daawid/registry/schemas/terms"
	"io"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// postalEntry is a postal code: its town, and its own point when the data
// gives one.
type postalEntry struct {
	code     string // as the data writes it: "SW1A 1AA"
	town     int32  // index into places, or -1
	extra    int32  // index into Gazetteer.extra when no town was found, or -1
	lat, lng float64
	point    bool
}

// postalKey is the country and the code in capitals without spaces or
// hyphens: "GBSW1A1AA".
func postalKey(country, code string) string {
	b := make([]byte, 0, 2+len(code))
	b = append(b, country...)
	return string(compactCode(b, code))
}

// compactCode appends code in capitals, without spaces, hyphens and dots,
// with digits of other scripts as ASCII digits.
func compactCode(dst []byte, code string) []byte {
	for _, r := range code {
		switch {
		case r == ' ' || r == '-' || r == '.' || r == '\t' || r == '\u00a0':
		case 'a' <= r && r <= 'z':
			dst = append(dst, byte(r-'a'+'A'))
		case r < utf8.RuneSelf:
			dst = append(dst, byte(r))
		case unicode.IsDigit(r):
			dst = append(dst, byte('0'+digitValue(r)))
		default:
			dst = utf8.AppendRune(dst, unicode.ToUpper(r))
		}
	}
	return dst
}

// digitValue is the value of a decimal digit of any script: decimal
// digits come in runs of ten from zero (NFKC has already made the
// mathematical ones, whose runs touch, ASCII).
func digitValue(r rune) int {
	v := 0
	for v < 9 && unicode.IsDigit(r-rune(v)-1) {
		v++
	}
	return v
}

// firstPart is the first part of a postal code (the outward code), or ""
// when it has none: the part before a space or a hyphen, and for codes
// written without one, the forms whose length says where it ends: the
// United Kingdom's and its islands' last three characters are the inward
// code, Canada's first three are the forward sortation area, the
// Netherlands' first four are the digits.
func firstPart(country, code string) string {
	code = strings.TrimSpace(code)
	if i := strings.IndexAny(code, " -\u00a0"); i > 0 {
		return code[:i]
	}
	c := string(compactCode(nil, code))
	switch country {
	case "GB", "GG", "JE", "IM":
		if len(c) >= 5 && len(c) <= 7 {
			return c[:len(c)-3]
		}
	case "CA":
		if len(c) == 6 {
			return c[:3]
		}
	case "NL":
		if len(c) == 6 {
			return c[:4]
		}
	}
	return ""
}

// FindPostal finds a postal code in a country (§7.5 "Places": by the
// whole code or its first part, the country required): "SW1A 1AA" is
// found whole when the data has it, else as "SW1A". The answer's place is
// the code's town, at the code's own point when the data gives one.
func (g *Gazetteer) FindPostal(country, code string) (Match, bool) {
	country = strings.ToUpper(strings.TrimSpace(country))
	code = strings.TrimSpace(code)
	if len(country) != 2 || country[0] < 'A' || country[0] > 'Z' || country[1] < 'A' || country[1] > 'Z' ||
		code == "" || len(code) > 64 || !utf8.ValidString(code) {
		return Match{}, false
	}
	code = norm.NFKC.String(code)
	if e, ok := g.postal[postalKey(country, code)]; ok {
		return g.postalMatch(e)
	}
	if e, ok := g.outward[postalKey(country, code)]; ok {
		return g.postalMatch(e)
	}
	first := firstPart(country, code)
	if first == "" {
		return Match{}, false
	}
	if e, ok := g.postal[postalKey(country, first)]; ok {
		return g.postalMatch(e)
	}
	if e, ok := g.outward[postalKey(country, first)]; ok {
		return g.postalMatch(e)
	}
	return Match{}, false
}

func (g *Gazetteer) postalMatch(e postalEntry) (Match, bool) {
	var p Place
	switch {
	case e.town >= 0:
		p = g.answer(e.town)
	case e.extra >= 0:
		p = g.extra[e.extra]
	default:
		return Match{}, false
	}
	if e.point {
		p.Lat, p.Lng = e.lat, e.lng
	}
	return Match{Place: p, PostalCode: e.code}, true
}

// addPostal files a code. The first row of a code wins, except that a
// row with a town replaces one without, and a row with its own point one
// without.
func (g *Gazetteer) addPostal(country, code string, e postalEntry) {
	code = strings.TrimSpace(code)
	if code == "" {
		return
	}
	k := postalKey(country, code)
	if old, ok := g.postal[k]; ok && e.rank() <= old.rank() {
		return
	}
	e.code = strings.Clone(code)
	g.postal[k] = e
}

func (e postalEntry) rank() int {
	r := 0
	if e.town >= 0 {
		r += 2
	}
	if e.point {
		r++
	}
	return r
}

// Unplaced answers the postal codes of a country that a postal table
// named but whose place the gazetteer could not find among its towns,
// sorted. FindPostal doesn't find them.
func (g *Gazetteer) Unplaced(country string) []string {
	return slices.Clone(g.unplaced[strings.ToUpper(country)])
}

// grid finds towns near a point: towns filed by cells of a tenth of a
// degree.
type grid map[int64][]int32

const cellDeg = 0.1

func cellOf(lat, lng float64) (int64, int64) {
	return int64(math.Floor(lat / cellDeg)), int64(math.Floor(lng / cellDeg))
}

func (g *Gazetteer) buildGrid(country string) grid {
	gr := grid{}
	for i := range g.places {
		if country != "" && g.country(int32(i)) != country {
			continue
		}
		y, x := cellOf(g.places[i].point())
		gr[y<<32|(x&0xffffffff)] = append(gr[y<<32|(x&0xffffffff)], int32(i))
	}
	return gr
}

// within calls fn with every town of the grid within km of a point.
func (g *Gazetteer) within(gr grid, lat, lng, km float64, fn func(i int32, d float64)) {
	y0, x0 := cellOf(lat, lng)
	dy := int64(math.Ceil(km/(111.0*cellDeg))) + 1
	cos := math.Cos(lat * math.Pi / 180)
	dx := int64(36 / cellDeg)
	if cos > 0.01 {
		dx = min(dx, int64(math.Ceil(km/(111.0*cellDeg*cos)))+1)
	}
	for y := y0 - dy; y <= y0+dy; y++ {
		for x := x0 - dx; x <= x0+dx; x++ {
			xx := x
			if n := int64(360 / cellDeg); xx < -n/2 || xx >= n/2 {
				xx = ((xx+n/2)%n+n)%n - n/2
			}
			for _, i := range gr[y<<32|(xx&0xffffffff)] {
				if d := g.distanceTo(i, lat, lng); d <= km {
					fn(i, d)
				}
			}
		}
	}
}

// Joining a postal row to a town.
const (
	// postalNameKm: a town of the row's name is the row's town when it is
	// this close to the row's point.
	postalNameKm = 30
	// postalBigKm: else the most populous town this close.
	postalBigKm = 5
	// postalNearKm: else the nearest town this close.
	postalNearKm = 20
)

// LoadPostal reads postal codes in GeoNames' postal code format (the 12
// tab-separated columns of allCountries.txt, GB_full.txt and the
// countries' files: country, postal code, place name, admin name1, admin
// code1, admin name2, admin code2, admin name3, admin code3, latitude,
// longitude, accuracy). Each code keeps its own point, and its town is
// the loaded town of the row's place name nearest to it (within 30 km),
// else the most populous town within 5 km ("SW1A 1AA", whose place name
// is a ward, is London), else the nearest within 20 km, else a place
// made of the row itself (ID 0). A code with a first part (the outward
// code) makes that part findable too when the data has no row for it:
// at the middle of its codes, in the town most of them are in.
func (g *Gazetteer) LoadPostal(r io.Reader) error {
	le := lineErrors{source: "postal"}
	var f [13]string
	grids := map[string]grid{}
	type part struct {
		lat, lng float64
		n        int
		towns    map[int32]int
		code     string
	}
	parts := map[string]*part{}
	read := lines(r, func(n int, line string) {
		if line == "" || line[0] == '#' {
			return
		}
		nf := split(line, f[:])
		if nf < 11 || nf > 12 {
			le.add(n, "%d columns, want 12", nf)
			return
		}
		cc := strings.ToUpper(strings.TrimSpace(f[0]))
		if len(cc) != 2 || cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
			le.add(n, "country code %q", f[0])
			return
		}
		code := strings.TrimSpace(f[1])
		if code == "" || len(code) > 20 {
			le.add(n, "postal code %q", f[1])
			return
		}
		lat, ok1 := parseCoord(f[9], 90)
		lng, ok2 := parseCoord(f[10], 180)
		if !ok1 || !ok2 {
			le.add(n, "coordinates %q %q", f[9], f[10])
			return
		}
		cc = g.ccs.at(g.ccs.id(cc))
		gr, ok := grids[cc]
		if !ok {
			gr = g.buildGrid(cc)
			grids[cc] = gr
		}
		e := postalEntry{town: g.postalTown(gr, cc, f[2], lat, lng), extra: -1, lat: lat, lng: lng, point: true}
		if e.town < 0 {
			e.extra = int32(len(g.extra))
			g.extra = append(g.extra, Place{
				Name: strings.Clone(strings.TrimSpace(f[2])), Country: cc,
				Region: strings.Clone(strings.TrimSpace(f[3])), Lat: lat, Lng: lng,
			})
		}
		g.addPostal(cc, code, e)
		if first := firstPart(cc, code); first != "" {
			k := postalKey(cc, first)
			p := parts[k]
			if p == nil {
				p = &part{towns: map[int32]int{}, code: string(compactCode(nil, first))}
				parts[k] = p
			}
			p.lat += lat
			p.lng += lng
			p.n++
			if e.town >= 0 {
				p.towns[e.town]++
			}
		}
	})
	for k, p := range parts {
		if _, ok := g.postal[k]; ok {
			continue
		}
		e := postalEntry{code: p.code, town: -1, extra: -1, lat: p.lat / float64(p.n), lng: p.lng / float64(p.n), point: true}
		for t, c := range p.towns {
			if e.town < 0 || c > p.towns[e.town] || (c == p.towns[e.town] && g.better(t, e.town)) {
				e.town = t
			}
		}
		if e.town < 0 {
			continue
		}
		g.outward[k] = e
	}
	return le.err(read)
}

// postalTown finds the town of a postal row with a point.
func (g *Gazetteer) postalTown(gr grid, country, name string, lat, lng float64) int32 {
	var cbuf [32]int32
	f := terms.Fold(name)
	best, bestD := int32(-1), 0.0
	for _, c := range g.readings(name, f, cbuf[:0]) {
		if g.country(c) != country {
			continue
		}
		if d := g.distanceTo(c, lat, lng); d <= postalNameKm && (best < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	if best >= 0 {
		return best
	}
	g.within(gr, lat, lng, postalBigKm, func(i int32, _ float64) {
		if best < 0 || g.better(i, best) {
			best = i
		}
	})
	if best >= 0 {
		return best
	}
	g.within(gr, lat, lng, postalNearKm, func(i int32, d float64) {
		if best < 0 || d < bestD || (d == bestD && g.better(i, best)) {
			best, bestD = i, d
		}
	})
	return best
}
