package driver

// BenchmarkTPCH runs TPC-H queries through database/sql on a folder of
// tables that sqltests/tpch generated (carquet-bench tpch fills the cache),
// so that one query can be profiled inside the root module:
//
//	CARQUET_TPCH_DIR=~/.cache/carquet-tpch/sf1/duckdb CARQUET_TPCH_QUERIES=1,6 \
//	    go test -run '^$' -bench TPCH -cpuprofile cpu.out ./driver/
//
// Skipped when CARQUET_TPCH_DIR is not set. The comparison with DuckDB
// lives in sqltests (carquet-bench tpch).

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func BenchmarkTPCH(b *testing.B) {
	dir := os.Getenv("CARQUET_TPCH_DIR")
	if dir == "" {
		b.Skip("CARQUET_TPCH_DIR is not set")
	}
	list := os.Getenv("CARQUET_TPCH_QUERIES")
	if list == "" {
		list = "1,6,12,14,15,19"
	}
	db, err := OpenDB(Config{Path: dir, Threads: 2, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, q := range strings.Split(list, ",") {
		name := fmt.Sprintf("q%02s", strings.TrimSpace(q))
		text, err := os.ReadFile(filepath.Join("..", "sqltests", "tpch", "queries", name+".sql"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				rows, err := db.Query(string(text))
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
				}
				if err := rows.Err(); err != nil {
					b.Fatal(err)
				}
				rows.Close()
			}
		})
	}
}
