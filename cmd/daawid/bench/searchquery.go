package bench

import (
	"database/sql"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/daawid/registry/schemas/terms"
)

// benchQuery is one query of the mix, with what its SQL needs.
type benchQuery struct {
	kind  string
	in    schemas.SearchInput
	words []string
	cats  [][]string // per word, the categories its everyday words name
	place string     // the town, folded
	lat   float64
	lon   float64
	code  string // the postal code's first part
}

// benchQueries makes the mix from entries of the registry: their towns,
// postal codes and categories' names in their language.
func benchQueries(db *sql.DB, n int, seed int64) ([]benchQuery, error) {
	rows, err := db.Query(`SELECT categories[1], default_language, locality, postal_code, country, lat, lon FROM entries
		WHERE listed AND status NOT IN ('suspended', 'removed') AND len(categories) > 0 AND locality IS NOT NULL AND postal_code IS NOT NULL
		ORDER BY hash(entry_id || ?) LIMIT ?`, seed, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tax := taxonomy.Default()
	gaz, err := places.Default()
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	var out []benchQuery
	for rows.Next() {
		var cat, lang, town, code, country string
		var lat, lon sql.NullFloat64
		if err := rows.Scan(&cat, &lang, &town, &code, &country, &lat, &lon); err != nil {
			return nil, err
		}
		word := tax.Label(cat, lang)
		// The SQL is given the place's point as the server finds it.
		q := benchQuery{place: terms.Fold(town), lat: lat.Float64, lon: lon.Float64}
		if m, ok := gaz.Find(town+", "+country, nil); ok {
			q.lat, q.lon = m.Place.Lat, m.Place.Lng
		}
		switch len(out) % 10 {
		case 0, 1, 2, 3:
			q.kind = "place + words"
			q.in = schemas.SearchInput{Query: word, Near: &schemas.Near{Place: town}}
		case 4, 5, 6:
			q.kind = "postal code + category"
			first, _, _ := strings.Cut(code, " ")
			if len(first) < 3 { // "M1": a postal code is 3 to 10 characters
				first = code
			}
			q.code = strings.ToUpper(first)
			q.in = schemas.SearchInput{Query: word, Category: cat, Near: &schemas.Near{PostalCode: first, Country: country}}
		default:
			q.kind = "place + words + openAt"
			q.in = schemas.SearchInput{Query: word, Near: &schemas.Near{Place: town},
				OpenAt: time.Date(2026, 12, 1+r.IntN(6), 8+r.IntN(10), 0, 0, 0, time.UTC).Format(time.RFC3339)}
		}
		for _, w := range terms.Words(word) {
			if terms.Stop(lang, w) {
				continue
			}
			q.words = append(q.words, w)
			q.cats = append(q.cats, search.CategoryCodes(w, ""))
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// sql is the query written as DuckDB SQL over the snapshot's tables, as
// one would without the index: words by ILIKE over name and summary or a
// category their everyday words name, the tier by the town or postal
// code, the distance by the haversine formula, openAt by the weekly hours
// in each location's time zone (without the dated exceptions and
// overnight ranges the index also reads, which only spares SQL work).
func (q benchQuery) sql(now time.Time) (string, []any) {
	var match, fit []string
	var args []any
	for i, w := range q.words {
		cond := "(lower(strip_accents(e.name)) LIKE ? OR lower(strip_accents(e.summary)) LIKE ?"
		args = append(args, "%"+w+"%", "%"+w+"%")
		if len(q.cats[i]) > 0 {
			cond += " OR list_has_any(e.categories, ?::VARCHAR[])"
			args = append(args, q.cats[i])
		}
		cond += ")"
		match = append(match, cond)
		fit = append(fit, "("+cond+")::INT")
	}
	fitArgs := slices.Clone(args)
	where := []string{"e.listed", "e.status NOT IN ('suspended', 'removed')"}
	if len(match) > 0 {
		where = append(where, "("+strings.Join(match, " OR ")+")")
	}
	tier := "CASE WHEN lower(strip_accents(e.locality)) = ? THEN 1 ELSE 3 END"
	tierArgs := []any{q.place}
	if q.code != "" {
		tier = "CASE WHEN upper(replace(e.postal_code, ' ', '')) LIKE ? THEN 1 ELSE 3 END"
		tierArgs = []any{strings.ReplaceAll(q.code, " ", "") + "%"}
		where = append(where, "list_contains(e.categories, ?)")
		args = append(args, q.in.Category)
	}
	if q.in.OpenAt != "" {
		where = append(where, `EXISTS (SELECT 1 FROM locations l,
			unnest(from_json(json_extract(l.hours, '$.hours'), '[{"days":["VARCHAR"],"opens":"VARCHAR","closes":"VARCHAR","closed":"BOOLEAN"}]')) AS t(r)
			WHERE l.entry_id = e.entry_id AND l.hours IS NOT NULL
			  AND list_contains(r.days, lower(strftime(timezone(coalesce(l.time_zone, 'UTC'), ?::TIMESTAMPTZ), '%a')))
			  AND NOT coalesce(r.closed, false)
			  AND r.opens <= strftime(timezone(coalesce(l.time_zone, 'UTC'), ?::TIMESTAMPTZ), '%H:%M')
			  AND strftime(timezone(coalesce(l.time_zone, 'UTC'), ?::TIMESTAMPTZ), '%H:%M') < r.closes)`)
		args = append(args, q.in.OpenAt, q.in.OpenAt, q.in.OpenAt)
	}
	fitSQL := "0"
	if len(fit) > 0 {
		fitSQL = strings.Join(fit, " + ")
	}
	stmt := `SELECT e.entry_id, ` + tier + ` AS tier, ` + fitSQL + ` AS fit,
		2 * 6371 * asin(sqrt(pow(sin(radians(e.lat - ?) / 2), 2) + cos(radians(?)) * cos(radians(e.lat)) * pow(sin(radians(e.lon - ?) / 2), 2))) AS km
		FROM entries e WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY tier, fit DESC, floor(km / 10), hash(e.entry_id || ?) LIMIT 11`
	all := append(append(append(tierArgs, fitArgs...), q.lat, q.lat, q.lon), args...)
	all = append(all, now.Format("2006-01-02T15"))
	return stmt, all
}
