package value

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/variant"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Variant is one VARIANT value: its metadata and (unshredded) value bytes
// in the Variant binary encoding. Err is set when the shredded columns
// could not be reassembled (e.g. conflicting value and typed_value).
type Variant struct {
	Metadata, Value []byte
	Err             error
}

// Decode returns the variant as Go values (see parquet/variant.Decode).
func (v Variant) Decode() (any, error) {
	if v.Err != nil {
		return nil, v.Err
	}
	return variant.Decode(v.Metadata, v.Value)
}

// String renders the variant as JSON text.
func (v Variant) String() string {
	if v.Err != nil {
		return "<invalid variant: " + v.Err.Error() + ">"
	}
	s, err := variant.ToJSON(v.Metadata, v.Value)
	if err != nil {
		return "<invalid variant: " + err.Error() + ">"
	}
	return s
}

// MarshalJSON writes the variant's JSON rendering.
func (v Variant) MarshalJSON() ([]byte, error) {
	if v.Err != nil {
		return nil, v.Err
	}
	return variant.AppendJSON(nil, v.Metadata, v.Value)
}

// IsVariant reports whether f is a VARIANT group.
func IsVariant(f *schema.Field) bool {
	return f.Kind == schema.Struct && f.Node.Logical != nil && f.Node.Logical.Variant != nil
}

