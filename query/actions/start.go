package actions

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/query/internal/secret"
	"github.com/daawid/registry/schemas"
)

// Call is who starts a run and how, besides the tool's arguments.
type Call struct {
	// Platform is the category of reader the call came from (the AI
	// platform, §7.8); the steps are counted under it (ACT-59).
	Platform string
	// ActionID is the action the REST path names ("" for MCP): the body's
	// actionId may only say the same (REST-22).
	ActionID string
	// IdempotencyKey is the REST Idempotency-Key header ("" none): the
	// body's idempotencyKey may only say the same (REST-23).
	IdempotencyKey string
}

// Result is a request tool's answer (§7.5 ActionResult), a union on
// Status: confirmation_required, submitted or handoff.
type Result struct {
	schemas.ActionResult
	// Created: a new run (REST answers 201); false when an idempotency
	// key found an earlier one, and for a handoff (200).
	Created bool `json:"-"`
	// Card is the confirmation card for MCP Apps (MCP-68), made with the
	// request; nil for a handoff.
	Card *Card `json:"-"`
}

// The statuses of a run (§7.5 RequestStatus, ACT-63).
const (
	StatusAwaiting     = "awaiting_confirmation"
	StatusExpired      = "expired"
	StatusSubmitted    = "submitted"
	StatusDelivered    = "delivered"
	StatusAcknowledged = "acknowledged"
	StatusDeclined     = "declined"
	StatusCancelled    = "cancelled"
)

// Start starts a request (§7.6 steps 1 and 2): the call is checked, the
// action found in the entry, the limits taken, and a run stored that
// waits an hour for its person's confirmation. A handoff action answers
// with the business's URL and stores only a counter (ACT-49).
func (s *Service) Start(ctx context.Context, rd *query.Read, kind schemas.ActionType, raw []byte, call Call) (*Result, error) {
	return s.start(ctx, rd, kind, raw, call, nil)
}

