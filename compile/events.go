package compile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/schemas"
)

// EventType is what a verification event says happened.
type EventType string

// The verification events (decision D49). They set state, so applying one
// twice changes nothing the second time.
const (
	EventContactConfirmed  EventType = "contact_confirmed"   // the owner confirmed an email address
	EventDomainVerified    EventType = "domain_verified"     // a domain passed its first check
	EventDomainChecked     EventType = "domain_checked"      // a re-check passed
	EventDomainCheckFailed EventType = "domain_check_failed" // a re-check failed: grace period until graceUntil
	EventDomainRemoved     EventType = "domain_removed"      // the owner removed the domain
	EventBusinessVerified  EventType = "business_verified"   // documents of the business were checked
	EventIdentityVerified  EventType = "identity_verified"   // the person's identity was checked
	EventLapsed            EventType = "lapsed"              // the verification lapsed
	EventSuspended         EventType = "suspended"           // the entry is suspended
	EventUnsuspended       EventType = "unsuspended"         // the suspension ended
	EventReportOpened      EventType = "report_opened"       // an abuse report was made
	EventReportsClosed     EventType = "reports_closed"      // every open report was closed
)

var eventTypes = map[EventType]bool{
	EventContactConfirmed: true, EventDomainVerified: true, EventDomainChecked: true, EventDomainCheckFailed: true,
	EventDomainRemoved: true, EventBusinessVerified: true, EventIdentityVerified: true, EventLapsed: true,
	EventSuspended: true, EventUnsuspended: true, EventReportOpened: true, EventReportsClosed: true,
}

// Event is one line of the verification events file.
type Event struct {
	Entry      string    `json:"entry"` // entry ID
	Type       EventType `json:"type"`
	At         string    `json:"at"`
	Host       string    `json:"host,omitempty"`
	Method     string    `json:"method,omitempty"`
	GraceUntil string    `json:"graceUntil,omitempty"`
	Line       int       `json:"-"`
}

// ReadEvents reads a JSON-lines file of verification events; a bad line is
// reported with its line number and skipped.
func ReadEvents(r io.Reader, file string) ([]Event, []*register.RowError) {
	var out []Event
	var bad []*register.RowError
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff") // a BOM is text's, not the first event's
		}
		if line == "" {
			continue
		}
		fail := func(field, format string, args ...any) {
			bad = append(bad, &register.RowError{File: file, Line: n, Field: field, Msg: fmt.Sprintf(format, args...)})
		}
		var ev Event
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ev); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				fail(te.Field, "has the wrong type")
			} else {
				fail("", "%v", err)
			}
			continue
		}
		ev.Line = n
		switch {
		case !schemas.ValidID(schemas.PrefixEntry, ev.Entry):
			fail("entry", "%q is not an entry ID", ev.Entry)
		case !eventTypes[ev.Type]:
			fail("type", "%q is not an event type", ev.Type)
		case schemas.ParseTime(ev.At).IsZero():
			fail("at", "%q is not a timestamp", ev.At)
		case strings.HasPrefix(string(ev.Type), "domain_") && ev.Host == "":
			fail("host", "is required for %s", ev.Type)
		case ev.Type == EventDomainCheckFailed && schemas.ParseTime(ev.GraceUntil).IsZero():
			fail("graceUntil", "is required for %s", ev.Type)
		default:
			ev.At = schemas.FormatTime(schemas.ParseTime(ev.At))
			out = append(out, ev)
		}
	}
	if err := sc.Err(); err != nil {
		bad = append(bad, &register.RowError{File: file, Line: n + 1, Msg: err.Error()})
	}
	return out, bad
}

// SortEvents orders events by time, then file order, so they apply the
// same way whatever order the files listed them in.
func SortEvents(evs []Event) {
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].At < evs[j].At })
}

