package schemas

// Search's input and answer (§7.5 SearchInput, SearchHit, SearchPlace,
// SearchOutput; SEARCH-01..19), and the search record a publication keeps
// for each entry search can find.

// SearchInput is search's input (SEARCH-01..12). The REST mirror reads the
// same from its query string (REST-08).
type SearchInput struct {
	// Query is the user's need in their words: "Tischler für Einbauschrank".
	Query string `json:"query" jsonschema:"minLength=1,maxLength=200"`
	// Outcome is what the user wants to achieve; it helps the best fits
	// come up, leaves nobody out, and isn't kept.
	Outcome string `json:"outcome,omitempty" jsonschema:"maxLength=500"`
	Near    *Near  `json:"near,omitempty"`
	// RadiusKm limits the distance only when the user names a limit.
	RadiusKm *float64 `json:"radiusKm,omitempty" jsonschema:"minimum=1,maximum=200"`
	// Category is a category code or a sector's code ("trades").
	Category string    `json:"category,omitempty"`
	Kind     EntryKind `json:"kind,omitempty"`
	// OpenAt keeps entries open then, by their locations' hours in each
	// one's time zone.
	OpenAt        string `json:"openAt,omitempty"`
	AcceptingWork *bool  `json:"acceptingWork,omitempty"`
	VerifiedOnly  bool   `json:"verifiedOnly,omitempty"`
	// Language is the language the user writes in.
	Language string `json:"language,omitempty"`
	Limit    int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=20,default=10"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"maxLength=500"`
}

// Near is a place by name, or a postal code with its country (no default
// country).
type Near struct {
	Place      string `json:"place,omitempty" jsonschema:"minLength=2,maxLength=100"`
	PostalCode string `json:"postalCode,omitempty" jsonschema:"minLength=3,maxLength=10"`
	Country    string `json:"country,omitempty" jsonschema:"pattern=^[A-Z]{2}$"`
}

// SearchHit is one entry found (SEARCH-13).
type SearchHit struct {
	ID          string    `json:"id"`
	Kind        EntryKind `json:"kind"`
	Slug        string    `json:"slug"`
	URL         string    `json:"url"`
	DisplayName string    `json:"displayName"`
	Summary     string    `json:"summary"`
	Categories  []string  `json:"categories"`
	// CategoryNames are the categories' names in the query's language
	// (English when the taxonomy has none in it), in the order of
	// Categories: what a person is shown (issue 15).
	CategoryNames []string `json:"categoryNames"`
	// Locality is the town of the entry's primary location.
	Locality string `json:"locality,omitempty"`
	// MarkdownURL, JSONLDURL and APIURL are where an agent reads the
	// entry next (issue 15): its markdown document (/{slug}.md),
	// its JSON-LD document (/{slug}.json) and its view on the REST
	// mirror (/v1/entries/{id}).
	MarkdownURL         string            `json:"markdownUrl"`
	JSONLDURL           string            `json:"jsonLdUrl"`
	APIURL              string            `json:"apiUrl"`
	DistanceKm          *float64          `json:"distanceKm,omitempty" jsonschema:"minimum=0"`
	ServesQueryLocation *bool             `json:"servesQueryLocation,omitempty"`
	Status              EntryStatus       `json:"status"`
	VerificationLevel   VerificationLevel `json:"verificationLevel"`
	CapacityStatus      CapacityStatus    `json:"capacityStatus,omitempty"`
	OpenNow             *bool             `json:"openNow,omitempty"`
	// Sponsored is always false: nobody pays for a place (§7.3).
	Sponsored bool `json:"sponsored" jsonschema:"const=false"`
}

// SearchPlace is the place Daawid found for near (SEARCH-18).
type SearchPlace struct {
	Name          string `json:"name"`
	Region        string `json:"region,omitempty"`
	Country       string `json:"country"`
	PostalCode    string `json:"postalCode,omitempty"`
	CorrectedFrom string `json:"correctedFrom,omitempty"`
}

// SearchOutput is search's answer (SEARCH-19).
type SearchOutput struct {
	Hits          []SearchHit  `json:"hits"`
	Place         *SearchPlace `json:"place,omitempty"`
	NextCursor    string       `json:"nextCursor,omitempty"`
	RankingPolicy string       `json:"rankingPolicy"`
}

// SearchRecord is an entry as search sees it. It holds only what the
// entry's views show (no street of a locality-only location, no expired
// capacity, no private contact).
type SearchRecord struct {
	ID                string            `json:"id"`
	Slug              string            `json:"slug"`
	Kind              EntryKind         `json:"kind"`
	Status            EntryStatus       `json:"status"`
	VerificationLevel VerificationLevel `json:"verificationLevel"`
	DefaultLanguage   string            `json:"defaultLanguage"`
	// Names are the display name by language (the default language's
	// first); Summaries likewise.
	Names      []LangText `json:"names"`
	Summaries  []LangText `json:"summaries"`
	Categories []string   `json:"categories,omitempty"`
	// PrimaryLocation is the index into Locations of the primary one.
	PrimaryLocation int              `json:"primaryLocation,omitempty"`
	Locations       []SearchLocation `json:"locations,omitempty"`
	ServiceArea     *ServiceArea     `json:"serviceArea,omitempty"`
	// Capacity: its status and when it expires, while unexpired at publish.
	CapacityStatus    CapacityStatus `json:"capacityStatus,omitempty"`
	CapacityExpiresAt string         `json:"capacityExpiresAt,omitempty"`
	// Strong are the folded words (and stems) of the names, alternate
	// names and offerings' names; Weak those of the summaries,
	// descriptions, offerings' descriptions and towns that are not also
	// strong. Both sorted.
	Strong []string `json:"strong,omitempty"`
	Weak   []string `json:"weak,omitempty"`
}

// LangText is a text in one language.
type LangText struct {
	Lang string `json:"lang"`
	Text string `json:"text"`
}

// SearchLocation is a location as search places it: its point when it
// states one, its postal code and town, its time zone and hours.
type SearchLocation struct {
	ID         string               `json:"id"`
	Locality   string               `json:"locality"`
	PostalCode string               `json:"postalCode,omitempty"`
	Region     string               `json:"region,omitempty"`
	Country    string               `json:"country"`
	Geo        *Geo                 `json:"geo,omitempty"`
	TimeZone   string               `json:"timeZone,omitempty"`
	Hours      []HoursRule          `json:"hours,omitempty"`
	Exceptions []HoursExceptionView `json:"exceptions,omitempty"`
}

// EntryCard is the entry card's data: entry data only (MCP-70).
type EntryCard struct {
	ID                string            `json:"id"`
	Slug              string            `json:"slug"`
	Language          string            `json:"language"`
	DisplayName       string            `json:"displayName"`
	Summary           string            `json:"summary,omitempty"`
	Locality          string            `json:"locality,omitempty"`
	Status            EntryStatus       `json:"status"`
	VerificationLevel VerificationLevel `json:"verificationLevel"`
	Phone             string            `json:"phone,omitempty"`
	Email             string            `json:"email,omitempty"`
	Logo              *MediaView        `json:"logo,omitempty"`
	Colors            *BrandColors      `json:"colors,omitempty"`
	Links             Links             `json:"links"`
}
