// Package oauthe2e holds only tests: the outside checks of the owner
// tools' authorization server (issue 19). The official TypeScript MCP SDK
// client runs its own OAuth against a real server on loopback, Chromium
// signs the owner in with the code a real SMTP server received, the npm
// jose package checks the access tokens against the published JWKS, the
// connect pages are measured at a phone's width and run through the Nu
// HTML checker, and the 403 of a token without the scope is checked on
// the wire (MCP-24). The owner's changes go end to end through it: the
// TypeScript client's set_capacity and update_entry become owner edits in
// a real inbox, the pipeline's delta publication carries them to
// get_entry and /{slug}.md, and a contact change waits until Chromium
// confirms it from the mail (MCP-26).
//
// It is a package of its own because its test binary trusts the
// certificate of net/http/httptest's TLS servers as a root (SSL_CERT_FILE,
// set before anything verifies a certificate): the SDK takes only an
// https Client ID Metadata Document, and the authorization server fetches
// it with the default roots, unchanged from production.
package oauthe2e
