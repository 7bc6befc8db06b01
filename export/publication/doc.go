// Package publication is the publication format: what the pipeline writes
// and the server reads, in one package both sides import (ARCHITECTURE:
// the two sides share only the entry model and this; decisions D59, D65).
//
// A publication is a directory under {out}/publications/{id}/:
//
//	manifest.json          spec version, run, created at, counts, the index
//	                       chain and the packs, SHA-256 of every file
//	registry.duckdb        the tables the server queries (Tables), with
//	                       comments; read through the typed readers here
//	packs/{pubId}.pack     documents' bytes, one after the other: its own
//	                       pack (what it rendered) and hard links to the
//	                       packs of earlier publications it still uses
//	index/{pubId}.parquet  document indexes (DocRow): entry, kind, language,
//	                       path, pack, offset, length, media type, ETag,
//	                       Last-Modified; a full index, or a full index and
//	                       the deltas after it (a later file replaces all
//	                       the documents of an entry it names)
//	feed/, exports/        the change feed and the bulk exports
//
// made visible by one atomic rename of the {out}/current symlink (Swap).
// A publication holds only public data (issue 15): its packs hold each
// entry's public revision, and where requests go is in a private file
// beside the publications, {out}/private/{pubId}.routing.json (Routing),
// which no manifest, static tree or export names.
// The package holds the layout and paths, the document index and its rows,
// the manifest and its verification, the swap, the static tree, the feed's
// segments and the DuckDB snapshot's table definitions with the readers the
// server uses. The writer of registry.duckdb is export.RegistryDB; the
// kinds of the documents are the names of render.Formats.
package publication
