package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/internal/secret"
)

// authRequest is an authorization request waiting on its connect page.
type authRequest struct {
	id, clientID, clientName, redirectURI, state, challenge, scope, resource string
	subject, email, codeHash                                                 string
	codeExpires                                                              time.Time
	codesSent, tries                                                         int
	signedIn                                                                 bool
}

var errRequestGone = errors.New("this sign-in link has run out or was used; start again from the app")

func (s *Server) loadRequest(ctx context.Context, token string, now time.Time) (*authRequest, error) {
	var a authRequest
	var subject, email, codeHash sql.NullString
	var codeExp, signedIn, done sql.NullInt64
	var expires int64
	err := s.st.queryRow(ctx, `SELECT id, client_id, client_name, redirect_uri, state, code_challenge, scope, resource, subject, email,
		code_hash, code_expires_at, codes_sent, tries, signed_in_at, done_at, expires_at FROM auth_requests WHERE id = ?`, secret.HashToken(token)).
		Scan(&a.id, &a.clientID, &a.clientName, &a.redirectURI, &a.state, &a.challenge, &a.scope, &a.resource, &subject, &email,
			&codeHash, &codeExp, &a.codesSent, &a.tries, &signedIn, &done, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errRequestGone
	}
	if err != nil {
		return nil, fmt.Errorf("read the request: %w", err)
	}
	if done.Valid || !now.Before(fromMillis(expires)) {
		return nil, errRequestGone
	}
	a.subject, a.email, a.codeHash, a.signedIn = subject.String, email.String, codeHash.String, signedIn.Valid
	if codeExp.Valid {
		a.codeExpires = fromMillis(codeExp.Int64)
	}
	return &a, nil
}

// connectPage: GET /connect/{token}, the owner's sign-in (MCP-16).
func (s *Server) connectPage(w http.ResponseWriter, r *http.Request) {
	a, err := s.loadRequest(r.Context(), r.PathValue("token"), s.cfg.Now())
	if err != nil {
		s.errorPage(w, http.StatusNotFound, err.Error())
		return
	}
	if a.signedIn {
		s.page(w, http.StatusOK, pageData{Step: "consent", Token: r.PathValue("token"), App: a.clientName, AppURL: a.clientID,
			Entries: s.ownedEntries(r, a.subject)})
		return
	}
	s.page(w, http.StatusOK, pageData{Step: "email", Token: r.PathValue("token"), App: a.clientName, AppURL: a.clientID})
}

// connectEmail: POST /connect/{token}/email. A code goes to the address
// only when it owns an entry, and the page answers the same either way,
// so the form tells nobody who owns what. The mail is sent after the
// answer, so its time does not tell either.
func (s *Server) connectEmail(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	now := s.cfg.Now()
	a, err := s.loadRequest(r.Context(), token, now)
	if err != nil {
		s.errorPage(w, http.StatusNotFound, err.Error())
		return
	}
	pd := pageData{Step: "email", Token: token, App: a.clientName, AppURL: a.clientID}
	email, err := NormalizeEmail(r.PostFormValue("email"))
	if err != nil {
		pd.Error = "email: enter the address your entry was claimed with"
		s.page(w, http.StatusBadRequest, pd)
		return
	}
	if a.codesSent >= codesPerRequest {
		pd.Error = fmt.Sprintf("this sign-in has had its %d codes; start again from the app", codesPerRequest)
		s.page(w, http.StatusTooManyRequests, pd)
		return
	}
	hour := now.UTC().Truncate(time.Hour).Add(time.Hour)
	addrKey := s.keyed("addr", email)
	var n int
	if err := s.st.queryRow(r.Context(), `SELECT COUNT(*) FROM auth_limit_events WHERE kind = 'code_addr' AND key = ? AND window_end = ?`,
		addrKey, millis(hour)).Scan(&n); err != nil {
		s.unavailable(w, "count codes", err)
		return
	}
	if n >= codeMailsPerAddrHour {
		pd.Error = fmt.Sprintf("this address has had %d codes this hour, the most an hour; try again later", codeMailsPerAddrHour)
		s.page(w, http.StatusTooManyRequests, pd)
		return
	}
	owned, err := s.owners.EntriesOf(r.Context(), email, now)
	if err != nil {
		s.unavailable(w, "read owners", err)
		return
	}
	code, err := secret.NewCode()
	if err != nil {
		s.unavailable(w, "make a code", err)
		return
	}
	// The code is kept for every address, owner or not, so a wrong code
	// and an address that owns nothing look the same afterwards.
	if _, err := s.st.exec(r.Context(), `UPDATE auth_requests SET subject = ?, email = ?, code_hash = ?, code_expires_at = ?, codes_sent = codes_sent + 1 WHERE id = ?`,
		s.owners.Subject(email), email, s.keyed("code", a.id, code), millis(now.Add(mailCodeTTL)), a.id); err != nil {
		s.unavailable(w, "keep the code", err)
		return
	}
	if _, err := s.st.exec(r.Context(), `INSERT INTO auth_limit_events (kind, key, window_end, at) VALUES ('code_addr', ?, ?, ?)`,
		addrKey, millis(hour), millis(now)); err != nil {
		s.unavailable(w, "count the code", err)
		return
	}
	if len(owned) > 0 {
		go s.sendCode(email, a, code, now)
	}
	pd.Step, pd.Email = "code", maskEmail(email)
	s.page(w, http.StatusOK, pd)
}

