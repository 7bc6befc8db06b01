package compile

import (
	"time"

	"github.com/daawid/registry/schemas"
)

// Expire issues the revision that time alone calls for (decision D4): when
// now has reached the entry's NextChangeAt, it returns a new revision,
// numbered one up and dated now, from which every expired volatile fact is
// gone: capacity past its expiresAt, credentials past their validUntil, and
// domains whose grace period ended (the entry lapses when no verified
// domain remains). An entry whose 30-day noindex window ended needs no
// change of data: the new revision's date alone ends the window. Expire
// reports false, and returns the entry unchanged, when nothing is due.
func Expire(e *schemas.Entry, now time.Time) (*schemas.Entry, bool) {
	next := e.NextChangeAt()
	if next.IsZero() || now.Before(next) {
		return e, false
	}
	n := e.Clone()
	now = now.UTC().Truncate(time.Second)
	stamp := schemas.FormatTime(now)
	if n.Capacity != nil && !now.Before(schemas.ParseTime(n.Capacity.ExpiresAt)) {
		n.Capacity = nil // PRIV-11, I7
	}
	today := now.Format(time.DateOnly)
	kept := n.Credentials[:0]
	for _, c := range n.Credentials {
		if c.ValidUntil == "" || c.ValidUntil >= today {
			kept = append(kept, c)
		}
	}
	n.Credentials = kept
	if len(n.Credentials) == 0 {
		n.Credentials = nil
	}
	var lapsedAt time.Time
	for i := range n.Verification.Domains {
		d := &n.Verification.Domains[i]
		if d.Status == schemas.DomainGrace && !now.Before(schemas.ParseTime(d.GraceUntil)) {
			d.Status = schemas.DomainLapsed
			if t := schemas.ParseTime(d.GraceUntil); t.After(lapsedAt) {
				lapsedAt = t
			}
		}
	}
	if n.Status == schemas.StatusVerified && len(n.VerifiedHosts()) == 0 {
		Lapse(n, lapsedAt)
	}
	n.Record.Revision++
	n.Record.UpdatedAt = stamp
	return n, true
}

// Lapse moves a verified entry to lapsed at the instant at: it keeps the
// email confirmation it had (level contact) or none (decision D6).
func Lapse(e *schemas.Entry, at time.Time) {
	e.Status = schemas.StatusLapsed
	e.Verification.LapsedAt = schemas.FormatTime(at)
	if e.Verification.ContactConfirmedAt != "" {
		e.Verification.Level = schemas.LevelContact
	} else {
		e.Verification.Level = schemas.LevelNone
	}
	for i := range e.Verification.Domains {
		if d := &e.Verification.Domains[i]; d.Status == schemas.DomainVerified || d.Status == schemas.DomainGrace {
			d.Status = schemas.DomainLapsed
		}
	}
}
