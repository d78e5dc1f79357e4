package carrow

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/sqlplan"
)

// UTC is the time zone of timestamps adjusted to UTC (TIMESTAMPTZ, and
// Parquet's isAdjustedToUTC).
const UTC = "UTC"

// FieldType is the Arrow type of a Parquet logical field.
func FieldType(f *schema.Field) (arrow.DataType, error) {
	switch f.Kind {
	case schema.Struct:
		fields := make([]arrow.Field, len(f.Children))
		for i, c := range f.Children {
			t, err := FieldType(c)
			if err != nil {
				return nil, err
			}
			fields[i] = arrow.Field{Name: c.Name, Type: t, Nullable: c.Nullable}
		}
		return arrow.StructOf(fields...), nil
	case schema.List:
		e := f.Children[0]
		t, err := FieldType(e)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: t, Nullable: e.Nullable}), nil
	case schema.Map:
		k, err := FieldType(f.Children[0])
		if err != nil {
			return nil, err
		}
		if len(f.Children) < 2 {
			return nil, fmt.Errorf("carrow: field %s: a map without values has no Arrow type", f.Name)
		}
		v, err := FieldType(f.Children[1])
		if err != nil {
			return nil, err
		}
		return arrow.MapOf(k, v), nil
	case schema.Primitive:
		return leafType(f.Node)
	}
	return nil, fmt.Errorf("carrow: field %s: unsupported kind", f.Name)
}

func unitOf(u format.TimeUnit) arrow.TimeUnit {
	switch {
	case u.Millis != nil:
		return arrow.Millisecond
	case u.Nanos != nil:
		return arrow.Nanosecond
	}
	return arrow.Microsecond
}

func decimalType(prec, scale int32) arrow.DataType {
	if prec <= 38 {
		return &arrow.Decimal128Type{Precision: prec, Scale: scale}
	}
	return &arrow.Decimal256Type{Precision: prec, Scale: scale}
}

func leafType(n *schema.Node) (arrow.DataType, error) {
	lt := n.Logical
	if lt == nil {
		lt = &format.LogicalType{}
	}
	switch n.Physical {
	case format.Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case format.Int32, format.Int64:
		switch {
		case lt.Integer != nil:
			switch b, s := lt.Integer.BitWidth, lt.Integer.IsSigned; {
			case b == 8 && s:
				return arrow.PrimitiveTypes.Int8, nil
			case b == 8:
				return arrow.PrimitiveTypes.Uint8, nil
			case b == 16 && s:
				return arrow.PrimitiveTypes.Int16, nil
			case b == 16:
				return arrow.PrimitiveTypes.Uint16, nil
			case b == 32 && s:
				return arrow.PrimitiveTypes.Int32, nil
			case b == 32:
				return arrow.PrimitiveTypes.Uint32, nil
			case s:
				return arrow.PrimitiveTypes.Int64, nil
			}
			return arrow.PrimitiveTypes.Uint64, nil
		case lt.Date != nil:
			return arrow.FixedWidthTypes.Date32, nil
		case lt.Decimal != nil:
			return decimalType(lt.Decimal.Precision, lt.Decimal.Scale), nil
		case lt.Time != nil:
			if u := unitOf(lt.Time.Unit); n.Physical == format.Int32 {
				return &arrow.Time32Type{Unit: u}, nil
			} else {
				return &arrow.Time64Type{Unit: u}, nil
			}
		case lt.Timestamp != nil:
			tz := ""
			if lt.Timestamp.IsAdjustedToUTC {
				tz = UTC
			}
			return &arrow.TimestampType{Unit: unitOf(lt.Timestamp.Unit), TimeZone: tz}, nil
		}
		if n.Physical == format.Int32 {
			return arrow.PrimitiveTypes.Int32, nil
		}
		return arrow.PrimitiveTypes.Int64, nil
	case format.Int96:
		return &arrow.TimestampType{Unit: arrow.Nanosecond}, nil
	case format.Float:
		return arrow.PrimitiveTypes.Float32, nil
	case format.Double:
		return arrow.PrimitiveTypes.Float64, nil
	case format.ByteArray, format.FixedLenByteArray:
		switch {
		case lt.String != nil, lt.Enum != nil, lt.JSON != nil:
			return arrow.BinaryTypes.String, nil
		case lt.Decimal != nil:
			return decimalType(lt.Decimal.Precision, lt.Decimal.Scale), nil
		case lt.Float16 != nil && n.TypeLength == 2:
			return arrow.FixedWidthTypes.Float16, nil
		}
		if n.Physical == format.FixedLenByteArray {
			return &arrow.FixedSizeBinaryType{ByteWidth: n.TypeLength}, nil
		}
		return arrow.BinaryTypes.Binary, nil
	}
	return nil, fmt.Errorf("carrow: column %s: unsupported physical type %v", n.PathString(), n.Physical)
}

