package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/daawid/registry/query/actions/mail"
	"github.com/daawid/registry/query/internal/secret"
	"github.com/daawid/registry/schemas"
)

// MCP-26: a change an owner tool makes to an entry's name, contact
// details, addresses or legal details (schemas.SensitiveEditFields) is
// not written into the owner inbox at once. It waits in the writable
// store, and the owner gets an email naming the entry with a link to a
// confirmation page; pressing confirm there (a POST: mail scanners follow
// links, they do not submit forms) writes the waiting fields as an owner
// edit based on the revision published at that moment. The link is good
// for WaitingTTL and for one use; its token is kept only as a keyed hash
// and compared in constant time.

// WaitingTTL is how long a confirmation link works: a day, long enough
// for an owner to read their mail, short enough that a forgotten link
// does not linger in a mailbox as a way to change the entry.
const WaitingTTL = 24 * time.Hour

// Registry is what the owner pages need of the registry: the entry's
// public revision in the current publication, and the owner inbox. The
// MCP server, which holds both, hands it over (UseRegistry).
type Registry interface {
	// PublicRevision is the entry's public revision as the current
	// publication stores it (D94).
	PublicRevision(entryID string, now time.Time) (*schemas.Entry, error)
	// WriteEdit writes an owner edit into the owner inbox (D95).
	WriteEdit(ed *schemas.OwnerEdit, now time.Time) (string, error)
}

// UseRegistry gives the owner pages the registry; call it before serving.
func (s *Server) UseRegistry(r Registry) { s.registry = r }

