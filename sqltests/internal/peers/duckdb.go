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

// ReadDuckDB runs query with args on DuckDB and renders every value.
// Column types decide two conversions: UUID bytes become the
// canonical UUID string, and JSON values (which duckdb-go parses) are
// rendered from their re-marshalled text.
func ReadDuckDB(db *sql.DB, query string, args ...any) (*Table, error) {
	return ReadSQL(db, DuckDBValue, query, args...)
}

// ReadDuckDBFile reads a whole file with DuckDB: SELECT * FROM
// read_parquet(?), with two adjustments that keep it a read of every
// value. duckdb-go cannot scan TIME_NS (DuckDB's type for TIME(NANOS)) and
// scans TIME 24:00:00 as 00:00:00, so such columns are selected as text
// (CAST(c AS VARCHAR), which keeps every digit) and parsed back. Columns
// named in exclude are selected as NULL, for cells where DuckDB cannot
// decode one column (the caller skips them).
func ReadDuckDBFile(db *sql.DB, path string, exclude map[string]string) (*Table, error) {
	return ReadDuckDBFrom(db, "read_parquet(?)", exclude, path)
}

// ReadDuckDBFrom is ReadDuckDBFile for any relation: SELECT * FROM from
// (a table name, or a table function whose arguments are args).
func ReadDuckDBFrom(db *sql.DB, from string, exclude map[string]string, args ...any) (*Table, error) {
	desc, err := ReadDuckDB(db, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+from+")", args...)
	if err != nil {
		return nil, err
	}
	var sel []string
	asText := map[int]string{}
	for i, row := range desc.Rows {
		name, _ := strconv.Unquote(row[0])
		typ, _ := strconv.Unquote(row[1])
		q := `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
		switch {
		case exclude[name] != "":
			sel = append(sel, "NULL AS "+q)
		case typ == "TIME_NS" || typ == "TIME":
			sel = append(sel, "CAST("+q+" AS VARCHAR) AS "+q)
			asText[i] = typ
		default:
			sel = append(sel, q)
		}
	}
	if len(sel) == 0 {
		return ReadDuckDB(db, "SELECT * FROM "+from, args...)
	}
	t, err := ReadDuckDB(db, "SELECT "+strings.Join(sel, ", ")+" FROM "+from, args...)
	if err != nil {
		return nil, err
	}
	for c, typ := range asText {
		t.Types[c] = typ
		for _, row := range t.Rows {
			if row[c] == "null" {
				continue
			}
			s, _ := strconv.Unquote(row[c])
			tm, err := parseTimeOfDay(s)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", typ, s, err)
			}
			row[c] = canon.Time(tm)
		}
	}
	return t, nil
}

// parseTimeOfDay reads DuckDB's text of a TIME or TIME_NS,
// "HH:MM:SS[.fffffffff]", as a time on 0001-01-01 (24:00:00 is the next
// day's midnight; time.Parse refuses hour 24).
func parseTimeOfDay(s string) (time.Time, error) {
	hms, frac, _ := strings.Cut(s, ".")
	var h, m, sec int
	if n, err := fmt.Sscanf(hms, "%d:%d:%d", &h, &m, &sec); err != nil || n != 3 {
		return time.Time{}, fmt.Errorf("not a time of day")
	}
	ns := 0
	if frac != "" {
		v, err := strconv.Atoi((frac + "000000000")[:9])
		if err != nil || len(frac) > 9 {
			return time.Time{}, fmt.Errorf("not a time of day")
		}
		ns = v
	}
	return time.Date(1, 1, 1, h, m, sec, ns, time.UTC), nil
}

// DuckDBValue converts a value duckdb-go returned to canon's Go values;
// typ is the column's DatabaseTypeName, which says what the values nested
// in lists, structs and maps are (duckdb-go hands a nested UUID out as
// its 16 bytes).
func DuckDBValue(typ string, v any) any { return duckDBValue(ParseSQLType(typ), v) }

func duckDBValue(t *SQLType, v any) any {
	if t.Name == "JSON" && v != nil {
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
			m[i] = canon.Entry{Key: duckDBValue(t.mapKey(), keys[i]), Value: duckDBValue(t.mapValue(), vals[i])}
		}
		return m
	case duckdb.UUID:
		return x.String()
	case *duckdb.UUID:
		return x.String()
	case []byte:
		if t.Name == "UUID" && len(x) == 16 {
			return value.UUIDString(x)
		}
		return x
	case []any:
		for i := range x {
			x[i] = duckDBValue(t.elem(), x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = duckDBValue(t.field(k), x[k])
		}
		return x
	}
	return v
}
