package file

import (
	"fmt"
	"io"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// DefaultBatchSize is the number of rows per batch when none is given.
const DefaultBatchSize = 8192

// ReaderOptions choose what a Reader returns.
type ReaderOptions struct {
	// Columns are top-level field names, or dotted paths to fields nested
	// in structs; nil means every top-level field.
	Columns []string
	// BatchSize is the maximum number of rows per batch.
	BatchSize int
	// RowGroups restricts reading to these row groups, in this order; nil
	// means all of them.
	RowGroups []int
	// Ranges restricts reading, per row group, to sorted disjoint ranges of
	// rows (from page-index pruning). Pages outside them are not read where
	// the file has an offset index. Row groups absent from the map are read
	// whole.
	Ranges map[int][]RowRange
	// Stats, when set, counts the bytes and pages read.
	Stats *ReadStats
	// Codes names columns (among Columns; top-level BYTE_ARRAY ones, others
	// are ignored) whose dictionary-encoded values come back as codes into
	// the column chunk's dictionary (vector.Vector.Dict and Codes) instead
	// of copied bytes. A batch that also holds values of plain pages (a
	// writer's dictionary fallback) comes back plain.
	Codes []string
	// Fresh makes every batch own new vectors (nothing is reused), so that
	// batches stay valid after later calls to Next and can be handed to
	// other goroutines.
	Fresh bool
}

// RowRange is the rows [Start, End) of a row group.
type RowRange struct{ Start, End int64 }

// Batch is a set of rows in columnar form. Unless ReaderOptions.Fresh is
// set its vectors are reused: they are valid until the next call to Next.
type Batch struct {
	Fields  []*schema.Field
	Columns []*vector.Vector
	NumRows int
	// RowGroup is the row group the rows come from, and FirstRow the index
	// of the first of them within it.
	RowGroup int
	FirstRow int64
}

// Reader streams batches of a projection of a file's columns, row group by
// row group, in bounded memory.
type Reader struct {
	f         *File
	fields    []*schema.Field
	leaves    []int // leaf columns to read, ascending
	batchSize int
	rowGroups []int
	next      int // index into rowGroups of the next row group to open
	rg        int // current row group, -1 before the first
	rowInRG   int64
	readers   []*ColumnReader // by leaf column; nil when not projected
	codes     map[int]bool    // leaf columns read as codes
	shared    map[int]bool    // leaf columns more than one field assembles
	data      []*LeafData
	batch     Batch
	fresh     bool
	ranges    map[int][]RowRange
	rangeIdx  int
	stats     *ReadStats
}

// ResolveColumns maps column names (top-level fields or dotted paths into
// structs) to logical fields. nil means every top-level field.
func (f *File) ResolveColumns(names []string) ([]*schema.Field, error) {
	if names == nil {
		fields, err := f.Schema.LogicalFields()
		if err != nil {
			return nil, f.wrap(-1, "", -1, err)
		}
		return fields, nil
	}
	out := make([]*schema.Field, 0, len(names))
	for _, name := range names {
		n := f.Schema.Lookup(strings.Split(name, ".")...)
		if n == nil || n == f.Schema.Root {
			return nil, f.errorf(-1, name, -1, "no such column")
		}
		for p := n.Parent; p != nil && p != f.Schema.Root; p = p.Parent {
			if p.Repetition == format.Repeated || p.Kind == schema.List || p.Kind == schema.Map {
				return nil, f.errorf(-1, name, -1, "a field inside a list or map cannot be read on its own; read %q", p.PathString())
			}
		}
		field, err := schema.LogicalField(n)
		if err != nil {
			return nil, f.wrap(-1, name, -1, err)
		}
		field.Name = name
		out = append(out, field)
	}
	return out, nil
}

// NewReader returns a Reader over the chosen columns and row groups.
func (f *File) NewReader(opts ReaderOptions) (*Reader, error) {
	fields, err := f.ResolveColumns(opts.Columns)
	if err != nil {
		return nil, err
	}
	r := &Reader{f: f, fields: fields, batchSize: opts.BatchSize, rg: -1, fresh: opts.Fresh, ranges: opts.Ranges, stats: opts.Stats}
	if r.batchSize <= 0 {
		r.batchSize = DefaultBatchSize
	}
	if opts.RowGroups != nil {
		for _, g := range opts.RowGroups {
			if g < 0 || g >= len(f.Meta.RowGroups) {
				return nil, f.errorf(-1, "", -1, "row group %d out of range [0, %d)", g, len(f.Meta.RowGroups))
			}
		}
		r.rowGroups = opts.RowGroups
	} else {
		r.rowGroups = make([]int, len(f.Meta.RowGroups))
		for i := range r.rowGroups {
			r.rowGroups[i] = i
		}
	}
	seen := map[int]bool{}
	for _, fl := range fields {
		for _, leaf := range schema.LeavesUnder(nil, fl.Node) {
			if !seen[leaf.Column] {
				seen[leaf.Column] = true
				r.leaves = append(r.leaves, leaf.Column)
			} else {
				// Two fields share the leaf (a struct and its field, or a
				// column asked twice): assembling one must not take its
				// values from the other.
				if r.shared == nil {
					r.shared = map[int]bool{}
				}
				r.shared[leaf.Column] = true
			}
		}
	}
	for _, name := range opts.Codes {
		for _, fl := range fields {
			if fl.Name == name && fl.Kind == schema.Primitive && fl.Node.Physical == format.ByteArray && fl.Node.MaxRep == 0 {
				if r.codes == nil {
					r.codes = map[int]bool{}
				}
				r.codes[fl.Node.Column] = true
			}
		}
	}
	r.readers = make([]*ColumnReader, len(f.Schema.Leaves))
	r.data = make([]*LeafData, len(f.Schema.Leaves))
	r.batch.Fields = fields
	r.batch.Columns = make([]*vector.Vector, len(fields))
	for i := range r.batch.Columns {
		r.batch.Columns[i] = &vector.Vector{}
	}
	return r, nil
}

// Fields are the logical fields of the batches' columns.
func (r *Reader) Fields() []*schema.Field { return r.fields }

// SeekRowGroup makes the next batch start at the beginning of the i-th
// row group of the reader's list.
func (r *Reader) SeekRowGroup(i int) error {
	if i < 0 || i > len(r.rowGroups) {
		return r.f.errorf(-1, "", -1, "row group index %d out of range [0, %d]", i, len(r.rowGroups))
	}
	r.next = i
	r.rg = -1
	return nil
}

func (r *Reader) openRowGroup(rg int) error {
	r.releaseReaders()
	for _, col := range r.leaves {
		c, err := r.f.Chunk(rg, col)
		if err != nil {
			return err
		}
		c.Stats = r.stats
		cr, err := c.NewColumnReader()
		if err != nil {
			return err
		}
		r.readers[col] = cr
		cr.codes = r.codes[col]
		cr.omitDef = true
		cr.lendPooled = !r.fresh
		cr.pages.reusePages = !r.fresh
		if _, ok := r.ranges[rg]; ok {
			oi, err := c.OffsetIndex()
			if err != nil {
				return err
			}
			cr.UseOffsetIndex(oi)
		}
		if r.data[col] == nil {
			r.data[col] = cr.NewLeafData()
		}
	}
	r.rg = rg
	r.rowInRG = 0
	r.rangeIdx = 0
	return nil
}

// Next returns the next batch, or io.EOF when every row was read.
func (r *Reader) Next() (*Batch, error) {
	want, err := r.nextSpan()
	if err != nil {
		return nil, err
	}
	if r.fresh {
		r.batch.Columns = make([]*vector.Vector, len(r.fields))
		for i := range r.batch.Columns {
			r.batch.Columns[i] = &vector.Vector{}
		}
	}
	if err := r.readRows(want); err != nil {
		return nil, err
	}
	if r.fresh {
		b := r.batch
		return &b, nil
	}
	return &r.batch, nil
}

// Skip passes over the rows the next call to Next would have returned,
// without materialising their values, and returns how many there were.
// Two readers over the same row groups, ranges and batch size stay in step
// whether each batch is read or skipped (late materialization uses this).
func (r *Reader) Skip() (int, error) {
	want, err := r.nextSpan()
	if err != nil {
		return 0, err
	}
	for _, col := range r.leaves {
		if err := r.readers[col].SkipRows(want); err != nil {
			return 0, err
		}
	}
	r.rowInRG += int64(want)
	return want, nil
}

// nextSpan opens row groups and moves to the next range as needed, and
// returns the number of rows of the next batch.
func (r *Reader) nextSpan() (int, error) {
	for {
		if r.rg < 0 || r.rowInRG >= r.f.Meta.RowGroups[r.rg].NumRows {
			if r.next >= len(r.rowGroups) {
				r.releaseReaders()
				return 0, io.EOF
			}
			rg := r.rowGroups[r.next]
			r.next++
			if r.f.Meta.RowGroups[rg].NumRows == 0 {
				continue // nothing to read; its chunks may not even have pages
			}
			if err := r.openRowGroup(rg); err != nil {
				return 0, err
			}
			continue
		}
		limit := r.f.Meta.RowGroups[r.rg].NumRows
		if ranges, ok := r.ranges[r.rg]; ok {
			if r.rangeIdx >= len(ranges) {
				r.rowInRG = limit // nothing more to read in this row group
				continue
			}
			rng := ranges[r.rangeIdx]
			if r.rowInRG >= rng.End {
				r.rangeIdx++
				continue
			}
			if r.rowInRG < rng.Start {
				if err := r.seek(rng.Start); err != nil {
					return 0, err
				}
			}
			limit = min(rng.End, limit)
		}
		return int(min(int64(r.batchSize), limit-r.rowInRG)), nil
	}
}

func (r *Reader) readRows(want int) error {
	for _, col := range r.leaves {
		d := r.data[col]
		d.Reset()
		got, err := r.readers[col].ReadRows(d, want)
		if err != nil && err != io.EOF {
			return err
		}
		if got != want {
			return r.f.errorf(r.rg, r.f.Schema.Leaves[col].PathString(), -1, "%w: column has %d rows where %d were expected", ErrCorrupt, r.rowInRG+int64(got), r.rowInRG+int64(want))
		}
	}
	for i, fl := range r.fields {
		if err := assembleKeeping(fl, r.data, r.batch.Columns[i], r.shared); err != nil {
			return r.f.wrap(r.rg, fl.Node.PathString(), -1, err)
		}
		if r.batch.Columns[i].Len != want {
			return r.f.errorf(r.rg, fl.Node.PathString(), -1, "%w: assembled %d rows, expected %d", ErrCorrupt, r.batch.Columns[i].Len, want)
		}
	}
	r.batch.NumRows = want
	r.batch.RowGroup = r.rg
	r.batch.FirstRow = r.rowInRG
	r.rowInRG += int64(want)
	return nil
}

// SkipRows passes over n rows of the current row group without decoding
// their values where the encodings allow it.
func (r *Reader) SkipRows(n int64) error {
	if r.rg < 0 {
		return fmt.Errorf("SkipRows before the first batch")
	}
	left := r.f.Meta.RowGroups[r.rg].NumRows - r.rowInRG
	if n > left {
		n = left
	}
	for _, col := range r.leaves {
		if err := r.readers[col].SkipRows(int(n)); err != nil {
			return err
		}
	}
	r.rowInRG += n
	return nil
}

// Close hands back the buffers of the row group being read, as reading to
// the end does; for a reader left before its end (the second reader of
// late materialization stops when the first ends). The reader must not
// be used afterwards.
func (r *Reader) Close() { r.releaseReaders() }

// releaseReaders hands the finished row group's buffers back.
func (r *Reader) releaseReaders() {
	for _, col := range r.leaves {
		if cr := r.readers[col]; cr != nil {
			cr.Release()
			r.readers[col] = nil
		}
	}
}

// seek moves every column of the current row group forward to row.
func (r *Reader) seek(row int64) error {
	for _, col := range r.leaves {
		if err := r.readers[col].SeekRow(row); err != nil {
			return err
		}
	}
	r.rowInRG = row
	return nil
}
