package schema

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
)

// String prints the schema in the `message schema { ... }` text form that
// parquet-mr and most tools use.
func (s *Schema) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "message %s {\n", s.Root.Name)
	for _, c := range s.Root.Children {
		printNode(&b, c, 1)
	}
	b.WriteString("}\n")
	return b.String()
}

func printNode(b *strings.Builder, n *Node, depth int) {
	indent := strings.Repeat("  ", depth)
	b.WriteString(indent)
	b.WriteString(n.Repetition.String())
	b.WriteByte(' ')
	if n.IsLeaf() {
		b.WriteString(strings.ToLower(n.Physical.String()))
		if n.Physical == format.FixedLenByteArray {
			fmt.Fprintf(b, "(%d)", n.TypeLength)
		}
	} else {
		b.WriteString("group")
	}
	b.WriteByte(' ')
	b.WriteString(n.Name)
	if a := AnnotationString(n); a != "" {
		fmt.Fprintf(b, " (%s)", a)
	}
	if id, ok := n.FieldID.Get(); ok {
		fmt.Fprintf(b, " = %d", id)
	}
	if n.IsLeaf() {
		b.WriteString(";\n")
		return
	}
	b.WriteString(" {\n")
	for _, c := range n.Children {
		printNode(b, c, depth+1)
	}
	b.WriteString(indent)
	b.WriteString("}\n")
}

// AnnotationString describes a node's logical (or converted) type the way
// schema printouts do, e.g. "STRING", "DECIMAL(9,2)", "TIMESTAMP(MICROS,true)".
// It is empty for an unannotated node.
func AnnotationString(n *Node) string {
	if lt := n.SchemaElement.LogicalType; lt != nil {
		return LogicalString(lt)
	}
	if ct, ok := n.Converted.Get(); ok {
		if ct == format.Decimal {
			return fmt.Sprintf("DECIMAL(%d,%d)", n.SchemaElement.Precision.Value, n.SchemaElement.Scale.Value)
		}
		return ct.String()
	}
	return ""
}

// LogicalString names a logical type with its parameters.
func LogicalString(lt *format.LogicalType) string {
	switch {
	case lt.String != nil:
		return "STRING"
	case lt.Map != nil:
		return "MAP"
	case lt.List != nil:
		return "LIST"
	case lt.Enum != nil:
		return "ENUM"
	case lt.Decimal != nil:
		return fmt.Sprintf("DECIMAL(%d,%d)", lt.Decimal.Precision, lt.Decimal.Scale)
	case lt.Date != nil:
		return "DATE"
	case lt.Time != nil:
		return fmt.Sprintf("TIME(%s,%t)", UnitName(lt.Time.Unit), lt.Time.IsAdjustedToUTC)
	case lt.Timestamp != nil:
		return fmt.Sprintf("TIMESTAMP(%s,%t)", UnitName(lt.Timestamp.Unit), lt.Timestamp.IsAdjustedToUTC)
	case lt.Integer != nil:
		return fmt.Sprintf("INTEGER(%d,%t)", lt.Integer.BitWidth, lt.Integer.IsSigned)
	case lt.Unknown != nil:
		return "UNKNOWN"
	case lt.JSON != nil:
		return "JSON"
	case lt.BSON != nil:
		return "BSON"
	case lt.UUID != nil:
		return "UUID"
	case lt.Float16 != nil:
		return "FLOAT16"
	case lt.Variant != nil:
		if v, ok := lt.Variant.SpecificationVersion.Get(); ok {
			return fmt.Sprintf("VARIANT(%d)", v)
		}
		return "VARIANT"
	case lt.Geometry != nil:
		if crs, ok := lt.Geometry.CRS.Get(); ok {
			return fmt.Sprintf("GEOMETRY(%s)", crs)
		}
		return "GEOMETRY"
	case lt.Geography != nil:
		s := "GEOGRAPHY"
		if crs, ok := lt.Geography.CRS.Get(); ok {
			s += "(" + crs
			if a, ok := lt.Geography.Algorithm.Get(); ok {
				s += "," + a.String()
			}
			s += ")"
		}
		return s
	case lt.Vector != nil:
		return "VECTOR"
	}
	return "UNKNOWN_LOGICAL_TYPE"
}
