package carrow

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/num"
)

// ReadFile streams the columns of a Parquet file (top-level names, or
// dotted paths into structs; nil for all) as Arrow record batches, read
// with parquet/file's Reader. Each batch owns its vectors, which the
// records share where Arrow's layout is Parquet's: 32- and 64-bit
// integers, floats, dates, times, timestamps, strings, binary and
// fixed-length binary values, validity bitmaps, and list offsets.
func ReadFile(path string, columns []string) (array.RecordReader, error) {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return nil, err
	}
	rd, err := f.NewReader(file.ReaderOptions{Columns: columns, Fresh: true})
	if err != nil {
		f.Close()
		return nil, err
	}
	fields := make([]arrow.Field, len(rd.Fields()))
	for i, fl := range rd.Fields() {
		t, err := FieldType(fl)
		if err != nil {
			f.Close()
			return nil, err
		}
		fields[i] = arrow.Field{Name: fl.Name, Type: t, Nullable: fl.Nullable}
	}
	sch := arrow.NewSchema(fields, nil)
	return newRecordReader(sch, func() (arrow.RecordBatch, error) { return fileRecord(rd, sch) }, func() { f.Close() }), nil
}

// fileRecord converts the reader's next batch into a record batch.
func fileRecord(rd *file.Reader, sch *arrow.Schema) (arrow.RecordBatch, error) {
	b, err := rd.Next()
	if err != nil {
		return nil, err
	}
	arrs := make([]arrow.Array, len(b.Columns))
	for i, v := range b.Columns {
		d, err := VectorData(sch.Field(i).Type, b.Fields[i], v, b.NumRows)
		if err != nil {
			for _, a := range arrs[:i] {
				a.Release()
			}
			return nil, fmt.Errorf("carrow: column %s: %w", b.Fields[i].Name, err)
		}
		arrs[i] = array.MakeFromData(d)
		d.Release()
	}
	rec := array.NewRecordBatch(sch, arrs, int64(b.NumRows))
	for _, a := range arrs {
		a.Release()
	}
	return rec, nil
}

