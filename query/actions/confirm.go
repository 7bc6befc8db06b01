package actions

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"strings"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions/check"
	"github.com/daawid/registry/query/fairuse"
	"github.com/daawid/registry/query/internal/secret"
)

// Page is what the confirmation page shows of a run (§7.6 step 3).
type Page struct {
	Status string
	PageData
	ExpiresAt time.Time
	// CodesLeft and TriesLeft: codes the run may still send, wrong codes
	// it still allows (ACT-39).
	CodesLeft, TriesLeft int
	// CodeValid: a code was sent and works until CodeExpiresAt.
	CodeValid     bool
	CodeExpiresAt time.Time
	// Requester is who the request is from, as the page shows it.
	Requester check.Requester
}

var tokenRe = regexp.MustCompile(`^[0-9a-hjkmnp-tv-z]{31}$`)

// Page reads the run a confirmation token names, changing nothing
// (ACT-42: mail and link scanners open links).
func (s *Service) Page(ctx context.Context, token string, now time.Time) (*Page, error) {
	r, err := s.runOfToken(ctx, nil, token)
	if err != nil {
		return nil, err
	}
	return s.page(r, now), nil
}

func (s *Service) page(r *run, now time.Time) *Page {
	p := &Page{Status: r.statusAt(now), ExpiresAt: r.ExpiresAt,
		CodesLeft: max(0, s.cfg.Limits.CodesPerRun-r.CodesSent), TriesLeft: max(0, s.cfg.Limits.TriesPerRun-r.Tries)}
	json.Unmarshal([]byte(r.Page), &p.PageData)
	var req check.Request
	json.Unmarshal([]byte(r.Request), &req)
	p.Requester = req.Requester
	if r.CodeHash != "" && now.Before(r.CodeExpiresAt) {
		p.CodeValid, p.CodeExpiresAt = true, r.CodeExpiresAt
	}
	return p
}

func (s *Service) runOfToken(ctx context.Context, t *tx, token string) (*run, error) {
	if !tokenRe.MatchString(token) {
		return nil, &query.Error{Code: query.CodeNotFound, Message: "this confirmation link is not one Daawid made"}
	}
	r, err := s.loadRun(ctx, t, "token_hash", secret.HashToken(token))
	if err != nil {
		return nil, s.storeFailed("read run", err)
	}
	if r == nil {
		return nil, &query.Error{Code: query.CodeNotFound,
			Message: "this confirmation link is no longer valid: the request ran out, or a newer link replaced this one"}
	}
	return r, nil
}

// decoded is a run's request and page data.
func (r *run) decoded() (check.Request, PageData, error) {
	var req check.Request
	var pd PageData
	if err := json.Unmarshal([]byte(r.Request), &req); err != nil {
		return req, pd, fmt.Errorf("run %s: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Page), &pd); err != nil {
		return req, pd, fmt.Errorf("run %s: %w", r.ID, err)
	}
	return req, pd, nil
}

// waitingRun reads a run again inside the transaction that holds its
// lock, and refuses a step on one that no longer waits.
func (s *Service) waitingRun(ctx context.Context, t *tx, id string, now time.Time) (*run, error) {
	r, err := s.loadRun(ctx, t, "id", id)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, &query.Error{Code: query.CodeNotFound, Message: "this request is no longer kept"}
	}
	return r, waiting(r, now)
}

// waiting refuses a step on a run that no longer waits for its person.
func waiting(r *run, now time.Time) error {
	switch st := r.statusAt(now); st {
	case StatusAwaiting:
		return nil
	case StatusExpired:
		return &query.Error{Code: query.CodeConfirmationExpire, Message: "this request ran out before it was confirmed; nothing was sent. Ask for it again to start a new one"}
	case StatusCancelled:
		return &query.Error{Code: query.CodeNotAllowed, Message: "this request was cancelled; nothing was sent"}
	default:
		return &query.Error{Code: query.CodeNotAllowed, Message: "this request was already sent"}
	}
}

