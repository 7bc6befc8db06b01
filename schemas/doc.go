// Package schemas owns the vocabulary of the Daawid registry: the PublicEntry
// model (Entry and its parts), prefixed identifiers, localized text, open
// enums, validation with JSON-pointer paths, the native JSON views (EntryView,
// OfferingView, BrandKitView) and the JSON Schemas published under
// /schemas/0.1/.
//
// An Entry is one revision of what an owner (or, for an unclaimed entry, the
// registry) declares. Every projection (markdown, JSON-LD, HTML, EntryView)
// is a pure function of (revision, language, site config) computed by the
// render package; this package only describes and checks the data.
//
// Time-dependent facts (capacity expiry, the 30-day noindex window of new
// entries below level domain) are evaluated as of the revision's own
// Record.UpdatedAt, never the wall clock, so a projection stays a pure
// function of the revision. When time alone would change a projection, the
// pipeline issues a new revision; NextChangeAt says when that is.
//
// Enums are open (PRIV-09): a value this version does not know decodes
// without error and reports Known() == false; readers treat it as unknown,
// while Validate, the write-time check, refuses it.
//
// The package does no I/O beyond embed.
package schemas
