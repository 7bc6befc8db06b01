package export_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/fixtures/citools"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// notebookQuery is one fenced "sql notebook ID" block of docs/exports.md.
var notebookQuery = regexp.MustCompile("(?s)```sql notebook (q\\d+)\n(.*?)```")

// since is the date of question q05 (changes since a date).
var since = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

// TestExports_AnalystNotebook runs the analyst's ten questions, read from
// docs/exports.md so the examples cannot drift, with the independent
// DuckDB for Node over the exports of every fixture entry (written by the
// Exporter the pipeline uses, with a changes table made from a feed
// segment), and checks each answer against the same answer computed in Go
// from the fixtures' entries (their public views), not from the Parquet.
func TestExports_AnalystNotebook(t *testing.T) {
	tools := citools.Find(t, "node", "node_modules/@duckdb/node-api/package.json", "./exports-notebook.mjs")
	doc, err := os.ReadFile("../docs/exports.md")
	if err != nil {
		t.Fatal(err)
	}
	type query struct {
		ID  string `json:"id"`
		SQL string `json:"sql"`
	}
	var queries []query
	for _, m := range notebookQuery.FindAllStringSubmatch(string(doc), -1) {
		queries = append(queries, query{m[1], m[2]})
	}
	want := notebookAnswers(t)
	if len(queries) != 10 || len(want) != 10 {
		t.Fatalf("%d questions in docs/exports.md, %d answers in Go; want ten of each", len(queries), len(want))
	}
	dir, _ := exportFixtures(t)
	writeChanges(t, dir)
	in, _ := json.Marshal(queries)
	cmd := exec.Command("node", filepath.Join(tools, "exports-notebook.mjs"), dir)
	cmd.Stdin = strings.NewReader(string(in))
	cmd.Dir = tools
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v %s", err, out)
	}
	var got map[string][][]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, q := range queries {
		w, ok := want[q.ID]
		if !ok {
			t.Errorf("%s: no Go answer", q.ID)
			continue
		}
		if len(w) == 0 {
			t.Errorf("%s: the fixtures give an empty answer, so the question checks nothing", q.ID)
		}
		if fmt.Sprint(got[q.ID]) != fmt.Sprint(w) {
			t.Errorf("%s: DuckDB answers\n%v\nGo answers\n%v", q.ID, got[q.ID], w)
		}
	}
}