// VectorData converts the first n slots of a vector of field f into Arrow
// array data of type dt (FieldType of f).
func VectorData(dt arrow.DataType, f *schema.Field, v *vector.Vector, n int) (arrow.ArrayData, error) {
	v.Decode()
	valid, nulls := validBitmap(v, n)
	mk := func(bufs []*memory.Buffer, children ...arrow.ArrayData) arrow.ArrayData {
		d := array.NewData(dt, n, append([]*memory.Buffer{valid}, bufs...), children, nulls, 0)
		for _, c := range children {
			c.Release()
		}
		return d
	}
	one := func(b *memory.Buffer) []*memory.Buffer { return []*memory.Buffer{b} }
	switch f.Kind {
	case schema.List, schema.Map:
		off := v.Offsets[:n+1]
		if n == 0 || len(v.Offsets) == 0 {
			off = make([]int32, n+1)
		}
		end := int(off[n])
		if dt.ID() == arrow.LIST {
			et := dt.(*arrow.ListType).Elem()
			c, err := VectorData(et, f.Children[0], v.Children[0], end)
			if err != nil {
				return nil, err
			}
			if off[0] != 0 {
				c.Release()
				return nil, fmt.Errorf("list offsets do not start at 0")
			}
			return mk(one(buf(off)), c), nil
		}
		mt := dt.(*arrow.MapType)
		k, err := VectorData(mt.KeyType(), f.Children[0], v.Children[0], end)
		if err != nil {
			return nil, err
		}
		it, err := VectorData(mt.ItemType(), f.Children[1], v.Children[1], end)
		if err != nil {
			k.Release()
			return nil, err
		}
		entries := array.NewData(mt.Elem(), end, []*memory.Buffer{nil}, []arrow.ArrayData{k, it}, 0, 0)
		k.Release()
		it.Release()
		return mk(one(buf(off)), entries), nil
	case schema.Struct:
		st := dt.(*arrow.StructType)
		children := make([]arrow.ArrayData, len(f.Children))
		for i, cf := range f.Children {
			c, err := VectorData(st.Field(i).Type, cf, v.Children[i], n)
			if err != nil {
				for _, c := range children[:i] {
					c.Release()
				}
				return nil, err
			}
			children[i] = c
		}
		return mk(nil, children...), nil
	}
	switch v.Kind {
	case vector.Bool:
		return mk(one(boolsBitmap(v.Bools[:n]))), nil
	case vector.Int32:
		src := v.Int32s[:n]
		switch dt.ID() {
		case arrow.INT8:
			return mk(one(buf(convert[int8](src)))), nil
		case arrow.INT16:
			return mk(one(buf(convert[int16](src)))), nil
		case arrow.UINT8:
			return mk(one(buf(convert[uint8](src)))), nil
		case arrow.UINT16:
			return mk(one(buf(convert[uint16](src)))), nil
		case arrow.UINT64, arrow.INT64:
			return mk(one(buf(convert[int64](src)))), nil
		case arrow.DECIMAL128:
			words := make([]uint64, 2*n)
			for i, x := range src {
				words[2*i], words[2*i+1] = uint64(int64(x)), uint64(int64(x)>>63)
			}
			return mk(one(buf(words))), nil
		}
		return mk(one(buf(src))), nil
	case vector.Int64:
		src := v.Int64s[:n]
		if dt.ID() == arrow.DECIMAL128 {
			words := make([]uint64, 2*n)
			for i, x := range src {
				words[2*i], words[2*i+1] = uint64(x), uint64(x>>63)
			}
			return mk(one(buf(words))), nil
		}
		return mk(one(buf(src))), nil
	case vector.Int96:
		ns := make([]int64, n)
		for i := range ns {
			if !v.IsNull(i) {
				ns[i] = value.Int96Time(v.Int96s[i]).UnixNano()
			}
		}
		return mk(one(buf(ns))), nil
	case vector.Float32:
		return mk(one(buf(v.Float32s[:n]))), nil
	case vector.Float64:
		return mk(one(buf(v.Float64s[:n]))), nil
	case vector.ByteArray, vector.FixedLenByteArray:
		switch dt.ID() {
		case arrow.DECIMAL128:
			words := make([]uint64, 2*n)
			for i := 0; i < n; i++ {
				if !v.IsNull(i) {
					h, ok := num.FromBigEndian(v.Bytes(i))
					if !ok {
						return nil, fmt.Errorf("decimal out of range")
					}
					words[2*i], words[2*i+1] = h.Lo, uint64(h.Hi)
				}
			}
			return mk(one(buf(words))), nil
		case arrow.DECIMAL256:
			bld := array.NewBuilder(memory.DefaultAllocator, dt)
			defer bld.Release()
			for i := 0; i < n; i++ {
				if v.IsNull(i) {
					bld.AppendNull()
				} else if err := appendValue(bld, value.DecimalFromBigEndian(v.Bytes(i), dt.(*arrow.Decimal256Type).Scale)); err != nil {
					return nil, err
				}
			}
			a := bld.NewArray()
			defer a.Release()
			d := a.Data()
			d.Retain()
			return d, nil
		case arrow.FIXED_SIZE_BINARY, arrow.FLOAT16:
			return mk(one(memory.NewBufferBytes(v.Data[:n*v.Width]))), nil
		}
		if v.Kind == vector.FixedLenByteArray {
			off := make([]int32, n+1)
			for i := range off {
				off[i] = int32(i * v.Width)
			}
			return mk([]*memory.Buffer{buf(off), memory.NewBufferBytes(v.Data[:n*v.Width])}), nil
		}
		if len(v.Offsets) == 0 {
			return mk([]*memory.Buffer{buf(make([]int32, n+1)), nil}), nil
		}
		data, off := rebase(v.Data, v.Offsets[:n+1])
		return mk([]*memory.Buffer{buf(off), memory.NewBufferBytes(data)}), nil
	}
	return nil, fmt.Errorf("unsupported vector kind %v", v.Kind)
}
