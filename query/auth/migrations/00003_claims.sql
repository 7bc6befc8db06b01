-- +goose Up
-- The claim flow's tables (HTTP-34, decision D96; query/claim), in the
-- writable store beside the owners they add to. Numbered apart from the
-- authorization server's own migrations so that both can grow. Times are
-- Unix milliseconds; every code and value is kept as a keyed hash only.

-- A claim in progress: one person (email) claiming one entry by one of
-- its domains (host) with one method (email_code, dns_txt,
-- well_known_file). id is the hash of the claim page's token; the DNS or
-- file value is derived from that token and kept only as value_hash.
CREATE TABLE claims (
    id                 TEXT PRIMARY KEY,
    entry_id           TEXT NOT NULL,
    host               TEXT NOT NULL,
    email              TEXT NOT NULL,
    method             TEXT NOT NULL,
    value_hash         TEXT NOT NULL DEFAULT '',
    code_hash          TEXT,
    code_expires_at    BIGINT,
    codes_sent         INTEGER NOT NULL DEFAULT 0,
    tries              INTEGER NOT NULL DEFAULT 0,
    email_confirmed_at BIGINT,
    proved_at          BIGINT,
    done_at            BIGINT,
    created_at         BIGINT NOT NULL,
    expires_at         BIGINT NOT NULL
);
CREATE INDEX claims_entry ON claims (entry_id);

-- What the claim flow's limits count, one row a window: code mails an
-- hour per address and per entry, claims started and checks run. A
-- conditional UPDATE takes one unit, so the count is exact under
-- concurrency on SQLite and PostgreSQL alike.
CREATE TABLE claim_limits (
    kind       TEXT NOT NULL,
    key        TEXT NOT NULL,
    window_end BIGINT NOT NULL,
    n          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, key, window_end)
);

-- +goose Down
DROP TABLE claim_limits;
DROP TABLE claims;
