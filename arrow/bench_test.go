package carrow_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	carrow "github.com/carquet-go/carquet/arrow"
)

// benchRows is the events file's row count: 1Mi by default, so that CI's
// -benchtime 1x runs stay short; CARQUET_BENCH_ROWS sets another (the
// issue's figure is at 10,000,000).
var benchRows = benchRowCount()

func benchRowCount() int {
	if v := os.Getenv("CARQUET_BENCH_ROWS"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return n
		}
		panic("CARQUET_BENCH_ROWS=" + v + " is not a positive count")
	}
	return 1 << 20
}

var categories = []string{"books", "games", "music", "garden", "toys", "food", "tools", "sports", "travel", "health"}

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// eventsFile writes (once) events.parquet: benchRows rows of a timestamp,
// a user id, a category, an amount and a flag, as the repository's events
// workload, written by carrow.WriteFile from Arrow records.
func eventsFile(b *testing.B) (dir, path string) {
	benchOnce.Do(func() {
		benchDir, benchErr = tempDir()
		if benchErr != nil {
			return
		}
		sch := arrow.NewSchema([]arrow.Field{
			{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
			{Name: "user_id", Type: arrow.PrimitiveTypes.Int32},
			{Name: "category", Type: arrow.BinaryTypes.String},
			{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
			{Name: "flag", Type: arrow.FixedWidthTypes.Boolean},
		}, nil)
		var recs []arrow.RecordBatch
		start := time.Date(2023, 11, 10, 0, 0, 0, 0, time.UTC).UnixMicro()
		x := uint64(42)
		rnd := func() uint64 {
			x += 0x9e3779b97f4a7c15
			z := x
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
			z = (z ^ (z >> 27)) * 0x94d049bb133111eb
			return z ^ (z >> 31)
		}
		rb := array.NewRecordBuilder(memory.DefaultAllocator, sch)
		for i := 0; i < benchRows; i++ {
			r := rnd()
			rb.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(start + int64(i)*7_416_000))
			rb.Field(1).(*array.Int32Builder).Append(int32(r%499997) + 1)
			rb.Field(2).(*array.StringBuilder).Append(categories[(r>>20)%10])
			rb.Field(3).(*array.Float64Builder).Append(float64((r>>32)%100000) / 100)
			rb.Field(4).(*array.BooleanBuilder).Append(r&1 == 0)
			if (i+1)%65536 == 0 || i == benchRows-1 {
				recs = append(recs, rb.NewRecordBatch())
			}
		}
		rb.Release()
		rr, err := array.NewRecordReader(sch, recs)
		if err != nil {
			benchErr = err
			return
		}
		_, benchErr = carrow.WriteFile(filepath.Join(benchDir, "events.parquet"), rr)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir, filepath.Join(benchDir, "events.parquet")
}

// BenchmarkArrowVsRows streams the events file (benchRows rows): as Arrow record
// batches from a query (carrow.Query), row by row through database/sql
// (rows.Next and Scan), straight from the file as Arrow (carrow.ReadFile),
// and with arrow-go's own Parquet reader (pqarrow).
func BenchmarkArrowVsRows(b *testing.B) {
	dir, path := eventsFile(b)
	db, err := sql.Open("carquet", dir)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const q = "SELECT ts, user_id, category, amount, flag FROM 'events.parquet'"
	consume := func(b *testing.B, rr array.RecordReader) {
		var n int64
		var sum float64
		for rr.Next() {
			rec := rr.RecordBatch()
			n += rec.NumRows()
			for _, x := range rec.Column(3).(*array.Float64).Float64Values() {
				sum += x
			}
		}
		if err := rr.Err(); err != nil {
			b.Fatal(err)
		}
		if n != int64(benchRows) {
			b.Fatalf("%d rows", n)
		}
	}
	b.Run("carrow.Query", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			conn, err := db.Conn(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			err = conn.Raw(func(dc any) error {
				rr, err := carrow.Query(context.Background(), dc, q)
				if err != nil {
					return err
				}
				defer rr.Release()
				consume(b, rr)
				return nil
			})
			conn.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	})
	b.Run("rows.Next", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rows, err := db.Query(q)
			if err != nil {
				b.Fatal(err)
			}
			var (
				ts     time.Time
				user   int64
				cat    string
				amount float64
				flag   bool
				n      int
			)
			for rows.Next() {
				if err := rows.Scan(&ts, &user, &cat, &amount, &flag); err != nil {
					b.Fatal(err)
				}
				n++
			}
			if err := rows.Err(); err != nil {
				b.Fatal(err)
			}
			rows.Close()
			if n != benchRows {
				b.Fatalf("%d rows", n)
			}
		}
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	})
	b.Run("carrow.ReadFile", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rr, err := carrow.ReadFile(path, nil)
			if err != nil {
				b.Fatal(err)
			}
			consume(b, rr)
			rr.Release()
		}
		b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
	})
	// pqarrow reads columns one after another unless Parallel is set;
	// both are measured, the faster one is the peer to beat.
	for _, parallel := range []bool{false, true} {
		name := "pqarrow"
		if parallel {
			name += "/parallel"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				pf, err := pqfile.OpenParquetFile(path, false)
				if err != nil {
					b.Fatal(err)
				}
				fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 8192, Parallel: parallel}, memory.DefaultAllocator)
				if err != nil {
					b.Fatal(err)
				}
				rr, err := fr.GetRecordReader(context.Background(), nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				consume(b, rr)
				rr.Release()
				pf.Close()
			}
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}
