package schemas

import "time"

// The change feed's records (D60): part of the snapshot format, written by
// the pipeline (feeds) and read by the server's /v1/changes.

// Change types: what happened to an entry's public projections.
const (
	ChangeCreated   = "created"
	ChangeUpdated   = "updated"
	ChangeRemoved   = "removed"
	ChangeSuspended = "suspended"
	ChangeUnlisted  = "unlisted"
	ChangeExpired   = "expired"
)

// Change is one record of the change feed: every change to a public
// projection is one, numbered by a sequence that only grows.
type Change struct {
	Seq         int64     `json:"seq" parquet:"seq"`
	Type        string    `json:"type" parquet:"type,dict"`
	EntryID     string    `json:"entryId" parquet:"entry_id"`
	Slug        string    `json:"slug" parquet:"slug"`
	Revision    int32     `json:"revision" parquet:"revision"`
	At          time.Time `json:"at" parquet:"at,timestamp(millisecond)"`
	Publication string    `json:"publication" parquet:"publication,dict"`
}
