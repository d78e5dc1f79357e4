package driver

import (
	"database/sql/driver"
	"errors"
	"io"
	"math"
	"math/big"
	"reflect"
	"time"

	"github.com/carquet-go/carquet/sqlplan"
)

// Rows hands a result to database/sql one row at a time, converting
// values with per-column converters built once.
type Rows struct {
	r     *sqlplan.Rows
	cols  []sqlplan.Column
	conv  []func(c *sqlplan.Col, i int) driver.Value
	batch *sqlplan.Batch
	pos   int
}

var (
	_ driver.RowsColumnTypeScanType         = (*Rows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*Rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*Rows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*Rows)(nil)
)

func newRows(r *sqlplan.Rows) *Rows {
	rows := &Rows{r: r, cols: r.Columns()}
	for _, c := range rows.cols {
		rows.conv = append(rows.conv, converter(c.Type))
	}
	return rows
}

func (r *Rows) Columns() []string {
	out := make([]string, len(r.cols))
	for i, c := range r.cols {
		out[i] = c.Name
	}
	return out
}

func (r *Rows) Close() error { return r.r.Close() }

// Next converts the next row into dest. A panic while doing so (a bug)
// is returned as an "internal error", never raised.
func (r *Rows) Next(dest []driver.Value) (err error) {
	defer recoverInternal(&err)
	for r.batch == nil || r.pos >= r.batch.N {
		b, err := r.r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
			return err
		}
		r.batch, r.pos = b, 0
	}
	i := r.pos
	for k, c := range r.batch.Cols {
		if c.IsNull(i) {
			dest[k] = nil
			continue
		}
		dest[k] = r.conv[k](c, i)
	}
	r.pos++
	return nil
}

// converter returns the function that turns a row of a column into the
// value Next hands out; its Go type is ScanType's.
func converter(t sqlplan.Type) func(c *sqlplan.Col, i int) driver.Value {
	switch t.Kind {
	case sqlplan.KBool:
		return func(c *sqlplan.Col, i int) driver.Value { return c.B[i] }
	case sqlplan.KInt:
		return func(c *sqlplan.Col, i int) driver.Value { return c.I[i] }
	case sqlplan.KUint:
		if t.Bits != 0 && t.Bits < 64 {
			return func(c *sqlplan.Col, i int) driver.Value { return c.I[i] }
		}
		return func(c *sqlplan.Col, i int) driver.Value { return uint64(c.I[i]) }
	case sqlplan.KFloat:
		return func(c *sqlplan.Col, i int) driver.Value { return c.F[i] }
	case sqlplan.KString, sqlplan.KUUID:
		// Low-cardinality strings (categories, enums) are converted and
		// boxed once; the cache stops growing after a few hundred values.
		cache := make(map[string]driver.Value, 16)
		return func(c *sqlplan.Col, i int) driver.Value {
			b := c.Bytes(i)
			if v, ok := cache[string(b)]; ok {
				return v
			}
			var v driver.Value = string(b)
			if len(cache) < 256 && len(b) <= 64 {
				cache[string(b)] = v
			}
			return v
		}
	case sqlplan.KBytes:
		return func(c *sqlplan.Col, i int) driver.Value { return append([]byte(nil), c.Bytes(i)...) }
	case sqlplan.KTimestamp:
		if t.Nanos {
			return func(c *sqlplan.Col, i int) driver.Value { return time.Unix(0, c.I[i]).UTC() }
		}
		return func(c *sqlplan.Col, i int) driver.Value { return time.UnixMicro(c.I[i]).UTC() }
	case sqlplan.KDate:
		return func(c *sqlplan.Col, i int) driver.Value { return time.Unix(c.I[i]*86400, 0).UTC() }
	case sqlplan.KNested:
		if sqlplan.IsUnion(t) {
			// A UNION's value is its member's (duckdb-go's Union.Value).
			return func(c *sqlplan.Col, i int) driver.Value {
				v, _ := sqlplan.UnionMember(t, c.Value(i))
				return v
			}
		}
	case sqlplan.KDecimal, sqlplan.KUHuge:
		if t.Huge || t.Kind == sqlplan.KUHuge {
			// HUGEINT and UHUGEINT as a *big.Int, as duckdb-go gives them;
			// Scan converts it to an integer or float type as asked (not
			// to a string).
			return func(c *sqlplan.Col, i int) driver.Value { return c.BigInt(i) }
		}
	}
	return func(c *sqlplan.Col, i int) driver.Value { return c.Value(i) }
}

var (
	tBool    = reflect.TypeOf(false)
	tInt64   = reflect.TypeOf(int64(0))
	tUint64  = reflect.TypeOf(uint64(0))
	tFloat64 = reflect.TypeOf(float64(0))
	tString  = reflect.TypeOf("")
	tBytes   = reflect.TypeOf([]byte(nil))
	tTime    = reflect.TypeOf(time.Time{})
	tAny     = reflect.TypeOf((*any)(nil)).Elem()
	tBigInt  = reflect.TypeOf((*big.Int)(nil))
	tList    = reflect.TypeOf([]any(nil))
	tStruct  = reflect.TypeOf(map[string]any(nil))
)

// ColumnTypeScanType is the Go type of the values Next returns.
func (r *Rows) ColumnTypeScanType(index int) reflect.Type {
	t := r.cols[index].Type
	switch t.Kind {
	case sqlplan.KBool:
		return tBool
	case sqlplan.KInt:
		return tInt64
	case sqlplan.KUint:
		if t.Bits != 0 && t.Bits < 64 {
			return tInt64
		}
		return tUint64
	case sqlplan.KFloat:
		return tFloat64
	case sqlplan.KDecimal:
		if t.Huge {
			return tBigInt
		}
		return tString
	case sqlplan.KUHuge:
		return tBigInt
	case sqlplan.KString, sqlplan.KUUID, sqlplan.KInterval:
		return tString
	case sqlplan.KBytes:
		return tBytes
	case sqlplan.KDate, sqlplan.KTime, sqlplan.KTimeTZ, sqlplan.KTimestamp:
		return tTime
	case sqlplan.KNested:
		if sqlplan.IsUnion(t) {
			return tAny // the member's value (converter)
		}
		if f := t.ParquetField(); f != nil {
			switch f.Kind.String() {
			case "list":
				return tList
			case "struct":
				return tStruct
			}
		}
	}
	return tAny
}

// ColumnTypeDatabaseTypeName is the SQL type name (DESCRIBE's).
func (r *Rows) ColumnTypeDatabaseTypeName(index int) string {
	if t := r.cols[index].Type; t.Kind == sqlplan.KTimeTZ {
		return "TIMETZ" // duckdb-go's name; typeof's is TIME WITH TIME ZONE
	}
	return r.cols[index].Type.SQLName()
}

// ColumnTypeNullable reports whether the column may hold NULLs.
func (r *Rows) ColumnTypeNullable(index int) (bool, bool) {
	return r.cols[index].Nullable, true
}

// ColumnTypePrecisionScale reports a DECIMAL's precision and scale.
func (r *Rows) ColumnTypePrecisionScale(index int) (int64, int64, bool) {
	t := r.cols[index].Type
	if t.Kind == sqlplan.KDecimal && !t.Huge {
		return int64(t.Prec), int64(t.Scale), true
	}
	return 0, 0, false
}

var _ = math.MaxInt64
