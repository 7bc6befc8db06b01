package search

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/daawid/registry/schemas"
)

// SEARCH-33: openAt answers for every instant openAt may name, years 0001
// to 9999 with any offset, without a panic and with the answer the week
// gives. Before the fix, every instant before 1969-12-28 made the weekday
// negative and the rule lookup panicked. The expected answer is computed
// from time.Time's own Weekday, not from the day numbers under test.
func TestOpenAt_WholeRange_SEARCH33(t *testing.T) {
	rules := makeRules([]schemas.HoursRule{
		{Days: []schemas.DayOfWeek{"mon"}, Opens: "09:00", Closes: "17:00"},
		{Days: []schemas.DayOfWeek{"fri"}, Opens: "18:00", Closes: "02:00"}, // past midnight (D9)
		{Days: []schemas.DayOfWeek{"sun"}, Closed: true},
	})
	zones := []*time.Location{time.UTC, time.FixedZone("", -12*3600), time.FixedZone("", 14*3600), time.FixedZone("", 5*3600+45*60)}
	for _, name := range []string{"Europe/Berlin", "America/St_Johns", "Pacific/Kiritimati"} {
		if z, err := time.LoadLocation(name); err == nil {
			zones = append(zones, z)
		}
	}
	want := func(lt time.Time) (open, stated bool) {
		m := lt.Hour()*60 + lt.Minute()
		switch lt.Weekday() {
		case time.Monday:
			return m >= 540 && m < 1020, true
		case time.Friday:
			return m >= 1080, true
		case time.Saturday:
			// Open from Friday's range, which then states the hour;
			// otherwise Saturday states nothing.
			return m < 120, m < 120
		case time.Sunday:
			return false, true
		}
		return false, false
	}
	r := rand.New(rand.NewPCG(15, 20))
	check := func(s string) {
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for _, z := range zones {
			lt := at.In(z)
			wo, ws := want(lt)
			var open, stated bool
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s in %v: panic %v", s, z, p)
					}
				}()
				open, stated = openAt(rules, nil, z, at)
			}()
			if open != wo || stated != ws {
				t.Fatalf("%s in %v (local %s, %s): open %v stated %v, want %v %v", s, z, lt.Format(time.RFC3339), lt.Weekday(), open, stated, wo, ws)
			}
		}
	}
	// The edges of the range and of the old bug, then a seeded spread.
	for _, s := range []string{"0001-01-01T00:00:00Z", "0001-01-01T00:00:00+23:59", "0001-01-01T09:30:00-23:59", "1969-12-27T23:59:59Z",
		"1969-12-28T00:00:00Z", "1969-12-31T23:59:59-12:00", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59-23:59"} {
		check(s)
	}
	for range 20000 {
		y, mo, d := 1+r.IntN(9999), 1+r.IntN(12), 1+r.IntN(28)
		h, mi, sec := r.IntN(24), r.IntN(60), r.IntN(60)
		oh, om := r.IntN(24), r.IntN(60)
		sign := "+"
		if r.IntN(2) == 0 {
			sign = "-"
		}
		check(fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d%s%02d:%02d", y, mo, d, h, mi, sec, sign, oh, om))
	}
}

// SEARCH-33: a dated exception before 1970 closes its days like any
// other, and the weekly rules hold again the day after it.
func TestOpenAt_ExceptionBefore1970_SEARCH33(t *testing.T) {
	rules := makeRules([]schemas.HoursRule{{Days: []schemas.DayOfWeek{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}, Opens: "00:00", Closes: "24:00"}})
	exc := makeExceptions([]schemas.HoursExceptionView{{From: "1066-10-14", To: "1066-10-14", Closed: true}})
	for _, c := range []struct {
		at           string
		open, stated bool
	}{
		{"1066-10-14T12:00:00Z", false, true},
		{"1066-10-13T12:00:00Z", true, true},
		{"1066-10-15T00:00:00Z", true, true},
	} {
		at, _ := time.Parse(time.RFC3339, c.at)
		if open, stated := openAt(rules, exc, time.UTC, at); open != c.open || stated != c.stated {
			t.Errorf("%s: open %v stated %v, want %v %v", c.at, open, stated, c.open, c.stated)
		}
	}
}