// WaitingChange is a change that waits for its owner's email (MCP-26).
type WaitingChange struct {
	EntryID, EntryName, Subject, Email string
	// Set holds the waiting fields by their view names (D95).
	Set       map[string]json.RawMessage
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Sections are the waiting fields, in §7.5's order.
func (w *WaitingChange) Sections() []string {
	var out []string
	for _, f := range schemas.EditFields {
		if _, ok := w.Set[f]; ok {
			out = append(out, f)
		}
	}
	return out
}

// MaskedEmail is the owner's address partly hidden (TOOL-34):
// h•••@holzwerk-krause.de.
func (w *WaitingChange) MaskedEmail() string { return MaskAddress(w.Email) }

// MaskAddress hides an address's local part but its first letter.
func MaskAddress(e string) string {
	at := strings.LastIndexByte(e, '@')
	if at < 1 {
		return ""
	}
	return string([]rune(e[:at])[0]) + "•••" + e[at:]
}

// AddWaiting keeps a change that waits for the owner's email and mails
// the owner the link. A change still waiting for the same entry and owner
// is folded into the new one (the newer value of a field wins) and its
// link stops working, so one link confirms everything that waits.
func (s *Server) AddWaiting(ctx context.Context, w WaitingChange, now time.Time) (*WaitingChange, error) {
	if len(w.Set) == 0 {
		return nil, errors.New("waiting change: no fields")
	}
	email, err := NormalizeEmail(w.Email)
	if err != nil {
		return nil, err
	}
	w.Email = email
	if old, err := s.pending(ctx, w.Subject, w.EntryID, now); err != nil {
		return nil, err
	} else if old != nil {
		merged := map[string]json.RawMessage{}
		for k, v := range old.set {
			merged[k] = v
		}
		for k, v := range w.Set {
			merged[k] = v
		}
		w.Set = merged
		if _, err := s.st.exec(ctx, `UPDATE owner_waiting SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`, millis(now), old.hash); err != nil {
			return nil, fmt.Errorf("fold the waiting change: %w", err)
		}
	}
	set, err := json.Marshal(w.Set)
	if err != nil {
		return nil, err
	}
	token := secret.NewToken()
	w.CreatedAt, w.ExpiresAt = now, now.Add(WaitingTTL)
	if _, err := s.st.exec(ctx, `INSERT INTO owner_waiting (token_hash, entry_id, subject, email, entry_name, set_json, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		s.keyed("waiting", token), w.EntryID, w.Subject, w.Email, w.EntryName, string(set), millis(now), millis(w.ExpiresAt)); err != nil {
		return nil, fmt.Errorf("keep the waiting change: %w", err)
	}
	if err := s.sendWaiting(ctx, &w, token, now); err != nil {
		// Without its mail the change could never be confirmed: it is not
		// kept, and the tool says the change was not taken.
		s.st.exec(ctx, `DELETE FROM owner_waiting WHERE token_hash = ?`, s.keyed("waiting", token))
		return nil, fmt.Errorf("mail the confirmation link: %w", err)
	}
	return &w, nil
}

type pendingRow struct {
	hash string
	set  map[string]json.RawMessage
}

// pending is the change still waiting for an entry and owner, if any.
func (s *Server) pending(ctx context.Context, subject, entryID string, now time.Time) (*pendingRow, error) {
	var p pendingRow
	var set string
	err := s.st.queryRow(ctx, `SELECT token_hash, set_json FROM owner_waiting WHERE subject = ? AND entry_id = ? AND used_at IS NULL AND expires_at > ?
		ORDER BY created_at DESC LIMIT 1`, subject, entryID, millis(now)).Scan(&p.hash, &set)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the waiting change: %w", err)
	}
	if err := json.Unmarshal([]byte(set), &p.set); err != nil {
		return nil, fmt.Errorf("read the waiting change: %w", err)
	}
	return &p, nil
}

// WaitingOf are the changes waiting for an owner at now, by entry ID
// (list_my_entries shows them, TOOL-21).
func (s *Server) WaitingOf(ctx context.Context, subject string, now time.Time) (map[string]*WaitingChange, error) {
	rows, err := s.st.query(ctx, `SELECT entry_id, entry_name, email, set_json, created_at, expires_at FROM owner_waiting
		WHERE subject = ? AND used_at IS NULL AND expires_at > ? ORDER BY entry_id, created_at`, subject, millis(now))
	if err != nil {
		return nil, fmt.Errorf("read waiting changes: %w", err)
	}
	defer rows.Close()
	out := map[string]*WaitingChange{}
	for rows.Next() {
		w := &WaitingChange{Subject: subject}
		var set string
		var created, expires int64
		if err := rows.Scan(&w.EntryID, &w.EntryName, &w.Email, &set, &created, &expires); err != nil {
			return nil, fmt.Errorf("read waiting changes: %w", err)
		}
		if err := json.Unmarshal([]byte(set), &w.Set); err != nil {
			return nil, fmt.Errorf("read waiting changes: %w", err)
		}
		w.CreatedAt, w.ExpiresAt = fromMillis(created), fromMillis(expires)
		out[w.EntryID] = w
	}
	return out, rows.Err()
}

// loadWaiting finds the change a link's token names, still waiting; the
// stored hash is compared with the token's in constant time.
func (s *Server) loadWaiting(ctx context.Context, token string, now time.Time) (*WaitingChange, string, error) {
	want := s.keyed("waiting", token)
	var hash, set string
	var used sql.NullInt64
	var created, expires int64
	w := &WaitingChange{}
	err := s.st.queryRow(ctx, `SELECT token_hash, entry_id, entry_name, subject, email, set_json, created_at, expires_at, used_at FROM owner_waiting WHERE token_hash = ?`, want).
		Scan(&hash, &w.EntryID, &w.EntryName, &w.Subject, &w.Email, &set, &created, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !secret.SameHash(hash, want)) {
		return nil, "", errWaitingGone
	}
	if err != nil {
		return nil, "", fmt.Errorf("read the waiting change: %w", err)
	}
	w.CreatedAt, w.ExpiresAt = fromMillis(created), fromMillis(expires)
	if used.Valid || !now.Before(w.ExpiresAt) {
		return nil, "", errWaitingGone
	}
	if err := json.Unmarshal([]byte(set), &w.Set); err != nil {
		return nil, "", fmt.Errorf("read the waiting change: %w", err)
	}
	return w, hash, nil
}

var errWaitingGone = errors.New("this confirmation link has run out or was used; make the change again from your app to get a new one")

// sendWaiting mails the owner the confirmation link; subject and body
// name the entry (MCP-26).
func (s *Server) sendWaiting(ctx context.Context, w *WaitingChange, token string, now time.Time) error {
	if s.cfg.Mailer == nil {
		return errors.New("no mail server")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	host := s.mailHost()
	from := s.cfg.MailFrom
	if from == "" {
		from = "Daawid <owners@" + host + ">"
	}
	link := s.cfg.Issuer + "/owner/confirm/" + token
	sections := w.Sections()
	sort.Strings(sections)
	body := fmt.Sprintf("An app you connected to Daawid asks to change %s (%s): %s.\n\n"+
		"These changes go live only when you confirm them on this page:\n\n%s\n\n"+
		"The link works once, until %s. If you did not ask for this change, do nothing: it is dropped when the link runs out.\n\n-- \nDaawid\n",
		w.EntryName, w.EntryID, strings.Join(sections, ", "), link, w.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC"))
	return s.cfg.Mailer.Send(ctx, mail.Message{MessageID: secret.NewToken() + ".owner@" + host, From: from, To: w.Email,
		Subject: "Confirm the change to " + w.EntryName + " on Daawid", Text: body, Language: "en", Date: now})
}

// mailHost is the host Daawid's mail comes from.
func (s *Server) mailHost() string {
	if u, err := url.Parse(s.cfg.Issuer); err == nil && !strings.HasPrefix(u.Hostname(), "127.") && u.Hostname() != "localhost" {
		return u.Hostname()
	}
	return "daawid.localhost"
}
