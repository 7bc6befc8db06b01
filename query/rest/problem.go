package rest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/daawid/registry/query"
	"github.com/daawid/registry/schemas"
)

// Problem is the RFC 9457 problem document (schemas.Problem, REST-28).
type Problem = schemas.Problem

// problemStatus maps the §7.8 codes to HTTP statuses: REST-30 where it
// says, our decision (D67) where it does not.
var problemStatus = []struct {
	code   string
	status int
	title  string
}{
	{query.CodeNotFound, http.StatusNotFound, "Not found"},
	{query.CodeGone, http.StatusGone, "Gone"},
	{query.CodeInvalidInput, http.StatusUnprocessableEntity, "Invalid input"},
	{query.CodeActionUnavailable, http.StatusConflict, "Action unavailable"},
	{query.CodeOutsideServiceArea, http.StatusUnprocessableEntity, "Outside the service area"},
	{query.CodeRateLimited, http.StatusTooManyRequests, "Rate limited"},
	{query.CodeUnavailable, http.StatusServiceUnavailable, "Unavailable"},
	{query.CodeDeclinedByBusiness, http.StatusConflict, "Declined by the business"},
	{query.CodeConfirmationExpire, http.StatusGone, "Confirmation expired"},
	{query.CodeSignInRequired, http.StatusUnauthorized, "Sign-in required"},
	{query.CodeChangedSince, http.StatusConflict, "Changed since"},
	{query.CodeNotLive, http.StatusConflict, "Not live"},
	{query.CodeNotAllowed, http.StatusForbidden, "Not allowed"},
}

func (s *Server) problemOf(e *query.Error) Problem {
	p := Problem{Type: s.site.BaseURL + "/docs/api#" + e.Code, Title: "Error", Status: http.StatusInternalServerError,
		Detail: e.Message, Code: e.Code, RetryAfterSeconds: e.RetryAfterSeconds, Issues: e.Issues}
	for _, ps := range problemStatus {
		if ps.code == e.Code {
			p.Status, p.Title = ps.status, ps.title
		}
	}
	return p
}

// writeProblem answers a problem (REST-03). Problems are never cached and
// name no trace ID: that is in the X-Trace-Id header (§7.3).
func writeProblem(w http.ResponseWriter, p Problem) {
	h := w.Header()
	for _, k := range []string{"ETag", "Last-Modified", "Content-Language", "Link", "Vary"} {
		h.Del(k)
	}
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if p.RetryAfterSeconds > 0 {
		h.Set("Retry-After", strconv.Itoa(p.RetryAfterSeconds))
	}
	b, _ := json.Marshal(p)
	w.WriteHeader(p.Status)
	w.Write(append(b, '\n'))
}