// SendCode emails the run's requester a six-digit code (ACT-37), within
// the limits of ACT-39, ACT-53 and ACT-54. ip is the browser's address:
// it is counted under a keyed hash of it and the hour, and kept nowhere
// else.
func (s *Service) SendCode(ctx context.Context, token string, ip netip.Addr, now time.Time) error {
	r, err := s.runOfToken(ctx, nil, token)
	if err != nil {
		return err
	}
	l := s.cfg.Limits
	hour := hourEnd(now)
	ipKey := s.keyed("ip", hour.Format(time.RFC3339), fairuse.AddrKey(ip).String())
	err = s.store.inTx(ctx, []string{"run:" + r.ID, "addr:" + r.RequesterKey, "ip:" + ipKey}, func(t *tx) error {
		r, err := s.waitingRun(ctx, t, r.ID, now)
		if err != nil {
			return err
		}
		if r.CodesSent >= l.CodesPerRun {
			return &query.Error{Code: query.CodeNotAllowed,
				Message: fmt.Sprintf("this request has had its %d codes; ask for the request again to start a new one", l.CodesPerRun)}
		}
		n, err := s.countEvents(ctx, t, "code_addr", r.RequesterKey, now)
		if err != nil {
			return err
		}
		if n >= l.CodeMailsPerAddressHour {
			return &query.Error{Code: query.CodeRateLimited, RetryAfterSeconds: retryAfter(now, hour),
				Message: fmt.Sprintf("this address has had %d codes this hour, the most an hour; try again later", l.CodeMailsPerAddressHour)}
		}
		if n, err = s.countEvents(ctx, t, "code_ip", ipKey, now); err != nil {
			return err
		}
		if n >= l.CodeMailsPerIPHour {
			return &query.Error{Code: query.CodeRateLimited, RetryAfterSeconds: retryAfter(now, hour),
				Message: fmt.Sprintf("this browser has asked for %d codes this hour, the most an hour; try again later", l.CodeMailsPerIPHour)}
		}
		code, err := secret.NewCode()
		if err != nil {
			return err
		}
		if _, err := t.exec(ctx, `UPDATE runs SET code_hash = ?, code_expires_at = ?, codes_sent = codes_sent + 1, updated_at = ? WHERE id = ?`,
			s.keyed("code", r.ID, code), millis(now.Add(l.CodeTTL)), millis(now), r.ID); err != nil {
			return storeError("store code", err)
		}
		for _, ev := range []struct{ kind, key string }{{"code_addr", r.RequesterKey}, {"code_ip", ipKey}} {
			if err := s.addEvent(ctx, t, ev.kind, ev.key, hour, now); err != nil {
				return err
			}
		}
		if err := s.countStep(ctx, t, now, r.EntryID, r.Platform, r.Kind, "code_sent"); err != nil {
			return err
		}
		req, pd, err := r.decoded()
		if err != nil {
			return err
		}
		m := codeMail(pd, code, l.CodeTTL)
		return s.enqueue(ctx, t, outMail{MessageID: fmt.Sprintf("%s.code%d@%s", r.ID, r.CodesSent+1, hostOnly(s.cfg.Site.BaseURL)),
			RunID: r.ID, Purpose: "code", To: req.Requester.Email, Subject: m.subject, Body: m.body, Lang: pd.Lang}, now)
	})
	if err != nil {
		return s.storeFailed("send code", err)
	}
	s.wake()
	return nil
}

var codeRe = regexp.MustCompile(`^[0-9]{6}$`)