func child(f *schema.Field, name string) int {
	for i, c := range f.Children {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// getVariant reassembles slot i of a VARIANT group.
func getVariant(f *schema.Field, v *vector.Vector, i int) Variant {
	mi := child(f, "metadata")
	if mi < 0 {
		return Variant{Err: fmt.Errorf("VARIANT group %q has no metadata column", f.Name)}
	}
	meta := bytesAt(v.Children[mi], i)
	vi, ti := child(f, "value"), child(f, "typed_value")
	var val []byte
	if vi >= 0 {
		val = bytesAt(v.Children[vi], i)
	}
	if ti < 0 {
		if val == nil {
			val = []byte{0} // Variant null
		}
		return Variant{Metadata: meta, Value: val}
	}
	st, err := shreddedType(f.Children[ti])
	if err != nil {
		return Variant{Metadata: meta, Err: err}
	}
	typed := typedValue(f.Children[ti], st, v.Children[ti], i)
	out, err := variant.Unshred(meta, variant.Shredded{Value: val, Typed: typed}, st)
	return Variant{Metadata: meta, Value: out, Err: err}
}

func bytesAt(v *vector.Vector, i int) []byte {
	if v.IsNull(i) {
		return nil
	}
	return append([]byte(nil), v.Bytes(i)...)
}

// shreddedType maps a typed_value column's schema to its variant type.
func shreddedType(f *schema.Field) (*variant.ShreddedType, error) {
	switch f.Kind {
	case schema.List:
		elem := f.Children[0]
		st := &variant.ShreddedType{Kind: variant.KindArray, Element: &variant.ShreddedType{}}
		if ti := child(elem, "typed_value"); ti >= 0 {
			et, err := shreddedType(elem.Children[ti])
			if err != nil {
				return nil, err
			}
			st.Element = et
		}
		return st, nil
	case schema.Struct:
		st := &variant.ShreddedType{Kind: variant.KindObject}
		for _, c := range f.Children {
			sf := variant.ShreddedField{Name: c.Name}
			if ti := child(c, "typed_value"); ti >= 0 {
				ct, err := shreddedType(c.Children[ti])
				if err != nil {
					return nil, err
				}
				sf.Type = *ct
			}
			st.Fields = append(st.Fields, sf)
		}
		return st, nil
	case schema.Primitive:
		return primitiveShredded(f.Node)
	}
	return nil, fmt.Errorf("typed_value %q: a %s is not a shredded variant type", f.Name, f.Kind)
}

func primitiveShredded(n *schema.Node) (*variant.ShreddedType, error) {
	lt := n.Logical
	k := variant.KindNone
	scale := 0
	switch n.Physical {
	case format.Boolean:
		k = variant.KindBoolean
	case format.Int32:
		k = variant.KindInt32
		switch {
		case lt == nil:
		case lt.Integer != nil && lt.Integer.IsSigned && lt.Integer.BitWidth == 8:
			k = variant.KindInt8
		case lt.Integer != nil && lt.Integer.IsSigned && lt.Integer.BitWidth == 16:
			k = variant.KindInt16
		case lt.Integer != nil && lt.Integer.IsSigned:
		case lt.Date != nil:
			k = variant.KindDate
		case lt.Decimal != nil:
			k, scale = variant.KindDecimal4, int(lt.Decimal.Scale)
		default:
			k = variant.KindNone
		}
	case format.Int64:
		k = variant.KindInt64
		switch {
		case lt == nil:
		case lt.Integer != nil && lt.Integer.IsSigned:
		case lt.Decimal != nil:
			k, scale = variant.KindDecimal8, int(lt.Decimal.Scale)
		case lt.Time != nil && lt.Time.Unit.Micros != nil:
			k = variant.KindTime
		case lt.Timestamp != nil && lt.Timestamp.Unit.Micros != nil:
			k = variant.KindTimestampNTZ
			if lt.Timestamp.IsAdjustedToUTC {
				k = variant.KindTimestamp
			}
		case lt.Timestamp != nil && lt.Timestamp.Unit.Nanos != nil:
			k = variant.KindTimestampNTZNanos
			if lt.Timestamp.IsAdjustedToUTC {
				k = variant.KindTimestampNanos
			}
		default:
			k = variant.KindNone
		}
	case format.Float:
		k = variant.KindFloat
	case format.Double:
		k = variant.KindDouble
	case format.ByteArray:
		k = variant.KindBinary
		switch {
		case lt == nil:
		case lt.String != nil:
			k = variant.KindString
		case lt.Decimal != nil:
			k, scale = variant.KindDecimal16, int(lt.Decimal.Scale)
		default:
			k = variant.KindNone
		}
	case format.FixedLenByteArray:
		switch {
		case lt != nil && lt.UUID != nil && n.TypeLength == 16:
			k = variant.KindUUID
		case lt != nil && lt.Decimal != nil:
			k, scale = variant.KindDecimal16, int(lt.Decimal.Scale)
		}
	}
	if k == variant.KindNone {
		return nil, fmt.Errorf("typed_value %q: %v %s is not a shredded variant type", n.PathString(), n.Physical, AnnotationOf(n))
	}
	return &variant.ShreddedType{Kind: k, Scale: scale}, nil
}

// AnnotationOf names a node's logical annotation for messages.
func AnnotationOf(n *schema.Node) string { return schema.AnnotationString(n) }

// typedValue extracts slot i of a typed_value column as Unshred expects it.
func typedValue(f *schema.Field, st *variant.ShreddedType, v *vector.Vector, i int) any {
	if v.IsNull(i) {
		return nil
	}
	switch st.Kind {
	case variant.KindObject:
		out := make([]variant.Shredded, len(f.Children))
		for j, c := range f.Children {
			out[j] = shreddedGroup(c, &st.Fields[j].Type, v.Children[j], i)
		}
		return out
	case variant.KindArray:
		elem := f.Children[0]
		s, e := v.ListRange(i)
		out := make([]variant.Shredded, 0, e-s)
		for j := s; j < e; j++ {
			out = append(out, shreddedGroup(elem, st.Element, v.Children[0], j))
		}
		return out
	}
	switch v.Kind {
	case vector.Bool:
		return v.Bools[i]
	case vector.Int32:
		return v.Int32s[i]
	case vector.Int64:
		return v.Int64s[i]
	case vector.Float32:
		return v.Float32s[i]
	case vector.Float64:
		return v.Float64s[i]
	case vector.ByteArray, vector.FixedLenByteArray:
		b := append([]byte(nil), v.Bytes(i)...)
		if st.Kind == variant.KindString {
			return string(b)
		}
		return b
	}
	return nil
}

// shreddedGroup reads a {value, typed_value} group at slot i.
func shreddedGroup(g *schema.Field, st *variant.ShreddedType, v *vector.Vector, i int) variant.Shredded {
	var s variant.Shredded
	if v.IsNull(i) {
		return s
	}
	if vi := child(g, "value"); vi >= 0 {
		s.Value = bytesAt(v.Children[vi], i)
	}
	if ti := child(g, "typed_value"); ti >= 0 && st.Kind != variant.KindNone {
		s.Typed = typedValue(g.Children[ti], st, v.Children[ti], i)
	}
	return s
}
