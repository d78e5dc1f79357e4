package delta

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/carquet-go/carquet/internal/statvalue"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
)

// NewProtocol is the protocol of a new table of the schema and
// configuration: reader 1 and writer 2; or reader 3 and writer 7 when a
// column needs the timestampNtz feature or the table maps columns
// (delta.columnMapping.mode name or id: the columnMapping feature), with
// those features listed, and appendOnly when delta.appendOnly is set (a
// writer 7 table honours it only if listed). These are the only features
// this writer declares.
func NewProtocol(t *Type, conf map[string]string) *Protocol {
	var features []string
	if usesType(t, "timestamp_ntz") {
		features = append(features, "timestampNtz")
	}
	if m := conf["delta.columnMapping.mode"]; m != "" && m != "none" {
		features = append(features, "columnMapping")
	}
	if features == nil {
		return &Protocol{MinReaderVersion: 1, MinWriterVersion: 2}
	}
	writer := slices.Clone(features)
	if strings.EqualFold(conf["delta.appendOnly"], "true") {
		writer = append(writer, "appendOnly")
	}
	return &Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: features, WriterFeatures: writer}
}

// MapColumns gives every struct field of t (nested ones too) a column
// mapping id, from 1 in depth-first order, and a physical name
// col-<uuid>, in its metadata as the protocol keeps them, for a new table
// with column mapping. It returns the largest id (the table's
// delta.columnMapping.maxColumnId).
func MapColumns(t *Type) int {
	id := 0
	var walk func(t *Type)
	walk = func(t *Type) {
		switch t.Name {
		case "struct":
			for _, f := range t.Fields {
				id++
				f.ID, f.PhysicalName = int32(id), "col-"+NewTableID()
				if f.Metadata == nil {
					f.Metadata = map[string]any{}
				}
				f.Metadata["delta.columnMapping.id"] = id
				f.Metadata["delta.columnMapping.physicalName"] = f.PhysicalName
				walk(f.Type)
			}
		case "array":
			walk(t.Element)
		case "map":
			walk(t.Key)
			walk(t.Value)
		}
	}
	walk(t)
	return id
}

func usesType(t *Type, name string) bool {
	switch t.Name {
	case name:
		return true
	case "struct":
		for _, f := range t.Fields {
			if usesType(f.Type, name) {
				return true
			}
		}
	case "array":
		return usesType(t.Element, name)
	case "map":
		return usesType(t.Key, name) || usesType(t.Value, name)
	}
	return false
}

// appendWriterFeatures are the writer features an append of new files
// honours: nothing to do for most, and for the others what
// CheckAppendable checks.
var appendWriterFeatures = map[string]bool{
	"appendOnly":          true,
	"invariants":          true, // none may be set: checked
	"checkConstraints":    true, // none may be set: checked
	"changeDataFeed":      true, // inserts write no change files
	"generatedColumns":    true, // none may be set: checked
	"identityColumns":     true, // none may be set: checked
	"columnMapping":       true, // data files in physical names with field ids: FileType
	"deletionVectors":     true,
	"timestampNtz":        true,
	"v2Checkpoint":        true, // checkpoints of such tables are not written
	"vacuumProtocolCheck": true,
}

// CheckWriterFeatures refuses a table whose protocol names a writer
// version or feature this package does not honour: it writes nothing to
// the log of such a table (commits, checkpoints, log compactions).
func (s *Snapshot) CheckWriterFeatures() error {
	p := s.Protocol
	if p.MinWriterVersion > 7 {
		return fmt.Errorf("delta: %s (version %d): the table needs writer version %d; versions up to 7 are supported", s.Root, s.Version, p.MinWriterVersion)
	}
	if p.MinWriterVersion == 7 {
		for _, f := range p.WriterFeatures {
			if !appendWriterFeatures[f] {
				return fmt.Errorf("delta: %s (version %d): writing needs the writer feature %q, which is not supported", s.Root, s.Version, f)
			}
		}
	}
	return nil
}

// CheckAppendable refuses to append to a table whose protocol or
// metadata asks a writer for more than adding files: unknown writer
// features, invariants, CHECK constraints, generated or identity columns.
// (Partitioned tables take files under their partition values, see
// PartitionDir; tables with column mapping files under the physical
// names and field ids, see FileType.)
func (s *Snapshot) CheckAppendable() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("delta: %s (version %d): %s", s.Root, s.Version, fmt.Sprintf(format, args...))
	}
	if err := s.CheckWriterFeatures(); err != nil {
		return err
	}
	for _, pc := range s.Metadata.PartitionColumns {
		if err := CheckPartitionType(pc, s.Field(pc).Type); err != nil {
			return fail("%v", err)
		}
	}
	for k := range s.Metadata.Configuration {
		if strings.HasPrefix(k, "delta.constraints.") {
			return fail("the table has a CHECK constraint (%s), which this writer does not enforce", k)
		}
	}
	var bad string
	var walk func(prefix string, t *Type)
	walk = func(prefix string, t *Type) {
		for _, f := range t.Fields {
			for k := range f.Metadata {
				if k == "delta.invariants" || k == "delta.generationExpression" || strings.HasPrefix(k, "delta.identity.") {
					if bad == "" {
						bad = fmt.Sprintf("column %q has %s", prefix+f.Name, k)
					}
				}
			}
			if f.Type.Name == "struct" {
				walk(prefix+f.Name+".", f.Type)
			}
		}
	}
	walk("", s.Schema)
	if bad != "" {
		return fail("%s, which this writer does not honour", bad)
	}
	if s.ColumnMapping != "none" {
		if col := unmapped("", s.Schema); col != "" {
			return fail("column %q has no physical name and id, which column mapping (mode %q) gives every column", col, s.ColumnMapping)
		}
	}
	return nil
}

