package export

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/duckdb/duckdb-go/v2"
)

// RegistryDB writes a publication's registry.duckdb (the tables of
// publication.TablesSQL) with the Appender: a full publication makes it
// new (NewRegistryDB), a delta starts from a copy of the previous one
// (CopyRegistryDB).
type RegistryDB struct {
	db      *sql.DB
	conn    *sql.Conn
	entries *duckdb.Appender
	more    map[string]*duckdb.Appender // the per-entry tables
	states  *duckdb.Appender            // temp.feed_states (feedstates.go)
	reused  *duckdb.Appender            // temp.reused_ids: entries CopyReused copies
	nReused int64
	// oldSlugsCopied: a delta's copy whose source had old_slugs.
	oldSlugsCopied bool
}

// registryDBOptions bound DuckDB's memory while a publication writes its
// database (its default is 80 % of the machine's): the feed's join and
// the copies of reused rows spill to disk beyond it (issue 18). The
// publication's peak memory is stated in docs/scale.md.
const registryDBOptions = "?memory_limit=512MB"

// NewRegistryDB makes a new registry.duckdb at path, with the taxonomy's
// categories.
func NewRegistryDB(path string) (*RegistryDB, error) {
	r, err := newRegistryDB(path)
	if err != nil {
		return nil, fmt.Errorf("new registry database %s: %w", path, err)
	}
	return r, nil
}

