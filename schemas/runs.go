package schemas

// ActionResult is a request tool's answer (§7.5), a union on Status:
// "confirmation_required" with RunID, ConfirmURL, ExpiresAt and Summary
// (ACT-10); "submitted" with RunID, SubmittedAt and ExpectedResponseBy
// (ACT-11); "handoff" with RunID and URL (ACT-12). The REST mirror
// answers the same (§8).
type ActionResult struct {
	Status             string `json:"status" jsonschema:"enum=confirmation_required,enum=submitted,enum=handoff"`
	RunID              string `json:"runId" jsonschema:"pattern=^run_[0-7][0-9a-hjkmnp-tv-z]{25}$"`
	ConfirmURL         string `json:"confirmUrl,omitempty"`
	ExpiresAt          string `json:"expiresAt,omitempty"`
	Summary            string `json:"summary,omitempty"`
	SubmittedAt        string `json:"submittedAt,omitempty"`
	ExpectedResponseBy string `json:"expectedResponseBy,omitempty"`
	URL                string `json:"url,omitempty"`
}

// RequestStatus is get_request_status' answer (§7.5): the state and when
// it last changed, never what the request says or who sent it (ACT-14,
// ACT-48).
type RequestStatus struct {
	RunID     string `json:"runId" jsonschema:"pattern=^run_[0-7][0-9a-hjkmnp-tv-z]{25}$"`
	Status    string `json:"status" jsonschema:"enum=awaiting_confirmation,enum=expired,enum=submitted,enum=delivered,enum=acknowledged,enum=declined,enum=cancelled"`
	UpdatedAt string `json:"updatedAt"`
}

// RunIDPattern is the pattern of a run ID (§7.5 RunId).
const RunIDPattern = `^run_[0-7][0-9a-hjkmnp-tv-z]{25}$`
