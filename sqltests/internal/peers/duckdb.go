// Package peers opens the peer libraries (DuckDB through duckdb-go,
// arrow-go's pqarrow, parquet-go) that the interop, conformance and
// benchmark packages compare carquet against, and turns what each returns
// into the Go values of package canon.
package peers

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqltests/internal/canon"
)

// OpenDuckDB opens an in-memory DuckDB database limited to the given
// number of threads (0 keeps DuckDB's default). The pool holds one
// connection so that SET statements apply to every query.
func OpenDuckDB(threads int) (*sql.DB, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if threads > 0 {
		if _, err := db.Exec(fmt.Sprintf("SET threads=%d", threads)); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// DuckDBVersion returns the library version DuckDB reports.
func DuckDBVersion(db *sql.DB) string {
	var v string
	if err := db.QueryRowContext(context.Background(), "SELECT version()").Scan(&v); err != nil {
		return "unknown"
	}
	return v
}

// ReadDuckDB runs query (whose only argument is path) and renders every
// value. Column types decide two conversions: UUID bytes become the
// canonical UUID string, and JSON values (which duckdb-go parses) are
// rendered from their re-marshalled text.
func ReadDuckDB(db *sql.DB, query string, args ...any) (*Table, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	t := &Table{}
	for _, c := range cts {
		t.Columns = append(t.Columns, c.Name())
		t.Types = append(t.Types, c.DatabaseTypeName())
	}
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = canon.Value(DuckDBValue(t.Types[i], v))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, rows.Err()
}

// ReadDuckDBFile reads a whole file with DuckDB: SELECT * FROM
// read_parquet(?), with two adjustments that keep it a read of every
// value. duckdb-go cannot scan TIME_NS (DuckDB's type for TIME(NANOS)), so
// such columns are selected as text (CAST(c AS VARCHAR), which keeps every
// digit) and parsed back. Columns named in exclude are selected as NULL,
// for cells where DuckDB cannot decode one column (the caller skips them).
func ReadDuckDBFile(db *sql.DB, path string, exclude map[string]string) (*Table, error) {
	desc, err := ReadDuckDB(db, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(?))", path)
	if err != nil {
		return nil, err
	}
	var sel []string
	timeNS := map[int]bool{}
	for i, row := range desc.Rows {
		name, _ := strconv.Unquote(row[0])
		typ, _ := strconv.Unquote(row[1])
		q := `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
		switch {
		case exclude[name] != "":
			sel = append(sel, "NULL AS "+q)
		case typ == "TIME_NS":
			sel = append(sel, "CAST("+q+" AS VARCHAR) AS "+q)
			timeNS[i] = true
		default:
			sel = append(sel, q)
		}
	}
	if len(sel) == 0 {
		return ReadDuckDB(db, "SELECT * FROM read_parquet(?)", path)
	}
	t, err := ReadDuckDB(db, "SELECT "+strings.Join(sel, ", ")+" FROM read_parquet(?)", path)
	if err != nil {
		return nil, err
	}
	for c := range timeNS {
		t.Types[c] = "TIME_NS"
		for _, row := range t.Rows {
			if row[c] == "null" {
				continue
			}
			s, _ := strconv.Unquote(row[c])
			tm, err := time.Parse("15:04:05.999999999", s)
			if err != nil {
				return nil, fmt.Errorf("TIME_NS %q: %w", s, err)
			}
			row[c] = canon.Time(time.Date(1, 1, 1, tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC))
		}
	}
	return t, nil
}

// DuckDBValue converts a value duckdb-go returned to canon's Go values.
func DuckDBValue(typ string, v any) any {
	if typ == "JSON" && v != nil {
		// duckdb-go parses JSON values; write them back as compact text
		// with sorted keys (the generated JSON is written that way too).
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Sprintf("<JSON %v>", err)
		}
		return string(b)
	}
	switch x := v.(type) {
	case nil:
		return nil
	case duckdb.Decimal:
		return canon.Decimal{Unscaled: x.Value, Scale: int(x.Scale)}
	case duckdb.Interval:
		return canon.Interval{Months: int64(x.Months), Days: int64(x.Days), Micros: x.Micros}
	case duckdb.OrderedMap:
		keys, vals := x.Keys(), x.Values()
		m := make(canon.Map, len(keys))
		for i := range keys {
			m[i] = canon.Entry{Key: DuckDBValue("", keys[i]), Value: DuckDBValue("", vals[i])}
		}
		return m
	case duckdb.UUID:
		return x.String()
	case *duckdb.UUID:
		return x.String()
	case []byte:
		if typ == "UUID" && len(x) == 16 {
			return value.UUIDString(x)
		}
		return x
	case string:
		if typ == "JSON" {
			return x
		}
		return x
	case []any:
		for i := range x {
			x[i] = DuckDBValue("", x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = DuckDBValue("", x[k])
		}
		return x
	}
	return v
}
