package actions

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/schemas"
)

// run is a run as the store keeps it.
type run struct {
	ID, TokenHash, EntryID, ActionID, Kind, Platform, Status string
	RequesterKey, Request, Page, DeliverTo                   string
	BelowDomain                                              bool
	CreatedAt, UpdatedAt, ExpiresAt, SubmittedAt             time.Time
	CodesSent, Tries                                         int
	CodeHash                                                 string
	CodeExpiresAt                                            time.Time
}

const runColumns = `id, token_hash, entry_id, action_id, kind, platform, status, requester_key, request, page, deliver_to,
	below_domain, created_at, updated_at, expires_at, submitted_at, codes_sent, tries, code_hash, code_expires_at`

type rowScanner interface{ Scan(dest ...any) error }

func scanRun(row rowScanner) (*run, error) {
	var r run
	var below int
	var created, updated, expires int64
	var submitted, codeExpires sql.NullInt64
	var codeHash sql.NullString
	err := row.Scan(&r.ID, &r.TokenHash, &r.EntryID, &r.ActionID, &r.Kind, &r.Platform, &r.Status, &r.RequesterKey,
		&r.Request, &r.Page, &r.DeliverTo, &below, &created, &updated, &expires, &submitted, &r.CodesSent, &r.Tries, &codeHash, &codeExpires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, storeError("read run", err)
	}
	r.BelowDomain = below != 0
	r.CreatedAt, r.UpdatedAt, r.ExpiresAt = fromMillis(created), fromMillis(updated), fromMillis(expires)
	if submitted.Valid {
		r.SubmittedAt = fromMillis(submitted.Int64)
	}
	if codeExpires.Valid {
		r.CodeExpiresAt = fromMillis(codeExpires.Int64)
	}
	r.CodeHash = codeHash.String
	return &r, nil
}

// loadRun reads a run by its ID or its token's hash (by is "id" or
// "token_hash"); nil when there is none.
func (s *Service) loadRun(ctx context.Context, t *tx, by, v string) (*run, error) {
	q := `SELECT ` + runColumns + ` FROM runs WHERE ` + by + ` = ?`
	if t != nil {
		return scanRun(t.queryRow(ctx, q, v))
	}
	return scanRun(s.store.queryRow(ctx, q, v))
}

// statusAt is the run's status at an instant: a run still waiting when
// its hour is over has expired (ACT-63), whether or not the sweeper has
// come by.
func (r *run) statusAt(now time.Time) string {
	if r.Status == StatusAwaiting && !now.Before(r.ExpiresAt) {
		return StatusExpired
	}
	return r.Status
}

func (r *run) updatedAt(now time.Time) time.Time {
	if r.Status == StatusAwaiting && !now.Before(r.ExpiresAt) {
		return r.ExpiresAt
	}
	return r.UpdatedAt
}

// RequestStatus is get_request_status' answer (ACT-14, ACT-48).
type RequestStatus = schemas.RequestStatus

var runIDRe = regexp.MustCompile(schemas.RunIDPattern)

// Status is a run's status (get_request_status, GET /v1/runs/{runId}).
func (s *Service) Status(ctx context.Context, runID string, now time.Time) (*RequestStatus, error) {
	if !runIDRe.MatchString(runID) {
		return nil, query.InvalidInput([]query.Issue{{Field: "runId", Message: "must be a run ID like run_01k8x9p2aa1b2c3d4e5f6g7h8j"}})
	}
	r, err := s.loadRun(ctx, nil, "id", runID)
	if err != nil {
		return nil, s.storeFailed("status", err)
	}
	if r == nil {
		return nil, &query.Error{Code: query.CodeNotFound,
			Message: "no request has the ID " + runID + " (a request never sent is deleted a day after it ran out, a sent one after 90 days; a handoff is not kept)"}
	}
	return &RequestStatus{RunID: r.ID, Status: r.statusAt(now), UpdatedAt: schemas.FormatTime(r.updatedAt(now))}, nil
}
