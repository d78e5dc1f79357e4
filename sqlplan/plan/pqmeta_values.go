package plan

import (
	"fmt"
	"math"
	"strings"

	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// statText is a statistics bound (PLAIN bytes of the leaf's physical
// type) as the text of the column's SQL type, as DuckDB casts it to
// VARCHAR; nil when absent or when the bytes do not hold one value.
func statText(leaf *schema.Node, b []byte) any {
	if b == nil {
		return nil
	}
	t, ok := metaType(leaf)
	if !ok {
		return nil
	}
	v, ok := plainVector(leaf, b)
	if !ok {
		return nil
	}
	x := fromVector(t, v, 1).Get(0)
	if f, ok := x.(float64); ok && f != f {
		return nil // a NaN bound bounds nothing: DuckDB shows none
	}
	return FormatScalar(plainType(t), x)
}

// leafField is a leaf's primitive field: a repeated leaf's element.
func leafField(leaf *schema.Node) (*schema.Field, error) {
	f, err := schema.LogicalField(leaf)
	if err == nil && f.Kind == schema.List && len(f.Children) == 1 {
		f = f.Children[0]
	}
	return f, err
}

// plainVector is a one-value vector of the leaf's physical type holding
// the PLAIN bytes b, ok false when b has the wrong length for the type.
func plainVector(leaf *schema.Node, b []byte) (*vector.Vector, bool) {
	v := &vector.Vector{Kind: file.KindOf(leaf.Physical), Len: 1}
	if w := leaf.Physical.ByteWidth(); w > 0 && len(b) != w {
		return nil, false
	}
	le := func(i int) uint64 {
		var x uint64
		for k := i - 1; k >= 0; k-- {
			x = x<<8 | uint64(b[k])
		}
		return x
	}
	switch leaf.Physical {
	case format.Boolean:
		if len(b) != 1 {
			return nil, false
		}
		v.Bools = []bool{b[0] != 0}
	case format.Int32:
		v.Int32s = []int32{int32(uint32(le(4)))}
	case format.Int64:
		v.Int64s = []int64{int64(le(8))}
	case format.Int96:
		v.Int96s = [][12]byte{[12]byte(b)}
	case format.Float:
		v.Float32s = []float32{math.Float32frombits(uint32(le(4)))}
	case format.Double:
		v.Float64s = []float64{math.Float64frombits(le(8))}
	case format.ByteArray:
		v.Data, v.Offsets = b, []int32{0, int32(len(b))}
	case format.FixedLenByteArray:
		if len(b) != leaf.TypeLength {
			return nil, false
		}
		v.Data, v.Width = b, leaf.TypeLength
	default:
		return nil, false
	}
	return v, true
}

// logicalTypeText renders a logical type as Thrift's C++ printTo does, as
// DuckDB's parquet_schema shows it: DecimalType(scale=2, precision=10),
// booleans as 1 and 0. (DuckDB's IntType bitWidth is an 8-bit integer
// that its printTo writes as a raw character; carquet writes the number.)
func logicalTypeText(lt *format.LogicalType) any {
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	unit := func(u format.TimeUnit) string {
		part := func(name, val string, set bool) string {
			if set {
				return name + "=" + val
			}
			return name + "=<null>"
		}
		return "TimeUnit(" + part("MILLIS", "MilliSeconds()", u.Millis != nil) + ", " + part("MICROS", "MicroSeconds()", u.Micros != nil) + ", " + part("NANOS", "NanoSeconds()", u.Nanos != nil) + ")"
	}
	optText := func(set bool, v string) string {
		if set {
			return v
		}
		return "<null>"
	}
	switch {
	case lt.String != nil:
		return "StringType()"
	case lt.Map != nil:
		return "MapType()"
	case lt.List != nil:
		return "ListType()"
	case lt.Enum != nil:
		return "EnumType()"
	case lt.Decimal != nil:
		return fmt.Sprintf("DecimalType(scale=%d, precision=%d)", lt.Decimal.Scale, lt.Decimal.Precision)
	case lt.Date != nil:
		return "DateType()"
	case lt.Time != nil:
		return fmt.Sprintf("TimeType(isAdjustedToUTC=%d, unit=%s)", flag(lt.Time.IsAdjustedToUTC), unit(lt.Time.Unit))
	case lt.Timestamp != nil:
		return fmt.Sprintf("TimestampType(isAdjustedToUTC=%d, unit=%s)", flag(lt.Timestamp.IsAdjustedToUTC), unit(lt.Timestamp.Unit))
	case lt.Integer != nil:
		return fmt.Sprintf("IntType(bitWidth=%d, isSigned=%d)", lt.Integer.BitWidth, flag(lt.Integer.IsSigned))
	case lt.Unknown != nil:
		return "NullType()"
	case lt.JSON != nil:
		return "JsonType()"
	case lt.BSON != nil:
		return "BsonType()"
	case lt.UUID != nil:
		return "UUIDType()"
	case lt.Float16 != nil:
		return "Float16Type()"
	case lt.Geometry != nil:
		crs, ok := lt.Geometry.CRS.Get()
		return "GeometryType(crs=" + optText(ok, crs) + ")"
	case lt.Geography != nil:
		crs, ok := lt.Geography.CRS.Get()
		a, aok := lt.Geography.Algorithm.Get()
		return "GeographyType(crs=" + optText(ok, crs) + ", algorithm=" + optText(aok, a.String()) + ")"
	}
	return nil // VARIANT, VECTOR: DuckDB shows none
}

// fullMetaColumns is parquet_full_metadata: a row per file whose four
// columns are the rows of parquet_file_metadata, parquet_metadata,
// parquet_schema and parquet_kv_metadata for that file, as lists of
// structs.
func fullMetaColumns(c *CatalogRows) func(m metaFile) error {
	parts := []struct {
		name string
		cols func(*CatalogRows) func(metaFile) error
	}{
		{"parquet_file_metadata", fileMetaColumns},
		{"parquet_metadata", chunkMetaColumns},
		{"parquet_schema", schemaMetaColumns},
		{"parquet_kv_metadata", kvMetaColumns},
	}
	builders := make([]*ColBuilder, len(parts))
	for i, part := range parts {
		// The struct's fields are the function's columns.
		probe := &CatalogRows{}
		part.cols(probe)
		var fields []NamedType
		for _, col := range probe.Cols {
			fields = append(fields, NamedType{Name: col.Name, Type: col.Type})
		}
		elem := Type{Kind: KNested, Fields: fields}
		builders[i] = c.Col(part.name, Type{Kind: KNested, Elem: &elem})
	}
	return func(m metaFile) error {
		c.N++
		for i, part := range parts {
			sub := &CatalogRows{}
			if err := part.cols(sub)(m); err != nil {
				return err
			}
			builders[i].Add(sub.structs())
		}
		return nil
	}
}

// structs is the rows as a list of struct values.
func (c *CatalogRows) structs() []any {
	out := make([]any, c.N)
	for r := 0; r < c.N; r++ {
		row := make(map[string]any, len(c.Cols))
		for j, col := range c.Cols {
			row[col.Name] = c.Data[j].C.Get(r)
		}
		out[r] = row
	}
	return out
}

// bloomProbeColumns is parquet_bloom_probe(path, column, value): a row
// per row group telling whether its bloom filter excludes the value (the
// value is cast to the column's type, then hashed as its PLAIN encoding);
// a row group without a filter excludes nothing.
func (p *Planner) bloomProbeColumns(c *CatalogRows, column, kind, text string) func(m metaFile) error {
	name, rgID, excludes := c.Col("file_name", TString), c.Col("row_group_id", TBigint), c.Col("bloom_filter_excludes", TBool)
	return func(m metaFile) error {
		if kind == "null" {
			return errorf("Can't have NULL parameters for parquet_bloom_probe")
		}
		leaf := probeLeaf(m.f.Schema, column)
		if leaf == nil {
			return errorf("Column %s not found in %s", column, m.name)
		}
		h, ok, err := probeHash(leaf, kind, text)
		if err != nil {
			return errorf("%s: column %s: %v", m.name, column, err)
		}
		for rg := range m.f.Meta.RowGroups {
			excluded := false
			if ok {
				ch, err := m.f.Chunk(rg, leaf.Column)
				if err != nil {
					return errorf("%s: %v", m.name, err)
				}
				bf, err := ch.BloomFilter()
				if err != nil {
					return errorf("%s: row group %d, column %s: %v", m.name, rg, column, err)
				}
				excluded = bf != nil && !bf.Check(h)
			}
			c.N++
			name.Add(m.name)
			rgID.Add(int64(rg))
			excludes.Add(excluded)
		}
		return nil
	}
}

// probeLeaf finds the column a probe names: a top-level column, as in
// DuckDB, or a leaf of a struct by its dotted path. Lists and maps hold
// no single value to probe.
func probeLeaf(s *schema.Schema, column string) *schema.Node {
	for _, leaf := range s.Leaves {
		if leaf.MaxRep == 0 && strings.Join(leaf.Path, ".") == column {
			return leaf
		}
	}
	return nil
}

// probeHash casts the probe's constant to the leaf's SQL type and hashes
// its PLAIN encoding as the writer hashed the column's values. ok is
// false when no filter can decide (an INTERVAL, a BOOLEAN, ±0.0 or
// NaN, whose encodings differ from the values they equal).
func probeHash(leaf *schema.Node, kind, text string) (h uint64, ok bool, err error) {
	f, err := leafField(leaf)
	if err != nil {
		return 0, false, err
	}
	t := TypeOfField(f)
	if t.Kind == KNested || t.Kind == KInterval {
		return 0, false, nil
	}
	v, err := CastScalar(text, TString, plainType(t))
	if err != nil {
		return 0, false, err
	}
	b := NewBuilder(plainType(t), 1)
	b.Add(v)
	vec1, err := ToVector(b.C, f)
	if err != nil {
		return 0, false, err
	}
	switch vec1.Kind {
	case vector.Int32:
		return bloom.HashInt32(vec1.Int32s[0]), true, nil
	case vector.Int64:
		return bloom.HashInt64(vec1.Int64s[0]), true, nil
	case vector.Float32:
		x := vec1.Float32s[0]
		return bloom.HashFloat32(x), x == x && x != 0, nil
	case vector.Float64:
		x := vec1.Float64s[0]
		return bloom.HashFloat64(x), x == x && x != 0, nil
	case vector.ByteArray:
		return bloom.HashBytes(vec1.Bytes(0)), true, nil
	case vector.FixedLenByteArray:
		return bloom.HashFixed(vec1.Bytes(0)), true, nil
	case vector.Int96:
		return bloom.HashInt96(vec1.Int96s[0]), true, nil
	}
	return 0, false, nil
}
