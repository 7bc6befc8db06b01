package schemas

// The read answers besides EntryView (§7.5): what get_offerings and
// get_brand_kit return as structured content, and the REST mirror as
// JSON (REST-14).

// EntryRef names the entry an answer is about.
type EntryRef struct {
	EntryID     string `json:"entryId"`
	Slug        string `json:"slug"`
	DisplayName string `json:"displayName"`
	URL         string `json:"url"`
	Revision    int    `json:"revision"`
	Language    string `json:"language"`
}

// OfferingsAnswer is get_offerings' answer: the offerings that fit, in
// order, a page at a time (TOOL-12..TOOL-14).
type OfferingsAnswer struct {
	EntryRef
	Offerings []OfferingView `json:"offerings"`
	// Media are the pictures the offerings of this page refer to.
	Media []MediaView `json:"media,omitempty"`
	// Total is how many offerings fit, on every page.
	Total      int    `json:"total"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// BrandKitAnswer is get_brand_kit's answer: the entry and its brand kit
// (§6 BrandKitView); each part only when the owner gave it.
type BrandKitAnswer struct {
	EntryRef
	BrandKitView
}

// ChangesAnswer is a page of the change feed (/v1/changes, D60).
type ChangesAnswer struct {
	Changes []Change `json:"changes"`
	// NextCursor is the last sequence number of this page: ask again
	// with it for what follows.
	NextCursor string `json:"nextCursor"`
	HasMore    bool   `json:"hasMore"`
}
