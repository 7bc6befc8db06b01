package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/schemas"
)

// TestSpatialOrder: an index numbers the entries with one point first,
// by their cell's Z-order (zs, sorted, each the cell of the entry's
// point), and the others after them; every list of ordinals is sorted
// again after the renumbering.
func TestSpatialOrder(t *testing.T) {
	g, err := places.Default()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	b := NewBuilder(g)
	onePoint := 0
	for i := range 2000 {
		rec := schemas.SearchRecord{ID: fmt.Sprintf("ent_%05d", i), Slug: fmt.Sprintf("s-%d", i), Kind: schemas.KindOrganization,
			Status: schemas.StatusUnclaimed, VerificationLevel: schemas.LevelNone, DefaultLanguage: "de",
			Names: []schemas.LangText{{Lang: "de", Text: "Firma"}}, Strong: []string{"firma"}, Categories: []string{"home.cleaning"},
			Locations: []schemas.SearchLocation{{ID: "loc_1", Locality: "Kassel", Country: "DE",
				Geo: &schemas.Geo{Lat: -60 + 130*r.Float64(), Lng: -180 + 360*r.Float64()}}}}
		switch i % 5 {
		case 1:
			rec.Locations = append(rec.Locations, schemas.SearchLocation{ID: "loc_2", Locality: "Berlin", Country: "DE"})
		case 2:
			rec.Locations = nil
			rec.ServiceArea = &schemas.ServiceArea{Places: []schemas.ServicePlace{{Type: "city", Name: "Kassel", Country: "DE"}}}
		default:
			onePoint++
		}
		if err := b.Add(&rec); err != nil {
			t.Fatal(err)
		}
	}
	ix := b.Build()
	if len(ix.zs) != onePoint || !slices.IsSorted(ix.zs) {
		t.Fatalf("%d cells for %d entries of one point, sorted: %v", len(ix.zs), onePoint, slices.IsSorted(ix.zs))
	}
	for at := range ix.ents {
		one := ix.flags[at]&flagOnePoint != 0
		if one != (at < len(ix.zs)) {
			t.Fatalf("entry %d (of one point: %v) on the wrong side of %d", at, one, len(ix.zs))
		}
		if !one {
			continue
		}
		e := &ix.ents[at]
		l := ix.locs[e.locs]
		if z := zOf(zCell(float64(l.lat), float64(l.lng))); z != ix.zs[at] {
			t.Fatalf("entry %d: cell %d, zs says %d", at, z, ix.zs[at])
		}
	}
	for w := range len(ix.start) - 1 {
		if !slices.IsSorted(ix.post[ix.start[w]:ix.start[w+1]]) {
			t.Fatalf("word %d's postings out of order", w)
		}
	}
	if !slices.IsSorted(ix.catPost[ix.catStart[0]:ix.catStart[1]]) || !slices.IsSorted(ix.byTown[2892518]) || len(ix.byTown[2892518]) == 0 {
		t.Fatal("a category's or Kassel's entries are out of order, or Kassel has none")
	}
}

// TestRingReach: every point outside the 3×3 square of cells around a
// place's cell is at least ringReach from the place, at every level,
// near the poles and across the antimeridian too; and the bound is not
// idle (it grows with the level).
func TestRingReach(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	places := [][2]float64{{52.5, 13.4}, {-33.9, 151.2}, {78.2, 15.6}, {-77.8, 166.7}, {0, 179.99}, {64.1, -21.9}, {0.01, -179.99}}
	for range 40 {
		places = append(places, [2]float64{-85 + 170*r.Float64(), -180 + 360*r.Float64()})
	}
	for _, p := range places {
		pt := pointOf(p[0], p[1])
		px, py := zCell(p[0], p[1])
		last := -1.0
		for level := ringFirst; level <= zBits; level++ {
			cx, cy := int64(px)>>level, int64(py)>>level
			reach := ringReach(level, cx, cy, p[0], p[1])
			if level <= 10 && reach <= last {
				t.Fatalf("%v level %d: reach %.3f km, not past level %d's %.3f", p, level, reach, level-1, last)
			}
			last = reach
			nx := max(1, int64(1)<<zBits>>level)
			for range 3000 {
				// Points near the square's sides and far from them.
				d := cellDeg * float64(int64(1)<<level) * (0.5 + 2.5*r.Float64())
				lat := max(-90, min(90, p[0]+d*(2*r.Float64()-1)))
				lng := p[1] + d*(2*r.Float64()-1)
				lng = lng - 360*float64(int64((lng+180)/360)) // into [-180, 180)
				if lng < -180 {
					lng += 360
				}
				x, y := zCell(lat, lng)
				dx := (int64(x)>>level - cx + nx) % nx
				inside := (dx <= 1 || dx == nx-1) && int64(y)>>level >= cy-1 && int64(y)>>level <= cy+1
				if !inside && pt.km(pointOf(lat, lng)) < reach {
					t.Fatalf("%v level %d: (%.5f, %.5f) outside the square is %.3f km away, under the reach %.3f", p, level, lat, lng, pt.km(pointOf(lat, lng)), reach)
				}
			}
		}
	}
}
