// Package fairuse keeps the registry's anonymous rate limit (contract
// §7.8): 300 reads per minute per client and IP, where the client is the
// category of reader, the AI company whose app calls, and not whatever
// name the caller gives itself. The MCP server's read tools and the REST
// mirror's GET routes share it (§8, REST-38).
//
// CategoryOf turns a request's User-Agent and Signature-Agent headers into
// one of a fixed set of categories. Anything it does not recognise, a
// browser, curl or a name invented a moment ago, is "other", so a caller
// gets no new allowance by renaming itself: every unknown name from one
// address draws on the same "other" allowance.
//
// A claimed category is believed only from its operator's published
// address ranges (Ranges, MCP-80); any other claim counts as the
// address's own reads ("other"), so no User-Agent raises one address's
// total.
//
// Limiter counts reads by (category, address) in fixed calendar minutes
// (UTC). An IPv6 address counts by its /64, because one host usually holds
// a whole /64 and could otherwise step through addresses for new
// allowances. Counters live in memory only and are dropped as soon as
// their minute ends: an address is kept for that minute and written
// nowhere.
package fairuse
