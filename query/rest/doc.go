// Package rest is the registry's HTTP face (Gin): the entry pages and
// documents with content negotiation (§2), the REST mirror (§8), the
// discovery files and published schemas, and the buyers' exports and
// change feed. Every route reads through query.Service, one publication
// per request; handlers return errors and one adapter turns them into
// RFC 9457 problems (STYLE 9). One route area per file.
package rest
