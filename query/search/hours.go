package search

import (
	"strconv"
	"time"

	"github.com/daawid/registry/schemas"
)

// A location's hours, kept small: weekly rules and dated exceptions, in
// minutes of the day and days since 1970-01-01 of the location's own
// calendar.
type rule struct {
	days          uint8 // bit d: time.Weekday d
	closed        bool
	opens, closes int16 // minutes; closes ≤ opens ends the next day (D9)
}

type exception struct {
	from, to      int32 // days, inclusive
	opens, closes int16
	closed        bool
	_             [3]byte // no padding: an index file holds exceptions as they are
}

var dayBits = map[schemas.DayOfWeek]time.Weekday{
	"mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday, "thu": time.Thursday,
	"fri": time.Friday, "sat": time.Saturday, "sun": time.Sunday,
}

// minutes reads "HH:MM" ("24:00" is the end of the day).
func minutes(s string) (int16, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	h, err1 := strconv.Atoi(s[:2])
	m, err2 := strconv.Atoi(s[3:])
	if err1 != nil || err2 != nil || h > 24 || m > 59 || (h == 24 && m != 0) {
		return 0, false
	}
	return int16(h*60 + m), true
}

// dayNumber is a date's day since 1970-01-01.
func dayNumber(y int, m time.Month, d int) int32 {
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func parseDay(s string) (int32, bool) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, false
	}
	return dayNumber(t.Date()), true
}

func makeRules(hs []schemas.HoursRule) []rule {
	var out []rule
	for _, h := range hs {
		var r rule
		for _, d := range h.Days {
			if wd, ok := dayBits[d]; ok {
				r.days |= 1 << wd
			}
		}
		if r.days == 0 {
			continue
		}
		if h.Closed {
			r.closed = true
		} else {
			o, ok1 := minutes(h.Opens)
			c, ok2 := minutes(h.Closes)
			if !ok1 || !ok2 {
				continue
			}
			r.opens, r.closes = o, c
		}
		out = append(out, r)
	}
	return out
}

func makeExceptions(xs []schemas.HoursExceptionView) []exception {
	var out []exception
	for _, x := range xs {
		f, ok1 := parseDay(x.From)
		t, ok2 := parseDay(x.To)
		if !ok1 || !ok2 || t < f {
			continue
		}
		e := exception{from: f, to: t, closed: x.Closed}
		if !x.Closed {
			o, ok1 := minutes(x.Opens)
			c, ok2 := minutes(x.Closes)
			if !ok1 || !ok2 {
				e.closed = true // an exception that names no hours closes the day
			} else {
				e.opens, e.closes = o, c
			}
		}
		out = append(out, e)
	}
	return out
}

// span is one opening of a day: from opens to closes minutes after the
// day's midnight (closes past 1440 when it ends the next day).
type span struct{ opens, closes int32 }

func spanOf(opens, closes int16) span {
	o, c := int32(opens), int32(closes)
	if c <= o {
		c += 1440
	}
	return span{o, c}
}

// dayHours are a location's openings on a day of its calendar, and
// whether it states its hours for that day at all: a dated exception
// covering it, else a weekly rule naming its weekday (a closed rule
// states the day as closed).
func dayHours(rules []rule, exc []exception, day int32, dst []span) ([]span, bool) {
	stated := false
	for _, e := range exc {
		if e.from <= day && day <= e.to {
			stated = true
			if !e.closed {
				dst = append(dst, spanOf(e.opens, e.closes))
			}
		}
	}
	if stated {
		return dst, true
	}
	// 1970-01-01 was a Thursday. Days before it are negative, and Go's %
	// keeps the dividend's sign, so the remainder is brought into 0..6:
	// a negative weekday made the bit shift below panic for every instant
	// before 1969-12-28 (SEARCH-33).
	wd := time.Weekday(((int64(day)+4)%7 + 7) % 7)
	for _, r := range rules {
		if r.days&(1<<wd) == 0 {
			continue
		}
		stated = true
		if !r.closed {
			dst = append(dst, spanOf(r.opens, r.closes))
		}
	}
	return dst, stated
}

// openAt reports whether a location is open at an instant, and whether
// it states its hours for that local date (else open is false and the
// location says nothing). A range of the day before that runs past
// midnight counts (Friday 18:00–02:00 is open on Saturday at 01:00).
func openAt(rules []rule, exc []exception, zone *time.Location, at time.Time) (open, stated bool) {
	lt := at.In(zone)
	y, m, d := lt.Date()
	day := dayNumber(y, m, d)
	minute := int32(lt.Hour()*60 + lt.Minute())
	var buf [8]span
	spans, stated := dayHours(rules, exc, day, buf[:0])
	for _, s := range spans {
		if s.opens <= minute && minute < s.closes {
			return true, stated
		}
	}
	prev, _ := dayHours(rules, exc, day-1, buf[:0])
	for _, s := range prev {
		if s.closes > 1440 && minute < s.closes-1440 {
			return true, true
		}
	}
	return false, stated
}
