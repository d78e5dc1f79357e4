package peers

import (
	"database/sql"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqltests/internal/canon"
)

// ReadSQL runs query with args on a database/sql connection, scans every
// value into an any and renders it after convert (given the column's
// DatabaseTypeName). Types holds those names.
func ReadSQL(db *sql.DB, convert func(typ string, v any) any, query string, args ...any) (*Table, error) {
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
			row[i] = canon.Value(convert(t.Types[i], v))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, rows.Err()
}

// ReadCarquetSQL runs query on carquet's database/sql driver and renders
// every value (see CarquetSQLValue).
func ReadCarquetSQL(db *sql.DB, query string, args ...any) (*Table, error) {
	return ReadSQL(db, CarquetSQLValue, query, args...)
}

var decimalType = regexp.MustCompile(`^DECIMAL\((\d+),(\d+)\)$`)

// CarquetSQLValue converts a value carquet's driver returned to canon's Go
// values, using the column's DatabaseTypeName where the driver's Go value
// alone loses the type: FLOAT comes as a float64 (converted back to
// float32, which is exact), DECIMAL as exact text (read at the column's
// scale), INTERVAL as DuckDB's text ("1 year 2 months 3 days
// 04:05:06.789", read as months, days and microseconds), and a MAP as a Go map (which would otherwise render as a
// struct).
func CarquetSQLValue(typ string, v any) any { return carquetSQLValue(ParseSQLType(typ), v) }

func carquetSQLValue(t *SQLType, v any) any {
	if v == nil {
		return nil
	}
	switch {
	case t.Name == "FLOAT":
		if f, ok := v.(float64); ok {
			return float32(f)
		}
	case decimalType.MatchString(t.Name):
		s, ok := v.(string)
		if !ok {
			break
		}
		d, err := driver.ParseDecimal(s)
		if err != nil {
			return fmt.Sprintf("<bad DECIMAL text %q>", s)
		}
		scale, _ := strconv.Atoi(decimalType.FindStringSubmatch(t.Name)[2])
		u := d.Unscaled
		if int(d.Scale) < scale {
			u = new(big.Int).Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)-int64(d.Scale)), nil))
		} else {
			scale = int(d.Scale)
		}
		return canon.Decimal{Unscaled: u, Scale: scale}
	case t.Name == "INTERVAL":
		if s, ok := v.(string); ok {
			if iv, ok := parseCarquetInterval(s); ok {
				return iv
			}
			return fmt.Sprintf("<bad INTERVAL text %q>", s)
		}
	case t.Name == "MAP":
		var out canon.Map
		switch m := v.(type) {
		case map[string]any:
			for k, e := range m {
				out = append(out, canon.Entry{Key: carquetSQLValue(t.mapKey(), k), Value: carquetSQLValue(t.mapValue(), e)})
			}
			return out
		case map[any]any:
			for k, e := range m {
				out = append(out, canon.Entry{Key: carquetSQLValue(t.mapKey(), k), Value: carquetSQLValue(t.mapValue(), e)})
			}
			return out
		}
	case t.Name == "LIST":
		if l, ok := v.([]any); ok {
			for i := range l {
				l[i] = carquetSQLValue(t.elem(), l[i])
			}
			return l
		}
	case t.Name == "STRUCT":
		if m, ok := v.(map[string]any); ok {
			for k := range m {
				m[k] = carquetSQLValue(t.field(k), m[k])
			}
			return m
		}
	}
	return v
}

var carquetInterval = regexp.MustCompile(`^(?:(-?\d+) years? ?)?(?:(-?\d+) months? ?)?(?:(-?\d+) days? ?)?(?:(-)?(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?)?$`)

// parseCarquetInterval reads the text carquet's driver gives an INTERVAL,
// DuckDB's CAST to VARCHAR: "1 year 2 months 3 days 04:05:06.789",
// "-1 day -01:00:00", "00:00:00" (each part optional, each signed).
func parseCarquetInterval(s string) (canon.Interval, bool) {
	m := carquetInterval.FindStringSubmatch(s)
	if m == nil || s == "" {
		return canon.Interval{}, false
	}
	num := func(x string) int64 {
		n, _ := strconv.ParseInt(x, 10, 64)
		return n
	}
	frac := m[8] + strings.Repeat("0", 6-len(m[8]))
	iv := canon.Interval{Months: num(m[1])*12 + num(m[2]), Days: num(m[3]), Micros: ((num(m[5])*60+num(m[6]))*60+num(m[7]))*1e6 + num(frac)}
	if m[4] != "" {
		iv.Micros = -iv.Micros
	}
	return iv, true
}
