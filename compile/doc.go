// Package compile turns public sources and owner declarations into entry
// revisions: register readers, website extraction, merging owner revisions
// over compiled facts with provenance, and the expiry of volatile facts.
// Every function here is a pure function of its inputs and the instant
// passed in as now.
package compile
