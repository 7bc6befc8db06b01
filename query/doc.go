// Package query is the serving side: it opens and swaps publications,
// offers the one read API (Service) that the REST routes and the MCP tools
// share, and holds search, places and action runs. It never imports the
// pipeline.
package query
