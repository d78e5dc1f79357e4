package delta

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// Type is a Delta data type: a primitive named by Name ("long", "string",
// "decimal", ...), or a struct, array or map.
type Type struct {
	// Name is the primitive type's name ("decimal" for every decimal), or
	// "struct", "array", "map".
	Name             string
	Precision, Scale int // decimal
	Fields           []*Field
	Element          *Type // array
	ContainsNull     bool  // array elements may be null
	Key, Value       *Type // map
	ValueNullable    bool
}

// Field is a field of a Delta struct type.
type Field struct {
	Name     string
	Type     *Type
	Nullable bool
	// PhysicalName is the name of the field in the data files under
	// column mapping (Name otherwise); ID its field id (0 when unset).
	PhysicalName string
	ID           int32
	Metadata     map[string]any
}

// ParseSchema parses a metaData action's schemaString.
func ParseSchema(s string) (*Type, error) {
	var raw any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("delta: schemaString: %w", err)
	}
	t, err := parseType(raw, 0)
	if err != nil {
		return nil, fmt.Errorf("delta: schemaString: %w", err)
	}
	if t.Name != "struct" {
		return nil, fmt.Errorf("delta: schemaString: the table schema is a %s, not a struct", t.Name)
	}
	return t, nil
}

const maxSchemaDepth = 100

func parseType(raw any, depth int) (*Type, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("types nested deeper than %d", maxSchemaDepth)
	}
	switch x := raw.(type) {
	case string:
		return parsePrimitive(x)
	case map[string]any:
		kind, _ := x["type"].(string)
		switch kind {
		case "struct":
			fields, _ := x["fields"].([]any)
			t := &Type{Name: "struct"}
			seen := map[string]bool{}
			for _, rf := range fields {
				m, ok := rf.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("a struct field is not an object")
				}
				f, err := parseField(m, depth)
				if err != nil {
					return nil, err
				}
				if seen[strings.ToLower(f.Name)] {
					return nil, fmt.Errorf("two fields named %q", f.Name)
				}
				seen[strings.ToLower(f.Name)] = true
				t.Fields = append(t.Fields, f)
			}
			if len(t.Fields) == 0 {
				return nil, fmt.Errorf("a struct without fields")
			}
			return t, nil
		case "array":
			el, err := parseType(x["elementType"], depth+1)
			if err != nil {
				return nil, err
			}
			cn, _ := x["containsNull"].(bool)
			return &Type{Name: "array", Element: el, ContainsNull: cn}, nil
		case "map":
			k, err := parseType(x["keyType"], depth+1)
			if err != nil {
				return nil, err
			}
			v, err := parseType(x["valueType"], depth+1)
			if err != nil {
				return nil, err
			}
			vn, _ := x["valueContainsNull"].(bool)
			return &Type{Name: "map", Key: k, Value: v, ValueNullable: vn}, nil
		}
		return nil, fmt.Errorf("unknown type %q", kind)
	}
	return nil, fmt.Errorf("a type is neither a name nor an object")
}

func parseField(m map[string]any, depth int) (*Field, error) {
	name, _ := m["name"].(string)
	if name == "" {
		return nil, fmt.Errorf("a struct field without a name")
	}
	t, err := parseType(m["type"], depth+1)
	if err != nil {
		return nil, fmt.Errorf("field %q: %w", name, err)
	}
	f := &Field{Name: name, Type: t, PhysicalName: name}
	f.Nullable, _ = m["nullable"].(bool)
	if md, ok := m["metadata"].(map[string]any); ok {
		f.Metadata = md
		if p, ok := md["delta.columnMapping.physicalName"].(string); ok && p != "" {
			f.PhysicalName = p
		}
		if n, ok := md["delta.columnMapping.id"].(json.Number); ok {
			id, err := strconv.ParseInt(string(n), 10, 32)
			if err != nil {
				return nil, fmt.Errorf("field %q: column mapping id %s: %w", name, n, err)
			}
			f.ID = int32(id)
		}
	}
	return f, nil
}

func parsePrimitive(s string) (*Type, error) {
	switch s {
	case "string", "long", "integer", "short", "byte", "float", "double", "boolean",
		"binary", "date", "timestamp", "timestamp_ntz":
		return &Type{Name: s}, nil
	}
	if rest, ok := strings.CutPrefix(s, "decimal"); ok {
		p, sc := 10, 0 // Spark's default DECIMAL
		if rest != "" {
			in, ok := strings.CutPrefix(rest, "(")
			in, ok2 := strings.CutSuffix(in, ")")
			a, b, ok3 := strings.Cut(in, ",")
			if !ok || !ok2 || !ok3 {
				return nil, fmt.Errorf("bad decimal type %q", s)
			}
			var err1, err2 error
			p, err1 = strconv.Atoi(strings.TrimSpace(a))
			sc, err2 = strconv.Atoi(strings.TrimSpace(b))
			if err1 != nil || err2 != nil || p < 1 || p > 38 || sc < 0 || sc > p {
				return nil, fmt.Errorf("bad decimal type %q", s)
			}
		}
		return &Type{Name: "decimal", Precision: p, Scale: sc}, nil
	}
	return nil, fmt.Errorf("the Delta type %q is not supported", s)
}

