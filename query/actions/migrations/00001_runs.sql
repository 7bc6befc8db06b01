-- +goose Up
-- Times are Unix milliseconds (BIGINT), the same in SQLite and PostgreSQL.

-- A run is one request waiting for, or past, its person's confirmation.
-- request holds the request's words and the requester's contact data: it
-- is personal data, deleted with the run (ACT-57, ACT-58).
CREATE TABLE runs (
    id              TEXT PRIMARY KEY,
    token_hash      TEXT NOT NULL UNIQUE,
    entry_id        TEXT NOT NULL,
    action_id       TEXT NOT NULL,
    kind            TEXT NOT NULL,
    platform        TEXT NOT NULL,
    status          TEXT NOT NULL,
    requester_key   TEXT NOT NULL,
    request         TEXT NOT NULL,
    page            TEXT NOT NULL,
    deliver_to      TEXT NOT NULL,
    below_domain    INTEGER NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    submitted_at    BIGINT,
    codes_sent      INTEGER NOT NULL DEFAULT 0,
    tries           INTEGER NOT NULL DEFAULT 0,
    code_hash       TEXT,
    code_expires_at BIGINT
);
CREATE INDEX runs_waiting ON runs (entry_id, requester_key, status, expires_at);
CREATE INDEX runs_status ON runs (status, expires_at);

-- Idempotency keys of the last 24 hours (ACT-05), under a keyed hash.
CREATE TABLE idempotency (
    key_hash   TEXT PRIMARY KEY,
    body_hash  TEXT NOT NULL,
    run_id     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- What the abuse limits count (ACT-50..ACT-55 and the monthly cap): one
-- row a counted step, by kind, key (an entry ID, or a keyed hash of an
-- address) and the window it counts in; kept until the window ends.
CREATE TABLE limit_events (
    kind       TEXT NOT NULL,
    key        TEXT NOT NULL,
    window_end BIGINT NOT NULL,
    at         BIGINT NOT NULL
);
CREATE INDEX limit_events_key ON limit_events (kind, key, window_end);

-- Step counts per entry, day, AI platform, action type and step (ACT-59),
-- kept.
CREATE TABLE step_counts (
    day      TEXT NOT NULL,
    entry_id TEXT NOT NULL,
    platform TEXT NOT NULL,
    kind     TEXT NOT NULL,
    step     TEXT NOT NULL,
    n        BIGINT NOT NULL,
    PRIMARY KEY (day, entry_id, platform, kind, step)
);

-- The mail outbox: a message is written in the transaction that decides
-- to send it and sent after the commit, again after a crash, with the
-- same Message-ID.
CREATE TABLE outbox (
    id              TEXT PRIMARY KEY,
    message_id      TEXT NOT NULL UNIQUE,
    run_id          TEXT NOT NULL,
    purpose         TEXT NOT NULL,
    to_addr         TEXT NOT NULL,
    reply_to        TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    lang            TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    lease_until     BIGINT NOT NULL DEFAULT 0,
    sent_at         BIGINT,
    failed_at       BIGINT,
    last_error      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX outbox_due ON outbox (sent_at, failed_at, next_attempt_at);

-- +goose Down
DROP TABLE outbox;
DROP TABLE step_counts;
DROP TABLE limit_events;
DROP TABLE idempotency;
DROP TABLE runs;
