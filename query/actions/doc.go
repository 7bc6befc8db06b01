// Package actions runs the request tools of §7.5 and §7.6: a request an
// agent or a person starts (request_quote, request_callback,
// request_appointment, send_message) waits as a run until the person
// confirms it on Daawid's page with a code Daawid emails them; then it is
// delivered by email to the business, and its status can be read without
// any personal data.
//
// Runs, codes, limits, step counts and the mail outbox live in a writable
// store of their own (ARCHITECTURE decision 6), never in a publication:
// SQLite under the server's folder by default, PostgreSQL when several
// server processes share one store. Every limit is counted inside the
// transaction that takes it, under a lock on what it counts, so it is
// exact under concurrency and across processes.
//
// The call's input is checked in one place, package check, for MCP, REST
// and the web form alike; this package holds what happens after.
package actions
