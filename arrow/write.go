package carrow

import (
	"fmt"
	"math/big"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// WriteTable appends the record batches of rr to the carquet table named
// table, through the bulk Appender of the connection conn (the value
// database/sql's Conn.Raw passes): the records' columns, in the table's
// column order, become parquet/vector vectors (sharing the Arrow buffers
// where the layouts agree) and go to the table's writer a batch at a
// time. All the rows are committed at once when rr is exhausted; on an
// error none are. It returns the number of rows appended.
func WriteTable(conn any, table string, rr array.RecordReader) (int64, error) {
	app, err := driver.NewAppender(conn, table)
	if err != nil {
		return 0, err
	}
	fields := app.Fields()
	var rows int64
	for rr.Next() {
		rec := rr.RecordBatch()
		cols, err := recordVectors(fields, rec)
		if err == nil {
			err = app.AppendColumns(cols)
		}
		if err != nil {
			app.Abort()
			return 0, err
		}
		rows += rec.NumRows()
	}
	if err := rr.Err(); err != nil {
		app.Abort()
		return 0, err
	}
	return rows, app.Close()
}

// WriteFile writes the record batches of rr into a new Parquet file at
// path (replacing it atomically when it exists), with a schema derived
// from rr's (see ParquetField), and returns the number of rows written.
func WriteFile(path string, rr array.RecordReader, opts ...writer.Option) (int64, error) {
	var wf []writer.Field
	for _, f := range rr.Schema().Fields() {
		pf, err := ParquetField(f)
		if err != nil {
			return 0, err
		}
		wf = append(wf, pf)
	}
	sch, err := writer.NewSchema(wf...)
	if err != nil {
		return 0, err
	}
	w, err := writer.Create(path, sch, opts...)
	if err != nil {
		return 0, err
	}
	var rows int64
	for rr.Next() {
		rec := rr.RecordBatch()
		cols, err := recordVectors(w.Fields(), rec)
		if err == nil {
			err = w.WriteBatch(cols)
		}
		if err != nil {
			w.Abort()
			return 0, err
		}
		rows += rec.NumRows()
	}
	if err := rr.Err(); err != nil {
		w.Abort()
		return 0, err
	}
	return rows, w.Close()
}

// ParquetField is the Parquet field of an Arrow field: integers of each
// width and sign, floats (half floats as FLOAT16), booleans, strings,
// binary and fixed-size binary, decimals, dates, times and timestamps
// with their units (a time zone makes the timestamp adjusted to UTC),
// lists, structs and maps.
func ParquetField(f arrow.Field) (writer.Field, error) {
	pf, err := parquetField(f.Name, f.Type)
	if err != nil {
		return pf, err
	}
	if !f.Nullable {
		pf = pf.Required()
	}
	return pf, nil
}

func writerUnit(u arrow.TimeUnit) writer.TimeUnit {
	switch u {
	case arrow.Nanosecond:
		return writer.Nanos
	case arrow.Microsecond:
		return writer.Micros
	}
	return writer.Millis
}

func parquetField(name string, t arrow.DataType) (writer.Field, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return writer.Bool(name), nil
	case *arrow.Int8Type:
		return writer.Integer(name, 8, true), nil
	case *arrow.Int16Type:
		return writer.Integer(name, 16, true), nil
	case *arrow.Int32Type:
		return writer.Int32(name), nil
	case *arrow.Int64Type:
		return writer.Int64(name), nil
	case *arrow.Uint8Type:
		return writer.Integer(name, 8, false), nil
	case *arrow.Uint16Type:
		return writer.Integer(name, 16, false), nil
	case *arrow.Uint32Type:
		return writer.Integer(name, 32, false), nil
	case *arrow.Uint64Type:
		return writer.Integer(name, 64, false), nil
	case *arrow.Float16Type:
		return writer.Float16(name), nil
	case *arrow.Float32Type:
		return writer.Float(name), nil
	case *arrow.Float64Type:
		return writer.Double(name), nil
	case *arrow.StringType:
		return writer.String(name), nil
	case *arrow.BinaryType:
		return writer.Binary(name), nil
	case *arrow.FixedSizeBinaryType:
		return writer.FixedLen(name, t.ByteWidth), nil
	case *arrow.Decimal128Type:
		return writer.Decimal(name, int(t.Precision), int(t.Scale)), nil
	case *arrow.Decimal256Type:
		return writer.Decimal(name, int(t.Precision), int(t.Scale)), nil
	case *arrow.Date32Type:
		return writer.Date(name), nil
	case *arrow.Time32Type:
		return writer.Time(name, writerUnit(t.Unit), false), nil
	case *arrow.Time64Type:
		return writer.Time(name, writerUnit(t.Unit), false), nil
	case *arrow.TimestampType:
		if t.Unit == arrow.Second {
			return writer.Field{}, fmt.Errorf("carrow: column %s: timestamps in seconds have no Parquet unit (cast to milliseconds)", name)
		}
		return writer.Timestamp(name, writerUnit(t.Unit), t.TimeZone != ""), nil
	case *arrow.ListType:
		e, err := ParquetField(arrow.Field{Name: "element", Type: t.Elem(), Nullable: t.ElemField().Nullable})
		if err != nil {
			return e, err
		}
		return writer.List(name, e), nil
	case *arrow.MapType:
		k, err := parquetField("key", t.KeyType())
		if err != nil {
			return k, err
		}
		v, err := ParquetField(arrow.Field{Name: "value", Type: t.ItemType(), Nullable: t.ItemField().Nullable})
		if err != nil {
			return v, err
		}
		return writer.Map(name, k.Required(), v), nil
	case *arrow.StructType:
		var fs []writer.Field
		for _, c := range t.Fields() {
			cf, err := ParquetField(c)
			if err != nil {
				return cf, err
			}
			fs = append(fs, cf)
		}
		return writer.Group(name, fs...), nil
	}
	return writer.Field{}, fmt.Errorf("carrow: column %s: no Parquet type for Arrow %s", name, t)
}

