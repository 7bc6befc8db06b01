package schemas

// Problem is an error answer of the REST mirror: RFC 9457 problem details
// with the contract's fields (REST-28). Code is the §7.8 error code,
// Detail the tool's message, Type {base}/docs/api#{code}, and Issues each
// mistake by its parameter or field (REST-29).
type Problem struct {
	Type              string       `json:"type"`
	Title             string       `json:"title"`
	Status            int          `json:"status"`
	Detail            string       `json:"detail"`
	Code              string       `json:"code" jsonschema:"enum=not_found,enum=gone,enum=invalid_input,enum=action_unavailable,enum=outside_service_area,enum=declined_by_business,enum=rate_limited,enum=confirmation_expired,enum=sign_in_required,enum=changed_since,enum=not_live,enum=not_allowed,enum=unavailable"`
	RetryAfterSeconds int          `json:"retryAfterSeconds,omitempty"`
	Issues            []FieldIssue `json:"issues,omitempty"`
}

// FieldIssue is one mistake in an input: the field or parameter, and what is
// wrong with it.
type FieldIssue struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}