// Confirm sends the request when the code is right (§7.6 steps 3 and 4):
// the run becomes submitted and its mail to the business goes into the
// outbox in the same transaction. A wrong code counts a try; the fifth
// wrong one ends the run (ACT-39). The limits of what an entry is sent
// are taken here, where a request is sent (ACT-50, ACT-28).
func (s *Service) Confirm(ctx context.Context, token, code string, now time.Time) error {
	code = strings.TrimSpace(strings.ReplaceAll(code, " ", ""))
	if !codeRe.MatchString(code) {
		return query.InvalidInput([]query.Issue{{Field: "code", Message: "is the six digits of the code Daawid emailed"}})
	}
	r, err := s.runOfToken(ctx, nil, token)
	if err != nil {
		return err
	}
	l := s.cfg.Limits
	var outcome error
	err = s.store.inTx(ctx, []string{"run:" + r.ID, "entry:" + r.EntryID}, func(t *tx) error {
		r, err := s.waitingRun(ctx, t, r.ID, now)
		if err != nil {
			return err
		}
		if r.CodeHash == "" {
			return query.InvalidInput([]query.Issue{{Field: "code", Message: "ask for a code first: press “Email me a code”"}})
		}
		if !now.Before(r.CodeExpiresAt) {
			return &query.Error{Code: query.CodeConfirmationExpire, Message: "this code ran out after 15 minutes; ask for a new one"}
		}
		want, _ := hex.DecodeString(r.CodeHash)
		got, _ := hex.DecodeString(s.keyed("code", r.ID, code))
		if !hmac.Equal(want, got) {
			tries := r.Tries + 1
			status := StatusAwaiting
			left := l.TriesPerRun - tries
			if left <= 0 {
				status = StatusExpired
				outcome = &query.Error{Code: query.CodeNotAllowed,
					Message: fmt.Sprintf("%d wrong codes: this request is locked and nothing was sent. Ask for it again to start a new one", l.TriesPerRun)}
				if err := s.countStep(ctx, t, now, r.EntryID, r.Platform, r.Kind, "locked"); err != nil {
					return err
				}
			} else {
				outcome = query.InvalidInput([]query.Issue{{Field: "code", Message: fmt.Sprintf("is not the code Daawid sent; %d tries left", left)}})
			}
			if _, err := t.exec(ctx, `UPDATE runs SET tries = ?, status = ?, updated_at = ? WHERE id = ?`, tries, status, millis(now), r.ID); err != nil {
				return storeError("count try", err)
			}
			return nil
		}
		if r.BelowDomain {
			n, err := s.countEvents(ctx, t, "sent", r.EntryID, now)
			if err != nil {
				return err
			}
			if n >= l.SentPerDayBelowDomain {
				return &query.Error{Code: query.CodeRateLimited, RetryAfterSeconds: retryAfter(now, dayEnd(now)),
					Message: fmt.Sprintf("this business has been sent %d requests through Daawid today, the most a day until it verifies its website; try again tomorrow (this request waits until %s UTC)", l.SentPerDayBelowDomain, r.ExpiresAt.Format("15:04"))}
			}
		}
		n, err := s.countEvents(ctx, t, "sent_month", r.EntryID, now)
		if err != nil {
			return err
		}
		if n >= l.SentPerMonth {
			return &query.Error{Code: query.CodeActionUnavailable, Message: "this business takes no more requests through Daawid this month"}
		}
		if _, err := t.exec(ctx, `UPDATE runs SET status = ?, submitted_at = ?, updated_at = ?, code_hash = NULL WHERE id = ?`,
			StatusSubmitted, millis(now), millis(now), r.ID); err != nil {
			return storeError("submit", err)
		}
		if err := s.addEvent(ctx, t, "sent", r.EntryID, dayEnd(now), now); err != nil {
			return err
		}
		if err := s.addEvent(ctx, t, "sent_month", r.EntryID, monthEnd(now), now); err != nil {
			return err
		}
		if err := s.countStep(ctx, t, now, r.EntryID, r.Platform, r.Kind, "submitted"); err != nil {
			return err
		}
		req, pd, err := r.decoded()
		if err != nil {
			return err
		}
		m := deliveryMail(pd, req, r.ID, now)
		return s.enqueue(ctx, t, outMail{MessageID: r.ID + ".delivery@" + hostOnly(s.cfg.Site.BaseURL), RunID: r.ID, Purpose: "delivery",
			To: r.DeliverTo, ReplyTo: req.Requester.Email, Subject: m.subject, Body: m.body, Lang: pd.MailLang}, now)
	})
	if err != nil {
		return s.storeFailed("confirm", err)
	}
	if outcome == nil {
		s.wake()
	}
	return outcome
}

// Cancel cancels a waiting run from its page (ACT-47).
func (s *Service) Cancel(ctx context.Context, token string, now time.Time) error {
	r, err := s.runOfToken(ctx, nil, token)
	if err != nil {
		return err
	}
	err = s.store.inTx(ctx, []string{"run:" + r.ID}, func(t *tx) error {
		r, err := s.waitingRun(ctx, t, r.ID, now)
		if err != nil {
			return err
		}
		if _, err := t.exec(ctx, `UPDATE runs SET status = ?, updated_at = ?, code_hash = NULL WHERE id = ?`, StatusCancelled, millis(now), r.ID); err != nil {
			return storeError("cancel", err)
		}
		return s.countStep(ctx, t, now, r.EntryID, r.Platform, r.Kind, "cancelled")
	})
	return s.storeFailed("cancel", err)
}

func (s *Service) wake() {
	if s.cfg.Wake != nil {
		s.cfg.Wake()
	}
}
