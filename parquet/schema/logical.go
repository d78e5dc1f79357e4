package schema

import "github.com/carquet-go/carquet/parquet/format"

// logicalOf returns the element's LogicalType, or one derived from its
// ConvertedType for files that predate LogicalType (LogicalTypes.md lists
// the correspondence). LIST/MAP stay ConvertedType-only: classify handles them.
func logicalOf(e *format.SchemaElement) *format.LogicalType {
	if e.LogicalType != nil {
		return e.LogicalType
	}
	ct, ok := e.ConvertedType.Get()
	if !ok {
		return nil
	}
	utc := true
	switch ct {
	case format.UTF8:
		return &format.LogicalType{String: &format.StringType{}}
	case format.Enum:
		return &format.LogicalType{Enum: &format.EnumType{}}
	case format.JSON:
		return &format.LogicalType{JSON: &format.JsonType{}}
	case format.BSON:
		return &format.LogicalType{BSON: &format.BsonType{}}
	case format.Date:
		return &format.LogicalType{Date: &format.DateType{}}
	case format.Decimal:
		return &format.LogicalType{Decimal: &format.DecimalType{Scale: e.Scale.Value, Precision: e.Precision.Value}}
	case format.TimeMillis:
		return &format.LogicalType{Time: &format.TimeType{IsAdjustedToUTC: utc, Unit: format.TimeUnit{Millis: &format.MilliSeconds{}}}}
	case format.TimeMicros:
		return &format.LogicalType{Time: &format.TimeType{IsAdjustedToUTC: utc, Unit: format.TimeUnit{Micros: &format.MicroSeconds{}}}}
	case format.TimestampMillis:
		return &format.LogicalType{Timestamp: &format.TimestampType{IsAdjustedToUTC: utc, Unit: format.TimeUnit{Millis: &format.MilliSeconds{}}}}
	case format.TimestampMicros:
		return &format.LogicalType{Timestamp: &format.TimestampType{IsAdjustedToUTC: utc, Unit: format.TimeUnit{Micros: &format.MicroSeconds{}}}}
	case format.Uint8, format.Uint16, format.Uint32, format.Uint64, format.Int8, format.Int16, format.Int32CT, format.Int64CT:
		widths := map[format.ConvertedType]int8{
			format.Uint8: 8, format.Uint16: 16, format.Uint32: 32, format.Uint64: 64,
			format.Int8: 8, format.Int16: 16, format.Int32CT: 32, format.Int64CT: 64,
		}
		signed := ct >= format.Int8
		return &format.LogicalType{Integer: &format.IntType{BitWidth: widths[ct], IsSigned: signed}}
	}
	return nil
}

// UnitNanos is the number of nanoseconds in one unit of a TimeUnit.
func UnitNanos(u format.TimeUnit) int64 {
	switch {
	case u.Millis != nil:
		return 1e6
	case u.Micros != nil:
		return 1e3
	case u.Nanos != nil:
		return 1
	}
	return 0
}

// UnitName is "MILLIS", "MICROS" or "NANOS".
func UnitName(u format.TimeUnit) string {
	switch {
	case u.Millis != nil:
		return "MILLIS"
	case u.Micros != nil:
		return "MICROS"
	case u.Nanos != nil:
		return "NANOS"
	}
	return "UNKNOWN_UNIT"
}

func isListAnnotated(n *Node) bool {
	if n.SchemaElement.LogicalType != nil {
		return n.SchemaElement.LogicalType.List != nil
	}
	return n.Converted.Set && n.Converted.Value == format.List
}

func isMapAnnotated(n *Node, parentIsMap bool) bool {
	if n.SchemaElement.LogicalType != nil && n.SchemaElement.LogicalType.Map != nil {
		return true
	}
	if !n.Converted.Set {
		return false
	}
	switch n.Converted.Value {
	case format.Map:
		return true
	case format.MapKeyValue:
		// MAP_KEY_VALUE misused in place of MAP, outside a MAP group.
		return !parentIsMap
	}
	return false
}

// classify sets Kind, element, key, value and repeatedLevel on every group,
// following the LIST and MAP backward-compatibility rules of LogicalTypes.md.
func classify(n *Node, parentIsMap bool) {
	if n.IsLeaf() {
		n.Kind = Primitive
		return
	}
	n.Kind = Struct
	if n.Parent != nil && len(n.Children) == 1 && n.Children[0].Repetition == format.Repeated {
		r := n.Children[0]
		switch {
		case isListAnnotated(n):
			n.Kind = List
			n.repeatedLevel = r
			n.element = listElement(n, r)
		case isMapAnnotated(n, parentIsMap) && !r.IsLeaf() && len(r.Children) >= 1 && len(r.Children) <= 2:
			n.Kind = Map
			n.repeatedLevel = r
			n.key = r.Children[0]
			if len(r.Children) == 2 {
				n.value = r.Children[1]
			}
		}
	}
	isMap := n.Kind == Map
	for _, c := range n.Children {
		classify(c, isMap)
	}
}

// listElement picks the element node of a LIST-annotated group whose single
// repeated child is r, by the five backward-compatibility rules.
func listElement(list, r *Node) *Node {
	switch {
	case r.IsLeaf(): // rule 1
		return r
	case len(r.Children) > 1: // rule 2
		return r
	case r.Children[0].Repetition == format.Repeated: // rule 3
		return r
	case r.Name == "array" || r.Name == list.Name+"_tuple": // rule 4
		return r
	}
	return r.Children[0] // rule 5: the standard 3-level list
}