// recordVectors converts a record's columns into vectors of fields.
func recordVectors(fields []*schema.Field, rec arrow.RecordBatch) ([]*vector.Vector, error) {
	if int(rec.NumCols()) != len(fields) {
		return nil, fmt.Errorf("carrow: %d columns for %d fields", rec.NumCols(), len(fields))
	}
	cols := make([]*vector.Vector, len(fields))
	for i, f := range fields {
		v, err := ArrayVector(f, rec.Column(i))
		if err != nil {
			return nil, fmt.Errorf("carrow: column %s: %w", f.Name, err)
		}
		cols[i] = v
	}
	return cols, nil
}

// fixed views the values of a fixed-width array (its offset applied).
func fixed[T any](a arrow.Array) []T {
	d := a.Data()
	b := d.Buffers()[1].Bytes()
	var z T
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
	return all[d.Offset() : d.Offset()+d.Len()]
}

// ArrayVector converts an Arrow array into a vector of the Parquet field
// f's physical layout.
func ArrayVector(f *schema.Field, a arrow.Array) (*vector.Vector, error) {
	n := a.Len()
	v := &vector.Vector{Len: n}
	if a.NullN() > 0 {
		v.Valid = vector.NewBitmap(n, false)
		for i := 0; i < n; i++ {
			if a.IsValid(i) {
				v.Valid.Set(i)
			}
		}
	}
	switch f.Kind {
	case schema.Struct:
		s, ok := a.(*array.Struct)
		if !ok {
			return nil, fmt.Errorf("%s for a struct", a.DataType())
		}
		if s.NumField() != len(f.Children) {
			return nil, fmt.Errorf("%d struct fields for %d", s.NumField(), len(f.Children))
		}
		v.Kind = vector.Struct
		for i, cf := range f.Children {
			c, err := ArrayVector(cf, array.NewSlice(s.Field(i), int64(s.Offset()), int64(s.Offset()+n)))
			if err != nil {
				return nil, err
			}
			v.Children = append(v.Children, c)
		}
		return v, nil
	case schema.List, schema.Map:
		var off []int32
		var elems arrow.Array
		switch l := a.(type) {
		case *array.Map:
			if f.Kind != schema.Map {
				return nil, fmt.Errorf("a map for a list")
			}
			off, elems = l.Offsets(), l.ListValues()
		case *array.List:
			off, elems = l.Offsets(), l.ListValues()
		default:
			return nil, fmt.Errorf("%s for a list", a.DataType())
		}
		off = off[:n+1]
		base := off[0]
		v.Offsets = make([]int32, n+1)
		for i, o := range off {
			v.Offsets[i] = o - base
		}
		elems = array.NewSlice(elems, int64(base), int64(off[n]))
		defer elems.Release()
		if f.Kind == schema.List {
			v.Kind = vector.List
			c, err := ArrayVector(f.Children[0], elems)
			if err != nil {
				return nil, err
			}
			v.Children = []*vector.Vector{c}
			return v, nil
		}
		v.Kind = vector.Map
		st := elems.(*array.Struct)
		for i, cf := range f.Children {
			c, err := ArrayVector(cf, st.Field(i))
			if err != nil {
				return nil, err
			}
			v.Children = append(v.Children, c)
		}
		return v, nil
	}
	return leafVector(f.Node, a, v)
}

