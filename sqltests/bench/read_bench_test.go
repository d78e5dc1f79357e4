package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/cputime"
)

// BenchmarkFileRead reads the files a carquet-bench run left in
// $CARQUET_BENCH_DIR (its -dir) with carquet, arrow-go, parquet-go and DuckDB, one
// sub-benchmark per library, writer and codec, so that a profile
// (-cpuprofile) can be taken of one cell alone and the two compared in
// one run: go test -run X -bench 'FileRead/read/carquet-none' ./bench/
// ($CARQUET_BENCH_ROWS: the -rows the files were written with, default
// 1000000).
func BenchmarkFileRead(b *testing.B) {
	dir := os.Getenv("CARQUET_BENCH_DIR")
	if dir == "" {
		b.Skip("CARQUET_BENCH_DIR is not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	// The files' row count (carquet-bench -rows) sets the cutoff.
	rows := 1_000_000
	if v := os.Getenv("CARQUET_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("CARQUET_BENCH_ROWS=%q is not a row count", v)
		}
		rows = n
	}
	cutoff := Generate(rows).Cutoff()
	for _, work := range []string{"read", "column", "count"} {
		for _, f := range files {
			for _, name := range []string{"carquet", "arrow-go", "parquet-go", "duckdb"} {
				base := filepath.Base(f)
				b.Run(work+"/"+base[:len(base)-len(".parquet")]+"/"+name, func(b *testing.B) {
					// Opened here, for the sub-benchmarks that run only:
					// opening DuckDB costs a second of CPU.
					lib, err := ReadOnly(name)
					if err != nil {
						b.Fatal(err)
					}
					defer lib.Close()
					// CPU time (user and system) per read besides the wall
					// time: on a loaded machine it moves less.
					start := cputime.Process()
					defer func() { b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op") }()
					for i := 0; i < b.N; i++ {
						var err error
						switch work {
						case "read":
							_, err = lib.Read(f)
						case "column":
							_, err = lib.Column(f)
						case "count":
							_, err = lib.Count(f, cutoff)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkMmapRead reads each file of $CARQUET_BENCH_DIR with carquet's
// file.Reader through plain reads and through mmap, one after the other
// in each iteration, and reports the time of each read and their ratio
// (mmap/plain): go test -run X -bench MmapRead ./bench/. A closed file's
// mapping is kept a few seconds and reused (parquet/file.OpenFile): from
// the second iteration on, mmap reads go through a mapping already
// touched.
func BenchmarkMmapRead(b *testing.B) {
	dir := os.Getenv("CARQUET_BENCH_DIR")
	if dir == "" {
		b.Skip("CARQUET_BENCH_DIR is not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	for _, f := range files {
		base := filepath.Base(f)
		b.Run(base[:len(base)-len(".parquet")], func(b *testing.B) {
			var plain, mapped time.Duration
			for i := 0; i < b.N; i++ {
				for _, mmap := range []bool{false, true} {
					start := time.Now()
					if _, err := readCarquet(f, mmap); err != nil {
						b.Fatal(err)
					}
					if d := time.Since(start); mmap {
						mapped += d
					} else {
						plain += d
					}
				}
			}
			b.ReportMetric(float64(plain.Nanoseconds())/float64(b.N), "plain-ns/op")
			b.ReportMetric(float64(mapped.Nanoseconds())/float64(b.N), "mmap-ns/op")
			b.ReportMetric(float64(mapped)/float64(plain), "mmap/plain")
		})
	}
}