// Elements converts a struct type into the depth-first list of Parquet
// schema elements that Spark-style writers give it: the table's logical
// names, the column mapping ids as field ids. The result types the
// table's columns; data files are matched against it by name, physical
// name or field id.
func (t *Type) Elements() ([]format.SchemaElement, error) {
	elems := []format.SchemaElement{{Name: "schema", NumChildren: format.Some(int32(len(t.Fields)))}}
	for _, f := range t.Fields {
		var err error
		if elems, err = appendElements(elems, f.Name, f.Type, f.Nullable, f.ID); err != nil {
			return nil, err
		}
	}
	return elems, nil
}

// ParquetSchema is Elements built into a schema tree.
func (t *Type) ParquetSchema() (*schema.Schema, error) {
	elems, err := t.Elements()
	if err != nil {
		return nil, err
	}
	return schema.FromElements(elems)
}

func appendElements(elems []format.SchemaElement, name string, t *Type, nullable bool, id int32) ([]format.SchemaElement, error) {
	rep := format.Required
	if nullable {
		rep = format.Optional
	}
	e := format.SchemaElement{Name: name, RepetitionType: format.Some(rep)}
	if id != 0 {
		e.FieldID = format.Some(id)
	}
	micros := format.TimeUnit{Micros: &format.MicroSeconds{}}
	leaf := func(pt format.Type, lt *format.LogicalType) []format.SchemaElement {
		e.Type = format.Some(pt)
		e.LogicalType = lt
		return append(elems, e)
	}
	switch t.Name {
	case "string":
		e.ConvertedType = format.Some(format.UTF8)
		return leaf(format.ByteArray, &format.LogicalType{String: &format.StringType{}}), nil
	case "binary":
		return leaf(format.ByteArray, nil), nil
	case "boolean":
		return leaf(format.Boolean, nil), nil
	case "long":
		return leaf(format.Int64, nil), nil
	case "integer":
		return leaf(format.Int32, nil), nil
	case "short":
		e.ConvertedType = format.Some(format.Int16)
		return leaf(format.Int32, &format.LogicalType{Integer: &format.IntType{BitWidth: 16, IsSigned: true}}), nil
	case "byte":
		e.ConvertedType = format.Some(format.Int8)
		return leaf(format.Int32, &format.LogicalType{Integer: &format.IntType{BitWidth: 8, IsSigned: true}}), nil
	case "float":
		return leaf(format.Float, nil), nil
	case "double":
		return leaf(format.Double, nil), nil
	case "date":
		e.ConvertedType = format.Some(format.Date)
		return leaf(format.Int32, &format.LogicalType{Date: &format.DateType{}}), nil
	case "timestamp":
		e.ConvertedType = format.Some(format.TimestampMicros)
		return leaf(format.Int64, &format.LogicalType{Timestamp: &format.TimestampType{IsAdjustedToUTC: true, Unit: micros}}), nil
	case "timestamp_ntz":
		return leaf(format.Int64, &format.LogicalType{Timestamp: &format.TimestampType{IsAdjustedToUTC: false, Unit: micros}}), nil
	case "decimal":
		e.ConvertedType = format.Some(format.Decimal)
		e.Precision, e.Scale = format.Some(int32(t.Precision)), format.Some(int32(t.Scale))
		lt := &format.LogicalType{Decimal: &format.DecimalType{Precision: int32(t.Precision), Scale: int32(t.Scale)}}
		switch {
		case t.Precision <= 9:
			return leaf(format.Int32, lt), nil
		case t.Precision <= 18:
			return leaf(format.Int64, lt), nil
		}
		e.TypeLength = format.Some(int32(decimalBytes(t.Precision)))
		return leaf(format.FixedLenByteArray, lt), nil
	case "struct":
		e.NumChildren = format.Some(int32(len(t.Fields)))
		elems = append(elems, e)
		for _, f := range t.Fields {
			var err error
			if elems, err = appendElements(elems, f.Name, f.Type, f.Nullable, f.ID); err != nil {
				return nil, err
			}
		}
		return elems, nil
	case "array":
		e.NumChildren = format.Some(int32(1))
		e.ConvertedType = format.Some(format.List)
		e.LogicalType = &format.LogicalType{List: &format.ListType{}}
		elems = append(elems, e, format.SchemaElement{Name: "list", RepetitionType: format.Some(format.Repeated), NumChildren: format.Some(int32(1))})
		return appendElements(elems, "element", t.Element, t.ContainsNull, 0)
	case "map":
		e.NumChildren = format.Some(int32(1))
		e.ConvertedType = format.Some(format.Map)
		e.LogicalType = &format.LogicalType{Map: &format.MapType{}}
		elems = append(elems, e, format.SchemaElement{Name: "key_value", RepetitionType: format.Some(format.Repeated), NumChildren: format.Some(int32(2))})
		elems, err := appendElements(elems, "key", t.Key, false, 0)
		if err != nil {
			return nil, err
		}
		return appendElements(elems, "value", t.Value, t.ValueNullable, 0)
	}
	return nil, fmt.Errorf("delta: column %q: the type %q is not supported", name, t.Name)
}

// decimalBytes is the fewest bytes of a two's complement integer holding
// every unscaled value of the precision.
func decimalBytes(precision int) int {
	for n := 1; ; n++ {
		// digits a signed n-byte integer always holds: floor(log10(2^(8n-1)-1))
		digits := int(float64(8*n-1) * 0.30102999566398120)
		if digits >= precision {
			return n
		}
	}
}
