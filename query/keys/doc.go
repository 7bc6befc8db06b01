// Package keys is the store of buyer keys: the keys that open the bulk
// exports and the change feed (§8) to the buyers of the one public price
// list. Every key gets the same data at the same freshness: a key names a
// buyer and carries no tier (PRIV-25).
//
// The store is one JSON file, written whole and renamed into place. It
// holds each key's SHA-256, never the key: CreateKey shows the secret
// once, when it makes it (D62), RevokeKey marks a key revoked and keeps
// it listed, and CheckKey finds the live key a secret is, comparing
// hashes in constant time. The server reads the store (query/rest's
// exports); `daawid keys` writes it.
package keys
