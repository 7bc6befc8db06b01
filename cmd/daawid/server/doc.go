// Package server runs the serving side of daawid as one process, for
// "daawid serve" and "daawid demo": it opens the publications
// (query.Snapshots, swapping to newer ones as they appear), mounts the
// REST routes and the MCP tools over one query.Service, starts the action
// runs (their store, the outbox's sender and the sweeper), counts reads,
// keeps the fair-use limit, serves the Prometheus metrics and the profiles
// on a private listener, and shuts down gracefully when its context ends.
//
// It is wiring, not logic: every part it starts belongs to a package under
// query/. It lives beside the command, not in query/, because it is the
// process's composition root: the listeners, the metrics registry and the
// order of the shutdown are the process's concern, and the command's main
// package keeps to flags and configuration (STYLE rule 6). Its
// configuration is a struct passed in (ARCHITECTURE decision 7).
package server
