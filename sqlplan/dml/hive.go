package dml

import (
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/carquet-go/carquet/writer"
)

// Hive-partitioned folder tables (t/k=v/…/part.parquet): the folder of a
// row's partition values, written as DuckDB's COPY ... (PARTITION_BY ...)
// writes them: percent-encoded (every byte but A-Z a-z 0-9 - _ . ~), NULL
// as HiveNull, the partition columns left out of the files.

// HiveNull is the folder value of a NULL partition value.
const HiveNull = "__HIVE_DEFAULT_PARTITION__"

// WithPartitionFields appends to a table's file fields a field for each
// hive partition column, of the type the table reads it as (BIGINT or
// VARCHAR), so that INSERT binds and casts their values as the others'.
func WithPartitionFields(fields []*schema.Field, parts []scan.Column) ([]*schema.Field, error) {
	if len(parts) == 0 {
		return fields, nil
	}
	ws := make([]writer.Field, len(parts))
	for i, c := range parts {
		if c.PartitionType == scan.PartitionInt64 {
			ws[i] = writer.Int64(c.Name)
		} else {
			ws[i] = writer.String(c.Name)
		}
	}
	sch, err := writer.NewSchema(ws...)
	if err != nil {
		return nil, err
	}
	pf, err := sch.LogicalFields()
	if err != nil {
		return nil, err
	}
	return append(append([]*schema.Field(nil), fields...), pf...), nil
}

// HiveGroups groups n rows by the partition folder they belong in
// ("k=v/…"): the partition columns are fields, their values parts (a
// BIGINT or VARCHAR column each). It returns the folders in the order
// rows meet them, and each one's rows.
func HiveGroups(fields []*schema.Field, parts []*vec.Col, n int) ([]string, map[string][]int32) {
	var order []string
	rows := map[string][]int32{}
	var b []byte
	for i := 0; i < n; i++ {
		b = b[:0]
		for j, c := range parts {
			if j > 0 {
				b = append(b, '/')
			}
			b = append(b, fields[j].Name...)
			b = append(b, '=')
			b = appendHiveValue(b, c, i)
		}
		dir := string(b)
		if _, seen := rows[dir]; !seen {
			order = append(order, dir)
		}
		rows[dir] = append(rows[dir], int32(i))
	}
	return order, rows
}

// HiveDir names the partition folder ("k=v/…", as HiveGroups names rows'
// folders) of a file whose partition values (scan.FileRef.Partition, by
// the names of fields) are part.
func HiveDir(fields []*schema.Field, part map[string]any) string {
	var b []byte
	for j, f := range fields {
		if j > 0 {
			b = append(b, '/')
		}
		b = append(b, f.Name...)
		b = append(b, '=')
		switch v := part[f.Name].(type) {
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case string:
			b = appendPercentEncoded(b, []byte(v))
		default:
			b = append(b, HiveNull...)
		}
	}
	return string(b)
}

// appendHiveValue appends row i of c as a partition folder value.
func appendHiveValue(b []byte, c *vec.Col, i int) []byte {
	if c.IsNull(i) {
		return append(b, HiveNull...)
	}
	if c.T.Kind == vec.KString {
		return appendPercentEncoded(b, c.Str(i))
	}
	return strconv.AppendInt(b, c.I[i], 10)
}

// appendPercentEncoded appends s with every byte but the unreserved ones
// of URIs as %XX, as DuckDB encodes partition values.
func appendPercentEncoded(b, s []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, c := range s {
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~", c) >= 0 {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return b
}
