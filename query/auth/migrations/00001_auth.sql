-- +goose Up
-- The authorization server's tables (issue 19, §7.2), in the writable
-- store beside the action runs', never in a publication. Times are Unix
-- milliseconds (BIGINT), the same in SQLite and PostgreSQL. Every token
-- and code is kept as a hash only.

-- The signing keys of the access tokens (MCP-18). A key is made on the
-- first start and kept, so that tokens outlive a restart and every
-- server process sharing the store signs with the same key.
CREATE TABLE auth_keys (
    kid        TEXT PRIMARY KEY,
    alg        TEXT NOT NULL,
    jwk        TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Who owns which entry: written by the claim flow (Owners.Add), read by
-- the sign-in and the owner tools. subject is a keyed hash of the
-- address, the access tokens' sub.
CREATE TABLE owners (
    entry_id   TEXT NOT NULL,
    subject    TEXT NOT NULL,
    email      TEXT NOT NULL,
    role       TEXT NOT NULL,
    method     TEXT NOT NULL,
    proved_at  BIGINT NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (entry_id, subject)
);
CREATE INDEX owners_subject ON owners (subject);

-- An authorization request waiting for its owner's sign-in and consent
-- (MCP-16); id is the hash of the connect page's token.
CREATE TABLE auth_requests (
    id              TEXT PRIMARY KEY,
    client_id       TEXT NOT NULL,
    client_name     TEXT NOT NULL,
    redirect_uri    TEXT NOT NULL,
    state           TEXT NOT NULL,
    code_challenge  TEXT NOT NULL,
    scope           TEXT NOT NULL,
    resource        TEXT NOT NULL,
    subject         TEXT,
    email           TEXT,
    code_hash       TEXT,
    code_expires_at BIGINT,
    codes_sent      INTEGER NOT NULL DEFAULT 0,
    tries           INTEGER NOT NULL DEFAULT 0,
    signed_in_at    BIGINT,
    done_at         BIGINT,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX auth_requests_expires ON auth_requests (expires_at);

-- A grant: the family of an authorization code and every refresh token
-- that descends from it (MCP-19). Revoking it revokes them all and the
-- access tokens they gave.
CREATE TABLE auth_families (
    id         TEXT PRIMARY KEY,
    client_id  TEXT NOT NULL,
    subject    TEXT NOT NULL,
    scope      TEXT NOT NULL,
    resource   TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT,
    revoked_why TEXT NOT NULL DEFAULT ''
);

-- Authorization codes, used once (a second use revokes the family).
CREATE TABLE auth_codes (
    code_hash      TEXT PRIMARY KEY,
    family_id      TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    expires_at     BIGINT NOT NULL,
    used_at        BIGINT
);

-- Refresh tokens, each used once: its use makes the next one (MCP-19).
CREATE TABLE auth_refresh (
    token_hash TEXT PRIMARY KEY,
    family_id  TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX auth_refresh_family ON auth_refresh (family_id);

-- What the sign-in's limits count: code mails an hour per address.
CREATE TABLE auth_limit_events (
    kind       TEXT NOT NULL,
    key        TEXT NOT NULL,
    window_end BIGINT NOT NULL,
    at         BIGINT NOT NULL
);
CREATE INDEX auth_limit_events_key ON auth_limit_events (kind, key, window_end);

-- +goose Down
DROP TABLE auth_limit_events;
DROP TABLE auth_refresh;
DROP TABLE auth_codes;
DROP TABLE auth_families;
DROP TABLE auth_requests;
DROP TABLE owners;
DROP TABLE auth_keys;
