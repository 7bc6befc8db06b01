package actions

import (
	"crypto/rand"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/internal/secret"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/render"
	"github.com/oklog/ulid/v2"
)

// Limits are the abuse limits of §7.6 and the times a run and a code
// live. DefaultLimits are the contract's.
type Limits struct {
	// SentPerDayBelowDomain: requests sent a day (UTC) to an entry below
	// level domain (ACT-50).
	SentPerDayBelowDomain int
	// StartedPerDay: runs started a day (UTC) for an entry, at every
	// level (ACT-51).
	StartedPerDay int
	// SentPerMonth: requests sent a calendar month (UTC) to an entry; past
	// it the entry takes no more requests through Daawid this month
	// (ACT-28, D75).
	SentPerMonth int
	// WaitingPerRequester: runs waiting for confirmation per requester
	// address and entry (ACT-52).
	WaitingPerRequester int
	// CodeMailsPerAddressHour: code emails an hour to one address (ACT-53).
	CodeMailsPerAddressHour int
	// CodeMailsPerIPHour: code emails an hour asked from one browser
	// address (ACT-54).
	CodeMailsPerIPHour int
	// CodesPerRun and TriesPerRun: codes a run may send, and wrong codes
	// it allows before it is locked (ACT-39).
	CodesPerRun, TriesPerRun int
	// RunTTL is how long a run waits for confirmation (ACT-33); CodeTTL
	// how long a code works (ACT-39).
	RunTTL, CodeTTL time.Duration
}

// DefaultLimits are the contract's limits (§7.6) and D75's monthly cap.
var DefaultLimits = Limits{
	SentPerDayBelowDomain:   20,
	StartedPerDay:           100,
	SentPerMonth:            1000,
	WaitingPerRequester:     3,
	CodeMailsPerAddressHour: 5,
	CodeMailsPerIPHour:      10,
	CodesPerRun:             3,
	TriesPerRun:             5,
	RunTTL:                  time.Hour,
	CodeTTL:                 15 * time.Minute,
}

// Config is what the action runs are built from.
type Config struct {
	Store *Store
	// Secret keys the HMACs of codes, addresses and browser addresses; at
	// least 32 bytes (LoadSecret).
	Secret []byte
	Site   render.Site
	// Places finds postal codes for the service-area check and the
	// summary; nil: every place is unknown, and requests go through.
	Places *places.Gazetteer
	// MailFrom is Daawid's address the mails come from:
	// "Daawid <requests@daawid.example>".
	MailFrom string
	Limits   Limits
	// Now is the clock (ARCHITECTURE 4); nil: time.Now.
	Now func() time.Time
	Log *slog.Logger
	// Wake, when set, is told that the outbox has a new message.
	Wake func()
}

// Service runs the request tools over the store: REST, MCP and the web
// form call the same methods (ARCHITECTURE decision 5), which check the
// call in one place (package check).
type Service struct {
	cfg   Config
	store *Store
}

// New builds the service.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("actions: no store")
	}
	if len(cfg.Secret) < 32 {
		return nil, errors.New("actions: the secret must be at least 32 bytes")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits
	}
	if cfg.MailFrom == "" {
		cfg.MailFrom = "Daawid <requests@" + hostOnly(cfg.Site.BaseURL) + ">"
	}
	return &Service{cfg: cfg, store: cfg.Store}, nil
}

// Store is the service's store.
func (s *Service) Store() *Store { return s.store }

func hostOnly(base string) string {
	h := strings.TrimPrefix(strings.TrimPrefix(base, "https://"), "http://")
	if i := strings.IndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	if h == "localhost" || h == "127.0.0.1" || h == "[" || strings.HasPrefix(h, "[") {
		return "daawid.localhost"
	}
	return h
}

// keyed is the HMAC of parts under the server's secret, in hex: how the
// store keeps what must be compared but not read (addresses, codes,
// idempotency keys).
func (s *Service) keyed(parts ...string) string {
	return secret.Keyed(s.cfg.Secret, parts...)
}

// newToken is a confirmation token: 31 characters of Crockford's base32
// alphabet in lower case (155 random bits), as the contract's confirmUrl
// shows (ACT-65).
func newToken() string { return secret.NewToken()[:31] }

// newRunID is a run ID: run_ and a ULID in lower case (§7.5 RunId).
func newRunID(now time.Time) string {
	return "run_" + strings.ToLower(ulid.MustNew(ulid.Timestamp(now), rand.Reader).String())
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// dayEnd, hourEnd and monthEnd are the ends of the fixed UTC windows the
// limits count in (D75).
func dayEnd(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
}

func hourEnd(t time.Time) time.Time { return t.UTC().Truncate(time.Hour).Add(time.Hour) }

func monthEnd(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
}

func retryAfter(now, until time.Time) int {
	s := int(until.Sub(now).Seconds() + 0.999)
	if s < 1 {
		s = 1
	}
	return s
}

// unavailable is the answer when the store fails: the caller may try
// again, and nothing was written (a transaction commits whole or not).
func (s *Service) unavailable(op string, err error) error {
	s.cfg.Log.Error("action runs: store failed", "op", op, "err", err)
	return &query.Error{Code: query.CodeUnavailable, RetryAfterSeconds: 30,
		Message: "Daawid cannot take requests right now; nothing was lost, try again in a minute"}
}

// storeFailed turns a store failure into unavailable and passes a
// query.Error through.
func (s *Service) storeFailed(op string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := query.AsError(err); ok {
		return err
	}
	return s.unavailable(op, err)
}