// sendCode mails the sign-in code: the code, the app it connects and no
// link (mail scanners open links), as the action runs' code mail.
func (s *Server) sendCode(email string, a *authRequest, code string, now time.Time) {
	if s.mailDone != nil {
		defer s.mailDone()
	}
	if s.cfg.Mailer == nil {
		s.cfg.Log.Warn("auth: no mail server; a sign-in code was not sent")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host := "daawid.localhost"
	if u, err := url.Parse(s.cfg.Issuer); err == nil && !strings.HasPrefix(u.Hostname(), "127.") && u.Hostname() != "localhost" {
		host = u.Hostname()
	}
	from := s.cfg.MailFrom
	if from == "" {
		from = "Daawid <owners@" + host + ">"
	}
	body := fmt.Sprintf("Your code: %s\n\nType it on Daawid's connect page to let %s (%s) manage your entries on Daawid. It works for %d minutes.\n\n"+
		"If you did not ask for a code, ignore this email: nothing is connected without it.\n\n-- \nDaawid\n",
		code, a.clientName, a.clientID, int(mailCodeTTL.Minutes()))
	err := s.cfg.Mailer.Send(ctx, mail.Message{MessageID: secret.NewToken() + ".signin@" + host, From: from, To: email,
		Subject: "Your Daawid sign-in code", Text: body, Language: "en", Date: now})
	if err != nil {
		s.cfg.Log.Error("auth: the sign-in code was not sent", "err", err)
	}
}

var codeRe = regexp.MustCompile(`^[0-9]{6}$`)

// connectCode: POST /connect/{token}/code. The right code signs the owner
// in and shows the consent (MCP-16); the fifth wrong one ends the sign-in
// (ACT-39's rule).
func (s *Server) connectCode(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	now := s.cfg.Now()
	a, err := s.loadRequest(r.Context(), token, now)
	if err != nil {
		s.errorPage(w, http.StatusNotFound, err.Error())
		return
	}
	pd := pageData{Step: "code", Token: token, App: a.clientName, AppURL: a.clientID, Email: maskEmail(a.email)}
	code := strings.ReplaceAll(strings.TrimSpace(r.PostFormValue("code")), " ", "")
	if !codeRe.MatchString(code) || a.codeHash == "" {
		pd.Error = "code: enter the six digits Daawid emailed"
		s.page(w, http.StatusBadRequest, pd)
		return
	}
	if !now.Before(a.codeExpires) {
		pd.Error = "code: this code ran out; ask for a new one"
		s.page(w, http.StatusBadRequest, pd)
		return
	}
	owned, err := s.owners.OfSubject(r.Context(), a.subject, now)
	if err != nil {
		s.unavailable(w, "read owners", err)
		return
	}
	// Every code typed takes one of the tries before it is compared (a
	// conditional UPDATE, exact under concurrency), so no more than
	// triesPerRequest codes are ever compared; RETURNING gives this try its
	// own number.
	var tries int
	err = s.st.queryRow(r.Context(), `UPDATE auth_requests SET tries = tries + 1 WHERE id = ? AND tries < ? RETURNING tries`, a.id, triesPerRequest).Scan(&tries)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		s.unavailable(w, "count a try", err)
		return
	}
	if errors.Is(err, sql.ErrNoRows) || !secret.SameHash(a.codeHash, s.keyed("code", a.id, code)) || len(owned) == 0 {
		if err != nil || tries >= triesPerRequest {
			s.st.exec(r.Context(), `UPDATE auth_requests SET done_at = ? WHERE id = ?`, millis(now), a.id)
			s.errorPage(w, http.StatusForbidden, fmt.Sprintf("%d wrong codes: this sign-in is locked. Start again from the app", triesPerRequest))
			return
		}
		pd.Error = fmt.Sprintf("code: is not the code Daawid sent; %d tries left", triesPerRequest-tries)
		s.page(w, http.StatusBadRequest, pd)
		return
	}
	res, err := s.st.exec(r.Context(), `UPDATE auth_requests SET signed_in_at = ?, code_hash = NULL WHERE id = ? AND code_hash = ?`, millis(now), a.id, a.codeHash)
	if err != nil {
		s.unavailable(w, "sign in", err)
		return
	}
	if n, _ := res.RowsAffected(); n != 1 {
		pd.Error = "code: this code was used already; ask for a new one"
		s.page(w, http.StatusBadRequest, pd)
		return
	}
	pd.Step, pd.Entries = "consent", s.ownedEntries(r, a.subject)
	s.page(w, http.StatusOK, pd)
}

