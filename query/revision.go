package query

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// Revision is an entry's public revision as the publication holds it
// (schemas.Entry.PublicRevision: no private contact point, no delivery
// address; issue 15): the action runs read its actions, and where a
// request goes comes from DeliveryAddress. When time has changed
// the entry since it was published, it is the revision the time guard
// re-issues (D66), so a request follows what the entry says now.
func (r *Read) Revision(id string) (*schemas.Entry, error) {
	e, d, err := r.storedRevision(id)
	if err != nil {
		return nil, err
	}
	if !d.NextChangeAt.IsZero() && !r.now.Before(d.NextChangeAt) {
		n, _ := schemas.Expire(e, r.now)
		return n, nil
	}
	return e, nil
}

// PublishedRevision is an entry's public revision exactly as the current
// publication stores it, before any re-issue by the time guard: the
// revision the pipeline's state holds, which an owner edit must be based
// on (D95), and the open-format file an owner downloads (PRIV-29).
func (r *Read) PublishedRevision(id string) (*schemas.Entry, error) {
	e, _, err := r.storedRevision(id)
	return e, err
}

// storedRevision is an entry's revision as the publication stores it
// (render.KindEntry), with its document row.
func (r *Read) storedRevision(id string) (*schemas.Entry, publication.DocRow, error) {
	d, ok := r.sn.EntryDoc(id, render.KindEntry, "")
	if !ok {
		return nil, d, notFound("entry %s has no stored revision", id)
	}
	b, err := r.sn.Bytes(d)
	if err != nil {
		return nil, d, fmt.Errorf("entry %s: %w", id, err)
	}
	var e schemas.Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, d, fmt.Errorf("entry %s: %w", id, err)
	}
	return &e, d, nil
}

// Now is the instant of the request the reads belong to.
func (r *Read) Now() time.Time { return r.now }

// DeliveryAddress is where a confirmed request of an entry's action goes
// (D75), from the publication's private routing file (issue 15: the
// publication itself holds no private address); "" when the entry has not
// said. A publication served without its routing file answers
// unavailable, naming the file, so no request is taken that could not be
// delivered.
func (r *Read) DeliveryAddress(entryID, actionID string) (string, error) {
	if r.sn.routing == nil {
		return "", &Error{Code: CodeUnavailable, RetryAfterSeconds: 60,
			Message: fmt.Sprintf("this server takes no requests now: the publication it serves (%s) came without its private routing file, so it does not know where requests go; try again later", r.sn.Manifest.ID)}
	}
	return r.sn.routing.Address(entryID, actionID), nil
}
