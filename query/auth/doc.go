// Package auth is Daawid's authorization server for the owner tools
// (§7.2, issue 19): OAuth 2.1 with the authorization code and PKCE S256
// only (MCP-13), public clients that name themselves by a Client ID
// Metadata Document (MCP-12, MCP-14), RFC 8414 and RFC 9728 metadata
// (MCP-17), JWT access tokens for the MCP endpoint only (RFC 9068, RFC
// 8707, MCP-18), refresh tokens that rotate (MCP-19), and the owner's
// sign-in with an emailed code and consent on the connect page (MCP-16).
//
// It keeps its keys, grants, codes and owners in the writable store the
// action runs use (SQLite by default, PostgreSQL when several server
// processes share it), with its own tables and migrations, never in a
// publication. Signing and key handling are go-jose's; nothing here is
// cryptography of its own.
//
// The seams for what comes later: Owners (the claim flow writes it),
// Verifier (the MCP server checks tokens with it) and Principal (what an
// owner tool learns of its caller).
package auth
