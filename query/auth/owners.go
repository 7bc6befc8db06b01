package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
)

// Owner is one person's ownership of one entry, proved by a method (a
// mailed code, a DNS record, a file on the website; the claim flow's)
// at ProvedAt, until ExpiresAt when the proof lapses (zero: it does not).
type Owner struct {
	EntryID string
	Email   string
	// Role is the owner's role on the entry ("owner", or "editor" when
	// the claim flow grows roles); list_my_entries shows it (TOOL-21).
	Role      string
	Method    string
	ProvedAt  time.Time
	ExpiresAt time.Time
}

// Owners is who owns what: the claim flow adds owners, the sign-in asks
// whether an address owns anything, the owner tools list an owner's
// entries.
type Owners struct {
	st     *Store
	secret []byte
}

// NewOwners is the owners table of a store; secret keys the subjects.
func NewOwners(st *Store, secret []byte) *Owners { return &Owners{st: st, secret: secret} }

// NormalizeEmail is an address as the owners table keeps it: trimmed and
// in lower case, or an error naming the field.
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || !strings.Contains(e[strings.LastIndexByte(e, '@')+1:], ".") && !strings.HasSuffix(e, "localhost") {
		return "", fmt.Errorf("email %q: is not an email address", email)
	}
	return e, nil
}

// Subject is the access tokens' sub for an address: a keyed hash, so a
// token an app holds does not carry the owner's address.
func (o *Owners) Subject(email string) string {
	m := hmac.New(sha256.New, o.secret)
	m.Write([]byte("owner\x00" + email))
	return "own_" + hex.EncodeToString(m.Sum(nil))[:32]
}

// Add records (or renews) an owner of an entry.
func (o *Owners) Add(ctx context.Context, ow Owner) error {
	email, err := NormalizeEmail(ow.Email)
	if err != nil {
		return err
	}
	if ow.EntryID == "" {
		return errors.New("owner: entry_id is empty")
	}
	if ow.Role == "" {
		ow.Role = "owner"
	}
	if ow.Method == "" {
		return errors.New("owner: method is empty")
	}
	if ow.ProvedAt.IsZero() {
		return errors.New("owner: proved_at is zero")
	}
	var expires sql.NullInt64
	if !ow.ExpiresAt.IsZero() {
		expires = sql.NullInt64{Int64: millis(ow.ExpiresAt), Valid: true}
	}
	sub := o.Subject(email)
	if _, err := o.st.exec(ctx, `DELETE FROM owners WHERE entry_id = ? AND subject = ?`, ow.EntryID, sub); err != nil {
		return fmt.Errorf("add owner: %w", err)
	}
	if _, err := o.st.exec(ctx, `INSERT INTO owners (entry_id, subject, email, role, method, proved_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		ow.EntryID, sub, email, ow.Role, ow.Method, millis(ow.ProvedAt), expires); err != nil {
		return fmt.Errorf("add owner: %w", err)
	}
	return nil
}

// EntriesOf is what an address owns at now, by entry ID.
func (o *Owners) EntriesOf(ctx context.Context, email string, now time.Time) ([]Owner, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	return o.OfSubject(ctx, o.Subject(e), now)
}

// OfSubject is what the owner of a token's sub owns at now, by entry ID.
func (o *Owners) OfSubject(ctx context.Context, subject string, now time.Time) ([]Owner, error) {
	rows, err := o.st.query(ctx, `SELECT entry_id, email, role, method, proved_at, expires_at FROM owners
		WHERE subject = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY entry_id`, subject, millis(now))
	if err != nil {
		return nil, fmt.Errorf("read owners: %w", err)
	}
	defer rows.Close()
	var out []Owner
	for rows.Next() {
		var ow Owner
		var proved int64
		var expires sql.NullInt64
		if err := rows.Scan(&ow.EntryID, &ow.Email, &ow.Role, &ow.Method, &proved, &expires); err != nil {
			return nil, fmt.Errorf("read owners: %w", err)
		}
		ow.ProvedAt = fromMillis(proved)
		if expires.Valid {
			ow.ExpiresAt = fromMillis(expires.Int64)
		}
		out = append(out, ow)
	}
	return out, rows.Err()
}
