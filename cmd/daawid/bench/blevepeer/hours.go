package blevepeer

import (
	"fmt"
	"slices"
	"time"

	"github.com/daawid/registry/schemas"
)

// A generic engine has no opening hours, so the peer indexes, for each
// location, the hours of a week (in UTC) it is open at the start of:
// openAt (SEARCH-16) becomes one term query. The location's offset is
// the one at the build instant, and dated exceptions are left out; both
// only spare Bleve work, as the SQL peer's simplifications do.

// slot is the term of a UTC weekday and hour: "d1h09" is Monday 09:00.
func slot(t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf("d%dh%02d", (int(t.Weekday())+6)%7+1, t.Hour())
}

// openSlots are the slots a location is open at the start of.
func (b *Builder) openSlots(l schemas.SearchLocation) []string {
	if len(l.Hours) == 0 {
		return nil
	}
	zone := time.UTC
	if l.TimeZone != "" {
		z, ok := b.zones[l.TimeZone]
		if !ok {
			var err error
			if z, err = time.LoadLocation(l.TimeZone); err != nil {
				z = time.UTC
			}
			b.zones[l.TimeZone] = z
		}
		zone = z
	}
	_, offset := b.now.In(zone).Zone()
	var out []string
	for _, r := range l.Hours {
		opens, ok1 := minutes(r.Opens)
		closes, ok2 := minutes(r.Closes)
		if r.Closed || !ok1 || !ok2 {
			continue
		}
		if closes <= opens { // D9: the range ends the next day
			closes += 24 * 60
		}
		for _, d := range r.Days {
			day := slices.Index(schemas.DaysOfWeek, d)
			if day < 0 {
				continue
			}
			for h := (opens + 59) / 60; h*60 < closes; h++ {
				// The local Monday 00:00 of a reference week is the 1st of
				// January 2024 (a Monday); only the weekday and hour matter.
				local := time.Date(2024, 1, 1+day, h, 0, 0, 0, time.UTC)
				out = append(out, slot(local.Add(-time.Duration(offset)*time.Second)))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// minutes reads "HH:MM" as minutes after midnight ("24:00" is 1440).
func minutes(s string) (int, bool) {
	var h, m int
	if _, err := fmt.Sscanf(s, "%d:%d", &h, &m); err != nil || h < 0 || h > 24 || m < 0 || m > 59 {
		return 0, false
	}
	return h*60 + m, true
}