// SQLType is the Arrow type of a query result column of type t.
func SQLType(t sqlplan.Type) (arrow.DataType, error) {
	switch t.Kind {
	case sqlplan.KNull:
		return arrow.Null, nil
	case sqlplan.KBool:
		return arrow.FixedWidthTypes.Boolean, nil
	case sqlplan.KInt:
		switch t.Bits {
		case 8:
			return arrow.PrimitiveTypes.Int8, nil
		case 16:
			return arrow.PrimitiveTypes.Int16, nil
		case 32:
			return arrow.PrimitiveTypes.Int32, nil
		}
		return arrow.PrimitiveTypes.Int64, nil
	case sqlplan.KUint:
		switch t.Bits {
		case 8:
			return arrow.PrimitiveTypes.Uint8, nil
		case 16:
			return arrow.PrimitiveTypes.Uint16, nil
		case 32:
			return arrow.PrimitiveTypes.Uint32, nil
		}
		return arrow.PrimitiveTypes.Uint64, nil
	case sqlplan.KFloat:
		if t.Float32 {
			return arrow.PrimitiveTypes.Float32, nil
		}
		return arrow.PrimitiveTypes.Float64, nil
	case sqlplan.KDecimal:
		return decimalType(int32(t.Prec), int32(t.Scale)), nil
	case sqlplan.KString, sqlplan.KUUID, sqlplan.KInterval:
		// UUIDs as their text, INTERVALs as DuckDB prints them.
		return arrow.BinaryTypes.String, nil
	case sqlplan.KBytes:
		return arrow.BinaryTypes.Binary, nil
	case sqlplan.KDate:
		return arrow.FixedWidthTypes.Date32, nil
	case sqlplan.KTime:
		if t.Nanos {
			return arrow.FixedWidthTypes.Time64ns, nil
		}
		return arrow.FixedWidthTypes.Time64us, nil
	case sqlplan.KTimestamp:
		ts := &arrow.TimestampType{Unit: arrow.Microsecond}
		if t.Nanos {
			ts.Unit = arrow.Nanosecond
		}
		if t.TZ {
			ts.TimeZone = UTC
		}
		return ts, nil
	case sqlplan.KNested:
		switch {
		case t.Field != nil:
			return FieldType(t.Field)
		case t.Elem != nil:
			e, err := SQLType(*t.Elem)
			if err != nil {
				return nil, err
			}
			return arrow.ListOf(e), nil
		case t.MapOf:
			k, err := SQLType(t.Fields[0].Type)
			if err != nil {
				return nil, err
			}
			v, err := SQLType(t.Fields[1].Type)
			if err != nil {
				return nil, err
			}
			return arrow.MapOf(k, v), nil
		case t.Fields != nil:
			fields := make([]arrow.Field, len(t.Fields))
			for i, f := range t.Fields {
				ft, err := SQLType(f.Type)
				if err != nil {
					return nil, err
				}
				fields[i] = arrow.Field{Name: f.Name, Type: ft, Nullable: true}
			}
			return arrow.StructOf(fields...), nil
		}
	}
	return nil, fmt.Errorf("carrow: no Arrow type for %s", t.SQLName())
}
