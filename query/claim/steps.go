package claim

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/query/internal/secret"
	"github.com/daawid/registry/schemas"
)

// SendCode mails a new code to the claim's address, within the claim's
// codes and the hour's mails per address and per entry. The code is kept
// as a keyed hash only; the mail holds the code, the entry's name and no
// link (mail scanners open links), as the action runs' code mail.
func (s *Service) SendCode(ctx context.Context, c *Claim, name string, now time.Time) error {
	if c.Done || c.EmailConfirmed {
		return nil
	}
	if c.Locked() {
		return refuse(http.StatusForbidden, "code", "%d wrong codes: this claim is locked; start again from the entry's claim page", TriesPerClaim)
	}
	res, err := s.cfg.Store.Exec(ctx, `UPDATE claims SET codes_sent = codes_sent + 1 WHERE id = ? AND codes_sent < ?`, c.id, CodesPerClaim)
	if n, _ := rowsOf(res, err); err != nil || n != 1 {
		if err != nil {
			return fmt.Errorf("claim: count the code: %w", err)
		}
		return refuse(http.StatusTooManyRequests, "code", "this claim has had its %d codes; start again from the entry's claim page", CodesPerClaim)
	}
	hour := now.UTC().Truncate(time.Hour).Add(time.Hour)
	for _, l := range []struct {
		kind, key string
		max       int
		msg       string
	}{
		{"mail_addr", s.keyed("addr", c.Email), MailsPerAddrHr, "this address has had %d codes this hour, the most an hour; try again later"},
		{"mail_entry", c.EntryID, MailsPerEntryHr, "this entry's claims have had %d codes this hour, the most an hour; try again later"},
	} {
		ok, err := s.take(ctx, l.kind, l.key, hour, l.max)
		if err != nil {
			return err
		}
		if !ok {
			return refuse(http.StatusTooManyRequests, "email", l.msg, l.max)
		}
	}
	code, err := secret.NewCode()
	if err != nil {
		return fmt.Errorf("claim: make a code: %w", err)
	}
	c.codeHash, c.CodeExpires = s.keyed("code", c.id, code), now.Add(CodeTTL)
	c.CodesSent++
	if _, err := s.cfg.Store.Exec(ctx, `UPDATE claims SET code_hash = ?, code_expires_at = ? WHERE id = ?`, c.codeHash, c.CodeExpires.UnixMilli(), c.id); err != nil {
		return fmt.Errorf("claim: keep the code: %w", err)
	}
	return s.mailCode(ctx, c, name, code, now)
}

