package schemas

import "encoding/json"

// UnmarshalJSONForTest decodes as a reader of the open format does.
func (e *Entry) UnmarshalJSONForTest(b []byte) error { return json.Unmarshal(b, e) }
