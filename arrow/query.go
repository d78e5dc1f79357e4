package carrow

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqlplan"
)

// Query runs a query on a carquet connection and returns its result as
// Arrow record batches, one per batch of the engine. conn is the value
// database/sql's Conn.Raw passes:
//
//	conn, _ := db.Conn(ctx)
//	defer conn.Close()
//	err := conn.Raw(func(dc any) error {
//		rr, err := carrow.Query(ctx, dc, "SELECT * FROM t WHERE x > ?", 10)
//		if err != nil {
//			return err
//		}
//		defer rr.Release()
//		for rr.Next() {
//			rec := rr.RecordBatch()
//			...
//		}
//		return rr.Err()
//	})
//
// The reader must be used (and released) inside Raw's function: it holds
// the connection. Fixed-width columns of 64 bits (BIGINT, UBIGINT, DOUBLE,
// TIME, TIMESTAMP) and strings and blobs share the engine's buffers;
// narrower integers, dates, booleans, decimals and NULL flags are
// converted; lists, structs and maps are built value by value. A record is
// valid until the next call to Next (Retain it to keep it longer); with
// the engine's Mmap option its buffers may alias the mapped files, which
// stay mapped until the reader is released.
func Query(ctx context.Context, conn any, query string, args ...any) (array.RecordReader, error) {
	rows, err := driver.QueryBatches(ctx, conn, query, args...)
	if err != nil {
		return nil, err
	}
	cols := rows.Columns()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		t, err := SQLType(c.Type)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("carrow: column %s: %w", c.Name, err)
		}
		fields[i] = arrow.Field{Name: c.Name, Type: t, Nullable: c.Nullable}
	}
	sch := arrow.NewSchema(fields, nil)
	next := func() (arrow.RecordBatch, error) {
		b, err := rows.Next()
		if err != nil {
			return nil, err
		}
		return BatchRecord(sch, b)
	}
	return newRecordReader(sch, next, func() { rows.Close() }), nil
}

// BatchRecord converts an engine batch into a record of schema sch (whose
// field types are SQLType's of the batch's columns).
func BatchRecord(sch *arrow.Schema, b *sqlplan.Batch) (arrow.RecordBatch, error) {
	arrs := make([]arrow.Array, len(b.Cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, c := range b.Cols {
		a, err := ColArray(sch.Field(i).Type, c, b.N)
		if err != nil {
			return nil, fmt.Errorf("carrow: column %s: %w", sch.Field(i).Name, err)
		}
		arrs[i] = a
	}
	return array.NewRecordBatch(sch, arrs, int64(b.N)), nil
}

// ColArray converts the first n rows of an engine column into an Arrow
// array of type dt (SQLType of the column's type).
func ColArray(dt arrow.DataType, c *sqlplan.Col, n int) (arrow.Array, error) {
	if c.Dict != nil {
		c = decodeCol(c, n)
	}
	if dt.ID() == arrow.NULL {
		return array.NewNull(n), nil
	}
	valid, nulls := nullsBitmap(c.Null, n)
	mk := func(bufs ...*memory.Buffer) arrow.Array {
		d := array.NewData(dt, n, append([]*memory.Buffer{valid}, bufs...), nil, nulls, 0)
		defer d.Release()
		return array.MakeFromData(d)
	}
	t := c.T
	switch dt.ID() {
	case arrow.BOOL:
		return mk(boolsBitmap(c.B[:n])), nil
	case arrow.INT64, arrow.UINT64, arrow.TIME64, arrow.TIMESTAMP:
		return mk(buf(c.I[:n])), nil
	case arrow.INT32:
		return mk(buf(narrow[int32](c.I[:n]))), nil
	case arrow.DATE32:
		return mk(buf(narrow[int32](c.I[:n]))), nil
	case arrow.INT16:
		return mk(buf(narrow[int16](c.I[:n]))), nil
	case arrow.INT8:
		return mk(buf(narrow[int8](c.I[:n]))), nil
	case arrow.UINT32:
		return mk(buf(narrow[uint32](c.I[:n]))), nil
	case arrow.UINT16:
		return mk(buf(narrow[uint16](c.I[:n]))), nil
	case arrow.UINT8:
		return mk(buf(narrow[uint8](c.I[:n]))), nil
	case arrow.FLOAT64:
		return mk(buf(c.F[:n])), nil
	case arrow.FLOAT32:
		return mk(buf(convert[float32](c.F[:n]))), nil
	case arrow.STRING, arrow.BINARY:
		if t.Kind == sqlplan.KInterval {
			break
		}
		if c.Off == nil {
			// An all-NULL column may come without offsets.
			return mk(buf(make([]int32, n+1)), nil), nil
		}
		data, off := rebase(c.Data, c.Off[:n+1])
		return mk(buf(off), memory.NewBufferBytes(data)), nil
	case arrow.DECIMAL128:
		words := make([]uint64, 2*n)
		switch {
		case c.H != nil:
			for i, h := range c.H[:n] {
				words[2*i], words[2*i+1] = h.Lo, uint64(h.Hi)
			}
		case c.I != nil:
			for i, x := range c.I[:n] {
				words[2*i], words[2*i+1] = uint64(x), uint64(x>>63)
			}
		default:
			for i := 0; i < n; i++ {
				if !c.IsNull(i) {
					d := decimal128.FromBigInt(c.BigInt(i))
					words[2*i], words[2*i+1] = d.LowBits(), uint64(d.HighBits())
				}
			}
		}
		return mk(buf(words)), nil
	case arrow.DECIMAL256:
		words := make([]uint64, 4*n)
		for i := 0; i < n; i++ {
			if !c.IsNull(i) {
				d := decimal256.FromBigInt(c.BigInt(i))
				a := d.Array()
				copy(words[4*i:], a[:])
			}
		}
		return mk(buf(words)), nil
	}
	// Lists, structs, maps and INTERVAL: value by value.
	bld := array.NewBuilder(memory.DefaultAllocator, dt)
	defer bld.Release()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			bld.AppendNull()
			continue
		}
		if err := appendValue(bld, c.Value(i)); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// decodeCol returns a dictionary-coded column's values.
func decodeCol(c *sqlplan.Col, n int) *sqlplan.Col {
	out := &sqlplan.Col{T: c.T, Len: n, Null: c.Null, Off: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		if !c.IsNull(i) {
			out.Data = append(out.Data, c.Dict.Bytes(int(c.Codes[i]))...)
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out
}
