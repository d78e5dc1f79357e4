// Package tpch holds the TPC-H yardstick of BENCHMARKS.md §5: the eight
// tables generated at a scale factor by go-tpc's port of dbgen (gen.go),
// written as Parquet once by carquet's writer and once by DuckDB (COPY of
// carquet's file with every column cast to the spec's type) into a cache
// folder; the 22 queries in the specification's text with its validation
// parameters (queries/qNN.sql); the comparison of carquet's answers with
// DuckDB's over the same files (compare.go, tpch_test.go); and the timed
// comparison that carquet-bench tpch runs (bench.go).
//
// Types: identifiers INTEGER (the order keys BIGINT), money and
// quantities DECIMAL(15,2), dates DATE, the spec's CHAR(n) and VARCHAR(n)
// as VARCHAR; every column REQUIRED. Both writers compress with snappy.
//
// Reproduce:
//
//	cd sqltests
//	go test ./tpch                          # SF 0.01 (CARQUET_TPCH_SF to change it)
//	go run ./cmd/carquet-bench tpch -sf 1 -threads 2 -runs 3 -timeout 10m -out tpch.md
//
// The cache is $CARQUET_TPCH_CACHE, else $XDG_CACHE_HOME/carquet-tpch (or
// ~/.cache/carquet-tpch), one folder per scale factor (sf0.01/carquet,
// sf0.01/duckdb); delete a folder to generate it again.
package tpch
