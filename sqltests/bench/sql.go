package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/carquet-go/carquet/driver" // registers "carquet"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"

	"github.com/carquet-go/carquet/sqltests/internal/peers"
)

// SQLQuery is one query of BENCHMARKS.md §2.
type SQLQuery struct {
	Name string
	SQL  string
	Args func(e *Events) []any
}

// SQLQueries are the read queries of §2, in the order of BENCHMARKS.md.
var SQLQueries = []SQLQuery{
	{"count ts >= ?", "SELECT count(*) FROM events WHERE ts >= ?", func(e *Events) []any { return []any{time.UnixMicro(e.Cutoff()).UTC()} }},
	{"count user_id = 12345", "SELECT count(*) FROM events WHERE user_id = 12345", nil},
	{"group by category", "SELECT category, SUM(amount), COUNT(*) FROM events GROUP BY category ORDER BY category", nil},
	{"top 10 by amount in ts range", "SELECT * FROM events WHERE ts BETWEEN ? AND ? ORDER BY amount DESC LIMIT 10", func(e *Events) []any {
		return []any{time.UnixMicro(e.Cutoff()).UTC(), time.UnixMicro(e.Cutoff() + 86400e6).UTC()}
	}},
	{"select * streamed", "SELECT * FROM events", nil},
}

// sqlDBs opens carquet's driver on a folder holding events.parquet and
// DuckDB with a view of the same file, both at the given threads.
func sqlDBs(dir string, threads int) (carquet, duck *sql.DB, err error) {
	carquet, err = sql.Open("carquet", fmt.Sprintf("%s?threads=%d", dir, threads))
	if err != nil {
		return nil, nil, err
	}
	duck, err = peers.OpenDuckDB(threads)
	if err != nil {
		carquet.Close()
		return nil, nil, err
	}
	if _, err := duck.Exec(fmt.Sprintf("CREATE VIEW events AS SELECT * FROM read_parquet(%s)", quote(filepath.Join(dir, "events.parquet")))); err != nil {
		carquet.Close()
		duck.Close()
		return nil, nil, err
	}
	return carquet, duck, nil
}

// drain runs a query and scans every row into strings, returning a text
// rendering of the rows for comparing the two engines' answers.
func drain(db *sql.DB, q string, args []any) (string, int, error) {
	rows, err := db.QueryContext(context.Background(), q, args...)
	if err != nil {
		return "", 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", 0, err
		}
		if n < 20 {
			for _, v := range vals {
				switch x := v.(type) {
				case time.Time:
					fmt.Fprintf(&b, "%s|", x.UTC().Format(time.RFC3339Nano))
				case []byte:
					fmt.Fprintf(&b, "%s|", x)
				case float64:
					fmt.Fprintf(&b, "%.2f|", x)
				default:
					fmt.Fprintf(&b, "%v|", x)
				}
			}
			b.WriteString("\n")
		}
		n++
	}
	return b.String(), n, rows.Err()
}

