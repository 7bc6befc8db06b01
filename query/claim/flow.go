package claim

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/query/inbox"
	"github.com/daawid/registry/query/internal/secret"
)

// The methods of proof (D96), as the owners table and the events name
// them.
const (
	MethodEmail = "email_code"
	MethodDNS   = "dns_txt"
	MethodFile  = "well_known_file"
)

// The lifetimes and limits of a claim. A claim waits 7 days for its DNS
// record or file, long enough for a business to reach whoever runs its
// domain; a mailed code works 15 minutes and a claim gets 3 codes and 5
// tries, as the action runs' codes (ACT-37, ACT-39).
const (
	ClaimTTL        = 7 * 24 * time.Hour
	CodeTTL         = 15 * time.Minute
	CodesPerClaim   = 3
	TriesPerClaim   = 5
	MailsPerAddrHr  = 5
	MailsPerEntryHr = 10
	ChecksPerClaim  = 30 // DNS or file checks an hour: each is a request to the outside
	fetchTimeout    = 10 * time.Second
)

// Config is what the claim flow is built from (STYLE 12).
type Config struct {
	// Store is the writable store (its claims and owners tables).
	Store  *auth.Store
	Owners *auth.Owners
	// Inbox is the crossing into the pipeline: the claim_entry edit and
	// the proof's event go there (D96).
	Inbox *inbox.Inbox
	// Secret keys the hashes of codes and values (at least 32 bytes).
	Secret []byte
	// Mailer sends the codes; MailFrom is Daawid's address.
	Mailer   auth.Mailer
	MailFrom string
	// MailHost names Daawid in Message-IDs and the default From.
	MailHost string
	// Resolver answers the TXT questions (nil: the system's); tests give
	// one that asks a DNS server on loopback.
	Resolver *net.Resolver
	// Fetch fetches the well-known file; nil: auth.GuardedClient in
	// production mode (no private or loopback address, bounded time).
	Fetch *http.Client
	// FileOrigin is where a domain's website is fetched from; nil:
	// https://{host}. Tests point a fixture domain at a site on loopback.
	FileOrigin func(host string) string
	Log        *slog.Logger
}

// Service runs claims.
type Service struct{ cfg Config }