// start is Start with the entry's revision when the caller has read it
// already (nil: read it from the call's entry).
func (s *Service) start(ctx context.Context, rd *query.Read, kind schemas.ActionType, raw []byte, call Call, e *schemas.Entry) (*Result, error) {
	now := rd.Now().UTC()
	req, err := check.Decode(kind, raw)
	if err != nil {
		return nil, err
	}
	if call.ActionID != "" {
		if req.ActionID != "" && req.ActionID != call.ActionID {
			return nil, query.InvalidInput([]query.Issue{{Field: "actionId",
				Message: fmt.Sprintf("says %s, but the address names the action %s; leave it out or say the same", req.ActionID, call.ActionID)}})
		}
		req.ActionID = call.ActionID
	}
	if call.IdempotencyKey != "" {
		if req.IdempotencyKey != "" && req.IdempotencyKey != call.IdempotencyKey {
			return nil, query.InvalidInput([]query.Issue{{Field: "idempotencyKey",
				Message: "differs from the Idempotency-Key header; send one of them, or the same in both"}})
		}
		if n := len(call.IdempotencyKey); n < 8 || n > 64 {
			return nil, query.InvalidInput([]query.Issue{{Field: "Idempotency-Key", Message: "must be 8 to 64 characters"}})
		}
		req.IdempotencyKey = call.IdempotencyKey
	}
	if e == nil {
		if e, err = s.entry(rd, req.Entry); err != nil {
			return nil, err
		}
	}
	env := s.env(now)
	a, err := check.Resolve(e, req, env)
	if err != nil {
		return nil, err
	}
	platform := call.Platform
	if platform == "" {
		platform = "other"
	}
	if a.Handoff() {
		// Daawid stores only a counter (ACT-49); the run ID names the
		// handoff for the caller and is not kept.
		if err := s.store.inTx(ctx, nil, func(t *tx) error {
			return s.countStep(ctx, t, now, e.ID, platform, string(kind), "handoff")
		}); err != nil {
			return nil, s.storeFailed("handoff", err)
		}
		return &Result{ActionResult: schemas.ActionResult{Status: "handoff", RunID: newRunID(now), URL: a.Delivery.URL}}, nil
	}
	// Where the request goes is private: it comes from the publication's
	// routing file, not from the entry (issue 15, D75).
	to, err := rd.DeliveryAddress(e.ID, a.ID)
	if err != nil {
		return nil, err
	}
	if to == "" {
		return nil, &query.Error{Code: query.CodeActionUnavailable,
			Message: "This business has not said where its requests go. " + check.Reach(e, env)}
	}
	lang := PageLanguage(req.Requester.Language)
	pd := s.pageData(e, a, req, env, lang)
	reqJSON, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	pageJSON, err := json.Marshal(pd)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	requesterKey := s.keyed("requester", strings.ToLower(req.Requester.Email))
	keys := []string{"entry:" + e.ID, "requester:" + e.ID + ":" + requesterKey}
	var idemKey, bodyHash string
	if req.IdempotencyKey != "" {
		idemKey = s.keyed("idempotency", req.IdempotencyKey)
		sum := sha256.Sum256(append([]byte(string(kind)+"\x00"+a.ID+"\x00"+e.ID+"\x00"), reqJSON...))
		bodyHash = hex.EncodeToString(sum[:])
		keys = append(keys, "idem:"+idemKey)
	}
	token := newToken()
	var res *Result
	err = s.store.inTx(ctx, keys, func(t *tx) error {
		if idemKey != "" {
			r, err := s.repeat(ctx, t, idemKey, bodyHash, token, now)
			if err != nil || r != nil {
				res = r
				return err
			}
		}
		if err := s.startLimits(ctx, t, e, requesterKey, now); err != nil {
			return err
		}
		id := newRunID(now)
		expires := now.Add(s.cfg.Limits.RunTTL)
		if _, err := t.exec(ctx, `INSERT INTO runs (id, token_hash, entry_id, action_id, kind, platform, status, requester_key,
			request, page, deliver_to, below_domain, created_at, updated_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, secret.HashToken(token), e.ID, a.ID, string(kind), platform, StatusAwaiting, requesterKey,
			string(reqJSON), string(pageJSON), to, boolInt(e.BelowDomain()), millis(now), millis(now), millis(expires)); err != nil {
			return storeError("insert run", err)
		}
		if idemKey != "" {
			if _, err := t.exec(ctx, `INSERT INTO idempotency (key_hash, body_hash, run_id, created_at) VALUES (?, ?, ?, ?)`,
				idemKey, bodyHash, id, millis(now)); err != nil {
				return storeError("insert idempotency key", err)
			}
		}
		if err := s.addEvent(ctx, t, "started", e.ID, dayEnd(now), now); err != nil {
			return err
		}
		if err := s.countStep(ctx, t, now, e.ID, platform, string(kind), "started"); err != nil {
			return err
		}
		res = &Result{ActionResult: schemas.ActionResult{Status: "confirmation_required", RunID: id, ConfirmURL: s.confirmURL(token),
			ExpiresAt: schemas.FormatTime(expires), Summary: pd.Summary}, Created: true}
		return nil
	})
	if err != nil {
		return nil, s.storeFailed("start", err)
	}
	if res.Status == "confirmation_required" {
		res.Card = s.card(pd, res)
	}
	return res, nil
}

// confirmURL is the confirmation page of a token (HTTP-37): on the pages'
// host, where the person is.
func (s *Service) confirmURL(token string) string { return s.cfg.Site.BaseURL + "/confirm/" + token }

// repeat answers a call whose idempotency key was used in the last 24
// hours (ACT-05, REST-25): the same request gets its run again, with a
// new link that replaces the old one; another request under the same key
// is refused, naming the key (D75); a run that has run out or was
// cancelled is not revived.
func (s *Service) repeat(ctx context.Context, t *tx, idemKey, bodyHash, token string, now time.Time) (*Result, error) {
	var body, runID string
	var created int64
	err := t.queryRow(ctx, `SELECT body_hash, run_id, created_at FROM idempotency WHERE key_hash = ?`, idemKey).Scan(&body, &runID, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, storeError("read idempotency key", err)
	}
	if now.Sub(fromMillis(created)) >= 24*time.Hour {
		// An old key is free again; the sweeper had not come by yet.
		if _, err := t.exec(ctx, `DELETE FROM idempotency WHERE key_hash = ?`, idemKey); err != nil {
			return nil, storeError("delete idempotency key", err)
		}
		return nil, nil
	}
	if body != bodyHash {
		return nil, query.InvalidInput([]query.Issue{{Field: "idempotencyKey",
			Message: "was used in the last 24 hours for a different request; use a new key for a new request"}})
	}
	r, err := s.loadRun(ctx, t, "id", runID)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, &query.Error{Code: query.CodeConfirmationExpire, Message: "the request this key started is no longer kept; use a new key"}
	}
	switch st := r.statusAt(now); st {
	case StatusAwaiting:
		if _, err := t.exec(ctx, `UPDATE runs SET token_hash = ?, updated_at = ? WHERE id = ?`, secret.HashToken(token), millis(now), r.ID); err != nil {
			return nil, storeError("renew link", err)
		}
		var pd PageData
		json.Unmarshal([]byte(r.Page), &pd)
		return &Result{ActionResult: schemas.ActionResult{Status: "confirmation_required", RunID: r.ID, ConfirmURL: s.confirmURL(token),
			ExpiresAt: schemas.FormatTime(r.ExpiresAt), Summary: pd.Summary}}, nil
	case StatusSubmitted, StatusDelivered, StatusAcknowledged:
		return &Result{ActionResult: schemas.ActionResult{Status: "submitted", RunID: r.ID, SubmittedAt: schemas.FormatTime(r.SubmittedAt)}}, nil
	default:
		return nil, &query.Error{Code: query.CodeConfirmationExpire,
			Message: fmt.Sprintf("the request this key started (%s) is %s; start a new one with a new key", r.ID, st)}
	}
}

// startLimits takes the limits of a new run (ACT-51, ACT-52, ACT-28)
// inside the run's transaction, under the locks of the entry and the
// requester.
func (s *Service) startLimits(ctx context.Context, t *tx, e *schemas.Entry, requesterKey string, now time.Time) error {
	l := s.cfg.Limits
	n, err := s.countEvents(ctx, t, "started", e.ID, now)
	if err != nil {
		return err
	}
	if n >= l.StartedPerDay {
		return &query.Error{Code: query.CodeRateLimited, RetryAfterSeconds: retryAfter(now, dayEnd(now)),
			Message: fmt.Sprintf("This business has had %d requests started through Daawid today, the most a day; try again tomorrow. %s", l.StartedPerDay, check.Reach(e, s.env(now)))}
	}
	if n, err = s.countEvents(ctx, t, "sent_month", e.ID, now); err != nil {
		return err
	}
	if n >= l.SentPerMonth {
		return &query.Error{Code: query.CodeActionUnavailable,
			Message: "This business takes no more requests through Daawid this month. " + check.Reach(e, s.env(now))}
	}
	var waiting int
	var soonest sql.NullInt64
	if err := t.queryRow(ctx, `SELECT COUNT(*), MIN(expires_at) FROM runs WHERE entry_id = ? AND requester_key = ? AND status = ? AND expires_at > ?`,
		e.ID, requesterKey, StatusAwaiting, millis(now)).Scan(&waiting, &soonest); err != nil {
		return storeError("count waiting runs", err)
	}
	if waiting >= l.WaitingPerRequester {
		until := now.Add(time.Minute)
		if soonest.Valid {
			until = fromMillis(soonest.Int64)
		}
		return &query.Error{Code: query.CodeRateLimited, RetryAfterSeconds: retryAfter(now, until),
			Message: fmt.Sprintf("%d requests from this address to this business already wait for confirmation; confirm or cancel one on its page first", waiting)}
	}
	return nil
}

// countEvents counts a limit's events of the window that holds now.
func (s *Service) countEvents(ctx context.Context, t *tx, kind, key string, now time.Time) (int, error) {
	var n int
	if err := t.queryRow(ctx, `SELECT COUNT(*) FROM limit_events WHERE kind = ? AND key = ? AND window_end > ?`, kind, key, millis(now)).Scan(&n); err != nil {
		return 0, storeError("count "+kind, err)
	}
	return n, nil
}

func (s *Service) addEvent(ctx context.Context, t *tx, kind, key string, windowEnd, now time.Time) error {
	if _, err := t.exec(ctx, `INSERT INTO limit_events (kind, key, window_end, at) VALUES (?, ?, ?, ?)`, kind, key, millis(windowEnd), millis(now)); err != nil {
		return storeError("insert "+kind, err)
	}
	return nil
}

// countStep counts one step of a request (ACT-59): per entry, UTC day,
// AI platform, action type and step.
func (s *Service) countStep(ctx context.Context, t *tx, now time.Time, entryID, platform, kind, step string) error {
	if _, err := t.exec(ctx, `INSERT INTO step_counts (day, entry_id, platform, kind, step, n) VALUES (?, ?, ?, ?, ?, 1)
		ON CONFLICT (day, entry_id, platform, kind, step) DO UPDATE SET n = step_counts.n + 1`,
		now.UTC().Format(time.DateOnly), entryID, platform, kind, step); err != nil {
		return storeError("count step", err)
	}
	return nil
}

// entry finds the entry a call names (its ID or slug) and reads its
// public revision. A suspended entry takes no requests.
func (s *Service) entry(rd *query.Read, ref string) (*schemas.Entry, error) {
	var r *query.Resolved
	var err error
	if schemas.ValidID(schemas.PrefixEntry, ref) {
		r, err = rd.ByID(ref)
	} else {
		r, err = rd.BySlug(ref)
	}
	if err != nil {
		return nil, err
	}
	e, err := rd.Revision(r.ID)
	if err != nil {
		return nil, err
	}
	if e.Status == schemas.StatusSuspended {
		return nil, &query.Error{Code: query.CodeActionUnavailable, Message: "this entry is suspended and takes no requests through Daawid"}
	}
	return e, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// env is what the checks of a call need besides the entry.
func (s *Service) env(now time.Time) check.Env {
	return check.Env{Now: now, Places: s.cfg.Places, Site: s.cfg.Site}
}

// StartAction starts a request for the action an address names (REST-21:
// the action in the address says the kind, and the body is that kind's
// input, with the entry in entry). The entry's revision is read once, for
// finding the kind and for the checks alike.
func (s *Service) StartAction(ctx context.Context, rd *query.Read, actionID string, raw []byte, call Call) (*Result, error) {
	var head struct {
		Entry any `json:"entry"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, query.InvalidInput([]query.Issue{{Field: "body", Message: "must be a JSON object: " + err.Error()}})
	}
	ref, _ := head.Entry.(string)
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, query.InvalidInput([]query.Issue{{Field: "entry", Message: "is required: the entry's ID or slug"}})
	}
	if !schemas.ValidID(schemas.PrefixEntry, ref) && !slugRe.MatchString(ref) {
		return nil, query.InvalidInput([]query.Issue{{Field: "entry", Message: "must be an entry ID or slug"}})
	}
	e, err := s.entry(rd, ref)
	if err != nil {
		return nil, err
	}
	a := e.Action(actionID)
	if a == nil {
		return nil, &query.Error{Code: query.CodeNotFound, Message: fmt.Sprintf("the entry %s has no action %s", e.Slug, actionID)}
	}
	call.ActionID = actionID
	return s.start(ctx, rd, a.Type, raw, call, e)
}

var slugRe = regexp.MustCompile(schemas.SlugPattern)
