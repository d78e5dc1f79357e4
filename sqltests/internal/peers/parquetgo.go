package peers

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqltests/internal/canon"
)

// ReadParquetGo reads every row of a file with parquet-go, reconstructing
// each row into a map[string]any (parquet.Reader.Read) and converting the
// values by the file's schema: parquet-go hands back physical values (and
// pointers for optional map values), which the logical types interpret.
func ReadParquetGo(path string) (t *Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("parquet-go panicked: %v", r)
		}
	}()
	osf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer osf.Close()
	st, err := osf.Stat()
	if err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(osf, st.Size())
	if err != nil {
		return nil, err
	}
	sch := f.Schema()
	t = &Table{}
	for _, fl := range sch.Fields() {
		t.Columns = append(t.Columns, fl.Name())
		t.Types = append(t.Types, fl.Type().String())
	}
	// The leaf column of each flat top-level field: its values are taken
	// from the row's raw parquet.Value (exact), because Reconstruct into
	// map[string]any turns INT32/INT64 DECIMALs into float64. Nested
	// fields go through Reconstruct.
	flat := map[string]int{}
	for i, path := range sch.Columns() {
		if len(path) == 1 {
			flat[path[0]] = i
		}
	}
	buf := make([]parquet.Row, 64)
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				m := map[string]any{}
				if err := sch.Reconstruct(&m, row); err != nil {
					rows.Close()
					return nil, fmt.Errorf("row %d: %w", len(t.Rows), err)
				}
				out := make([]string, len(t.Columns))
				for c, fl := range sch.Fields() {
					var x any = m[fl.Name()]
					var err error
					if ci, ok := flat[fl.Name()]; ok && fl.Leaf() {
						x, err = leafFromRow(fl, row, ci)
					} else {
						x, err = parquetGoValue(fl, x)
					}
					if err != nil {
						rows.Close()
						return nil, fmt.Errorf("row %d column %s: %w", len(t.Rows), fl.Name(), err)
					}
					out[c] = canon.Value(x)
				}
				t.Rows = append(t.Rows, out)
			}
			if err == io.EOF || n == 0 && err == nil {
				break
			}
			if err != nil {
				rows.Close()
				return nil, err
			}
		}
		rows.Close()
	}
	return t, nil
}

// leafFromRow converts the value of leaf column ci in a row.
func leafFromRow(n parquet.Node, row parquet.Row, ci int) (any, error) {
	for _, v := range row {
		if v.Column() != ci {
			continue
		}
		if v.IsNull() {
			return nil, nil
		}
		var lt format.LogicalTypeValue
		if l := n.Type().LogicalType(); l != nil {
			lt = l.Value
		}
		var x any
		switch v.Kind() {
		case parquet.Boolean:
			x = v.Boolean()
		case parquet.Int32:
			x = v.Int32()
		case parquet.Int64:
			x = v.Int64()
		case parquet.Int96:
			x = v.Int96()
		case parquet.Float:
			x = v.Float()
		case parquet.Double:
			x = v.Double()
		default:
			x = append([]byte(nil), v.ByteArray()...)
		}
		return parquetGoLeaf(n, lt, x)
	}
	return nil, fmt.Errorf("no value of column %d in the row", ci)
}

func deref(v any) any {
	rv := reflect.ValueOf(v)
	for rv.IsValid() && (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface) {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return nil
	}
	return rv.Interface()
}

// generic turns the typed values parquet-go reconstructs inside maps
// (structs with parquet tags, typed slices) into map[string]any and []any.
func generic(v any) any {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Struct:
		if _, ok := v.(time.Time); ok {
			return v
		}
		if _, ok := v.(big.Float); ok {
			return v
		}
		m := map[string]any{}
		for i := 0; i < rv.NumField(); i++ {
			f := rv.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			m[name] = deref(rv.Field(i).Interface())
		}
		return m
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return v
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = deref(rv.Index(i).Interface())
		}
		return out
	}
	return v
}

func parquetGoValue(n parquet.Node, v any) (any, error) {
	v = deref(v)
	if v == nil {
		return nil, nil
	}
	v = generic(v)
	var lt format.LogicalTypeValue
	if l := n.Type().LogicalType(); l != nil {
		lt = l.Value
	}
	ct := n.Type().ConvertedType()
	_, isList := lt.(*format.ListType)
	_, isMap := lt.(*format.MapType)
	switch {
	case n.Leaf():
		return parquetGoLeaf(n, lt, v)
	case isList || ct != nil && *ct == deprecated.List:
		rep := n.Fields()[0]
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			v = generic(m[rep.Name()]) // the repeated group, as a typed struct gives it
		}
		elem := rep
		if !rep.Leaf() && len(rep.Fields()) == 1 {
			elem = rep.Fields()[0]
			if l, ok := v.([]any); ok {
				for i, x := range l {
					if m, ok := generic(x).(map[string]any); ok && len(m) == 1 {
						if e, ok := m[elem.Name()]; ok && (elem.Leaf() || len(elem.Fields()) != 1 || elem.Fields()[0].Name() != elem.Name()) {
							l[i] = e
						}
					}
				}
			}
		}
		return parquetGoList(elem, v)
	case isMap || ct != nil && (*ct == deprecated.Map || *ct == deprecated.MapKeyValue):
		kv := n.Fields()[0]
		var key, val parquet.Node
		for _, c := range kv.Fields() {
			if c.Name() == "key" {
				key = c
			} else {
				val = c
			}
		}
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Map {
			return nil, fmt.Errorf("map column reconstructed as %T", v)
		}
		var m canon.Map
		iter := rv.MapRange()
		for iter.Next() {
			k, err := parquetGoValue(key, iter.Key().Interface())
			if err != nil {
				return nil, err
			}
			var e any
			if val != nil {
				if e, err = parquetGoValue(val, iter.Value().Interface()); err != nil {
					return nil, err
				}
			}
			m = append(m, canon.Entry{Key: k, Value: e})
		}
		return m, nil
	}
	mv, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("group reconstructed as %T", v)
	}
	out := make(map[string]any, len(n.Fields()))
	for _, c := range n.Fields() {
		x, err := parquetGoValue(c, mv[c.Name()])
		if err != nil {
			return nil, err
		}
		out[c.Name()] = x
	}
	return out, nil
}

