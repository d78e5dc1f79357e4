// Package types is the type matrix: every logical type carquet maps to SQL
// (integers of each width and signedness, FLOAT, FLOAT16, DOUBLE, DECIMAL
// at five precisions, VARCHAR, BLOB, DATE, TIME, TIME_NS, TIMESTAMP at
// each unit, TIMESTAMPTZ, UUID, INTERVAL, a simple LIST, STRUCT and MAP,
// and edge values nested in each) holding its edge values (cases.go).
//
// Each case is written by every writer that has the type: DuckDB (COPY
// ... TO, PARQUET_VERSION V1 and V2), arrow-go's pqarrow (data page v1,
// v2, and timestamps as INT96; from the Arrow table pqarrow reads from
// DuckDB's file), and carquet (CREATE TABLE with DuckDB's type name and
// one INSERT per literal; COPY of DuckDB's file). Each file is read
// through carquet's database/sql driver (SELECT * FROM 'file.parquet',
// scanned into any) and through DuckDB. The values written are DuckDB's
// reading of the literals in memory.
//
// Each cell is a subtest TYPE/WRITER/CHECK:
//
//   - carquet: carquet reads the values written (a difference also shows
//     DuckDB's reading of the row).
//   - duckdb: DuckDB reads the values written; this checks the writer,
//     carquet's included.
//   - agree: carquet reads what DuckDB reads from the same file.
//   - type: carquet's DatabaseTypeName of the column is DuckDB's.
//
// A failure at TYPE/WRITER itself is a write carquet refused. Values
// compare in package canon's text (times in UTC with nanoseconds, decimals
// exact, floats by their shortest round-trip text, -0 and NaN included).
package types
