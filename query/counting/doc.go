// Package counting keeps the registry's own statistics of what its readers
// do (contract §8, REST-38): every entry returned is one read of its view,
// counted per entry, day and category of reader, and every search goes
// into a search log by category of reader.
//
// The caller decides what counts and who the reader is. It passes the
// category its User-Agent or Signature-Agent names ("openai",
// "anthropic", "other", ...) and calls Read only for a response that
// returned the entry: a 304 is such a read, a HEAD or an error is not.
// No address, user agent or outcome can be stored, because none is
// given: Read takes an entry and a category, and a SearchLog has no field
// for them. Search times are kept to the minute, so the log is hard to
// join line by line with a proxy's access log that does hold addresses.
//
// Counting is in memory and cheap: a map per shard from (day, entry,
// category) to a count. Flush, which Run calls every FlushEvery, writes
// what is pending as new Parquet files under the directory, partitioned
// by day the way DuckDB's hive_partitioning reads them:
//
//	reads/day=2026-11-30/20261130T120000Z-00000007.parquet     day, entry_id, category, reads
//	searches/day=2026-11-30/20261130T120000Z-00000008.parquet  day, searched_at, category, query, ...
//
// A file is written under a temporary name, synced and renamed, so a
// reader never sees half of one, and files are only ever added (Compact
// aside), so the counts survive a restart and an analyst sums them:
//
//	SELECT day, entry_id, category, sum(reads)
//	FROM read_parquet('reads/*/*.parquet', hive_partitioning = true) GROUP BY ALL;
//
// What a crash loses is what was still in memory: at most FlushEvery of
// counts. A flush that fails keeps what it could not write in memory for
// the next one, so nothing is lost or counted twice while the process
// lives. One Counter holds a directory at a time (an flock), since file
// names are unique only within one writer.
package counting