func parquetGoList(elem parquet.Node, v any) (any, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return nil, fmt.Errorf("list reconstructed as %T", v)
	}
	out := make([]any, rv.Len())
	for i := range out {
		x, err := parquetGoValue(elem, rv.Index(i).Interface())
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func unitNanosOf(u format.TimeUnit) int64 { return int64(u.Value.Duration()) }

func parquetGoLeaf(n parquet.Node, lt format.LogicalTypeValue, v any) (any, error) {
	if _, ok := lt.(*format.JsonType); ok {
		switch v.(type) {
		case string, []byte:
		default:
			// parquet-go parses JSON values; write them back as compact
			// text with sorted keys (the generated JSON is written that way).
			b, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			return string(b), nil
		}
	}
	if t, ok := v.(time.Time); ok {
		return t, nil
	}
	rv := reflect.ValueOf(v)
	var i64 int64
	var isInt bool
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i64, isInt = rv.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		i64, isInt = int64(rv.Uint()), true
	}
	kind := n.Type().Kind()
	if isInt {
		if kind == parquet.Int32 {
			i64 = int64(int32(i64))
		}
		switch l := lt.(type) {
		case *format.DateType:
			return value.Date(int32(i64)), nil
		case *format.TimestampType:
			return value.Timestamp(i64, unitNanosOf(l.Unit)), nil
		case *format.TimeType:
			return value.TimeOfDay(i64, unitNanosOf(l.Unit)), nil
		case *format.DecimalType:
			return canon.Decimal{Unscaled: big.NewInt(i64), Scale: int(l.Scale)}, nil
		case *format.IntType:
			bits, signed := l.BitWidth, l.IsSigned
			switch {
			case signed && bits == 8:
				return int8(i64), nil
			case signed && bits == 16:
				return int16(i64), nil
			case signed && bits == 32:
				return int32(i64), nil
			case signed:
				return i64, nil
			case bits == 8:
				return uint8(i64), nil
			case bits == 16:
				return uint16(i64), nil
			case bits == 32:
				return uint32(i64), nil
			}
			return uint64(i64), nil
		}
		if kind == parquet.Int32 {
			return int32(i64), nil
		}
		return i64, nil
	}
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = x
	case deprecated.Int96:
		var a [12]byte
		for i, w := range x {
			a[4*i], a[4*i+1], a[4*i+2], a[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
		}
		return value.Int96Time(a), nil
	case [12]byte:
		if kind == parquet.Int96 {
			return value.Int96Time(x), nil
		}
		b = x[:]
	case [16]byte:
		b = x[:]
	case bool, float32, float64:
		return x, nil
	case big.Float:
		if d, ok := lt.(*format.DecimalType); ok {
			txt := x.Text('f', int(d.Scale))
			u, ok := new(big.Int).SetString(strings.Replace(txt, ".", "", 1), 10)
			if !ok {
				return nil, fmt.Errorf("decimal %s", txt)
			}
			return canon.Decimal{Unscaled: u, Scale: int(d.Scale)}, nil
		}
		return nil, fmt.Errorf("big.Float for %s", n.Type())
	default:
		if rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8 {
			b = make([]byte, rv.Len())
			reflect.Copy(reflect.ValueOf(b), rv)
		} else {
			return nil, fmt.Errorf("leaf %s reconstructed as %T", n.Type(), v)
		}
	}
	if kind == parquet.Int96 && len(b) == 12 {
		return value.Int96Time([12]byte(b)), nil
	}
	switch l := lt.(type) {
	case nil:
		if ct := n.Type().ConvertedType(); ct != nil && *ct == deprecated.Interval && len(b) == 12 {
			return value.Interval{Months: le32(b), Days: le32(b[4:]), Millis: le32(b[8:])}, nil
		}
		if ct := n.Type().ConvertedType(); ct != nil && (*ct == deprecated.UTF8 || *ct == deprecated.Enum || *ct == deprecated.Json) {
			return string(b), nil
		}
	case *format.StringType, *format.EnumType, *format.JsonType:
		return string(b), nil
	case *format.DecimalType:
		return value.DecimalFromBigEndian(b, l.Scale), nil
	case *format.UUIDType:
		if len(b) == 16 {
			return value.UUIDString(b), nil
		}
	case *format.Float16Type:
		if len(b) == 2 {
			return value.Float16(b), nil
		}
	}
	return append([]byte(nil), b...), nil
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
