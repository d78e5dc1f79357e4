package driver

// The SQL benchmarks of BENCHMARKS.md §2, through database/sql, over the
// events table (internal/events). The table has CARQUET_BENCH_ROWS rows
// (default 1,000,000) in row groups of 1,000,000 rows. The comparison
// with DuckDB on the same file runs in the sqltests module.

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
	benchRows = 1_000_000
)

func eventsDir(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		if s := os.Getenv("CARQUET_BENCH_ROWS"); s != "" {
			if n, err := strconv.Atoi(s); err == nil && n > 0 {
				benchRows = n
			}
		}
		benchDir, benchErr = os.MkdirTemp("", "carquet-bench-")
		if benchErr != nil {
			return
		}
		sch, err := events.Schema()
		if err != nil {
			benchErr = err
			return
		}
		w, err := writer.Create(filepath.Join(benchDir, "events.parquet"), sch,
			writer.WithCompression(format.Snappy), writer.WithRowGroupRows(1_000_000))
		if err != nil {
			benchErr = err
			return
		}
		if err := w.WriteBatch(events.Generate(benchRows, 42)); err != nil {
			benchErr = err
			return
		}
		benchErr = w.Close()
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func openBench(b *testing.B, threads int) *sql.DB {
	db, err := OpenDB(Config{Path: eventsDir(b), Threads: threads})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func eventsTime(frac float64) time.Time {
	span := float64(events.SpanDays) * 86400e6
	return time.UnixMicro(events.Start + int64(span*frac)).UTC()
}

func benchQuery(b *testing.B, q string, args ...any) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			db := openBench(b, threads)
			for b.Loop() {
				if scanRows(b, db, q, args...) == 0 {
					b.Fatal("no rows")
				}
			}
		})
	}
}

// scanRows runs q and reads its rows to the end through Scan; it returns
// their number.
func scanRows(b *testing.B, db *sql.DB, q string, args ...any) int {
	rows, err := db.Query(q, args...)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
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
	return n
}

func BenchmarkSQLCountRecent(b *testing.B) {
	benchQuery(b, "SELECT count(*) FROM events WHERE ts >= ?", eventsTime(0.95))
}

func BenchmarkSQLCountUser(b *testing.B) {
	benchQuery(b, "SELECT count(*) FROM events WHERE user_id = 12345")
}

func BenchmarkSQLGroupBy(b *testing.B) {
	benchQuery(b, "SELECT category, SUM(amount), COUNT(*) FROM events GROUP BY category")
}

func BenchmarkSQLTopN(b *testing.B) {
	benchQuery(b, "SELECT * FROM events WHERE ts BETWEEN ? AND ? ORDER BY amount DESC LIMIT 10", eventsTime(0.4), eventsTime(0.6))
}

func BenchmarkSQLScanAll(b *testing.B) {
	benchQuery(b, "SELECT * FROM events")
}

func BenchmarkSQLInsert(b *testing.B) {
	for _, batch := range []int{1, 100, 10000} {
		b.Run(fmt.Sprintf("rows=%d", batch), func(b *testing.B) {
			dir := b.TempDir()
			db, err := OpenDB(Config{Path: dir})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("CREATE TABLE events (ts TIMESTAMPTZ NOT NULL, user_id INTEGER NOT NULL, category VARCHAR NOT NULL, amount DOUBLE NOT NULL, flag BOOLEAN NOT NULL)"); err != nil {
				b.Fatal(err)
			}
			ts := eventsTime(0.5)
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
			b.ReportMetric(float64(batch), "rows/op")
		})
	}
}