func (s *Service) mailCode(ctx context.Context, c *Claim, name, code string, now time.Time) error {
	if s.cfg.Mailer == nil {
		s.cfg.Log.Warn("claim: no mail server; a claim code was not sent", "entry", c.EntryID)
		return refuse(http.StatusServiceUnavailable, "email", "this registry sends no mail, so no code can reach you")
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	why := "to confirm the address you claim it with"
	if c.Method == MethodEmail {
		why = "to prove that you read mail at " + c.Host
	}
	body := fmt.Sprintf("Your code: %s\n\nType it on Daawid's claim page of %s %s. It works for %d minutes.\n\n"+
		"If you did not claim this entry, ignore this email: nothing is claimed without the code.\n\n-- \nDaawid\n",
		code, name, why, int(CodeTTL.Minutes()))
	err := s.cfg.Mailer.Send(ctx, mail.Message{MessageID: secret.NewToken() + ".claimcode@" + s.cfg.MailHost, From: s.cfg.MailFrom, To: c.Email,
		Subject: "Your Daawid claim code", Text: body, Language: "en", Date: now})
	if err != nil {
		s.cfg.Log.Error("claim: the code was not sent", "entry", c.EntryID, "err", err)
		return refuse(http.StatusServiceUnavailable, "email", "the code could not be mailed just now; try again in a minute")
	}
	return nil
}

var codeRe = regexp.MustCompile(`^[0-9]{6}$`)

// ConfirmCode checks a typed code. Every code typed takes one of the
// claim's tries first (a conditional UPDATE, exact under concurrency), so
// no more than TriesPerClaim codes are ever compared; the right one is
// used once.
func (s *Service) ConfirmCode(ctx context.Context, c *Claim, code string, now time.Time) error {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	switch {
	case c.Done || c.EmailConfirmed:
		return nil
	case !codeRe.MatchString(code):
		return refuse(http.StatusBadRequest, "code", "enter the six digits Daawid emailed to %s", c.Email)
	case c.codeHash == "":
		return refuse(http.StatusBadRequest, "code", "no code is waiting; ask for a new one")
	}
	// RETURNING gives this try its own number: a copy of the claim loaded
	// before other tries were taken must not count from its stale value.
	var tries int
	err := s.cfg.Store.QueryRow(ctx, `UPDATE claims SET tries = tries + 1 WHERE id = ? AND tries < ? RETURNING tries`, c.id, TriesPerClaim).Scan(&tries)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		c.Tries = TriesPerClaim
		return refuse(http.StatusForbidden, "code", "%d wrong codes: this claim is locked; start again from the entry's claim page", TriesPerClaim)
	case err != nil:
		return fmt.Errorf("claim: count a try: %w", err)
	}
	c.Tries = tries
	if !now.Before(c.CodeExpires) {
		return refuse(http.StatusBadRequest, "code", "this code ran out (a code works %d minutes); ask for a new one", int(CodeTTL.Minutes()))
	}
	if !secret.SameHash(c.codeHash, s.keyed("code", c.id, code)) {
		if c.Locked() {
			return refuse(http.StatusForbidden, "code", "%d wrong codes: this claim is locked; start again from the entry's claim page", TriesPerClaim)
		}
		return refuse(http.StatusBadRequest, "code", "is not the code Daawid sent; %d tries left", TriesPerClaim-c.Tries)
	}
	res, err := s.cfg.Store.Exec(ctx, `UPDATE claims SET email_confirmed_at = ?, code_hash = NULL WHERE id = ? AND code_hash = ?`, now.UnixMilli(), c.id, c.codeHash)
	if n, err := rowsOf(res, err); err != nil || n != 1 {
		if err != nil {
			return fmt.Errorf("claim: confirm the address: %w", err)
		}
		return refuse(http.StatusBadRequest, "code", "this code was used already; ask for a new one")
	}
	c.EmailConfirmed, c.codeHash = true, ""
	return nil
}

// Check looks for the claim's value in the domain's TXT records or in its
// well-known file, within the hour's checks of the claim.
func (s *Service) Check(ctx context.Context, c *Claim, now time.Time) error {
	if c.Done || c.Proved || c.Method == MethodEmail {
		return nil
	}
	ok, err := s.take(ctx, "check", c.id, now.UTC().Truncate(time.Hour).Add(time.Hour), ChecksPerClaim)
	if err != nil {
		return err
	}
	if !ok {
		return refuse(http.StatusTooManyRequests, "check", "this claim was checked %d times this hour; try again later", ChecksPerClaim)
	}
	if !secret.SameHash(c.valueHash, s.keyed("value", c.id, c.Value)) {
		return refuse(http.StatusBadRequest, "claim", "this claim's value does not match; start again from the entry's claim page")
	}
	cctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	field := "dns"
	if c.Method == MethodDNS {
		err = CheckDNS(cctx, s.cfg.Resolver, c.Host, c.Value)
	} else {
		field = "file"
		origin := s.cfg.FileOrigin(c.Host)
		scheme, hostport, _ := strings.Cut(origin, "://")
		err = CheckFile(cctx, s.cfg.Fetch, scheme, hostport, c.Value)
	}
	if err != nil {
		if !errors.Is(err, ErrNotFound) {
			s.cfg.Log.Info("claim: check failed", "entry", c.EntryID, "method", c.Method, "err", err)
		}
		return refuse(http.StatusBadRequest, field, "%s", s.notFound(c, err))
	}
	if _, err := s.cfg.Store.Exec(ctx, `UPDATE claims SET proved_at = ? WHERE id = ? AND proved_at IS NULL`, now.UnixMilli(), c.id); err != nil {
		return fmt.Errorf("claim: keep the proof: %w", err)
	}
	c.Proved = true
	return nil
}

