package rest

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/query/actions"
	"github.com/daawid/registry/schemas"
	"github.com/gin-gonic/gin"
)

// The request routes of the REST mirror (§8): POST /v1/actions/{actionId}/runs
// starts a request (REST-11, REST-21..REST-27) and GET /v1/runs/{runId}
// reads its status (REST-12), through the same actions.Service as the
// MCP request tools. Both are no-store (REST-36).

// maxRequestBody bounds a request's body: the longest input (4,000
// characters of description, answers, a requester) is far below it.
const maxRequestBody = 64 << 10

func (s *Server) noActions() error {
	return &query.Error{Code: query.CodeUnavailable, RetryAfterSeconds: 60, Message: "this server takes no requests: it has no runs store"}
}

// startRun: POST /v1/actions/{actionId}/runs, with an Idempotency-Key
// header and the kind's input, minus actionId, as the body.
func (s *Server) startRun(c *gin.Context, rd *query.Read) error {
	s.apiHeaders(c)
	c.Header("Cache-Control", "no-store")
	if s.cfg.Actions == nil {
		return s.noActions()
	}
	actionID := c.Param("actionId")
	if !schemas.ValidID(schemas.PrefixAction, actionID) {
		return query.InvalidInput([]query.Issue{{Field: "actionId", Message: "must be an action ID like act_01k8r2m7aa1b2c3d4e5f6g7h8j"}})
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxRequestBody))
	if err != nil {
		return query.InvalidInput([]query.Issue{{Field: "body", Message: "must be a JSON object of at most 64 KB"}})
	}
	res, err := s.cfg.Actions.StartAction(c.Request.Context(), rd, actionID, body, actions.Call{Platform: s.category(c.Request),
		IdempotencyKey: c.GetHeader("Idempotency-Key")})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if res.Status == "confirmation_required" || res.Status == "submitted" {
		// REST-24, REST-25: a new run is created (201); the same key
		// again is the same run with a new link (200). Both say where the
		// run's status is.
		c.Header("Location", s.site.APIURL+"/v1/runs/"+res.RunID)
		if res.Created {
			status = http.StatusCreated
		}
	}
	b, _ := json.Marshal(res)
	c.Data(status, "application/json", append(b, '\n'))
	return nil
}

// runStatus: GET /v1/runs/{runId}, get_request_status' answer: the state,
// never what the request says or who sent it (ACT-48). It keeps to the
// fair-use limit like every GET of the mirror (MCP-79).
func (s *Server) runStatus(c *gin.Context, rd *query.Read) error {
	s.apiHeaders(c)
	c.Header("Cache-Control", "no-store")
	if err := s.readAllowed(c); err != nil {
		return err
	}
	if s.cfg.Actions == nil {
		return s.noActions()
	}
	st, err := s.cfg.Actions.Status(c.Request.Context(), c.Param("runId"), s.cfg.Now())
	if err != nil {
		return err
	}
	b, _ := json.Marshal(st)
	c.Data(http.StatusOK, "application/json", append(b, '\n'))
	return nil
}

// runsGet answers a GET of a request's address (every view links it as
// an action's rest): 405 with Allow, saying how a request is started.
func (s *Server) runsGet(c *gin.Context, rd *query.Read) error {
	s.apiHeaders(c)
	c.Header("Allow", "POST, OPTIONS")
	p := Problem{Type: s.site.BaseURL + "/docs/api#" + query.CodeInvalidInput, Title: "Method not allowed", Status: http.StatusMethodNotAllowed, Code: query.CodeInvalidInput,
		Detail: "a request is started by POST with the kind's input as JSON (see " + s.site.BaseURL + "/docs/api#startRun), or with the MCP tool of its kind"}
	writeProblem(c.Writer, p)
	return nil
}

// runsPreflight answers CORS preflight for starting a request: a browser
// app may POST with the Idempotency-Key header.
func (s *Server) runsPreflight(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Idempotency-Key, Signature-Agent")
	h.Set("Access-Control-Expose-Headers", "Location, Retry-After, X-Trace-Id")
	h.Set("Access-Control-Max-Age", "86400")
	c.Status(http.StatusNoContent)
}