func newRegistryDB(path string) (*RegistryDB, error) {
	db, err := sql.Open("duckdb", path+registryDBOptions)
	if err != nil {
		return nil, err
	}
	for _, q := range publication.TablesSQL {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, err
		}
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, err
	}
	r := &RegistryDB{db: db, conn: conn}
	if err := r.categories(); err != nil {
		r.Close()
		return nil, err
	}
	if err := r.appenders(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// appenders opens the Appenders of the per-entry tables and of the
// states the change feed compares.
func (r *RegistryDB) appenders() error {
	r.more = map[string]*duckdb.Appender{}
	if _, err := r.conn.ExecContext(context.Background(), feedStatesSQL); err != nil {
		return err
	}
	return r.conn.Raw(func(dc any) error {
		var err error
		if r.states, err = duckdb.NewAppender(dc.(driver.Conn), "temp", "main", "feed_states"); err != nil {
			return err
		}
		if r.reused, err = duckdb.NewAppender(dc.(driver.Conn), "temp", "main", "reused_ids"); err != nil {
			return err
		}
		if r.entries, err = duckdb.NewAppender(dc.(driver.Conn), "", "main", "entries"); err != nil {
			return err
		}
		for _, t := range publication.EntryTables {
			if r.more[t], err = duckdb.NewAppender(dc.(driver.Conn), "", "main", t); err != nil {
				return err
			}
		}
		return nil
	})
}

// categories writes the taxonomy.
func (r *RegistryDB) categories() error {
	tax := taxonomy.Default()
	var rows [][]driver.Value
	for _, c := range tax.Categories() {
		labels, _ := json.Marshal(tax.Labels(c.Code))
		terms, _ := json.Marshal(tax.Terms(c.Code))
		rows = append(rows, []driver.Value{c.Code, c.Sector, nullable(c.SchemaType), nonNil(c.NACE), string(labels), string(terms)})
	}
	return publication.AppendRows(r.conn, "", "categories", rows)
}

// tables appends an entry's rows in the per-entry tables.
func (r *RegistryDB) tables(t *Rows) error {
	for _, o := range t.Offerings {
		p := o.Price
		if p == nil {
			p = &schemas.PriceView{}
		}
		if err := r.more["offerings"].AppendRow(o.EntryID, o.OfferingID, o.Kind, o.Name, nullable(o.Description), nullable(o.Category), nullable(o.Audience),
			nullable(o.PriceKind), nullable(p.Amount), nullable(p.Min), nullable(p.Max), nullable(o.Currency), nullable(o.PriceUnit), o.Language); err != nil {
			return err
		}
	}
	for _, l := range t.Locations {
		var lat, lon driver.Value
		if l.AddressDisplay == string(schemas.DisplayFull) && (l.Lat != 0 || l.Lon != 0) {
			lat, lon = l.Lat, l.Lon
		}
		if err := r.more["locations"].AppendRow(l.EntryID, l.LocationID, nullable(l.Name), nullable(l.Street), nullable(l.PostalCode), nullable(l.Locality),
			nullable(l.Region), l.AddressDisplay, lat, lon, nullable(l.TimeZone), nullable(l.HoursJSON)); err != nil {
			return err
		}
	}
	for _, c := range t.Contacts {
		if err := r.more["contact_points"].AppendRow(c.EntryID, c.ContactID, c.Name, c.Purposes, nullable(c.Phone), nullable(c.Email), c.Languages); err != nil {
			return err
		}
	}
	for _, a := range t.Actions {
		if err := r.more["actions"].AppendRow(a.EntryID, a.ActionID, a.Type, a.Name, a.OfferingIDs); err != nil {
			return err
		}
	}
	return nil
}

func nullable(s string) driver.Value {
	if s == "" {
		return nil
	}
	return s
}

// Published is what the entries table records of an entry's published
// documents: its languages (the default first), the ETag and size of its
// default-language markdown, and when time alone changes it.
type Published struct {
	Languages     []string
	ETag          string
	MarkdownBytes int64
	NextChangeAt  time.Time
}

// Entry appends a rendered entry's rows: its row in entries and its rows
// in the per-entry tables.
func (r *RegistryDB) Entry(e *schemas.Entry, p Published, t *Rows) error {
	if err := r.tables(t); err != nil {
		return err
	}
	var locality, postal, country string
	var lat, lon driver.Value
	if len(e.Locations) > 0 {
		loc := e.Locations[0]
		for _, l := range e.Locations {
			if l.ID == e.PrimaryLocationID {
				loc = l
			}
		}
		locality, postal, country = loc.Address.Locality, loc.Address.PostalCode, loc.Address.Country
		// A point only where the address is shown in full (I15): a
		// locality-only location is placed by its town.
		if loc.Geo != nil && loc.AddressDisplay == schemas.DisplayFull {
			lat, lon = loc.Geo.Lat, loc.Geo.Lng
		}
	}
	return r.entries.AppendRow(e.ID, e.Slug, string(e.Status), e.Listed, string(e.Kind), e.DisplayName, e.DefaultLanguage,
		nonNil(p.Languages), nonNil(e.Categories), nullable(e.Summary.Get(e.DefaultLanguage)), nullable(locality), nullable(postal),
		nullable(country), lat, lon, string(e.Verification.Level), nonNil(e.VerifiedHosts()), int32(e.Record.Revision), nullable(p.ETag),
		schemas.ParseTime(e.Record.UpdatedAt), nullTime(p.NextChangeAt), nil, nil, p.MarkdownBytes)
}

// OldSlug is a slug an entry had before a rename.
type OldSlug struct{ Slug, EntryID string }

// OldSlugs writes the table of slugs entries had before (the server
// redirects them, D47): every one, replacing what a delta's copy holds;
// or, with only, the slugs of those entries alone, replacing theirs (a
// delta over a copy that has the table, OldSlugsCopied).
func (r *RegistryDB) OldSlugs(ctx context.Context, slugs []OldSlug, only []string) error {
	// The table is made with the database (DDL next to open Appenders
	// loses their rows).
	del := `DELETE FROM old_slugs`
	if only != nil {
		if err := publication.TempStrings(ctx, r.conn, "old_slugs_of", "entry_id", only); err != nil {
			return fmt.Errorf("old slugs: %w", err)
		}
		del += ` WHERE entry_id IN (SELECT entry_id FROM temp.old_slugs_of)`
	}
	if _, err := r.conn.ExecContext(ctx, del); err != nil {
		return fmt.Errorf("old slugs: %w", err)
	}
	rows := make([][]driver.Value, len(slugs))
	for i, o := range slugs {
		rows[i] = []driver.Value{o.Slug, o.EntryID}
	}
	if err := publication.AppendRows(r.conn, "", "old_slugs", rows); err != nil {
		return fmt.Errorf("old slugs: %w", err)
	}
	return nil
}

// OldSlugsCopied reports whether the database is a delta's copy of a
// publication that had the old_slugs table (every publication since D47
// has): then the delta replaces only its entries' old slugs.
func (r *RegistryDB) OldSlugsCopied() bool { return r.oldSlugsCopied }

// CopyRegistryDB starts a delta publication's database as a copy of the
// previous one without the rows of the entries that changed.
func CopyRegistryDB(src, dst string, changed []string) (*RegistryDB, error) {
	if err := CopyRegistryFile(src, dst); err != nil {
		return nil, err
	}
	return OpenRegistryCopy(dst, changed)
}

// CopyRegistryFile copies a publication's registry database to dst, the
// first half of CopyRegistryDB: a delta starts it while it finds the
// entries that changed (issue 18: at 10M the file is 1.3 GB).
func CopyRegistryFile(src, dst string) error {
	if err := copyFile(src, dst); err != nil {
		return fmt.Errorf("copy registry database %s: %w", src, err)
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenRegistryCopy opens a copy CopyRegistryFile made and deletes the
// rows of the entries that changed, the second half of CopyRegistryDB.
func OpenRegistryCopy(dst string, changed []string) (*RegistryDB, error) {
	r, err := openRegistryCopy(dst, changed)
	if err != nil {
		return nil, fmt.Errorf("registry database copied to %s: %w", dst, err)
	}
	return r, nil
}

func openRegistryCopy(dst string, changed []string) (*RegistryDB, error) {
	db, err := sql.Open("duckdb", dst+registryDBOptions)
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		return nil, err
	}
	r := &RegistryDB{db: db, conn: conn}
	ctx := context.Background()
	if err := publication.TempStrings(ctx, conn, "changed", "entry_id", changed); err != nil {
		r.Close()
		return nil, err
	}
	for _, t := range append([]string{"entries"}, publication.EntryTables...) {
		if _, err := conn.ExecContext(ctx, `DELETE FROM `+t+` WHERE entry_id IN (SELECT entry_id FROM temp.changed)`); err != nil {
			r.Close()
			return nil, err
		}
	}
	var tables int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'old_slugs'`).Scan(&tables); err != nil {
		r.Close()
		return nil, err
	}
	r.oldSlugsCopied = tables == 1
	for _, q := range []string{publication.OldSlugsSQL, publication.OldSlugsComment} { // a publication from before the table
		if _, err := conn.ExecContext(ctx, q); err != nil {
			r.Close()
			return nil, err
		}
	}
	if err := r.appenders(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Reused notes an entry whose documents were copied: its rows are copied
// from the previous publication's registry.duckdb by CopyReused. The IDs
// go to a temporary table, not the heap (issue 18).
func (r *RegistryDB) Reused(entryID string) error {
	r.nReused++
	return r.reused.AppendRow(entryID)
}

// CopyReused copies the rows of the reused entries from the previous
// publication's database.
func (r *RegistryDB) CopyReused(prevDB string) error {
	if r.nReused == 0 {
		return nil
	}
	ctx := context.Background()
	if err := r.Flush(); err != nil {
		return err
	}
	if err := r.reused.Flush(); err != nil {
		return err
	}
	stmts := []string{`ATTACH '` + strings.ReplaceAll(prevDB, "'", "''") + `' AS prev (READ_ONLY)`}
	for _, t := range append([]string{"entries"}, publication.EntryTables...) {
		stmts = append(stmts, `INSERT INTO `+t+` SELECT p.* FROM prev.`+t+` p JOIN temp.reused_ids USING (entry_id)`)
	}
	stmts = append(stmts, `DETACH prev`)
	for _, q := range stmts {
		if _, err := r.conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("registry.duckdb: %w", err)
		}
	}
	return nil
}

// SitemapParts makes the sitemap lines of every listed entry's pages (its
// default language first), in slug order, in parts of at most limit URLs,
// and calls fn with each part's lines and newest lastmod, in order, as
// DuckDB gives them: no more than one part is held (issue 18; at 10M
// entries the lines are about a gigabyte). Slugs and language codes need
// no XML escaping ([a-z0-9-]); the base URL is escaped here.
func (r *RegistryDB) SitemapParts(baseURL string, limit int, fn func(lines string, lastmod time.Time) error) error {
	var part strings.Builder
	var last time.Time
	n := 0
	flush := func() error {
		err := fn(part.String(), last.UTC())
		part.Reset()
		last, n = time.Time{}, 0
		return err
	}
	// The URLs come sorted (a sort DuckDB spills past its memory limit)
	// and are cut into parts here: an ordered string_agg per part held
	// every line at once and passed the registry database's 512 MB at 3M
	// entries.
	err := r.sitemapRows(baseURL, "", func(_ string, line string, mod time.Time) error {
		if n == limit {
			if err := flush(); err != nil {
				return err
			}
		}
		n++
		if line == "" {
			return nil // no lastmod: no line (as the SQL's NULL concatenation gave)
		}
		part.WriteString(line)
		if mod.After(last) {
			last = mod
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n > 0 {
		return flush()
	}
	return nil
}

// SitemapLinesOfRun calls fn with the sitemap lines of the entries this
// run rendered or removed (FeedState) that are listed, in the order and
// with the bytes SitemapParts gives them: what a delta merges into the
// previous publication's parts (D121). rows is the number of rows
// SitemapParts would count in all (one an entry's language), and
// unlined how many of them have no line (no lastmod): a merge is exact
// only when there are none.
func (r *RegistryDB) SitemapLinesOfRun(baseURL string, fn func(slug, line string) error) (rows, unlined int64, err error) {
	if err := r.states.Flush(); err != nil {
		return 0, 0, fmt.Errorf("feed states: %w", err)
	}
	err = r.sitemapRows(baseURL, `AND entry_id IN (SELECT entry_id FROM temp.feed_states)`, func(slug, line string, _ time.Time) error {
		return fn(slug, line)
	})
	if err != nil {
		return 0, 0, err
	}
	err = r.conn.QueryRowContext(context.Background(), `SELECT coalesce(sum(len(languages)), 0), coalesce(sum(len(languages)) FILTER (WHERE last_modified IS NULL), 0)
		FROM entries WHERE listed AND status <> 'removed'`).Scan(&rows, &unlined)
	return rows, unlined, err
}

// sitemapRows calls fn with every listed entry's sitemap rows (and those
// the condition where keeps), in slug order, each entry's default
// language first: the row's slug, its line ("" without a lastmod) and its
// lastmod. Slugs and language codes need no XML escaping ([a-z0-9-]); the
// base URL is escaped here.
func (r *RegistryDB) sitemapRows(baseURL, where string, fn func(slug, line string, mod time.Time) error) error {
	var base strings.Builder
	xml.EscapeText(&base, []byte(baseURL))
	q := `SELECT slug, i, languages[i] AS lang, last_modified FROM (
			SELECT slug, languages, last_modified, unnest(generate_series(1, len(languages))) AS i
			FROM entries WHERE listed AND status <> 'removed' ` + where + `)
		ORDER BY slug, i`
	rs, err := r.conn.QueryContext(context.Background(), q)
	if err != nil {
		return err
	}
	defer rs.Close()
	var line strings.Builder
	for rs.Next() {
		var slug, lang string
		var i int
		var mod sql.NullTime
		if err := rs.Scan(&slug, &i, &lang, &mod); err != nil {
			return err
		}
		if !mod.Valid {
			if err := fn(slug, "", time.Time{}); err != nil {
				return err
			}
			continue
		}
		line.Reset()
		line.WriteString("<url><loc>")
		line.WriteString(base.String())
		line.WriteString("/")
		line.WriteString(slug)
		if i > 1 {
			line.WriteString("/")
			line.WriteString(lang)
		}
		line.WriteString("</loc><lastmod>")
		line.WriteString(mod.Time.UTC().Format("2006-01-02T15:04:05Z"))
		line.WriteString("</lastmod></url>\n")
		if err := fn(slug, line.String(), mod.Time); err != nil {
			return err
		}
	}
	return rs.Err()
}

// Structure makes the sections of the AWP content structure: one per
// sector of the entries' first category, with every page's token estimate
// counted and the first pagesMax pages by slug listed.
func (r *RegistryDB) Structure(pagesMax int, title func(sector string) string) ([]schemas.StructureSection, error) {
	ctx := context.Background()
	// A connection of its own: the pipeline runs it while the sitemaps
	// are made on r.conn (issue 18: a delta at 10M). It sees what the
	// appenders flushed before.
	conn, err := r.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	const sectorSQL = `coalesce(nullif(split_part(categories[1], '.', 1), ''), 'other')`
	// One pass over the listed entries gives each sector's count, tokens
	// and first pagesMax slugs (min's n smallest keeps a bounded heap per
	// sector); only those entries' names and categories are read after.
	// Packing every entry's page in the pass took three times as long
	// (issue 18: a delta's structure at 10M).
	rs, err := conn.QueryContext(ctx, `SELECT sector, count(*), coalesce(sum(tokens), 0), min(slug, ?) FROM (
			SELECT `+sectorSQL+` AS sector, slug, (coalesce(md_bytes, 0) + 3) // 4 AS tokens FROM entries WHERE listed AND status <> 'removed')
		GROUP BY sector ORDER BY sector`, pagesMax)
	if err != nil {
		return nil, err
	}
	var secs []schemas.StructureSection
	index := map[string]int{}
	var first []string
	for rs.Next() {
		var sec schemas.StructureSection
		var slugs duckdb.Composite[[]string]
		if err := rs.Scan(&sec.ID, &sec.Pages, &sec.Tokens, &slugs); err != nil {
			rs.Close()
			return nil, err
		}
		sec.Title = "Other"
		if sec.ID != "other" {
			sec.Title = title(sec.ID)
		}
		index[sec.ID] = len(secs)
		secs = append(secs, sec)
		first = append(first, slugs.Get()...)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, err
	}
	if err := publication.TempStrings(ctx, conn, "structure_slugs", "slug", first); err != nil {
		return nil, err
	}
	rs, err = conn.QueryContext(ctx, `SELECT `+sectorSQL+` AS sector, coalesce(name, ''), slug, (coalesce(md_bytes, 0) + 3) // 4, categories
		FROM entries WHERE listed AND status <> 'removed' AND slug IN (SELECT slug FROM temp.structure_slugs)
		ORDER BY sector, slug`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var sector, name, slug string
		var tokens int
		var cats duckdb.Composite[[]string]
		if err := rs.Scan(&sector, &name, &slug, &tokens, &cats); err != nil {
			return nil, err
		}
		sec := &secs[index[sector]]
		sec.List = append(sec.List, schemas.StructurePage{Title: name, Path: "/" + slug + ".md", Tokens: tokens, Tags: cats.Get()})
	}
	return secs, rs.Err()
}

// EntryTitle is what the AWP updates file says of an entry (AWP-32): its
// name and its default-language markdown's token estimate, counted as the
// content structure counts it.
type EntryTitle struct {
	Name   string
	Tokens int
}

// Titles gives the names and token estimates of the entries with the
// given IDs that are still published; a removed entry has none (its name
// left with it).
func (r *RegistryDB) Titles(ids []string) (map[string]EntryTitle, error) {
	ctx := context.Background()
	if err := publication.TempStrings(ctx, r.conn, "titled", "entry_id", ids); err != nil {
		return nil, fmt.Errorf("titles: %w", err)
	}
	rs, err := r.conn.QueryContext(ctx, `SELECT e.entry_id, coalesce(e.name, ''), (coalesce(e.md_bytes, 0) + 3) // 4
		FROM entries e JOIN temp.titled USING (entry_id) WHERE e.status <> 'removed'`)
	if err != nil {
		return nil, fmt.Errorf("titles: %w", err)
	}
	defer rs.Close()
	out := map[string]EntryTitle{}
	for rs.Next() {
		var id string
		var t EntryTitle
		if err := rs.Scan(&id, &t.Name, &t.Tokens); err != nil {
			return nil, fmt.Errorf("titles: %w", err)
		}
		out[id] = t
	}
	return out, rs.Err()
}

// Removed is an entry that left the registry, as the entries table keeps
// it (the server answers 410 Gone for it).
type Removed struct {
	EntryID, Slug        string
	Revision             int32
	UpdatedAt, RemovedAt time.Time
	Reason               string
}

// Removed appends a removed entry's row.
func (r *RegistryDB) Removed(x Removed) error {
	return r.entries.AppendRow(x.EntryID, x.Slug, "removed", false, nil, nil, nil, []string{}, []string{}, nil, nil, nil, nil, nil, nil,
		nil, []string{}, x.Revision, nil, x.UpdatedAt, nil, x.RemovedAt, nullable(x.Reason), nil)
}

// Flush writes what the Appenders hold.
func (r *RegistryDB) Flush() error {
	if err := r.entries.Flush(); err != nil {
		return err
	}
	for _, a := range r.more {
		if err := a.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// Finish closes the Appenders and checkpoints the database.
func (r *RegistryDB) Finish() error {
	if err := r.closeFeedStates(); err != nil {
		return err
	}
	if err := r.entries.Close(); err != nil {
		return err
	}
	r.entries = nil
	for t, a := range r.more {
		if err := a.Close(); err != nil {
			return err
		}
		delete(r.more, t)
	}
	if _, err := r.conn.ExecContext(context.Background(), `CHECKPOINT`); err != nil {
		return err
	}
	return nil
}

// Close closes the database (after Finish, or to drop it).
func (r *RegistryDB) Close() {
	r.closeFeedStates()
	if r.entries != nil {
		r.entries.Close()
	}
	for _, a := range r.more {
		a.Close()
	}
	if r.conn != nil {
		r.conn.Close()
	}
	r.db.Close()
}

func nullTime(t time.Time) driver.Value {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// Counts are the publication's entries (not removed), removed entries and
// listed entries, as the written tables hold them (a delta renders a few
// entries of many).
func (r *RegistryDB) Counts(ctx context.Context) (entries, removed int64, listed int, err error) {
	err = r.conn.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE status <> 'removed'), count(*) FILTER (WHERE status = 'removed'),
		count(*) FILTER (WHERE listed AND status <> 'removed') FROM entries`).Scan(&entries, &removed, &listed)
	if err != nil {
		err = fmt.Errorf("%s: counts: %w", publication.RegistryFile, err)
	}
	return entries, removed, listed, err
}
