// Package mcpclient is "daawid mcp": a small MCP client, the official Go
// SDK's, for trying the server's MCP tools from a terminal the way an AI
// app calls them (list the tools, call one with JSON arguments).
//
// It is a client of the server, not part of the registry's wiring, so it
// lives beside the command rather than in its main package; it speaks to
// the server only over HTTP, like any other client.
package mcpclient
