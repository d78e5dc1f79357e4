//go:build duckdb

// Package load measures bulk loading side by side (issue 32): carquet's
// Appender and a prepared INSERT in a transaction against duckdb-go's
// Appender and DuckDB's INSERT in a transaction, the same events rows
// (BENCHMARKS.md's generator) into a table on disk, one thread each.
//
//	cd sqltests && go test -tags duckdb -run XXX -bench Load -benchtime 1x ./load/
//
// CARQUET_LOAD_ROWS sets the rows per load (default 1,000,000), and
// CARQUET_LOAD_TX_ROWS those of the INSERT loads (default the smaller of
// that and 200,000: DuckDB's prepared INSERT takes minutes for a million
// rows); compare the rows/s. Each iteration loads into a fresh database
// folder (carquet) or file (DuckDB) and includes the commit (fsync).
package load

import (
	"context"
	"database/sql"
	dsql "database/sql/driver"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	carquet "github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqltests/bench"
)

const schemaSQL = "CREATE TABLE events (ts TIMESTAMP, user_id INTEGER, category VARCHAR, amount DOUBLE, flag BOOLEAN)"

func envRows(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// rowFunc appends one events row.
type rowFunc func(ts time.Time, u int32, c string, a float64, f bool) error

// row returns the i-th events row as Go values.
func row(e *bench.Events, i int) (time.Time, int32, string, float64, bool) {
	return time.UnixMicro(e.TS[i]).UTC(), e.UserID[i], bench.Categories[e.Category[i]], e.Amount[i], e.Flag[i]
}

func openCarquet(b *testing.B) *sql.DB {
	db, err := sql.Open("carquet", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(schemaSQL); err != nil {
		b.Fatal(err)
	}
	return db
}

func openDuckDB(b *testing.B) *sql.DB {
	db, err := sql.Open("duckdb", filepath.Join(b.TempDir(), "load.duckdb")+"?threads=1")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schemaSQL); err != nil {
		b.Fatal(err)
	}
	return db
}

// count checks that the load left n rows.
func count(b *testing.B, db *sql.DB, n int) {
	var k int
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&k); err != nil || k != n {
		b.Fatalf("%d rows after the load, want %d (%v)", k, n, err)
	}
}

func BenchmarkLoad(b *testing.B) {
	n := envRows("CARQUET_LOAD_ROWS", 1_000_000)
	txRows := envRows("CARQUET_LOAD_TX_ROWS", min(n, 200_000))
	ev := bench.Generate(max(n, txRows))
	report := func(b *testing.B, n int) {
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	}
	// appenderLoad loads the rows through an appender on a raw connection
	// that open makes; after the appender's Close, finish (if any) makes
	// them durable.
	appenderLoad := func(b *testing.B, open func(*testing.B) *sql.DB, newAppender func(dc any) (appendRow rowFunc, close func() error, err error), finish string) {
		for range b.N {
			b.StopTimer()
			db := open(b)
			conn, err := db.Conn(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			err = conn.Raw(func(dc any) error {
				appendRow, close, err := newAppender(dc)
				if err != nil {
					return err
				}
				for i := range n {
					ts, u, c, a, f := row(ev, i)
					if err := appendRow(ts, u, c, a, f); err != nil {
						return err
					}
				}
				return close()
			})
			if err == nil && finish != "" {
				_, err = conn.ExecContext(context.Background(), finish)
			}
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			conn.Close()
			count(b, db, n)
			db.Close()
		}
		report(b, n)
	}
	b.Run("carquet-appender", func(b *testing.B) {
		appenderLoad(b, openCarquet, func(dc any) (rowFunc, func() error, error) {
			app, err := carquet.NewAppender(dc, "events")
			if err != nil {
				return nil, nil, err
			}
			appendRow := func(ts time.Time, u int32, c string, a float64, f bool) error { return app.AppendRow(ts, u, c, a, f) }
			return appendRow, app.Close, nil
		}, "")
	})
	insertTx := func(b *testing.B, open func(*testing.B) *sql.DB) {
		n := txRows
		for range b.N {
			b.StopTimer()
			db := open(b)
			b.StartTimer()
			tx, err := db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			st, err := tx.Prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?)")
			if err != nil {
				b.Fatal(err)
			}
			for i := range n {
				ts, u, c, a, f := row(ev, i)
				if _, err := st.Exec(ts, u, c, a, f); err != nil {
					b.Fatal(err)
				}
			}
			st.Close()
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			count(b, db, n)
			db.Close()
		}
		report(b, n)
	}
	b.Run("carquet-insert-tx", func(b *testing.B) { insertTx(b, openCarquet) })
	b.Run("duckdb-appender", func(b *testing.B) {
		// CHECKPOINT does what carquet's Close does: the rows durable in
		// the file.
		appenderLoad(b, openDuckDB, func(dc any) (rowFunc, func() error, error) {
			app, err := duckdb.NewAppenderFromConn(dc.(dsql.Conn), "", "events")
			if err != nil {
				return nil, nil, err
			}
			appendRow := func(ts time.Time, u int32, c string, a float64, f bool) error { return app.AppendRow(ts, u, c, a, f) }
			return appendRow, app.Close, nil
		}, "CHECKPOINT")
	})
	b.Run("duckdb-insert-tx", func(b *testing.B) { insertTx(b, openDuckDB) })
}
