package duckarrow_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/daawid/registry/export/duckarrow"
	_ "github.com/duckdb/duckdb-go/v2"
)

// pair is one row of the two-column registry tables (old_slugs, the
// verified hosts): a text key and the entry it names.
type pair struct{ key, entryID string }

// state is one row of the shape the change feed compares (feeds.State):
// text, a boolean and an integer.
type state struct {
	entryID, slug, status string
	listed                bool
	revision              int32
}

// tableOf makes a DuckDB database in dir with n rows of both shapes and
// returns a connection to it.
func tableOf(tb testing.TB, n int) *sql.Conn {
	tb.Helper()
	db, err := sql.Open("duckdb", tb.TempDir()+"/bench.duckdb")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	ctx := context.Background()
	for _, q := range []string{
		fmt.Sprintf(`CREATE TABLE pairs AS SELECT 'slug-' || i AS slug, 'ent_' || lpad(i::VARCHAR, 26, '0') AS entry_id FROM range(%d) r(i)`, n),
		fmt.Sprintf(`CREATE TABLE states AS SELECT 'ent_' || lpad(i::VARCHAR, 26, '0') AS entry_id, 'slug-' || i AS slug,
			CASE WHEN i %% 50 = 0 THEN 'removed' ELSE 'active' END AS status, i %% 7 <> 0 AS listed, (i %% 9 + 1)::INTEGER AS revision FROM range(%d) r(i)`, n),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			tb.Fatal(err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	return conn
}

const (
	pairsQuery  = `SELECT slug, entry_id FROM pairs ORDER BY entry_id`
	statesQuery = `SELECT entry_id, slug, status, listed, revision FROM states ORDER BY entry_id`
)

// pairsByRows is the row scan the typed readers of export/publication do.
func pairsByRows(conn *sql.Conn, out []pair) ([]pair, error) {
	rs, err := conn.QueryContext(context.Background(), pairsQuery)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var p pair
		if err := rs.Scan(&p.key, &p.entryID); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rs.Err()
}

func pairsByArrow(conn *sql.Conn, out []pair) ([]pair, error) {
	err := duckarrow.StringPairs(context.Background(), conn, pairsQuery, func(a, b string) error {
		out = append(out, pair{a, b})
		return nil
	})
	return out, err
}

func statesByRows(conn *sql.Conn, out []state) ([]state, error) {
	rs, err := conn.QueryContext(context.Background(), statesQuery)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var s state
		if err := rs.Scan(&s.entryID, &s.slug, &s.status, &s.listed, &s.revision); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rs.Err()
}

func statesByArrow(conn *sql.Conn, out []state) ([]state, error) {
	err := duckarrow.Query(context.Background(), conn, statesQuery, func(b arrow.RecordBatch) error {
		var text [3]duckarrow.TextColumn
		for i := range text {
			c, err := duckarrow.StringColumn(b, i)
			if err != nil {
				return err
			}
			text[i] = c
		}
		listed, ok1 := b.Column(3).(*array.Boolean)
		rev, ok2 := b.Column(4).(*array.Int32)
		if !ok1 || !ok2 {
			return fmt.Errorf("columns listed %s, revision %s", b.Column(3).DataType(), b.Column(4).DataType())
		}
		for i := 0; i < int(b.NumRows()); i++ {
			out = append(out, state{text[0].Value(i), text[1].Value(i), text[2].Value(i), listed.Value(i), rev.Value(i)})
		}
		return nil
	})
	return out, err
}

// TestArrow_SameRowsAsRowScan: the Arrow readers return the same rows, in
// the same order, as the row scan, for both shapes (issue 16: Arrow is
// kept only where it reads the same thing faster). Without the
// duckdb_arrow tag they refuse with ErrUnavailable instead.
func TestArrow_SameRowsAsRowScan(t *testing.T) {
	conn := tableOf(t, 5000)
	if !duckarrow.Available {
		if _, err := pairsByArrow(conn, nil); !errors.Is(err, duckarrow.ErrUnavailable) {
			t.Fatalf("without the tag: %v, want ErrUnavailable", err)
		}
		t.Skip("built without the duckdb_arrow tag: go test -tags duckdb_arrow ./export/duckarrow")
	}
	rp, err := pairsByRows(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	ap, err := pairsByArrow(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rp) != 5000 || len(ap) != len(rp) {
		t.Fatalf("rows %d, arrow %d, want 5000", len(rp), len(ap))
	}
	for i := range rp {
		if rp[i] != ap[i] {
			t.Fatalf("row %d: rows %v, arrow %v", i, rp[i], ap[i])
		}
	}
	rs, err := statesByRows(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := statesByArrow(conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != len(rs) {
		t.Fatalf("states: rows %d, arrow %d", len(rs), len(as))
	}
	for i := range rs {
		if rs[i] != as[i] {
			t.Fatalf("state %d: rows %v, arrow %v", i, rs[i], as[i])
		}
	}
}

// BenchmarkRegistryRead reads the same rows both ways: the two-column
// shape of the registry tables the server loads at start (old slugs,
// verified hosts) and the five-column shape of the entry states, at 100k
// and 1M rows. Run with -tags duckdb_arrow for the Arrow half
// (docs/performance.md has the command and the figures).
func BenchmarkRegistryRead(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		conn := tableOf(b, n)
		size := fmt.Sprintf("%dk", n/1000)
		for _, bc := range []struct {
			name  string
			arrow bool
			read  func(*sql.Conn) (int, error)
		}{
			{"pairs/rows", false, func(c *sql.Conn) (int, error) { p, err := pairsByRows(c, make([]pair, 0, n)); return len(p), err }},
			{"pairs/arrow", true, func(c *sql.Conn) (int, error) { p, err := pairsByArrow(c, make([]pair, 0, n)); return len(p), err }},
			{"states/rows", false, func(c *sql.Conn) (int, error) { s, err := statesByRows(c, make([]state, 0, n)); return len(s), err }},
			{"states/arrow", true, func(c *sql.Conn) (int, error) { s, err := statesByArrow(c, make([]state, 0, n)); return len(s), err }},
		} {
			b.Run(bc.name+"/"+size, func(b *testing.B) {
				if bc.arrow && !duckarrow.Available {
					b.Skip("needs -tags duckdb_arrow")
				}
				for b.Loop() {
					got, err := bc.read(conn)
					if err != nil || got != n {
						b.Fatalf("%d rows, %v; want %d", got, err, n)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