func leafVector(node *schema.Node, a arrow.Array, v *vector.Vector) (*vector.Vector, error) {
	n := v.Len
	lt := node.Logical
	if lt == nil {
		lt = &format.LogicalType{}
	}
	bad := func() (*vector.Vector, error) {
		return nil, fmt.Errorf("cannot write Arrow %s to Parquet %v", a.DataType(), node.Physical)
	}
	switch node.Physical {
	case format.Boolean:
		b, ok := a.(*array.Boolean)
		if !ok {
			return bad()
		}
		v.Kind, v.Bools = vector.Bool, make([]bool, n)
		for i := range v.Bools {
			v.Bools[i] = b.Value(i)
		}
	case format.Int32:
		v.Kind = vector.Int32
		switch a := a.(type) {
		case *array.Int32:
			v.Int32s = fixed[int32](a)
		case *array.Uint32:
			v.Int32s = convert[int32](fixed[uint32](a))
		case *array.Date32:
			v.Int32s = fixed[int32](a)
		case *array.Time32:
			v.Int32s = fixed[int32](a)
		case *array.Int8:
			v.Int32s = convert[int32](fixed[int8](a))
		case *array.Int16:
			v.Int32s = convert[int32](fixed[int16](a))
		case *array.Uint8:
			v.Int32s = convert[int32](fixed[uint8](a))
		case *array.Uint16:
			v.Int32s = convert[int32](fixed[uint16](a))
		case *array.Int64:
			v.Int32s = convert[int32](fixed[int64](a))
		case *array.Decimal128:
			v.Int32s = make([]int32, n)
			for i := range v.Int32s {
				v.Int32s[i] = int32(a.Value(i).LowBits())
			}
		default:
			return bad()
		}
	case format.Int64:
		v.Kind = vector.Int64
		switch a := a.(type) {
		case *array.Int64:
			v.Int64s = fixed[int64](a)
		case *array.Uint64:
			v.Int64s = fixed[int64](a)
		case *array.Time64:
			v.Int64s = fixed[int64](a)
		case *array.Timestamp:
			v.Int64s = fixed[int64](a)
			if lt.Timestamp != nil {
				if want := unitOf(lt.Timestamp.Unit); want != a.DataType().(*arrow.TimestampType).Unit {
					v.Int64s = rescaleUnits(v.Int64s, a.DataType().(*arrow.TimestampType).Unit, want)
				}
			}
		case *array.Int32:
			v.Int64s = convert[int64](fixed[int32](a))
		case *array.Uint32:
			v.Int64s = convert[int64](fixed[uint32](a))
		case *array.Int16:
			v.Int64s = convert[int64](fixed[int16](a))
		case *array.Int8:
			v.Int64s = convert[int64](fixed[int8](a))
		case *array.Decimal128:
			v.Int64s = make([]int64, n)
			for i := range v.Int64s {
				v.Int64s[i] = int64(a.Value(i).LowBits())
			}
		default:
			return bad()
		}
	case format.Float:
		v.Kind = vector.Float32
		switch a := a.(type) {
		case *array.Float32:
			v.Float32s = fixed[float32](a)
		case *array.Float64:
			v.Float32s = convert[float32](fixed[float64](a))
		default:
			return bad()
		}
	case format.Double:
		v.Kind = vector.Float64
		switch a := a.(type) {
		case *array.Float64:
			v.Float64s = fixed[float64](a)
		case *array.Float32:
			v.Float64s = convert[float64](fixed[float32](a))
		default:
			return bad()
		}
	case format.ByteArray, format.FixedLenByteArray:
		v.Kind, v.Width = vector.ByteArray, node.TypeLength
		if node.Physical == format.FixedLenByteArray {
			v.Kind = vector.FixedLenByteArray
		}
		switch a := a.(type) {
		case *array.String:
			v.Data, v.Offsets = rebase(a.ValueBytes(), a.ValueOffsets())
		case *array.Binary:
			v.Data, v.Offsets = rebase(a.ValueBytes(), a.ValueOffsets())
		case *array.FixedSizeBinary:
			w := a.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
			for i := 0; i < n; i++ {
				v.Data = append(v.Data, a.Value(i)...)
				if v.Kind == vector.ByteArray {
					if i == 0 {
						v.Offsets = append(v.Offsets, 0)
					}
					v.Offsets = append(v.Offsets, int32((i+1)*w))
				}
			}
		case *array.Float16:
			for i := 0; i < n; i++ {
				x := a.Value(i).Uint16()
				v.Data = append(v.Data, byte(x), byte(x>>8))
			}
		case *array.Decimal128:
			return decimalBytes(v, n, func(i int) *big.Int { return a.Value(i).BigInt() })
		case *array.Decimal256:
			return decimalBytes(v, n, func(i int) *big.Int { return a.Value(i).BigInt() })
		default:
			return bad()
		}
		if v.Kind == vector.ByteArray && v.Offsets == nil {
			v.Offsets = make([]int32, n+1)
		}
	default:
		return bad()
	}
	return v, nil
}

