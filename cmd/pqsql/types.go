package main

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
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
	return leafSQLType(f.Node)
}

// leafSQLType names a primitive column's type.
func leafSQLType(n *schema.Node) string {
	if lt := n.Logical; lt != nil {
		switch {
		case lt.String != nil, lt.Enum != nil:
			return "VARCHAR"
		case lt.JSON != nil:
			return "JSON"
		case lt.UUID != nil:
			return "UUID"
		case lt.Decimal != nil:
			return fmt.Sprintf("DECIMAL(%d,%d)", lt.Decimal.Precision, lt.Decimal.Scale)
		case lt.Date != nil:
			return "DATE"
		case lt.Time != nil:
			return "TIME"
		case lt.Timestamp != nil:
			if lt.Timestamp.IsAdjustedToUTC {
				return "TIMESTAMPTZ"
			}
			return "TIMESTAMP"
		case lt.Float16 != nil:
			return "FLOAT"
		case lt.Integer != nil:
			names := map[int8]string{8: "TINYINT", 16: "SMALLINT", 32: "INTEGER", 64: "BIGINT"}
			s := names[lt.Integer.BitWidth]
			if s == "" {
				s = "BIGINT"
			}
			if !lt.Integer.IsSigned {
				s = "U" + s
			}
			return s
		case lt.Unknown != nil:
			return "NULL"
		}
	}
	if n.Converted.Set && n.Converted.Value == format.Interval {
		return "INTERVAL"
	}
	switch n.Physical {
	case format.Boolean:
		return "BOOLEAN"
	case format.Int32:
		return "INTEGER"
	case format.Int64:
		return "BIGINT"
	case format.Int96:
		return "TIMESTAMP"
	case format.Float:
		return "FLOAT"
	case format.Double:
		return "DOUBLE"
	}
	return "BLOB"
}
