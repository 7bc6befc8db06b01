package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/daawid/registry/render"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fastGetEntry answers `tools/call get_entry`, the read AI apps make most,
// without the SDK's encoder: the SDK marshals a result three times, and
// encoding/json compacts the 10–20 KB view again at each pass, which made
// an MCP read six times the CPU of the same read over REST. The answer is
// the same JSON-RPC response the SDK would write (TestMCP_FastPath compares
// them for every fixture and language); anything else, or anything
// unusual about the request, goes to the SDK.
func (t *tools) fastGetEntry(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") ||
		!fastVersions[r.Header.Get("MCP-Protocol-Version")] {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxFastBody+1))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil || len(body) > maxFastBody {
		return false
	}
	var req struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  *struct {
			Name      string                     `json:"name"`
			Arguments json.RawMessage            `json:"arguments"`
			Meta      map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil || req.JSONRPC != "2.0" || len(req.ID) == 0 || req.ID[0] == 'n' ||
		req.Method != "tools/call" || req.Params == nil || req.Params.Name != "get_entry" ||
		!fastMeta(r.Header.Get("MCP-Protocol-Version"), req.Params.Meta) {
		return false
	}
	// 2026-07-28 names the method and the tool in headers too (SEP-2243).
	if r.Header.Get("MCP-Protocol-Version") == "2026-07-28" && (r.Header.Get("Mcp-Method") != "tools/call" || r.Header.Get("Mcp-Name") != "get_entry") {
		return false
	}
	res, err := t.getEntry(false)(r.Context(), &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: "get_entry", Arguments: req.Params.Arguments}})
	if err != nil {
		return false
	}
	out := make([]byte, 0, 32<<10)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, bytes.TrimSpace(req.ID)...)
	out = append(out, `,"result":`...)
	// 2026-07-28 results say they are complete and name the server.
	v2026 := r.Header.Get("MCP-Protocol-Version") == "2026-07-28"
	view, isView := res.StructuredContent.(json.RawMessage)
	if res.IsError || !isView || len(res.Content) != 1 {
		b, err := json.Marshal(res) // an error: small
		if err != nil {
			return false
		}
		if v2026 {
			var m map[string]any
			if json.Unmarshal(b, &m) != nil {
				return false
			}
			m["resultType"] = "complete"
			m["_meta"] = map[string]any{metaServerInfo: serverInfo}
			if b, err = json.Marshal(m); err != nil {
				return false
			}
		}
		out = append(out, b...)
	} else {
		text, _ := json.Marshal(res.Content[0].(*sdk.TextContent).Text)
		out = append(out, `{"content":[{"type":"text","text":`...)
		out = append(out, text...)
		out = append(out, `}],"structuredContent":`...)
		out = append(out, view...)
		card, hasCard := res.Meta[cardKey].(json.RawMessage)
		if hasCard || v2026 {
			out = append(out, `,"_meta":{`...)
			if hasCard {
				out = append(out, `"`+cardKey+`":`...)
				out = append(out, card...)
			}
			if v2026 {
				if hasCard {
					out = append(out, ',')
				}
				out = append(out, `"`+metaServerInfo+`":`...)
				out = append(out, serverInfoJSON...)
			}
			out = append(out, '}')
		}
		if v2026 {
			out = append(out, `,"resultType":"complete"`...)
		}
		out = append(out, '}')
	}
	out = append(out, "}\n"...)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	w.Write(out)
	return true
}

// fastMeta reports whether a call's _meta is one the fast path answers
// as the SDK would: a 2025-11-25 call carries none; a 2026-07-28 call
// carries the SEP-2575 triple, its version the header's, its client
// capabilities an object, its client info (if any) a name and version.
// Anything else goes to the SDK, which answers the protocol error.
func fastMeta(header string, meta map[string]json.RawMessage) bool {
	if header == "2025-11-25" {
		return meta == nil
	}
	var version string
	if json.Unmarshal(meta[metaVersion], &version) != nil || version != header {
		return false
	}
	var caps map[string]any
	if json.Unmarshal(meta[metaCapabilities], &caps) != nil || caps == nil {
		return false
	}
	if raw, ok := meta[metaClientInfo]; ok {
		var info struct {
			Name    *string `json:"name"`
			Version *string `json:"version"`
		}
		if json.Unmarshal(raw, &info) != nil || info.Name == nil || info.Version == nil {
			return false
		}
	}
	for k := range meta {
		if k != metaVersion && k != metaCapabilities && k != metaClientInfo {
			return false // another key the SDK might read
		}
	}
	return true
}

// serverInfo is the server's Implementation, as 2026-07-28 results carry
// it.
var (
	serverInfo     = &sdk.Implementation{Name: "daawid", Title: "Daawid registry", Version: render.EngineVersion}
	serverInfoJSON = func() []byte { b, _ := json.Marshal(serverInfo); return b }()
)

const (
	metaServerInfo   = "io.modelcontextprotocol/serverInfo"
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
)

// maxFastBody is the largest get_entry request the fast path reads.
const maxFastBody = 8 << 10

// fastVersions are the protocol versions whose tools/call response the
// fast path writes (both the same shape).
var fastVersions = map[string]bool{"2025-11-25": true, "2026-07-28": true}