// decimalBytes fills a binary vector with big-endian two's complement
// decimals (Width bytes each for a fixed-length column).
func decimalBytes(v *vector.Vector, n int, get func(i int) *big.Int) (*vector.Vector, error) {
	w := v.Width
	if v.Kind == vector.ByteArray {
		w = 16
		v.Offsets = make([]int32, n+1)
	}
	for i := 0; i < n; i++ {
		u := get(i)
		b := make([]byte, w)
		if u.Sign() >= 0 {
			u.FillBytes(b)
		} else {
			// Two's complement: 2^(8w) + u.
			m := new(big.Int).Lsh(big.NewInt(1), uint(8*w))
			m.Add(m, u).FillBytes(b)
		}
		v.Data = append(v.Data, b...)
		if v.Offsets != nil {
			v.Offsets[i+1] = int32(len(v.Data))
		}
	}
	return v, nil
}

// rescaleUnits converts counts of one time unit to another.
func rescaleUnits(src []int64, from, to arrow.TimeUnit) []int64 {
	out := make([]int64, len(src))
	fm, tm := int64(from.Multiplier()), int64(to.Multiplier())
	for i, x := range src {
		if fm > tm {
			out[i] = x * (fm / tm)
		} else {
			out[i] = x / (tm / fm)
		}
	}
	return out
}
