// Package search is the registry's search (§7.5 "Search"): the in-memory
// index of a publication's entries and the queries run over it, the same
// for the REST mirror's GET /v1/search and the MCP search tool.
//
// An Index is built once per layer of a publication, when the snapshot
// opens, from the entries' search records (schemas.SearchRecord, written
// at publish): a Builder adds the records one at a time, places each
// location and service area with the gazetteer (query/places), and posts
// the entries' words; Build finishes it, immutable and safe for
// concurrent queries. An index written to a file (WriteTo) is opened from
// the file's bytes (OpenIndex), mapped rather than built again: its
// arrays are the file's, checked once at open (indexfile.go). A
// Searcher runs a query over the layers, the latest first, a later
// layer's entry replacing an earlier one's.
//
// Searcher.Search checks an input (Prepare: every mistake by its field,
// as InputError), finds its place, runs it (Run) and makes the answer's
// hits. A run filters entries by their flags, finds them by the query's
// words and orders them by tier (where they are or serve against the
// place), fit, outcome fit, distance band and a turn that changes every
// hour among entries that fit about equally (SEARCH-21); a cursor carries
// a page's last key. docs/search.md describes the rules; /docs/ranking
// says them to readers.
//
// Text renders an answer as the markdown the MCP tool returns.
package search