// unmapped returns the path of the first struct field of t (nested ones
// too) without a physical name or id, "" when there is none.
func unmapped(prefix string, t *Type) string {
	switch t.Name {
	case "struct":
		for _, f := range t.Fields {
			if _, ok := f.Metadata["delta.columnMapping.physicalName"].(string); !ok || f.ID == 0 {
				return prefix + f.Name
			}
			if p := unmapped(prefix+f.Name+".", f.Type); p != "" {
				return p
			}
		}
	case "array":
		return unmapped(prefix, t.Element)
	case "map":
		if p := unmapped(prefix, t.Key); p != "" {
			return p
		}
		return unmapped(prefix, t.Value)
	}
	return ""
}

// TypeOf converts the logical fields of a Parquet schema into a Delta
// struct type. Types Delta lacks are widened where no value changes
// (unsigned integers to the next signed type, UUID to string); others
// (TIME, INTERVAL, FLOAT16, nanosecond timestamps...) are refused.
func TypeOf(fields []*schema.Field) (*Type, error) {
	t := &Type{Name: "struct"}
	for _, f := range fields {
		ft, err := typeOfField(f)
		if err != nil {
			return nil, fmt.Errorf("delta: column %q: %w", f.Name, err)
		}
		t.Fields = append(t.Fields, &Field{Name: f.Name, Type: ft, Nullable: f.Nullable, PhysicalName: f.Name})
	}
	return t, nil
}

func typeOfField(f *schema.Field) (*Type, error) {
	switch f.Kind {
	case schema.Struct:
		return TypeOf(f.Children)
	case schema.List:
		el, err := typeOfField(f.Children[0])
		if err != nil {
			return nil, err
		}
		return &Type{Name: "array", Element: el, ContainsNull: f.Children[0].Nullable}, nil
	case schema.Map:
		if len(f.Children) < 2 {
			return nil, fmt.Errorf("a map without values has no Delta type")
		}
		k, err := typeOfField(f.Children[0])
		if err != nil {
			return nil, err
		}
		v, err := typeOfField(f.Children[1])
		if err != nil {
			return nil, err
		}
		return &Type{Name: "map", Key: k, Value: v, ValueNullable: f.Children[1].Nullable}, nil
	case schema.Primitive:
	default:
		return nil, fmt.Errorf("the Parquet type of the column has no Delta type")
	}
	n := f.Node
	lt := n.Logical
	prim := func(name string) (*Type, error) { return &Type{Name: name}, nil }
	switch {
	case lt != nil && lt.Decimal != nil:
		if lt.Decimal.Precision > 38 {
			return nil, fmt.Errorf("DECIMAL(%d, %d) is wider than Delta's 38 digits", lt.Decimal.Precision, lt.Decimal.Scale)
		}
		return &Type{Name: "decimal", Precision: int(lt.Decimal.Precision), Scale: int(lt.Decimal.Scale)}, nil
	case lt != nil && (lt.String != nil || lt.JSON != nil || lt.Enum != nil || lt.UUID != nil):
		return prim("string")
	case lt != nil && lt.Date != nil:
		return prim("date")
	case lt != nil && lt.Timestamp != nil:
		if lt.Timestamp.Unit.Micros == nil && lt.Timestamp.Unit.Millis == nil {
			return nil, fmt.Errorf("Delta timestamps hold microseconds, not nanoseconds")
		}
		if lt.Timestamp.IsAdjustedToUTC {
			return prim("timestamp")
		}
		return prim("timestamp_ntz")
	case lt != nil && lt.Integer != nil:
		bits, signed := lt.Integer.BitWidth, lt.Integer.IsSigned
		if !signed {
			bits *= 2 // the next signed type holds every value
		}
		switch {
		case bits <= 8:
			return prim("byte")
		case bits <= 16:
			return prim("short")
		case bits <= 32:
			return prim("integer")
		case bits <= 64:
			return prim("long")
		}
		return &Type{Name: "decimal", Precision: 20}, nil
	case lt != nil:
		return nil, fmt.Errorf("the Parquet type %s has no Delta type", statvalue.SQLType(n))
	}
	if n.Converted.Set {
		return nil, fmt.Errorf("the Parquet type %s has no Delta type", statvalue.SQLType(n))
	}
	switch n.Physical {
	case format.Boolean:
		return prim("boolean")
	case format.Int32:
		return prim("integer")
	case format.Int64:
		return prim("long")
	case format.Float:
		return prim("float")
	case format.Double:
		return prim("double")
	case format.ByteArray, format.FixedLenByteArray:
		return prim("binary")
	}
	return nil, fmt.Errorf("the Parquet type %s has no Delta type", statvalue.SQLType(n))
}

