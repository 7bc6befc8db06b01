package schemas

import "time"

// Expire issues the revision that time alone calls for (decision D4): when
// now has reached the entry's NextChangeAt, it returns a new revision,
// numbered one up, from which every expired volatile fact is gone: capacity
// past its expiresAt, credentials past their validUntil, and domains whose
// grace period ended (the entry lapses when no verified domain remains). An
// entry whose 30-day noindex window ended needs no change of data: the new
// revision's date alone ends the window. Expire reports false, and returns
// the entry unchanged, when nothing is due.
//
// The new revision is dated at the last change that has come by now, not
// at now (decision D66): so it is a pure function of the revision and the
// changes due, and the server's stand-in for a late pipeline (ARCHITECTURE
// decision 2) is the very revision the pipeline issues later, byte for
// byte. Changes due one after another are applied in one revision.
func Expire(e *Entry, now time.Time) (*Entry, bool) {
	next := e.NextChangeAt()
	if next.IsZero() || now.Before(next) {
		return e, false
	}
	n := e.Clone()
	for !next.IsZero() && !now.Before(next) {
		expireAt(n, next)
		after := n.NextChangeAt()
		if !after.After(next) {
			break // dates are whole seconds; never loop on one instant
		}
		next = after
	}
	n.Record.Revision++
	return n, true
}

// expireAt applies the changes due at the instant at and dates the entry
// there.
func expireAt(n *Entry, at time.Time) {
	at = at.UTC()
	if n.Capacity != nil && !at.Before(ParseTime(n.Capacity.ExpiresAt)) {
		n.Capacity = nil // PRIV-11, I7
	}
	today := at.Format(time.DateOnly)
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
		if d.Status == DomainGrace && !at.Before(ParseTime(d.GraceUntil)) {
			d.Status = DomainLapsed
			if t := ParseTime(d.GraceUntil); t.After(lapsedAt) {
				lapsedAt = t
			}
		}
	}
	if n.Status == StatusVerified && len(n.VerifiedHosts()) == 0 {
		Lapse(n, lapsedAt)
	}
	n.Record.UpdatedAt = FormatTime(at)
}

// Lapse moves a verified entry to lapsed at the instant at: it keeps the
// email confirmation it had (level contact) or none (decision D6).
func Lapse(e *Entry, at time.Time) {
	e.Status = StatusLapsed
	e.Verification.LapsedAt = FormatTime(at)
	if e.Verification.ContactConfirmedAt != "" {
		e.Verification.Level = LevelContact
	} else {
		e.Verification.Level = LevelNone
	}
	for i := range e.Verification.Domains {
		if d := &e.Verification.Domains[i]; d.Status == DomainVerified || d.Status == DomainGrace {
			d.Status = DomainLapsed
		}
	}
}