// connectConsent: POST /connect/{token}/consent. Deny sends the app
// access_denied; allow sends it a code; both with iss (MCP-15, MCP-16).
func (s *Server) connectConsent(w http.ResponseWriter, r *http.Request) {
	now := s.cfg.Now()
	a, ok := s.signedInRequest(w, r, now)
	if !ok {
		return
	}
	// One answer a request: the UPDATE's condition makes a second press
	// of either button find the request done.
	res, err := s.st.exec(r.Context(), `UPDATE auth_requests SET done_at = ? WHERE id = ? AND done_at IS NULL`, millis(now), a.id)
	if n, _ := rowsOf(res, err); n != 1 {
		s.errorPage(w, http.StatusNotFound, errRequestGone.Error())
		return
	}
	if r.PostFormValue("decision") != "allow" {
		s.redirect(w, r, a.redirectURI, url.Values{"error": {"access_denied"}, "error_description": {"the owner did not allow the app"}, "state": {a.state}})
		return
	}
	code := secret.NewToken()
	family := "fam_" + secret.NewToken()
	if err := s.grant(r.Context(), a, family, code, now); err != nil {
		s.cfg.Log.Error("auth: grant", "err", err)
		s.redirect(w, r, a.redirectURI, url.Values{"error": {"server_error"}, "error_description": {"the grant could not be kept; try again"}, "state": {a.state}})
		return
	}
	s.redirect(w, r, a.redirectURI, url.Values{"code": {code}, "state": {a.state}})
}

// grant keeps the family of a new grant and its authorization code.
func (s *Server) grant(ctx context.Context, a *authRequest, family, code string, now time.Time) error {
	if _, err := s.st.exec(ctx, `INSERT INTO auth_families (id, client_id, subject, scope, resource, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		family, a.clientID, a.subject, a.scope, a.resource, millis(now), millis(now.Add(refreshTTL))); err != nil {
		return fmt.Errorf("keep the grant: %w", err)
	}
	if _, err := s.st.exec(ctx, `INSERT INTO auth_codes (code_hash, family_id, redirect_uri, code_challenge, expires_at) VALUES (?, ?, ?, ?, ?)`,
		secret.HashToken(code), family, a.redirectURI, a.challenge, millis(now.Add(codeTTL))); err != nil {
		return fmt.Errorf("keep the code: %w", err)
	}
	return nil
}

// maskEmail hides most of an address: "i…o@example.de".
func maskEmail(e string) string {
	at := strings.LastIndexByte(e, '@')
	if at < 1 {
		return ""
	}
	local := []rune(e[:at])
	if len(local) <= 2 {
		return string(local[:1]) + "…" + e[at:]
	}
	return string(local[0]) + "…" + string(local[len(local)-1]) + e[at:]
}

func (s *Server) unavailable(w http.ResponseWriter, op string, err error) {
	s.cfg.Log.Error("auth: "+op, "err", err)
	s.errorPage(w, http.StatusServiceUnavailable, "Daawid could not answer just now; try again in a minute")
}

// signedInRequest loads the connect request a page's token names and
// answers the error page itself when there is none or its owner has not
// signed in yet.
func (s *Server) signedInRequest(w http.ResponseWriter, r *http.Request, now time.Time) (*authRequest, bool) {
	a, err := s.loadRequest(r.Context(), r.PathValue("token"), now)
	if err != nil {
		s.errorPage(w, http.StatusNotFound, err.Error())
		return nil, false
	}
	if !a.signedIn {
		s.errorPage(w, http.StatusForbidden, "sign in with the emailed code first")
		return nil, false
	}
	return a, true
}