// SchemaString is the type in the JSON form of a metaData action's
// schemaString.
func (t *Type) SchemaString() (string, error) {
	b, err := json.Marshal(t.jsonValue())
	return string(b), err
}

func (t *Type) jsonValue() any {
	switch t.Name {
	case "struct":
		fields := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			md := f.Metadata
			if md == nil {
				md = map[string]any{}
			}
			fields[i] = map[string]any{"name": f.Name, "type": f.Type.jsonValue(), "nullable": f.Nullable, "metadata": md}
		}
		return map[string]any{"type": "struct", "fields": fields}
	case "array":
		return map[string]any{"type": "array", "elementType": t.Element.jsonValue(), "containsNull": t.ContainsNull}
	case "map":
		return map[string]any{"type": "map", "keyType": t.Key.jsonValue(), "valueType": t.Value.jsonValue(), "valueContainsNull": t.ValueNullable}
	case "decimal":
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
	}
	return t.Name
}

// FileStats computes an add action's stats from a data file's footer:
// numRecords, and for each top-level primitive column of the table type
// t its nullCount and, where its row groups all have them, minValues and
// maxValues (timestamps cut to milliseconds, as Delta's are). Columns
// without usable statistics are left out, which readers take as unknown.
func FileStats(meta *format.FileMetaData, sch *schema.Schema, t *Type) (string, error) {
	var rows int64
	for _, rg := range meta.RowGroups {
		rows += rg.NumRows
	}
	mins, maxs, nulls := map[string]any{}, map[string]any{}, map[string]any{}
	for _, f := range t.Fields {
		n := sch.Lookup(f.Name)
		if n == nil || n.Column < 0 || len(n.Path) != 1 {
			continue
		}
		var lo, hi any
		var nullCount int64
		haveNulls, haveBounds := true, true
		for _, rg := range meta.RowGroups {
			if n.Column >= len(rg.Columns) || rg.Columns[n.Column].MetaData == nil {
				haveNulls, haveBounds = false, false
				break
			}
			st := rg.Columns[n.Column].MetaData.Statistics
			if st == nil || !st.NullCount.Set {
				haveNulls = false
			} else {
				nullCount += st.NullCount.Value
			}
			if rg.NumRows == 0 {
				continue
			}
			if st != nil && st.NullCount.Set && st.NullCount.Value == rg.NumRows {
				continue // all null: no bounds to merge
			}
			l, h, okl, okh, _ := statvalue.ChunkBounds(n, st)
			if !okl || !okh || statvalue.IsNaN(l) || statvalue.IsNaN(h) {
				haveBounds = false
				continue
			}
			if lo == nil {
				lo, hi = l, h
				continue
			}
			c1, ok1 := statvalue.Compare(l, lo)
			c2, ok2 := statvalue.Compare(h, hi)
			if !ok1 || !ok2 {
				haveBounds = false
				continue
			}
			if c1 < 0 {
				lo = l
			}
			if c2 > 0 {
				hi = h
			}
		}
		if haveNulls {
			nulls[f.Name] = nullCount
		}
		if haveBounds && lo != nil {
			jl, ok1 := statJSON(f.Type, lo)
			jh, ok2 := statJSON(f.Type, hi)
			if ok1 && ok2 {
				mins[f.Name], maxs[f.Name] = jl, jh
			}
		}
	}
	b, err := json.Marshal(map[string]any{"numRecords": rows, "minValues": mins, "maxValues": maxs, "nullCount": nulls})
	return string(b), err
}

// statJSON is a statistics value in the form Delta's stats give it.
func statJSON(t *Type, v any) (any, bool) {
	switch t.Name {
	case "byte", "short", "integer", "long":
		switch x := v.(type) {
		case int64, int32, int16, int8, int, uint8, uint16, uint32:
			return x, true
		case uint64:
			if x <= math.MaxInt64 {
				return x, true
			}
		}
	case "float", "double":
		switch x := v.(type) {
		case float64:
			if !math.IsInf(x, 0) && !math.IsNaN(x) {
				return x, true
			}
		case float32:
			if !math.IsInf(float64(x), 0) && !math.IsNaN(float64(x)) {
				return x, true
			}
		}
	case "decimal":
		if d, ok := v.(value.Decimal); ok && d.Unscaled != nil {
			return json.Number(d.String()), true
		}
	case "string":
		if s, ok := v.(string); ok && utf8.ValidString(s) {
			return s, true
		}
	case "date":
		if tm, ok := v.(time.Time); ok {
			return tm.UTC().Format("2006-01-02"), true
		}
	case "timestamp":
		if tm, ok := v.(time.Time); ok {
			return tm.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z07:00"), true
		}
	case "timestamp_ntz":
		if tm, ok := v.(time.Time); ok {
			return tm.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000"), true
		}
	}
	return nil, false
}
