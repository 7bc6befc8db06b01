package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/daawid/registry/query/auth"
	"github.com/daawid/registry/schemas"
)

// The MCP side of the owner tools' authorization (§7.2). Lazy auth
// (MCP-20): a call without a token is served as before, unless it calls
// an owner tool, which gets 401 with the challenge before the SDK runs
// (MCP-21). A token that is present is checked on every call, reads
// included: an invalid or expired one gets 401 (MCP-23). A good token
// without entries:write gets 403 insufficient_scope on an owner tool
// (MCP-24). Apps that name themselves OpenAI's get the challenge as a
// tool error instead (MCP-22, openAIApp).

// maxPeekBody bounds how much of a request the gate reads to find the
// tool it calls; the SDK refuses larger bodies anyway.
const maxPeekBody = 4 << 20

type principalKey struct{}

// PrincipalOf is the owner a call's token speaks for (nil: no token).
func PrincipalOf(ctx context.Context) *auth.Principal {
	p, _ := ctx.Value(principalKey{}).(*auth.Principal)
	return p
}

// authGate is the gate in front of the SDK's handler.
func authGate(a *auth.Server, resource string, now func() time.Time, next http.Handler) http.Handler {
	meta := auth.ResourceMetadataURL(resource)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		var p *auth.Principal
		if h := r.Header.Get("Authorization"); h != "" {
			tok, ok := bearer(h)
			if !ok {
				challenge(w, http.StatusUnauthorized, meta, `error="invalid_request", error_description="use the Bearer scheme"`)
				return
			}
			var err error
			if p, err = a.Verify(ctx, tok, now()); err != nil {
				challenge(w, http.StatusUnauthorized, meta, `error="invalid_token", error_description="the access token is invalid or expired"`)
				return
			}
			ctx = context.WithValue(ctx, principalKey{}, p)
		}
		tool, openAI := peekOwnerCall(r)
		switch {
		case tool == "":
		case p == nil && !openAI:
			challenge(w, http.StatusUnauthorized, meta, `scope="`+schemas.OwnerScope+`"`)
			return
		case p != nil && !p.HasScope(schemas.OwnerScope):
			challenge(w, http.StatusForbidden, meta, `error="insufficient_scope", scope="`+schemas.OwnerScope+`"`)
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	tok = strings.TrimSpace(tok)
	return tok, ok && strings.EqualFold(scheme, "Bearer") && tok != ""
}

// Challenge is the WWW-Authenticate value of the owner tools (MCP-21):
// the protected-resource metadata's URL, then params.
func Challenge(metadataURL, params string) string {
	return `Bearer resource_metadata="` + metadataURL + `", ` + params
}

func challenge(w http.ResponseWriter, status int, meta, params string) {
	w.Header().Set("WWW-Authenticate", Challenge(meta, params))
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, http.StatusText(status), status)
}

// peekOwnerCall reads the JSON-RPC body (and puts it back) to find a
// tools/call of an owner tool, in a single message or a batch, and
// whether the app names itself OpenAI's.
func peekOwnerCall(r *http.Request) (tool string, openAI bool) {
	if r.Method != http.MethodPost || r.Body == nil {
		return "", false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeekBody+1))
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
	if err != nil || len(body) > maxPeekBody {
		return "", false
	}
	type call struct {
		Method string `json:"method"`
		Params struct {
			Name string                     `json:"name"`
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	var calls []call
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		json.Unmarshal(body, &calls)
	} else {
		var c call
		if json.Unmarshal(body, &c) == nil {
			calls = []call{c}
		}
	}
	for _, c := range calls {
		if c.Method == "tools/call" && schemas.IsOwnerTool(c.Params.Name) {
			return c.Params.Name, openAIApp(r, c.Params.Meta)
		}
	}
	return "", false
}

// openAIApp says whether the app names itself OpenAI's (MCP-22). The
// server is stateless, so the initialize's clientInfo is not at hand on
// a tool call; what is: ChatGPT's connector sends a User-Agent of
// "openai-mcp/…", and its tool calls carry openai/ keys in _meta
// (openai/userAgent, openai/locale). Either one is taken as the app
// naming itself OpenAI's.
func openAIApp(r *http.Request, meta map[string]json.RawMessage) bool {
	ua := strings.ToLower(r.Header.Get("User-Agent"))
	if strings.HasPrefix(ua, "openai-mcp") || strings.Contains(ua, "chatgpt") {
		return true
	}
	for k := range meta {
		if strings.HasPrefix(k, "openai/") {
			return true
		}
	}
	return false
}
