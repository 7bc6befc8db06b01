-- +goose Up
-- Changes an owner tool made to an entry's name, contact details,
-- addresses or legal details wait here for the owner's confirmation on
-- the page an email links to (MCP-26). token_hash is the keyed hash of
-- the link's token, never the token; used_at marks the link spent (one
-- use); set_json holds the waiting fields in the view's shape, as the
-- owner edit will carry them (D95).
CREATE TABLE owner_waiting (
    token_hash TEXT PRIMARY KEY,
    entry_id   TEXT NOT NULL,
    subject    TEXT NOT NULL,
    email      TEXT NOT NULL,
    entry_name TEXT NOT NULL,
    set_json   TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX owner_waiting_subject ON owner_waiting (subject, entry_id);

-- +goose Down
DROP TABLE owner_waiting;
