// Package blevepeer is the peer search engine of "daawid bench search"
// (issue 18): the registry's search records indexed with Bleve
// (github.com/blevesearch/bleve/v2, scorch on disk), and the benchmark's
// queries translated into Bleve queries, so that our own search index is
// measured against a real full-text engine on the same records and the
// same query mix rather than only against DuckDB SQL with LIKE.
//
// It is harness code: only the benchmark imports it, never the pipeline
// or the server. Its test lives in the bench package beside the command
// (TestBleve…), which builds both engines over a tiny registry.
//
// The translation is a peer's, not a copy of our ranking (docs/search.md):
// words are matched by their folded form in the text fields (no stems, no
// compound parts), a place is a geo distance filter around the point our
// gazetteer finds for it, a postal code a prefix of the entries' compact
// codes in the country, filters are keyword terms, and an openAt is a
// term over the hours slots each location is open in (a week of UTC hours
// at the build instant's offsets, without dated exceptions).
package blevepeer
