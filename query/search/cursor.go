package search

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"strings"

	"github.com/daawid/registry/schemas"
)

// A cursor holds what the next page needs to continue the same order:
// the query it was made for (a hash of the input without cursor and
// limit), the hour whose turns ordered it, and the last hit's key.
//
//	version (1) | query hash (8) | hour (8) | rank (8) | entry ID
//
// base64url without padding. It is not secret: a cursor changed by hand
// either fails to decode, names another query, or pages on from another
// point of the same order.
const cursorVersion = 1

// errCursor is a cursor that is not one of this search's.
var errCursor = errors.New("not a cursor of this search: ask again without it")

func encodeCursor(queryHash uint64, hour int64, k Key) string {
	b := make([]byte, 0, 25+len(k.ID))
	b = append(b, cursorVersion)
	b = binary.BigEndian.AppendUint64(b, queryHash)
	b = binary.BigEndian.AppendUint64(b, uint64(hour))
	b = binary.BigEndian.AppendUint64(b, k.Rank)
	b = append(b, k.ID...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor made for the query of queryHash.
func decodeCursor(s string, queryHash uint64) (hour int64, k Key, err error) {
	if len(s) > 500 {
		return 0, Key{}, errCursor
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 25 || b[0] != cursorVersion {
		return 0, Key{}, errCursor
	}
	if binary.BigEndian.Uint64(b[1:]) != queryHash {
		return 0, Key{}, errCursor
	}
	id := string(b[25:])
	if !schemas.ValidID(schemas.PrefixEntry, id) {
		return 0, Key{}, errCursor
	}
	return int64(binary.BigEndian.Uint64(b[9:])), Key{Rank: binary.BigEndian.Uint64(b[17:]), ID: id}, nil
}

// hashInput is the hash of what decides a search's order: every input
// but cursor and limit.
func hashInput(in *schemas.SearchInput) uint64 {
	h := fnv.New64a()
	w := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	w(strings.TrimSpace(in.Query))
	w(strings.TrimSpace(in.Outcome))
	if in.Near != nil {
		w(in.Near.Place)
		w(in.Near.PostalCode)
		w(in.Near.Country)
	} else {
		w("\x01")
	}
	if in.RadiusKm != nil {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(*in.RadiusKm*1000))
		h.Write(b[:])
	}
	w(in.Category)
	w(string(in.Kind))
	w(in.OpenAt)
	switch {
	case in.AcceptingWork == nil:
		w("-")
	case *in.AcceptingWork:
		w("1")
	default:
		w("0")
	}
	if in.VerifiedOnly {
		w("v")
	}
	w(in.Language)
	return h.Sum64()
}
