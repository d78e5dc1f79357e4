//go:build duckdb

package sqltest

// BENCHMARKS.md §2 side by side: the same queries through database/sql on
// the same events file, carquet and DuckDB, at 1 and 2 threads.
//
//	cd sqltests && go test -tags duckdb -run XXX -bench SQLvs ./sql/

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

var (
	vsOnce sync.Once
	vsDir  string
	vsErr  error
)

func vsEvents(b *testing.B) string {
	vsOnce.Do(func() {
		rows := 1_000_000
		if s := os.Getenv("CARQUET_BENCH_ROWS"); s != "" {
			rows, _ = strconv.Atoi(s)
		}
		vsDir, vsErr = os.MkdirTemp("", "carquet-vs-")
		if vsErr != nil {
			return
		}
		sch, err := events.Schema()
		if err != nil {
			vsErr = err
			return
		}
		w, err := writer.Create(filepath.Join(vsDir, "events.parquet"), sch,
			writer.WithCompression(format.Snappy), writer.WithRowGroupRows(1_000_000))
		if err != nil {
			vsErr = err
			return
		}
		for done := 0; done < rows; done += 1_000_000 {
			if err := w.WriteBatch(events.Generate(min(1_000_000, rows-done), uint64(42+done))); err != nil {
				vsErr = err
				return
			}
		}
		vsErr = w.Close()
	})
	if vsErr != nil {
		b.Fatal(vsErr)
	}
	return vsDir
}

func vsTime(frac float64) time.Time {
	span := float64(events.SpanDays) * 86400e6
	return time.UnixMicro(events.Start + int64(span*frac)).UTC()
}

// vsDB opens an engine on the events file; DuckDB gets a view named
// events over read_parquet.
func vsDB(b *testing.B, engine string, threads int) *sql.DB {
	dir := vsEvents(b)
	if engine == "carquet" {
		db, err := driver.OpenDB(driver.Config{Path: dir, Threads: threads})
		if err != nil {
			b.Fatal(err)
		}
		return db
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		fmt.Sprintf("SET threads = %d", threads),
		fmt.Sprintf("CREATE VIEW events AS SELECT * FROM read_parquet('%s')", filepath.Join(dir, "events.parquet")),
	} {
		if _, err := db.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	return db
}

func vsRun(b *testing.B, q string, args ...any) {
	for _, engine := range []string{"carquet", "duckdb"} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", engine, threads), func(b *testing.B) {
				db := vsDB(b, engine, threads)
				defer db.Close()
				for b.Loop() {
					rows, err := db.Query(q, args...)
					if err != nil {
						b.Fatal(err)
					}
					cols, _ := rows.Columns()
					vals := make([]any, len(cols))
					ptrs := make([]any, len(cols))
					for i := range vals {
						ptrs[i] = &vals[i]
					}
					n := 0
					for rows.Next() {
						if err := rows.Scan(ptrs...); err != nil {
							b.Fatal(err)
						}
						n++
					}
					if err := rows.Err(); err != nil {
						b.Fatal(err)
					}
					rows.Close()
					if n == 0 {
						b.Fatal("no rows")
					}
				}
			})
		}
	}
}

func BenchmarkSQLvsCountRecent(b *testing.B) {
	vsRun(b, "SELECT count(*) FROM events WHERE ts >= ?", vsTime(0.95))
}

func BenchmarkSQLvsCountUser(b *testing.B) {
	vsRun(b, "SELECT count(*) FROM events WHERE user_id = 12345")
}

func BenchmarkSQLvsGroupBy(b *testing.B) {
	vsRun(b, "SELECT category, SUM(amount), COUNT(*) FROM events GROUP BY category")
}

func BenchmarkSQLvsTopN(b *testing.B) {
	vsRun(b, "SELECT * FROM events WHERE ts BETWEEN ? AND ? ORDER BY amount DESC LIMIT 10", vsTime(0.4), vsTime(0.6))
}

func BenchmarkSQLvsScanAll(b *testing.B) {
	vsRun(b, "SELECT * FROM events")
}

func BenchmarkSQLvsInsert(b *testing.B) {
	for _, engine := range []string{"carquet", "duckdb"} {
		for _, batch := range []int{1, 100, 10000} {
			b.Run(fmt.Sprintf("%s/rows=%d", engine, batch), func(b *testing.B) {
				var db *sql.DB
				var err error
				if engine == "carquet" {
					db, err = driver.OpenDB(driver.Config{Path: b.TempDir()})
				} else {
					// DuckDB appends to a Parquet file by rewriting it; its
					// native comparison is an INSERT into its own table.
					db, err = sql.Open("duckdb", filepath.Join(b.TempDir(), "x.db"))
				}
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				if _, err := db.Exec("CREATE TABLE events (ts TIMESTAMPTZ NOT NULL, user_id INTEGER NOT NULL, category VARCHAR NOT NULL, amount DOUBLE NOT NULL, flag BOOLEAN NOT NULL)"); err != nil {
					b.Fatal(err)
				}
				ts := vsTime(0.5)
				for b.Loop() {
					tx, err := db.Begin()
					if err != nil {
						b.Fatal(err)
					}
					stmt, err := tx.Prepare("INSERT INTO events VALUES (?, ?, ?, ?, ?)")
					if err != nil {
						b.Fatal(err)
					}
					for i := 0; i < batch; i++ {
						if _, err := stmt.Exec(ts, i, "books", 9.5, i%2 == 0); err != nil {
							b.Fatal(err)
						}
					}
					stmt.Close()
					if err := tx.Commit(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
