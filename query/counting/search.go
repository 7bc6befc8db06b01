package counting

import "time"

// SearchLog is one search as the search log keeps it: when, by which
// category of reader, and the search's public parameters. It has no field
// for the reader's address or user agent, nor for the search's outcome,
// so none can be stored.
type SearchLog struct {
	// At is when the search was made (zero: now); it is kept to the
	// minute.
	At time.Time
	// Category is the category of reader, as for Read.
	Category string
	// The search's parameters ("" or nil where it had none).
	Query         string
	Place         string
	PostalCode    string
	Country       string
	CategoryCode  string // the search's category filter
	Kind          string
	Language      string
	RadiusKm      float64
	OpenAt        string
	AcceptingWork *bool
	VerifiedOnly  *bool
	Limit         int // results per page asked for
	Page          int // 1 for the first page, 2 after one cursor, ...
	// Hits is how many entries the search found.
	Hits int
}

// searchRow is one row of a searches file. Parameters a search did not
// have are null, not "", so an analyst tells "no place" from an empty one.
type searchRow struct {
	Day           int32     `parquet:"day,date"`                           // as in readRow
	SearchedAt    time.Time `parquet:"searched_at,timestamp(millisecond)"` // to the minute; not "at", a word SQL reserves
	Category      string    `parquet:"category,dict"`
	Query         string    `parquet:"query,optional"`
	Place         string    `parquet:"place,optional"`
	PostalCode    string    `parquet:"postal_code,optional"`
	Country       string    `parquet:"country,dict,optional"`
	CategoryCode  string    `parquet:"category_code,dict,optional"`
	Kind          string    `parquet:"kind,dict,optional"`
	Language      string    `parquet:"language,dict,optional"`
	RadiusKm      float64   `parquet:"radius_km,optional"`
	OpenAt        string    `parquet:"open_at,optional"`
	AcceptingWork *bool     `parquet:"accepting_work,optional"`
	VerifiedOnly  *bool     `parquet:"verified_only,optional"`
	PageSize      int32     `parquet:"page_size,optional"` // not "limit", a word SQL reserves
	Page          int32     `parquet:"page"`
	Hits          int32     `parquet:"hits"`
}

// Search logs one search. It is kept in memory, in arrival order, until
// the next flush.
func (c *Counter) Search(s SearchLog) {
	if s.At.IsZero() {
		s.At = time.Now()
	}
	at := s.At.UTC().Truncate(time.Minute)
	r := searchRow{Day: dayOf(at), SearchedAt: at, Category: s.Category, Query: s.Query, Place: s.Place, PostalCode: s.PostalCode,
		Country: s.Country, CategoryCode: s.CategoryCode, Kind: s.Kind, Language: s.Language, RadiusKm: s.RadiusKm, OpenAt: s.OpenAt,
		AcceptingWork: copyBool(s.AcceptingWork), VerifiedOnly: copyBool(s.VerifiedOnly), PageSize: int32(s.Limit), Page: int32(s.Page), Hits: int32(s.Hits)}
	c.smu.Lock()
	if len(c.searches) >= c.maxSearches {
		c.dropped++
	} else {
		c.searches = append(c.searches, r)
	}
	c.smu.Unlock()
}

// copyBool keeps the log's own copy, so a caller reusing its parameters
// cannot change a search already logged.
func copyBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}