// New checks the configuration and builds the service.
func New(cfg Config) (*Service, error) {
	switch {
	case cfg.Store == nil || cfg.Owners == nil:
		return nil, errors.New("claim: no store")
	case cfg.Inbox == nil:
		return nil, errors.New("claim: no owner inbox")
	case len(cfg.Secret) < 32:
		return nil, errors.New("claim: the secret must be at least 32 bytes")
	}
	if cfg.Fetch == nil {
		cfg.Fetch = auth.GuardedClient(false, fetchTimeout, nil)
	}
	if cfg.FileOrigin == nil {
		cfg.FileOrigin = func(host string) string { return "https://" + host }
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.MailHost == "" {
		cfg.MailHost = "daawid.localhost"
	}
	if cfg.MailFrom == "" {
		cfg.MailFrom = "Daawid <owners@" + cfg.MailHost + ">"
	}
	return &Service{cfg: cfg}, nil
}

// Entry is what a claim needs of the published entry: its name, the
// revision the claim_entry edit is based on, whether it is unclaimed, and
// the domains it names (its domains and its verification's).
type Entry struct {
	ID, Name  string
	Revision  int
	Unclaimed bool
	Hosts     []string
}

// Error is a refusal a person can act on: the field it concerns and what
// to do. Status is the HTTP status a page answers with.
type Error struct {
	Field, Message string
	Status         int
}

func (e *Error) Error() string { return e.Field + ": " + e.Message }

func refuse(status int, field, format string, args ...any) *Error {
	return &Error{Field: field, Message: fmt.Sprintf(format, args...), Status: status}
}

// Claim is one claim as its page shows it.
type Claim struct {
	id                           string
	Token                        string
	EntryID, Host, Email, Method string
	// Value is what the DNS record or the file must hold (dns_txt and
	// well_known_file only).
	Value                  string
	CodeExpires, Expires   time.Time
	CodesSent, Tries       int
	EmailConfirmed, Proved bool
	Done                   bool
	valueHash, codeHash    string
}

// Locked is a claim that had all its tries.
func (c *Claim) Locked() bool { return c.Tries >= TriesPerClaim }

// CodesLeft is how many more codes the claim may have mailed.
func (c *Claim) CodesLeft() int { return max(0, CodesPerClaim-c.CodesSent) }

// Start begins a claim of e by the person at email, by method on host,
// and mails the first code: to email, which for email_code must be at
// host (the code proves the mailbox), and for the other methods is
// confirmed so that the owner can sign in later.
func (s *Service) Start(ctx context.Context, e Entry, email, method, host string, now time.Time) (*Claim, error) {
	if !e.Unclaimed {
		return nil, refuse(http.StatusConflict, "entry", "%s is already claimed; its owner keeps it", e.ID)
	}
	if len(e.Hosts) == 0 {
		return nil, refuse(http.StatusConflict, "entry", "%s names no website, so it cannot be claimed online yet", e.ID)
	}
	addr, err := auth.NormalizeEmail(email)
	if err != nil {
		return nil, refuse(http.StatusBadRequest, "email", "enter your email address (%q is not one)", strings.TrimSpace(email))
	}
	host = strings.ToLower(strings.TrimSpace(host))
	if len(e.Hosts) == 1 && host == "" {
		host = e.Hosts[0]
	}
	if !slices.Contains(e.Hosts, host) {
		return nil, refuse(http.StatusBadRequest, "domain", "choose one of the entry's domains: %s", strings.Join(e.Hosts, ", "))
	}
	if !slices.Contains([]string{MethodEmail, MethodDNS, MethodFile}, method) {
		return nil, refuse(http.StatusBadRequest, "method", "choose how to prove that the business is yours")
	}
	if method == MethodEmail && !AtDomain(addr, host) {
		return nil, refuse(http.StatusBadRequest, "email", "%s is not an address at %s; a code proves the mailbox only at the entry's domain", addr, host)
	}
	var owners int
	if err := s.cfg.Store.QueryRow(ctx, `SELECT COUNT(*) FROM owners WHERE entry_id = ?`, e.ID).Scan(&owners); err != nil {
		return nil, fmt.Errorf("claim %s: read owners: %w", e.ID, err)
	}
	if owners > 0 {
		return nil, refuse(http.StatusConflict, "entry", "%s was claimed already; it becomes its owner's with the next publication", e.ID)
	}
	token := secret.NewToken()
	c := &Claim{id: secret.HashToken(token), Token: token, EntryID: e.ID, Host: host, Email: addr, Method: method, Expires: now.Add(ClaimTTL)}
	if method != MethodEmail {
		c.Value = s.valueOf(token)
		c.valueHash = s.keyed("value", c.id, c.Value)
	}
	if _, err := s.cfg.Store.Exec(ctx, `INSERT INTO claims (id, entry_id, host, email, method, value_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		c.id, c.EntryID, c.Host, c.Email, c.Method, c.valueHash, now.UnixMilli(), c.Expires.UnixMilli()); err != nil {
		return nil, fmt.Errorf("claim %s: keep the claim: %w", e.ID, err)
	}
	if err := s.SendCode(ctx, c, e.Name, now); err != nil {
		return c, err
	}
	return c, nil
}

// AtDomain reports whether an address is at host: its domain is host, or
// host without a leading "www.".
func AtDomain(email, host string) bool {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return false
	}
	d := email[at+1:]
	return d == host || d == strings.TrimPrefix(host, "www.")
}

// Load reads the claim of a page's token for an entry.
func (s *Service) Load(ctx context.Context, entryID, token string, now time.Time) (*Claim, error) {
	gone := refuse(http.StatusNotFound, "claim", "this claim link ran out or is not known; start again from the entry's claim page")
	if token == "" || len(token) > 64 {
		return nil, gone
	}
	c := &Claim{id: secret.HashToken(token), Token: token}
	var codeHash sql.NullString
	var codeExp, confirmed, proved, done sql.NullInt64
	var expires int64
	err := s.cfg.Store.QueryRow(ctx, `SELECT entry_id, host, email, method, value_hash, code_hash, code_expires_at, codes_sent, tries,
		email_confirmed_at, proved_at, done_at, expires_at FROM claims WHERE id = ?`, c.id).
		Scan(&c.EntryID, &c.Host, &c.Email, &c.Method, &c.valueHash, &codeHash, &codeExp, &c.CodesSent, &c.Tries, &confirmed, &proved, &done, &expires)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && c.EntryID != entryID) {
		return nil, gone
	}
	if err != nil {
		return nil, fmt.Errorf("claim: read the claim: %w", err)
	}
	c.Expires = time.UnixMilli(expires).UTC()
	if !done.Valid && !now.Before(c.Expires) {
		return nil, refuse(http.StatusGone, "claim", "this claim ran out (a claim waits %d days); start again from the entry's claim page", int(ClaimTTL.Hours()/24))
	}
	c.codeHash, c.EmailConfirmed, c.Proved, c.Done = codeHash.String, confirmed.Valid, proved.Valid, done.Valid
	if codeExp.Valid {
		c.CodeExpires = time.UnixMilli(codeExp.Int64).UTC()
	}
	if c.Method != MethodEmail {
		c.Value = s.valueOf(token)
	}
	return c, nil
}

// valueOf is the DNS or file value of a claim: derived from the page's
// token under the secret, so the store keeps neither (only the value's
// keyed hash) and the page can show it again.
func (s *Service) valueOf(token string) string {
	m := hmac.New(sha256.New, s.cfg.Secret)
	m.Write([]byte("claim-value\x00" + token))
	return "dv1-" + hex.EncodeToString(m.Sum(nil))[:40]
}

// keyed is the HMAC of parts under the secret, in hex.
func (s *Service) keyed(parts ...string) string {
	return secret.Keyed(s.cfg.Secret, parts...)
}

// take counts one unit of a limit's window and reports whether it was
// within max. The conditional UPDATE is the check and the count in one
// step, so two requests at once cannot both take the last unit.
func (s *Service) take(ctx context.Context, kind, key string, windowEnd time.Time, limit int) (bool, error) {
	if _, err := s.cfg.Store.Exec(ctx, `INSERT INTO claim_limits (kind, key, window_end, n) VALUES (?, ?, ?, 0) ON CONFLICT (kind, key, window_end) DO NOTHING`,
		kind, key, windowEnd.UnixMilli()); err != nil {
		return false, fmt.Errorf("claim limits: %w", err)
	}
	res, err := s.cfg.Store.Exec(ctx, `UPDATE claim_limits SET n = n + 1 WHERE kind = ? AND key = ? AND window_end = ? AND n < ?`,
		kind, key, windowEnd.UnixMilli(), limit)
	if err != nil {
		return false, fmt.Errorf("claim limits: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