// notFound says what was looked for and not found, without the
// resolver's or the fetch's inner detail when it is not the person's to
// act on.
func (s *Service) notFound(c *Claim, err error) string {
	if c.Method == MethodDNS {
		if errors.Is(err, ErrNotFound) {
			return fmt.Sprintf("no TXT record of %s says %s%s yet (a new record may take a while to be seen)", c.Host, TXTPrefix, c.Value)
		}
		return fmt.Sprintf("the TXT records of %s could not be read just now; try again in a minute", c.Host)
	}
	if errors.Is(err, ErrNotFound) {
		return fmt.Sprintf("https://%s%s does not hold this claim's value on its first line (%v)", c.Host, FilePath, strings.TrimPrefix(err.Error(), ErrNotFound.Error()+": "))
	}
	return fmt.Sprintf("https://%s%s could not be fetched (%v)", c.Host, FilePath, err)
}

// Ready reports whether the claim has all it needs: the address
// confirmed and, for a DNS record or a file, the proof found.
func (c *Claim) Ready() bool {
	return c.EmailConfirmed && (c.Method == MethodEmail || c.Proved)
}

// Finish completes a ready claim once (D96): the owner is added, the
// claim_entry edit based on the published revision goes into the owner
// inbox and the proof's event into the events file, so the entry is its
// owner's with the next delta publication. The done mark is taken first
// by a conditional UPDATE, so two requests at once finish it once; a
// failure gives the mark back so that the next press tries again.
func (s *Service) Finish(ctx context.Context, c *Claim, e Entry, now time.Time) error {
	if c.Done || !c.Ready() {
		return nil
	}
	if e.ID != c.EntryID {
		return refuse(http.StatusBadRequest, "entry", "this claim is for %s, not %s", c.EntryID, e.ID)
	}
	res, err := s.cfg.Store.Exec(ctx, `UPDATE claims SET done_at = ? WHERE id = ? AND done_at IS NULL`, now.UnixMilli(), c.id)
	if n, err := rowsOf(res, err); err != nil || n != 1 {
		if err != nil {
			return fmt.Errorf("claim %s: %w", c.EntryID, err)
		}
		c.Done = true
		return nil
	}
	if err := s.record(ctx, c, e, now); err != nil {
		s.cfg.Store.Exec(ctx, `UPDATE claims SET done_at = NULL WHERE id = ?`, c.id)
		return fmt.Errorf("claim %s: %w", c.EntryID, err)
	}
	c.Done = true
	return nil
}

// record writes what a finished claim leaves: the owner, the edit and the
// event.
func (s *Service) record(ctx context.Context, c *Claim, e Entry, now time.Time) error {
	if err := s.cfg.Owners.Add(ctx, auth.Owner{EntryID: c.EntryID, Email: c.Email, Method: c.Method, ProvedAt: now}); err != nil {
		return err
	}
	at := schemas.FormatTime(now.UTC())
	ed := &schemas.OwnerEdit{Entry: c.EntryID, BasedOn: e.Revision, DeclaredAt: at, Tool: schemas.EditClaimEntry}
	if _, err := s.cfg.Inbox.WriteEdit(ed, now); err != nil {
		return err
	}
	ev := inbox.Event{Entry: c.EntryID, Type: "contact_confirmed", At: at}
	if c.Method != MethodEmail {
		ev = inbox.Event{Entry: c.EntryID, Type: "domain_verified", At: at, Host: c.Host, Method: c.Method}
	}
	return s.cfg.Inbox.AppendEvent(ev)
}

// rowsOf is how many rows an exec changed (0 when it failed).
func rowsOf(res interface{ RowsAffected() (int64, error) }, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
