package compile

import (
	"fmt"
	"time"

	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/compile/site"
	"github.com/daawid/registry/schemas"
)

// OwnerRevision is what an owner declared: an entry in the open format,
// numbered with the revision it was based on and dated when it was
// declared (its record.revision and record.updatedAt).
type OwnerRevision struct {
	File       string
	Entry      *schemas.Entry
	BasedOn    int
	DeclaredAt time.Time
}

// ReadOwnerRevision checks an inbox file: it must be a valid entry in the
// open format, with every mistake named by its path when it is not.
func ReadOwnerRevision(file string, data []byte) (*OwnerRevision, schemas.Issues) {
	e, issues := schemas.Validate(data)
	if len(issues) > 0 {
		return nil, issues
	}
	return &OwnerRevision{File: file, Entry: e, BasedOn: e.Record.Revision, DeclaredAt: schemas.ParseTime(e.Record.UpdatedAt)}, nil
}

// ChangedSince refuses a revision based on an older one than the entry's
// current revision (§7.5 update_entry: "changed_since").
type ChangedSince struct {
	EntryID string
	BasedOn int
	Current int
}

func (e *ChangedSince) Error() string {
	return fmt.Sprintf("changed_since: %s was edited at revision %d, but it is at revision %d now; read it again and re-apply the change", e.EntryID, e.BasedOn, e.Current)
}

// Claimed merges an owner's declaration over what the registry knows
// (decision D50): the register stays authoritative for the legal identity
// (legal name, form, register and registered office, as §3.6's provenance
// shows); the owner's declaration wins for everything else; website facts
// only fill what nobody declared (domains, profiles). Status and
// verification come from the previous revision and the verification
// events, never from the declaration. prev must be the revision the
// declaration was based on when the declaration is new (see ChangedSince).
func (c *Compiler) Claimed(decl *OwnerRevision, rec *register.Record, web *site.Facts, id *Identity, prev *schemas.Entry, evs []Event, now time.Time) *schemas.Entry {
	now = now.UTC().Truncate(time.Second)
	e := decl.Entry.Clone()
	e.SchemaVersion = schemas.SchemaVersion
	e.ID, e.Slug = id.EntryID, id.Slug
	// Verification and status are the registry's: from the previous
	// revision, an unclaimed one becoming published by the claim.
	e.Status, e.Verification = schemas.StatusPublished, schemas.Verification{Level: schemas.LevelNone, Domains: []schemas.DomainCheck{}}
	e.Record = schemas.Record{Revision: id.LastRevision + 1, CreatedAt: id.CreatedAt, UpdatedAt: schemas.FormatTime(now)}
	if prev != nil {
		e.Verification = prev.Clone().Verification
		if prev.Status != schemas.StatusUnclaimed {
			e.Status = prev.Status
		}
		e.Record.CreatedAt = prev.Record.CreatedAt
		e.Record.OpenReportAt = prev.Record.OpenReportAt
	}
	// Submitting a declaration confirms the entry (D5).
	e.Record.LastConfirmedAt = schemas.FormatTime(decl.DeclaredAt)
	ApplyEvents(e, evs)

	e.Provenance = nil
	if rec != nil {
		if e.Operator == nil {
			e.Operator = &schemas.Operator{}
		}
		r := rec.Register
		e.Operator.LegalName, e.Operator.LegalForm, e.Operator.Address, e.Operator.Register = rec.LegalName, rec.LegalForm, rec.Address, &r
		at := rec.RetrievedAt
		if at.IsZero() {
			at = now
		}
		e.Provenance = append(e.Provenance, schemas.Provenance{Path: "/operator", Source: schemas.SourceRegister, ObservedAt: schemas.FormatTime(at), Reference: rec.Reference()})
	}
	e.Provenance = append(e.Provenance, schemas.Provenance{Path: "/", Source: schemas.SourceOwner, ObservedAt: schemas.FormatTime(decl.DeclaredAt)})
	if web != nil {
		src := schemas.Provenance{Source: schemas.SourceWebsite, ObservedAt: schemas.FormatTime(web.ObservedAt), Reference: web.HomeURL}
		if len(e.Domains) == 0 && len(web.Problems) == 0 {
			e.Domains = []schemas.Domain{{Host: web.Host, Primary: true}}
			src.Path = "/domains"
			e.Provenance = append(e.Provenance, src)
		}
		if len(e.Profiles) == 0 && len(web.Profiles) > 0 {
			e.Profiles = web.Profiles
			src.Path = "/profiles"
			e.Provenance = append(e.Provenance, src)
		}
	}
	return nextRevision(prev, e)
}
