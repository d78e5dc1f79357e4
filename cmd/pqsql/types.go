package main

import (
	"strings"

	"github.com/carquet-go/carquet/internal/statvalue"
	"github.com/carquet-go/carquet/parquet/schema"
)

// sqlType names a field's type the way the SQL engine and DuckDB do
// (BIGINT, VARCHAR, TIMESTAMP, DECIMAL(9,2), INTEGER[], STRUCT(...)).
func sqlType(f *schema.Field) string {
	if f == nil {
		return ""
	}
	switch f.Kind {
	case schema.List:
		return sqlType(f.Children[0]) + "[]"
	case schema.Map:
		v := "NULL"
		if len(f.Children) > 1 {
			v = sqlType(f.Children[1])
		}
		return "MAP(" + sqlType(f.Children[0]) + ", " + v + ")"
	case schema.Struct:
		parts := make([]string, len(f.Children))
		for i, c := range f.Children {
			parts[i] = c.Name + " " + sqlType(c)
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")"
	}
	return statvalue.SQLType(f.Node)
}
