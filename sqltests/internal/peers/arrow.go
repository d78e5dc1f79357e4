package peers

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pqschema "github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqltests/internal/canon"
)

// ReadArrow reads a whole file with arrow-go (pqarrow.ReadTable) and
// renders every value.
func ReadArrow(path string) (t *Table, err error) { return ReadArrowWith(path, nil) }

// ReadArrowWith is ReadArrow leaving out the top-level columns named in
// exclude (their cells render as null), for cells where arrow-go cannot
// decode one column. Flat columns that pqarrow hands back as plain binary
// although the Parquet schema says ENUM, JSON or INTERVAL are interpreted
// by that schema (arrow-go has no Arrow type it maps them to).
func ReadArrowWith(path string, exclude map[string]string) (t *Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	pf, err := pqfile.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	root := pf.MetaData().Schema.Root()
	var cols, rgs []int
	kept := map[string]bool{}
	for i := 0; i < pf.MetaData().Schema.NumColumns(); i++ {
		top := pf.MetaData().Schema.Column(i).ColumnPath()[0]
		if exclude[top] == "" {
			cols = append(cols, i)
			kept[top] = true
		}
	}
	for i := 0; i < pf.NumRowGroups(); i++ {
		rgs = append(rgs, i)
	}
	tbl, err := fr.ReadRowGroups(context.Background(), cols, rgs)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	t, err = ArrowTable(tbl)
	if err != nil {
		return nil, err
	}
	// Put the excluded columns back as nulls, in schema order.
	out := &Table{Rows: make([][]string, len(t.Rows))}
	src := 0
	for i := 0; i < root.NumFields(); i++ {
		f := root.Field(i)
		name := f.Name()
		if !kept[name] {
			out.Columns = append(out.Columns, name)
			out.Types = append(out.Types, "excluded")
			for r := range out.Rows {
				out.Rows[r] = append(out.Rows[r], "null")
			}
			continue
		}
		out.Columns = append(out.Columns, t.Columns[src])
		out.Types = append(out.Types, t.Types[src])
		conv := arrowLeafFix(f)
		for r := range out.Rows {
			cell := t.Rows[r][src]
			if conv != nil && cell != "null" {
				cell = conv(cell)
			}
			out.Rows[r] = append(out.Rows[r], cell)
		}
		src++
	}
	return out, nil
}

// arrowLeafFix returns a conversion of a rendered binary cell for a flat
// ENUM, JSON or INTERVAL column, or nil.
func arrowLeafFix(n pqschema.Node) func(string) string {
	p, ok := n.(*pqschema.PrimitiveNode)
	if !ok {
		return nil
	}
	lt := p.LogicalType()
	fromHex := func(cell string) ([]byte, bool) {
		b, err := hex.DecodeString(strings.TrimPrefix(cell, "0x"))
		return b, err == nil && strings.HasPrefix(cell, "0x")
	}
	switch {
	case lt != nil && (lt.Equals(pqschema.EnumLogicalType{}) || lt.Equals(pqschema.JSONLogicalType{})):
		return func(cell string) string {
			if b, ok := fromHex(cell); ok {
				return canon.Value(string(b))
			}
			return cell
		}
	case p.ConvertedType() == pqschema.ConvertedTypes.Interval:
		return func(cell string) string {
			if b, ok := fromHex(cell); ok && len(b) == 12 {
				return canon.Value(value.Interval{Months: binary.LittleEndian.Uint32(b), Days: binary.LittleEndian.Uint32(b[4:]), Millis: binary.LittleEndian.Uint32(b[8:])})
			}
			return cell
		}
	}
	return nil
}

// ReadArrowTable reads a whole file into an arrow table (the caller
// releases it).
func ReadArrowTable(path string) (tbl arrow.Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			tbl, err = nil, fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	pf, err := pqfile.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	return fr.ReadTable(context.Background())
}

// ArrowTable renders an arrow table.
func ArrowTable(tbl arrow.Table) (*Table, error) {
	t := &Table{Rows: make([][]string, tbl.NumRows())}
	for i := range t.Rows {
		t.Rows[i] = make([]string, tbl.NumCols())
	}
	for c := 0; c < int(tbl.NumCols()); c++ {
		col := tbl.Column(c)
		t.Columns = append(t.Columns, col.Name())
		t.Types = append(t.Types, col.DataType().String())
		row := 0
		for _, chunk := range col.Data().Chunks() {
			for i := 0; i < chunk.Len(); i++ {
				v, err := ArrowValue(chunk, i)
				if err != nil {
					return nil, fmt.Errorf("column %s row %d: %w", col.Name(), row, err)
				}
				t.Rows[row][c] = canon.Value(v)
				row++
			}
		}
	}
	return t, nil
}

var timeOfDayZero = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)

func unitNanos(u arrow.TimeUnit) int64 {
	return int64(u.Multiplier())
}