// ApplyEvents moves an entry's verification and status as the events say
// (§2.3, decision D6, D49). The events must be sorted and must not be
// later than the revision being made.
func ApplyEvents(e *schemas.Entry, evs []Event) {
	v := &e.Verification
	for _, ev := range evs {
		switch ev.Type {
		case EventContactConfirmed:
			if v.ContactConfirmedAt == "" || ev.At > v.ContactConfirmedAt {
				v.ContactConfirmedAt = ev.At
			}
		case EventDomainVerified, EventDomainChecked:
			d := domain(v, ev.Host)
			if d.VerifiedAt == "" {
				d.VerifiedAt = ev.At
			}
			if ev.Method != "" {
				d.Method = schemas.DomainMethod(ev.Method)
			}
			if d.Method == "" {
				d.Method = "dns_txt"
			}
			if ev.At > d.LastCheckedAt {
				d.LastCheckedAt = ev.At
			}
			d.Status, d.GraceUntil = schemas.DomainVerified, ""
			v.LapsedAt = ""
		case EventDomainCheckFailed:
			d := domain(v, ev.Host)
			if d.Status == schemas.DomainVerified || d.Status == schemas.DomainGrace {
				d.Status, d.GraceUntil = schemas.DomainGrace, schemas.FormatTime(schemas.ParseTime(ev.GraceUntil))
			} else {
				d.Status = schemas.DomainFailed
			}
		case EventDomainRemoved:
			for i := range v.Domains {
				if v.Domains[i].Host == ev.Host {
					v.Domains = append(v.Domains[:i], v.Domains[i+1:]...)
					break
				}
			}
		case EventBusinessVerified:
			if levelRank(v.Level) < levelRank(schemas.LevelBusiness) {
				v.Level = schemas.LevelBusiness
			}
		case EventIdentityVerified:
			v.Level = schemas.LevelIdentity
		case EventLapsed:
			if e.Status == schemas.StatusVerified {
				schemas.Lapse(e, schemas.ParseTime(ev.At))
			}
		case EventSuspended:
			e.Status = schemas.StatusSuspended
		case EventUnsuspended:
			if e.Status == schemas.StatusSuspended {
				e.Status = "" // recomputed below
			}
		case EventReportOpened:
			if e.Record.OpenReportAt == "" {
				e.Record.OpenReportAt = ev.At
			}
		case EventReportsClosed:
			e.Record.OpenReportAt = ""
		}
	}
	settleStatus(e)
}

func domain(v *schemas.Verification, host string) *schemas.DomainCheck {
	host = strings.ToLower(host)
	for i := range v.Domains {
		if v.Domains[i].Host == host {
			return &v.Domains[i]
		}
	}
	v.Domains = append(v.Domains, schemas.DomainCheck{Host: host, Status: schemas.DomainPending})
	return &v.Domains[len(v.Domains)-1]
}

func levelRank(l schemas.VerificationLevel) int {
	switch l {
	case schemas.LevelContact:
		return 1
	case schemas.LevelDomain:
		return 2
	case schemas.LevelBusiness:
		return 3
	case schemas.LevelIdentity:
		return 4
	}
	return 0
}

// settleStatus derives the level and status from the verification of a
// claimed entry: verified with a verified domain, published below that,
// lapsed and suspended kept (decision D6).
func settleStatus(e *schemas.Entry) {
	v := &e.Verification
	if v.Domains == nil {
		v.Domains = []schemas.DomainCheck{}
	}
	hasDomain := len(e.VerifiedHosts()) > 0
	switch {
	case e.Status == schemas.StatusSuspended || e.Status == schemas.StatusUnclaimed:
		return
	case e.Status == schemas.StatusLapsed && !hasDomain:
		return
	}
	base := schemas.LevelNone
	if v.ContactConfirmedAt != "" {
		base = schemas.LevelContact
	}
	switch {
	case hasDomain:
		if levelRank(v.Level) < levelRank(schemas.LevelDomain) {
			v.Level = schemas.LevelDomain
		}
		e.Status = schemas.StatusVerified
		v.LapsedAt = ""
	default:
		if levelRank(v.Level) >= levelRank(schemas.LevelDomain) {
			v.Level = base // no verified domain holds the higher level up
		}
		if levelRank(v.Level) < levelRank(base) {
			v.Level = base
		}
		e.Status = schemas.StatusPublished
	}
}
