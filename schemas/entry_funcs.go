package schemas

import (
	"time"
)

// NoindexDays is how long a new entry below level domain keeps its HTML out
// of search indexes (HTTP-24).
const NoindexDays = 30

// ParseTime parses an RFC 3339 timestamp; it returns the zero time for an
// empty or malformed value (Validate reports those).
func ParseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// AsOf is the instant the revision's time-dependent facts are evaluated at:
// its Record.UpdatedAt. Projections never read the clock (decision D4).
func (e *Entry) AsOf() time.Time { return ParseTime(e.Record.UpdatedAt) }

// CapacityActive reports whether the capacity statement is still valid at
// the revision's instant (PRIV-11, PRIV-40).
func (e *Entry) CapacityActive() bool {
	if e.Capacity == nil {
		return false
	}
	exp := ParseTime(e.Capacity.ExpiresAt)
	return !exp.IsZero() && e.AsOf().Before(exp)
}

// BelowDomain reports whether the entry's verification level is below
// domain (HTTP-24, HTTP-25).
func (e *Entry) BelowDomain() bool {
	switch e.Verification.Level {
	case LevelDomain, LevelBusiness, LevelIdentity:
		return false
	}
	return true
}

// NoindexWindowEnd is when the first-30-days window of an entry below level
// domain ends (createdAt + 30 days).
func (e *Entry) NoindexWindowEnd() time.Time {
	return ParseTime(e.Record.CreatedAt).AddDate(0, 0, NoindexDays)
}

// HTMLNoindex reports whether the HTML page carries a noindex robots
// directive, and whether "follow" is kept (HTTP-23, HTTP-24, HTTP-27).
func (e *Entry) HTMLNoindex() (noindex bool, follow bool) {
	if !e.Listed || e.Status == StatusSuspended {
		return true, false
	}
	if e.Status == StatusUnclaimed {
		return true, true
	}
	if e.BelowDomain() {
		if e.AsOf().Before(e.NoindexWindowEnd()) || e.Record.OpenReportAt != "" {
			return true, true
		}
	}
	return false, true
}

// NextChangeAt is the earliest instant after the revision's own instant at
// which time alone would change one of its projections: capacity expiring,
// the noindex window closing, a domain's grace period ending, a credential
// running out. It is zero when nothing is scheduled (decision D4).
func (e *Entry) NextChangeAt() time.Time {
	asOf := e.AsOf()
	var next time.Time
	consider := func(t time.Time) {
		if t.IsZero() || !t.After(asOf) {
			return
		}
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if e.Capacity != nil {
		consider(ParseTime(e.Capacity.ExpiresAt))
	}
	if e.Status != StatusSuspended && e.Listed && e.BelowDomain() && e.Record.OpenReportAt == "" {
		consider(e.NoindexWindowEnd())
	}
	for _, d := range e.Verification.Domains {
		if d.Status == DomainGrace {
			consider(ParseTime(d.GraceUntil))
		}
	}
	for _, c := range e.Credentials {
		if c.ValidUntil != "" {
			if t, err := time.Parse(time.DateOnly, c.ValidUntil); err == nil {
				consider(t.AddDate(0, 0, 1))
			}
		}
	}
	return next
}

// VerifiedHosts are the hosts currently verified, grace period included, in
// the order the verification lists them (MD-10).
func (e *Entry) VerifiedHosts() []string {
	var out []string
	for _, d := range e.Verification.Domains {
		if d.Status == DomainVerified || d.Status == DomainGrace {
			out = append(out, d.Host)
		}
	}
	return out
}

// LastChecked is the latest lastCheckedAt of the currently verified domains.
func (e *Entry) LastChecked() time.Time {
	var last time.Time
	for _, d := range e.Verification.Domains {
		if d.Status == DomainVerified || d.Status == DomainGrace {
			if t := ParseTime(d.LastCheckedAt); t.After(last) {
				last = t
			}
		}
	}
	return last
}

// PublicContactPoints returns the contact points that may be projected
// (VIEW-05, LD-32, MD-61).
func (e *Entry) PublicContactPoints() []ContactPoint {
	out := make([]ContactPoint, 0, len(e.ContactPoints))
	for _, c := range e.ContactPoints {
		if c.Visibility == "public" {
			out = append(out, c)
		}
	}
	return out
}

// EnabledActions returns the actions the entry takes now.
func (e *Entry) EnabledActions() []Action {
	out := make([]Action, 0, len(e.Actions))
	for _, a := range e.Actions {
		if a.Enabled {
			out = append(out, a)
		}
	}
	return out
}

// PrimaryLocation is the location primaryLocationId names, else the first.
func (e *Entry) PrimaryLocation() *Location {
	for i := range e.Locations {
		if e.Locations[i].ID == e.PrimaryLocationID {
			return &e.Locations[i]
		}
	}
	if len(e.Locations) > 0 {
		return &e.Locations[0]
	}
	return nil
}

// Location returns the location with the ID, or nil.
func (e *Entry) Location(id string) *Location {
	for i := range e.Locations {
		if e.Locations[i].ID == id {
			return &e.Locations[i]
		}
	}
	return nil
}

// Offering returns the offering with the ID, or nil.
func (e *Entry) Offering(id string) *Offering {
	for i := range e.Offerings {
		if e.Offerings[i].ID == id {
			return &e.Offerings[i]
		}
	}
	return nil
}

// Action returns the action with the ID, or nil.
func (e *Entry) Action(id string) *Action {
	for i := range e.Actions {
		if e.Actions[i].ID == id {
			return &e.Actions[i]
		}
	}
	return nil
}

// ContactPoint returns the contact point with the ID, or nil.
func (e *Entry) ContactPoint(id string) *ContactPoint {
	for i := range e.ContactPoints {
		if e.ContactPoints[i].ID == id {
			return &e.ContactPoints[i]
		}
	}
	return nil
}

// MediaItem returns the media item with the ID, or nil.
func (e *Entry) MediaItem(id string) *Media {
	for i := range e.Media {
		if e.Media[i].ID == id {
			return &e.Media[i]
		}
	}
	return nil
}

// OperatorCountry is the country of the operator's address, or "" without
// an operator block (MD-37).
func (e *Entry) OperatorCountry() string {
	if e.Operator == nil {
		return ""
	}
	return e.Operator.Address.Country
}

// ActionsOfType returns the enabled actions of a type, in entry order.
func (e *Entry) ActionsOfType(t ActionType) []Action {
	var out []Action
	for _, a := range e.Actions {
		if a.Enabled && a.Type == t {
			out = append(out, a)
		}
	}
	return out
}

// ActiveCredentials are the credentials still valid at the revision's
// instant: one whose validUntil day has passed is not shown (decision D31).
func (e *Entry) ActiveCredentials() []Credential {
	asOf := e.AsOf().Format(time.DateOnly)
	out := make([]Credential, 0, len(e.Credentials))
	for _, c := range e.Credentials {
		if c.ValidUntil == "" || c.ValidUntil >= asOf {
			out = append(out, c)
		}
	}
	return out
}