// writeChanges writes a change feed segment (the feed's own format) with
// one change per fixture entry at its updated time, and the export's
// changes table from it.
func writeChanges(t *testing.T, dir string) {
	t.Helper()
	feed := t.TempDir()
	f, err := os.Create(filepath.Join(feed, "000000000001-000000000016.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[schemas.Change](f)
	for i, e := range fixtures.Entries() {
		if _, err := w.Write([]schemas.Change{{Seq: int64(i + 1), Type: changeType(e), EntryID: e.ID, Slug: e.Slug, Revision: int32(e.Record.Revision),
			At: schemas.ParseTime(e.Record.UpdatedAt), Publication: "pub_test"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, err := export.WriteChanges(feed, dir, []string{"000000000001-000000000016"}); err != nil {
		t.Fatal(err)
	}
}

func changeType(e *schemas.Entry) string {
	if e.Record.Revision == 1 {
		return "created"
	}
	return "updated"
}

// notebookAnswers computes each question's answer from the fixtures'
// public views, as rows of text cells in the queries' order.
func notebookAnswers(t *testing.T) map[string][][]string {
	t.Helper()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	type count = map[string]int
	cats, towns, changes, german, verified, nearby := count{}, count{}, count{}, count{}, count{}, map[string]float64{}
	var sunday []string
	type sum struct{ cents, n int64 }
	prices, postal4 := map[[2]string]*sum{}, count{}
	var cheapRanges [][]string
	for _, e := range fixtures.Entries() {
		vs := viewsOf(e, site)
		v := vs[0]
		r := export.RowsOf(&v, "", "")
		for _, c := range v.Categories {
			cats[c]++
		}
		if r.Entry.Locality != "" {
			towns[r.Entry.Locality]++
		}
		if at := schemas.ParseTime(e.Record.UpdatedAt); !at.Before(since) {
			changes[changeType(e)]++
		}
		if r.Entry.Geometry != nil {
			if km := haversine(48.8566, 2.3522, r.Entry.Lat, r.Entry.Lon); km <= 10 {
				nearby[v.Slug] = math.Round(km*10) / 10
			}
		}
		for _, lv := range vs {
			if lv.Language == "de" && lv.Summary != "" {
				german[v.Language]++
			}
		}
		if v.Status == schemas.StatusVerified {
			verified[r.Country]++
		}
		for _, l := range v.Locations {
			if openSunday10(l.Hours) {
				sunday = append(sunday, l.ID)
			}
		}
		if strings.HasPrefix(r.Entry.PostalCode, "4") {
			for _, c := range v.Categories {
				postal4[c]++
			}
		}
		for _, o := range v.Offerings {
			if o.Price == nil {
				continue
			}
			p := o.Price.Amount
			if p == "" {
				p = o.Price.Min
			}
			if p != "" && o.Category != "" {
				k := [2]string{o.Category, o.Price.Currency}
				if prices[k] == nil {
					prices[k] = &sum{}
				}
				prices[k].cents += cents(t, p)
				prices[k].n++
			}
			if o.Price.Kind == "range" && o.Price.Currency == "EUR" && o.Price.Max != "" && cents(t, o.Price.Max) < 10000 {
				cheapRanges = append(cheapRanges, []string{o.ID, o.Price.Min, o.Price.Max})
			}
		}
	}
	out := map[string][][]string{"q01": counted(cats), "q02": counted(towns), "q05": counted(changes), "q07": counted(german), "q08": counted(verified)}
	sort.Strings(sunday)
	for _, id := range sunday {
		out["q03"] = append(out["q03"], []string{id})
	}
	keys := make([][2]string, 0, len(prices))
	for k := range prices {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+" "+keys[i][1] < keys[j][0]+" "+keys[j][1] })
	for _, k := range keys {
		s := prices[k]
		avg := math.Round(float64(s.cents)/float64(s.n)) / 100 // DECIMAL(14,2) rounds half away from zero
		out["q04"] = append(out["q04"], []string{k[0], k[1], strconv.FormatFloat(avg, 'f', 2, 64), strconv.FormatInt(s.n, 10)})
	}
	slugs := make([]string, 0, len(nearby))
	for s := range nearby {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)
	for _, s := range slugs {
		out["q06"] = append(out["q06"], []string{s, strconv.FormatFloat(nearby[s], 'f', -1, 64)})
	}
	sort.Slice(cheapRanges, func(i, j int) bool { return cheapRanges[i][0] < cheapRanges[j][0] })
	out["q09"] = cheapRanges
	top := counted(postal4)
	sort.SliceStable(top, func(i, j int) bool { a, _ := strconv.Atoi(top[i][1]); b, _ := strconv.Atoi(top[j][1]); return a > b })
	out["q10"] = top[:min(3, len(top))]
	return out
}

// counted is a count by key as rows (key, n), sorted by key.
func counted(m map[string]int) [][]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out [][]string
	for _, k := range keys {
		out = append(out, []string{k, strconv.Itoa(m[k])})
	}
	return out
}

// openSunday10 says whether weekly hours have Sunday open at 10:00 (a range
// whose closes is before its opens ends the next day, D9).
func openSunday10(hours []schemas.HoursRule) bool {
	for _, h := range hours {
		for _, d := range h.Days {
			if d == "sun" && !h.Closed && h.Opens <= "10:00" && (h.Closes > "10:00" || h.Closes < h.Opens) {
				return true
			}
		}
	}
	return false
}

func cents(t *testing.T, s string) int64 {
	whole, frac, _ := strings.Cut(s, ".")
	frac = (frac + "00")[:2]
	c, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		t.Fatalf("price %q: %v", s, err)
	}
	return c
}

func haversine(lat1, lon1, lat2, lon2 float64) float64 {
	rad := math.Pi / 180
	a := math.Pow(math.Sin((lat2-lat1)*rad/2), 2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Pow(math.Sin((lon2-lon1)*rad/2), 2)
	return 2 * 6371 * math.Asin(math.Sqrt(a))
}