// float16Value converts a half-precision float to float32. arrow-go's
// Num.Float32 (18.9) keeps a subnormal half's fraction bits under a zero
// exponent, which makes it a float32 subnormal 2^-112 times too small
// (0x02b7 gives 7.978209e-39, not 4.1425228e-05); those are computed here.
func float16Value(f float16.Num) float32 {
	bits := f.Uint16()
	if bits&0x7c00 != 0 {
		return f.Float32()
	}
	x := float32(math.Ldexp(float64(bits&0x3ff), -24))
	if bits&0x8000 != 0 {
		x = -x
	}
	return x
}

// ArrowValue converts slot i of an arrow array to canon's Go values.
func ArrowValue(a arrow.Array, i int) (any, error) {
	if a.IsNull(i) {
		return nil, nil
	}
	switch x := a.(type) {
	case *array.Null:
		return nil, nil
	case *array.Boolean:
		return x.Value(i), nil
	case *array.Int8:
		return x.Value(i), nil
	case *array.Int16:
		return x.Value(i), nil
	case *array.Int32:
		return x.Value(i), nil
	case *array.Int64:
		return x.Value(i), nil
	case *array.Uint8:
		return x.Value(i), nil
	case *array.Uint16:
		return x.Value(i), nil
	case *array.Uint32:
		return x.Value(i), nil
	case *array.Uint64:
		return x.Value(i), nil
	case *array.Float16:
		return float16Value(x.Value(i)), nil
	case *array.Float32:
		return x.Value(i), nil
	case *array.Float64:
		return x.Value(i), nil
	case *array.String:
		return x.Value(i), nil
	case *array.LargeString:
		return x.Value(i), nil
	case *array.StringView:
		return x.Value(i), nil
	case *array.Binary:
		return append([]byte(nil), x.Value(i)...), nil
	case *array.LargeBinary:
		return append([]byte(nil), x.Value(i)...), nil
	case *array.BinaryView:
		return append([]byte(nil), x.Value(i)...), nil
	case *array.FixedSizeBinary:
		return append([]byte(nil), x.Value(i)...), nil
	case *array.Date32:
		return x.Value(i).ToTime(), nil
	case *array.Date64:
		return x.Value(i).ToTime(), nil
	case *array.Time32:
		u := x.DataType().(*arrow.Time32Type).Unit
		return timeOfDayZero.Add(time.Duration(int64(x.Value(i)) * unitNanos(u))), nil
	case *array.Time64:
		u := x.DataType().(*arrow.Time64Type).Unit
		return timeOfDayZero.Add(time.Duration(int64(x.Value(i)) * unitNanos(u))), nil
	case *array.Timestamp:
		u := x.DataType().(*arrow.TimestampType).Unit
		return value.Timestamp(int64(x.Value(i)), unitNanos(u)), nil
	case *array.Decimal32:
		return canon.Decimal{Unscaled: big.NewInt(int64(x.Value(i))), Scale: int(x.DataType().(arrow.DecimalType).GetScale())}, nil
	case *array.Decimal64:
		return canon.Decimal{Unscaled: big.NewInt(int64(x.Value(i))), Scale: int(x.DataType().(arrow.DecimalType).GetScale())}, nil
	case *array.Decimal128:
		return canon.Decimal{Unscaled: x.Value(i).BigInt(), Scale: int(x.DataType().(arrow.DecimalType).GetScale())}, nil
	case *array.Decimal256:
		return canon.Decimal{Unscaled: x.Value(i).BigInt(), Scale: int(x.DataType().(arrow.DecimalType).GetScale())}, nil
	case *array.MonthDayNanoInterval:
		v := x.Value(i)
		return canon.Interval{Months: int64(v.Months), Days: int64(v.Days), Micros: v.Nanoseconds / 1000}, nil
	case *array.Map:
		start, end := x.ValueOffsets(i)
		keys, items := x.Keys(), x.Items()
		m := make(canon.Map, 0, end-start)
		for j := int(start); j < int(end); j++ {
			k, err := ArrowValue(keys, j)
			if err != nil {
				return nil, err
			}
			v, err := ArrowValue(items, j)
			if err != nil {
				return nil, err
			}
			m = append(m, canon.Entry{Key: k, Value: v})
		}
		return m, nil
	case array.ListLike:
		start, end := x.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			v, err := ArrowValue(x.ListValues(), j)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *array.Struct:
		st := x.DataType().(*arrow.StructType)
		m := make(map[string]any, st.NumFields())
		for j := 0; j < st.NumFields(); j++ {
			v, err := ArrowValue(x.Field(j), i)
			if err != nil {
				return nil, err
			}
			m[st.Field(j).Name] = v
		}
		return m, nil
	case *array.Dictionary:
		return ArrowValue(x.Dictionary(), x.GetValueIndex(i))
	case array.ExtensionArray:
		v, err := ArrowValue(x.Storage(), i)
		if err != nil {
			return nil, err
		}
		if x.ExtensionType().ExtensionName() == "arrow.uuid" {
			if b, ok := v.([]byte); ok && len(b) == 16 {
				return value.UUIDString(b), nil
			}
		}
		return v, nil
	}
	return nil, fmt.Errorf("arrow type %s is not converted", a.DataType())
}
