package mcp_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/render"
)

// TestMCP_StandInCard_MCP67: while the time guard serves an entry as a
// stand-in (its capacity expired after the publication, D66), get_entry
// still carries the entry card in _meta["com.daawid/card"], and it is
// the card of the re-issued revision, byte for byte, in the answer's
// language, under both protocol versions (the fast path and the SDK).
func TestMCP_StandInCard_MCP67(t *testing.T) {
	ts := mcpServer(t)
	ts.Now = testserver.ServeNow // after Holzwerk Krause's capacity expired
	rd, err := ts.Service.Begin(ts.Now)
	if err != nil {
		t.Fatal(err)
	}
	e, err := rd.Revision(testserver.HKID)
	rd.End()
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := render.Documents(e, reg.Site)
	want := map[string][]byte{}
	for _, d := range docs {
		if d.Kind == render.KindCard {
			want[d.Lang] = d.Body
		}
	}
	if len(want) == 0 {
		t.Fatal("the re-issued revision renders no card")
	}
	for _, v := range testserver.Protocols {
		t.Run(v, func(t *testing.T) {
			cs := testserver.MCPClient(t, ts, v)
			for lang, card := range want {
				res := testserver.CallTool(t, cs, "get_entry", map[string]any{"slug": testserver.HKSlug, "language": lang})
				if res.IsError {
					t.Fatalf("get_entry %s: %s", lang, testserver.TextOf(res))
				}
				// The client decodes _meta into maps: compare as values.
				got, _ := json.Marshal(res.Meta["com.daawid/card"])
				var a, b any
				if err := json.Unmarshal(got, &a); err != nil || json.Unmarshal(card, &b) != nil || !reflect.DeepEqual(a, b) {
					t.Errorf("%s: card %s, want the stand-in's %s (%v)", lang, got, card, err)
				}
			}
			if n := ts.Service.StandIns(); n == 0 {
				t.Error("no stand-in was made: the test does not reach the time guard")
			}
		})
	}
}
