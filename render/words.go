package render

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/daawid/registry/schemas"
	"github.com/nyaruka/phonenumbers"
)

// The fixed English tokens of the markdown contract (MD-19). Content is in
// the document's language; these labels never are.

var durationUnits = [...]string{"year", "month", "week", "day", "hour", "minute", "second"}

// durationParts splits an ISO 8601 duration (PnYnMnWnDTnHnMnS, each part
// optional, in that order) into (count, unit) pairs.
func durationParts(d string) ([][2]string, bool) {
	if len(d) < 3 || d[0] != 'P' {
		return nil, false
	}
	var parts [][2]string
	next := 0 // index into durationUnits: units must come in order
	inTime := false
	for i := 1; i < len(d); {
		if d[i] == 'T' && !inTime {
			inTime, next, i = true, 4, i+1
			continue
		}
		j := i
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		if j == i || j == len(d) {
			return nil, false
		}
		var u int
		switch {
		case !inTime && d[j] == 'Y':
			u = 0
		case !inTime && d[j] == 'M':
			u = 1
		case !inTime && d[j] == 'W':
			u = 2
		case !inTime && d[j] == 'D':
			u = 3
		case inTime && d[j] == 'H':
			u = 4
		case inTime && d[j] == 'M':
			u = 5
		case inTime && d[j] == 'S':
			u = 6
		default:
			return nil, false
		}
		if u < next {
			return nil, false
		}
		parts = append(parts, [2]string{d[i:j], durationUnits[u]})
		next, i = u+1, j+1
	}
	return parts, len(parts) > 0
}

func plural(n, unit string) string {
	if n == "1" {
		return n + " " + unit
	}
	return n + " " + unit + "s"
}

// humanDuration writes "2 days" for P2D, "1 day 12 hours" for P1DT12H, or
// the ISO form when it can't be read.
func humanDuration(d string) string {
	parts, ok := durationParts(d)
	if !ok {
		return d
	}
	words := make([]string, len(parts))
	for i, p := range parts {
		words[i] = plural(p[0], p[1])
	}
	return strings.Join(words, " ")
}

// durationText is "1 day (P1D)" (MD-29).
func durationText(d string) string { return humanDuration(d) + " (" + d + ")" }

// durationRangeText is "6–10 weeks (P6W–P10W)" when both ends are in one
// unit, else "3 days–2 weeks (P3D–P2W)" (MD-29).
func durationRangeText(r *schemas.DurationRange) string {
	if r.Max == "" || r.Max == r.Min {
		return durationText(r.Min)
	}
	a, okA := durationParts(r.Min)
	b, okB := durationParts(r.Max)
	if okA && okB && len(a) == 1 && len(b) == 1 && a[0][1] == b[0][1] {
		return a[0][0] + "–" + plural(b[0][0], b[0][1]) + " (" + r.Min + "–" + r.Max + ")"
	}
	return humanDuration(r.Min) + "–" + humanDuration(r.Max) + " (" + r.Min + "–" + r.Max + ")"
}

var unitWords = map[schemas.PriceUnit]string{
	"hour": "hour", "day": "day", "piece": "piece", "metre": "metre",
	"square_metre": "square metre", "cubic_metre": "cubic metre",
	"kilogram": "kilogram", "kilometre": "kilometre", "month": "month",
}

// UnitCodes maps price units to UN/CEFACT common codes (LD-38).
var UnitCodes = map[schemas.PriceUnit]string{
	"hour": "HUR", "day": "DAY", "piece": "H87", "metre": "MTR",
	"square_metre": "MTK", "cubic_metre": "MTQ", "kilogram": "KGM",
	"kilometre": "KMT", "month": "MON",
}

// priceText is the money phrase of §3.4: "from 15000.00 EUR incl. VAT per
// piece" (MD-30, PRIV-41..43). The note is not part of it.
func priceText(p *schemas.Price) string {
	var b strings.Builder
	money := func(a string) { b.WriteString(a) }
	switch p.Kind {
	case schemas.PriceOnRequest:
		return "on request"
	case schemas.PriceFrom:
		b.WriteString("from ")
		money(p.Min)
	case schemas.PriceRange:
		money(p.Min)
		b.WriteString("–")
		money(p.Max)
	case schemas.PriceFixed:
		money(p.Amount)
	default:
		return "unknown (" + string(p.Kind) + ")"
	}
	b.WriteString(" " + p.Currency)
	if p.VATIncluded != nil {
		if *p.VATIncluded {
			b.WriteString(" incl. VAT")
		} else {
			b.WriteString(" excl. VAT")
		}
	}
	if p.Unit != "" {
		w, ok := unitWords[p.Unit]
		if !ok {
			w = string(p.Unit)
		}
		b.WriteString(" per " + w)
	}
	return b.String()
}

var dayAbbrev = map[schemas.DayOfWeek]string{
	"mon": "Mon", "tue": "Tue", "wed": "Wed", "thu": "Thu", "fri": "Fri", "sat": "Sat", "sun": "Sun",
}

// dayIndex is the position of a day in the ISO week, or -1.
func dayIndex(d schemas.DayOfWeek) int {
	for i, x := range schemas.DaysOfWeek {
		if x == d {
			return i
		}
	}
	return -1
}

// dayGroup writes days as ranges of consecutive days: "Mon–Thu", "Fri",
// "Mon–Wed, Fri" (MD-33, MD-55). Two consecutive days are a range too
// ("Sat–Sun"), as in the contract's example.
func dayGroup(days []schemas.DayOfWeek) string {
	idx := make([]int, 0, len(days))
	for _, d := range days {
		if i := dayIndex(d); i >= 0 {
			idx = append(idx, i)
		}
	}
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		a := dayAbbrev[schemas.DaysOfWeek[idx[i]]]
		if j > i {
			a += "–" + dayAbbrev[schemas.DaysOfWeek[idx[j]]]
		}
		parts = append(parts, a)
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// hoursText is "Mon–Thu 07:30–16:30" or "Sat–Sun closed"; a range that
// closes before it opens ends the next day.
func hoursText(r schemas.HoursRule) string {
	g := dayGroup(r.Days)
	if r.Closed {
		return g + " closed"
	}
	s := g + " " + r.Opens + "–" + r.Closes
	if r.Closes <= r.Opens && r.Closes != "" {
		s += " (next day)"
	}
	return s
}

// phoneText writes an E.164 number in international format, grouped as the
// pinned libphonenumber port groups it (MD-31, decision D28).
func phoneText(e164 string) string {
	if s, ok := phoneCache.Load(e164); ok {
		return s.(string)
	}
	s := e164
	if n, err := phonenumbers.Parse(e164, ""); err == nil {
		s = phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
	}
	// Parsing is costly and a revision's numbers repeat across its
	// projections and languages; the cache is bounded so a registry-wide run
	// doesn't grow it without end. The result depends only on the number, so
	// caching changes no output.
	if phoneCacheSize.Add(1) > maxPhoneCache {
		phoneCache.Clear()
		phoneCacheSize.Store(0)
	}
	phoneCache.Store(e164, s)
	return s
}

const maxPhoneCache = 1 << 16

var (
	phoneCache     sync.Map
	phoneCacheSize atomic.Int64
)

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// numberText writes a number without a trailing ".0".
func numberText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// dateOf is the date part of an RFC 3339 timestamp.
func dateOf(ts string) string {
	if len(ts) >= 10 {
		return ts[:10]
	}
	return ts
}
