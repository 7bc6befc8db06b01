package mcp_test

import (
	"testing"

	"github.com/daawid/registry/query/internal/testserver"
	"github.com/daawid/registry/schemas"
)

// TestMCP_UnknownArguments_MCP32: every tool refuses an argument its
// input schema does not define (each schema says additionalProperties:
// false), as a tool error whose issue names the argument by its path,
// under both protocol versions and on get_entry's fast path too; the
// same call without the stray argument is answered (or fails for
// another reason, not naming it).
func TestMCP_UnknownArguments_MCP32(t *testing.T) {
	ts := mcpServer(t)
	good := map[string]map[string]any{
		"search":              {"query": "Tischler", "near": map[string]any{"place": "Wuppertal"}},
		"get_entry":           {"slug": "holzwerk-krause"},
		"get_entry_sections":  {"slug": "holzwerk-krause", "sections": []string{"hours"}},
		"get_offerings":       {"entry": "holzwerk-krause"},
		"get_brand_kit":       {"entry": "holzwerk-krause"},
		"request_quote":       {"actionId": "act_01k8r2m7aa1b2c3d4e5f6g7h8j"},
		"request_callback":    {"actionId": "act_01k8r2m7bb1b2c3d4e5f6g7h8j"},
		"request_appointment": {"actionId": "act_01k8r2m7aa1b2c3d4e5f6g7h8j"},
		"send_message":        {"actionId": "act_01k8r2m7aa1b2c3d4e5f6g7h8j"},
		"get_request_status":  {"runId": "run_01k8r2m7aa1b2c3d4e5f6g7h8j"},
	}
	for _, spec := range append(schemas.ReadTools(), schemas.RequestTools()...) {
		if _, ok := good[spec.Name]; !ok {
			t.Errorf("no case for the tool %s", spec.Name)
		}
	}
	for _, v := range testserver.Protocols {
		t.Run(v, func(t *testing.T) {
			cs := testserver.MCPClient(t, ts, v)
			for tool, args := range good {
				stray := map[string]any{"radius_km": 5}
				for k, val := range args {
					stray[k] = val
				}
				e := testserver.ErrorOf(t, testserver.CallTool(t, cs, tool, stray))
				if e.Code != "invalid_input" || len(e.Issues) != 1 || e.Issues[0].Field != "radius_km" {
					t.Errorf("%s with radius_km: %+v", tool, e)
				}
				res := testserver.CallTool(t, cs, tool, args)
				if res.IsError {
					if e := testserver.ErrorOf(t, res); len(e.Issues) > 0 && e.Issues[0].Field == "radius_km" {
						t.Errorf("%s without radius_km still names it: %+v", tool, e)
					}
				}
			}
			// A member nested in an object the schema closes: near.
			e := testserver.ErrorOf(t, testserver.CallTool(t, cs, "search",
				map[string]any{"query": "Tischler", "near": map[string]any{"place": "Wuppertal", "radius": 3}}))
			if e.Code != "invalid_input" || len(e.Issues) != 1 || e.Issues[0].Field != "near.radius" {
				t.Errorf("search with near.radius: %+v", e)
			}
		})
	}
}
