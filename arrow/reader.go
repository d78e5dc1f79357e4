package carrow

import (
	"errors"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// recordReader is the array.RecordReader of a stream of record batches:
// next makes the next one (io.EOF at the end), close frees the source
// once the last reference is released.
type recordReader struct {
	refs   int64
	schema *arrow.Schema
	next   func() (arrow.RecordBatch, error)
	close  func()
	cur    arrow.RecordBatch
	err    error
	done   bool
}

func newRecordReader(schema *arrow.Schema, next func() (arrow.RecordBatch, error), close func()) *recordReader {
	return &recordReader{refs: 1, schema: schema, next: next, close: close}
}

func (r *recordReader) Retain() { atomic.AddInt64(&r.refs, 1) }

func (r *recordReader) Release() {
	if atomic.AddInt64(&r.refs, -1) == 0 {
		if r.cur != nil {
			r.cur.Release()
			r.cur = nil
		}
		r.close()
	}
}

func (r *recordReader) Schema() *arrow.Schema { return r.schema }

func (r *recordReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.done {
		return false
	}
	rec, err := r.next()
	if err != nil {
		r.done = true
		if !errors.Is(err, io.EOF) {
			r.err = err
		}
		return false
	}
	r.cur = rec
	return true
}

func (r *recordReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch.
//
// Deprecated: use RecordBatch.
func (r *recordReader) Record() arrow.RecordBatch { return r.cur }

func (r *recordReader) Err() error { return r.err }