// RunSQL runs §2 at the given thread counts: the file is written by
// carquet (snappy, row groups of 1M rows, page index, bloom filter on
// user_id) and read by both engines; answers are compared before timing.
// Queries carquet's driver rejects are recorded as not supported.
func (s *Suite) RunSQL(threadCounts []int) error {
	dir := filepath.Join(s.Cfg.Dir, "sql")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	c := s.Libs[0].(*carquetLib)
	w, err := writer.Create(filepath.Join(dir, "events.parquet"), c.sch, writer.WithCompression(format.Snappy),
		writer.WithRowGroupRows(RowGroupRows), writer.WithBloomFilterFor("user_id", 500000, 0.01))
	if err != nil {
		return err
	}
	if err := w.WriteBatch(c.cols); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	for _, threads := range threadCounts {
		cdb, ddb, err := sqlDBs(dir, threads)
		if err != nil {
			return err
		}
		codec := fmt.Sprintf("%d thread", threads)
		if threads > 1 {
			codec += "s"
		}
		for _, q := range SQLQueries {
			var args []any
			if q.Args != nil {
				args = q.Args(s.Ev)
			}
			ct, cn, cerr := drain(cdb, q.SQL, args)
			dt, dn, derr := drain(ddb, q.SQL, args)
			if derr != nil {
				return fmt.Errorf("DuckDB: %s: %w", q.SQL, derr)
			}
			if cerr != nil {
				s.rep.Notes = append(s.rep.Notes, fmt.Sprintf("SQL %q: not yet supported by carquet's driver: %v", q.SQL, cerr))
				s.Cfg.Log("SQL %s: carquet: %v", q.Name, cerr)
				continue
			}
			if cn != dn || ct != dt {
				s.rep.Notes = append(s.rep.Notes, fmt.Sprintf("SQL %q: answers differ (carquet %d rows, DuckDB %d rows):\ncarquet:\n%s\nduckdb:\n%s", q.SQL, cn, dn, ct, dt))
				s.Cfg.Log("SQL %s: answers differ:\n%s\n%s", q.Name, ct, dt)
				continue
			}
			fns := map[string]func() error{
				"carquet": func() error { _, _, err := drain(cdb, q.SQL, args); return err },
				"duckdb":  func() error { _, _, err := drain(ddb, q.SQL, args); return err },
			}
			if err := s.interleave("sql: "+q.Name, codec, fns, []string{"carquet", "duckdb"}); err != nil {
				return err
			}
		}
		if err := s.runInserts(dir, codec, cdb, ddb); err != nil {
			return err
		}
		cdb.Close()
		ddb.Close()
	}
	return nil
}

// runInserts times INSERT INTO events VALUES (...) in batches of 1, 100
// and 10,000 rows, one transaction per batch, with a prepared statement.
// carquet appends to a Parquet table (a new copy of the file for each
// batch size); DuckDB inserts into its own table (it cannot append to a
// Parquet file), created from the same file.
func (s *Suite) runInserts(dir, label string, cdb, ddb *sql.DB) error {
	ins := filepath.Join(dir, "ins")
	os.RemoveAll(ins)
	if err := os.MkdirAll(ins, 0o755); err != nil {
		return err
	}
	c := s.Libs[0].(*carquetLib)
	w, err := writer.Create(filepath.Join(ins, "events.parquet"), c.sch, writer.WithCompression(format.Snappy), writer.WithRowGroupRows(RowGroupRows))
	if err != nil {
		return err
	}
	if err := w.WriteBatch(c.cols); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	idb, err := sql.Open("carquet", ins)
	if err != nil {
		return err
	}
	defer idb.Close()
	if _, err := ddb.Exec("CREATE OR REPLACE TABLE events_ins AS SELECT * FROM events"); err != nil {
		return err
	}
	row := 0
	batch := func(db *sql.DB, table string, n int) func() error {
		return func() error {
			tx, err := db.Begin()
			if err != nil {
				return err
			}
			st, err := tx.Prepare("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?)")
			if err != nil {
				tx.Rollback()
				return err
			}
			for i := 0; i < n; i++ {
				j := row % s.Ev.N
				row++
				if _, err := st.Exec(time.UnixMicro(s.Ev.TS[j]).UTC(), s.Ev.UserID[j], Categories[s.Ev.Category[j]], s.Ev.Amount[j], s.Ev.Flag[j]); err != nil {
					st.Close()
					tx.Rollback()
					return err
				}
			}
			st.Close()
			return tx.Commit()
		}
	}
	for _, n := range []int{1, 100, 10000} {
		fns := map[string]func() error{"carquet": batch(idb, "events", n), "duckdb": batch(ddb, "events_ins", n)}
		if err := fns["carquet"](); err != nil {
			s.rep.Notes = append(s.rep.Notes, fmt.Sprintf("SQL INSERT batches of %d: not yet supported by carquet's driver: %v", n, err))
			continue
		}
		if err := s.interleave(fmt.Sprintf("sql: insert %d", n), label, fns, []string{"carquet", "duckdb"}); err != nil {
			return err
		}
	}
	return nil
}
