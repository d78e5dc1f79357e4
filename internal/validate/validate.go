// Package validate checks a Parquet file against itself: it reads every
// page of every column chunk and checks
//   - page CRCs (where pages carry one) and that every page decodes;
//   - levels: none above the column's maximum, v2 page headers' row and
//     null counts, pages starting at row boundaries where a page index
//     exists;
//   - value and row counts: the pages against column metadata and row
//     groups;
//   - chunk statistics against the data: min/max bound every value, null
//     and NaN counts recomputed;
//   - the offset index: one entry per data page, at the page's offset,
//     with its size and first row;
//   - the column index: null pages, per-page min/max and null counts
//     against the page's data, the declared boundary order;
//   - bloom filters: every value of the chunk is found.
//
// It is what `pqsql validate` runs, and what the crash tests check files
// with.
package validate

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/carquet-go/carquet/internal/cli/output"
	"github.com/carquet-go/carquet/internal/statvalue"
	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/encoding"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
)

// Finding is one problem (or, when Warning is set, a doubtful point that
// does not fail validation) located in a file.
type Finding struct {
	File     string `json:"file"`
	RowGroup int    `json:"row_group"`        // -1: the file as a whole
	Column   string `json:"column,omitempty"` // dotted path
	Page     int    `json:"page"`             // data page index within the chunk, -1: none
	Offset   int64  `json:"offset"`           // file offset, -1: not known
	Message  string `json:"message"`
	Warning  bool   `json:"warning,omitempty"`
}

func (f Finding) String() string {
	s := f.File
	if f.RowGroup >= 0 {
		s += fmt.Sprintf(": row group %d", f.RowGroup)
	}
	if f.Column != "" {
		s += ", column " + f.Column
	}
	if f.Page >= 0 {
		s += fmt.Sprintf(", page %d", f.Page)
	}
	if f.Offset >= 0 {
		s += fmt.Sprintf(" (offset %d)", f.Offset)
	}
	kind := "error"
	if f.Warning {
		kind = "warning"
	}
	return s + ": " + kind + ": " + f.Message
}

// Report is what File found in one file, and how much it checked.
type Report struct {
	File     string
	Findings []Finding
	// counts of what was checked
	RowGroups, Chunks, Pages, Values int64
}

// Problems counts the findings that fail validation.
func (r *Report) Problems() int {
	n := 0
	for _, f := range r.Findings {
		if !f.Warning {
			n++
		}
	}
	return n
}

// Warnings counts the findings that do not fail validation.
func (r *Report) Warnings() int { return len(r.Findings) - r.Problems() }

// OK reports whether the file passed: no findings but warnings.
func (r *Report) OK() bool { return r.Problems() == 0 }

// Options tune File.
type Options struct {
	// Context, when set, stops the check between row groups once done
	// (an "interrupted" problem is reported).
	Context context.Context
	// Progress, when set, is called with the bytes of column chunks
	// checked so far and their total: once before the first chunk, then
	// after each.
	Progress func(done, total int64)
}

// validator checks one file.
type validator struct {
	path        string
	opts        Options
	rep         Report
	done, total int64
}

func (v *validator) add(rg int, col string, page int, off int64, warn bool, format string, args ...any) {
	v.rep.Findings = append(v.rep.Findings, Finding{File: v.path, RowGroup: rg, Column: col, Page: page, Offset: off,
		Message: fmt.Sprintf(format, args...), Warning: warn})
}

func (v *validator) errorOf(err error) {
	rg, col, off := -1, "", int64(-1)
	var fe *file.Error
	if errors.As(err, &fe) {
		rg, col, off = fe.RowGroup, fe.Column, fe.Offset
	}
	v.add(rg, col, -1, off, false, "%v", err)
}

// File checks the Parquet file at path against itself (see the package
// comment) and reports what it found. The file is opened at its committed
// length (an append in progress, or one that crashed and was not yet
// recovered, is not part of it).
func File(path string, opts Options) *Report {
	v := &validator{path: path, opts: opts}
	v.run()
	return &v.rep
}

func (v *validator) run() {
	f, err := scan.OpenFile(v.path, scan.Options{})
	if err != nil {
		v.errorOf(err)
		return
	}
	defer f.Close()
	var total, sum int64
	for _, rg := range f.Meta.RowGroups {
		sum += rg.NumRows
		for _, cc := range rg.Columns {
			if cc.MetaData != nil {
				total += cc.MetaData.TotalCompressedSize
			}
		}
	}
	if f.Meta.NumRows != sum {
		v.add(-1, "", -1, -1, f.Meta.NumRows == 0, "footer num_rows is %d, the row groups hold %d", f.Meta.NumRows, sum)
	}
	v.total = total
	v.progress()
	for rg := range f.Meta.RowGroups {
		if v.opts.Context != nil && v.opts.Context.Err() != nil {
			v.add(-1, "", -1, -1, false, "interrupted")
			return
		}
		v.rep.RowGroups++
		for col := range f.Schema.Leaves {
			v.chunk(f, rg, col)
		}
	}
}

func (v *validator) progress() {
	if v.opts.Progress != nil {
		v.opts.Progress(v.done, v.total)
	}
}

// pageInfo is what validate learns about a data page from walking them.
type pageInfo struct {
	offset, size int64
	values       int
	rows         int64
	firstRow     int64
	nulls        int
	firstRep     int16
}

func (v *validator) chunk(f *file.File, rg, col int) {
	leaf := f.Schema.Leaves[col]
	path := leaf.PathString()
	cc := &f.Meta.RowGroups[rg].Columns[col]
	md := cc.MetaData
	if md == nil {
		v.add(rg, path, -1, -1, true, "encrypted column chunk not checked")
		return
	}
	defer func() {
		v.done += md.TotalCompressedSize
		v.progress()
	}()
	v.rep.Chunks++
	c, err := f.Chunk(rg, col)
	if err != nil {
		v.errorOf(err)
		return
	}
	numRows := f.Meta.RowGroups[rg].NumRows
	if numRows == 0 && md.NumValues == 0 {
		// Some writers leave the offsets of empty chunks at 0.
		if _, _, err := c.ByteRange(); err != nil {
			v.add(rg, path, -1, -1, true, "empty column chunk not read: %v", err)
			return
		}
	}

	pages, ok := v.walkPages(c, rg, path, leaf)
	if !ok {
		return
	}
	var values int64
	var rows int64
	for _, p := range pages {
		values += int64(p.values)
		rows += p.rows
	}
	if values != md.NumValues {
		v.add(rg, path, -1, -1, false, "data pages hold %d values, column metadata says num_values %d", values, md.NumValues)
	}
	if rows != numRows {
		v.add(rg, path, -1, -1, false, "data pages hold %d rows, the row group has %d", rows, numRows)
	}

	oi, err := c.OffsetIndex()
	if err != nil {
		v.errorOf(err)
		oi = nil
	}
	if oi != nil {
		v.checkOffsetIndex(rg, path, oi, pages)
	}

	data, ok := v.readValues(c, rg, path, leaf, pages, md.BloomFilterOffset.Set)
	if !ok {
		return
	}
	v.checkStats(rg, path, leaf, md, data)
	ci, err := c.ColumnIndex()
	if err != nil {
		v.errorOf(err)
		ci = nil
	}
	if ci != nil {
		v.checkColumnIndex(rg, path, leaf, ci, pages, data)
	}
	if md.BloomFilterOffset.Set {
		bf, err := c.BloomFilter()
		switch {
		case err != nil:
			v.errorOf(err)
		case bf == nil:
			v.add(rg, path, -1, md.BloomFilterOffset.Value, true, "bloom filter of an unknown algorithm, hash or compression not checked")
		default:
			v.checkBloom(rg, path, leaf, bf, data, md.BloomFilterOffset.Value)
		}
	}
}

// walkPages reads every page of the chunk (checking CRCs), decodes the
// levels of data pages and checks them.
func (v *validator) walkPages(c *file.Chunk, rg int, path string, leaf *schema.Node) ([]pageInfo, bool) {
	it, err := c.Pages()
	if err != nil {
		v.errorOf(err)
		return nil, false
	}
	it.SkipIndexCheck() // the offset index is checked below, page by page
	hasIndex := c.CC.OffsetIndexOffset.Set
	var pages []pageInfo
	var dicts int
	var def, rep []int16
	var row int64
	firstOffset := it.Offset()
	for idx := 0; !it.Done(); idx++ {
		off := it.Offset()
		p, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			v.errorOf(err)
			return nil, false
		}
		v.rep.Pages++
		size := it.Offset() - off
		switch p.Type {
		case format.DictionaryPage:
			dicts++
			if dicts > 1 || len(pages) > 0 {
				v.add(rg, path, -1, off, false, "dictionary page after the first page of the chunk")
			}
			continue
		case format.DataPage, format.DataPageV2:
		default:
			continue
		}
		pi := pageInfo{offset: off, size: size, values: p.NumValues, firstRow: row}
		page := len(pages)
		if leaf.MaxRep > 0 {
			if p.V2 {
				rep, err = encoding.DecodeLevelsV2(rep[:0], p.RepLevels, leaf.MaxRep, p.NumValues)
			} else {
				var n int
				rep, n, err = encoding.DecodeLevelsV1(rep[:0], p.RepLevelEncoding, p.Data, leaf.MaxRep, p.NumValues)
				p.Data = p.Data[n:]
			}
			if err != nil {
				v.add(rg, path, page, off, false, "repetition levels: %v", err)
				return nil, false
			}
		}
		if leaf.MaxDef > 0 {
			if p.V2 {
				def, err = encoding.DecodeLevelsV2(def[:0], p.DefLevels, leaf.MaxDef, p.NumValues)
			} else {
				def, _, err = encoding.DecodeLevelsV1(def[:0], p.DefLevelEncoding, p.Data, leaf.MaxDef, p.NumValues)
			}
			if err != nil {
				v.add(rg, path, page, off, false, "definition levels: %v", err)
				return nil, false
			}
		}
		if leaf.MaxRep > 0 {
			for i, r := range rep {
				if r > leaf.MaxRep || r < 0 {
					v.add(rg, path, page, off, false, "repetition level %d at entry %d exceeds the maximum %d", r, i, leaf.MaxRep)
					return nil, false
				}
				if r == 0 {
					pi.rows++
				}
			}
			if len(rep) > 0 {
				pi.firstRep = rep[0]
			}
			if len(pages) == 0 && pi.firstRep != 0 {
				v.add(rg, path, page, off, false, "the chunk's first repetition level is %d, not 0", pi.firstRep)
			} else if pi.firstRep != 0 && (hasIndex || p.V2) {
				v.add(rg, path, page, off, false, "page does not start at a row boundary (first repetition level %d)", pi.firstRep)
			}
		} else {
			pi.rows = int64(p.NumValues)
		}
		if leaf.MaxDef > 0 {
			for i, d := range def {
				if d > leaf.MaxDef || d < 0 {
					v.add(rg, path, page, off, false, "definition level %d at entry %d exceeds the maximum %d", d, i, leaf.MaxDef)
					return nil, false
				}
				if d < leaf.MaxDef {
					pi.nulls++
				}
			}
		}
		if p.V2 {
			if p.NumNulls >= 0 && p.NumNulls != pi.nulls {
				v.add(rg, path, page, off, false, "v2 page header says num_nulls %d, the levels hold %d", p.NumNulls, pi.nulls)
			}
			if p.NumRows >= 0 && int64(p.NumRows) != pi.rows {
				v.add(rg, path, page, off, false, "v2 page header says num_rows %d, the levels hold %d", p.NumRows, pi.rows)
			}
		}
		row += pi.rows
		pages = append(pages, pi)
	}
	// Old writers point data_page_offset at the dictionary page; that is
	// harmless, anything else is not.
	if md := c.Meta; len(pages) > 0 && md.DataPageOffset != pages[0].offset && (dicts == 0 || md.DataPageOffset != firstOffset) {
		v.add(rg, path, -1, md.DataPageOffset, true, "data_page_offset %d is not the first data page's offset %d", md.DataPageOffset, pages[0].offset)
	}
	return pages, true
}

func (v *validator) checkOffsetIndex(rg int, path string, oi *format.OffsetIndex, pages []pageInfo) {
	locs := oi.PageLocations
	if len(locs) != len(pages) {
		v.add(rg, path, -1, -1, false, "offset index lists %d pages, the chunk has %d data pages", len(locs), len(pages))
	}
	for i := 0; i < min(len(locs), len(pages)); i++ {
		l, p := locs[i], pages[i]
		if l.Offset != p.offset {
			v.add(rg, path, i, p.offset, false, "offset index says the page is at offset %d", l.Offset)
			continue
		}
		if int64(l.CompressedPageSize) != p.size {
			v.add(rg, path, i, p.offset, false, "offset index says compressed_page_size %d, the page (header included) takes %d bytes", l.CompressedPageSize, p.size)
		}
		if l.FirstRowIndex != p.firstRow {
			v.add(rg, path, i, p.offset, false, "offset index says first_row_index %d, the page starts at row %d", l.FirstRowIndex, p.firstRow)
		}
	}
}

// pageData is what validate recomputes from a data page's values.
type pageData struct {
	min, max  any
	nulls     int64
	nans      int64
	nonNull   int64
	unordered bool // values that could not be compared (mixed types)
}

// chunkData holds a chunk's values (for the bloom filter check) and the
// per-page summaries.
type chunkData struct {
	pages  []pageData
	total  pageData
	values []*vector.Vector
}

// readValues reads the chunk page by page (row ranges from walkPages) and
// summarises each page's values.
func (v *validator) readValues(c *file.Chunk, rg int, path string, leaf *schema.Node, pages []pageInfo, keep bool) (*chunkData, bool) {
	r, err := c.NewColumnReader()
	if err != nil {
		v.errorOf(err)
		return nil, false
	}
	ordered := statvalue.Ordered(leaf)
	cd := &chunkData{}
	for i, p := range pages {
		var pd pageData
		left := p.rows
		for left > 0 {
			ld := r.NewLeafData()
			n, err := r.ReadRows(ld, int(min(left, 1<<16)))
			if err != nil && err != io.EOF {
				v.add(rg, path, i, p.offset, false, "reading values: %v", err)
				return nil, false
			}
			if n == 0 {
				v.add(rg, path, i, p.offset, false, "values end after %d of the page's %d rows", p.rows-left, p.rows)
				return nil, false
			}
			left -= int64(n)
			entries := ld.Entries
			nonNull := ld.Values.Len
			pd.nulls += int64(entries - nonNull)
			pd.nonNull += int64(nonNull)
			if keep {
				cd.values = append(cd.values, &ld.Values)
			}
			v.rep.Values += int64(entries)
			if !ordered {
				continue
			}
			for j := 0; j < nonNull; j++ {
				x := value.Primitive(leaf, &ld.Values, j)
				if statvalue.IsNaN(x) {
					pd.nans++
					continue
				}
				if pd.min == nil {
					pd.min, pd.max = x, x
					continue
				}
				if c, ok := statvalue.Compare(x, pd.min); !ok {
					pd.unordered = true
				} else if c < 0 {
					pd.min = x
				}
				if c, ok := statvalue.Compare(x, pd.max); ok && c > 0 {
					pd.max = x
				}
			}
		}
		cd.pages = append(cd.pages, pd)
		t := &cd.total
		t.nulls += pd.nulls
		t.nans += pd.nans
		t.nonNull += pd.nonNull
		t.unordered = t.unordered || pd.unordered
		if pd.min != nil && (t.min == nil || statvalue.Less(pd.min, t.min)) {
			t.min = pd.min
		}
		if pd.max != nil && (t.max == nil || statvalue.Less(t.max, pd.max)) {
			t.max = pd.max
		}
	}
	if r.RowsLeft() > 0 {
		v.add(rg, path, -1, -1, false, "%d rows left unread after the last data page", r.RowsLeft())
	}
	return cd, true
}

func show(v any, leaf *schema.Node) string {
	if v == nil {
		return "NULL"
	}
	return output.Text(v, statvalue.SQLType(leaf), false)
}

// truncatable reports whether bounds of the leaf may be truncated (byte
// arrays) and so need not equal the data's min and max.
func truncatable(leaf *schema.Node) bool {
	if leaf.Physical != format.ByteArray && leaf.Physical != format.FixedLenByteArray {
		return false
	}
	lt := leaf.Logical
	return lt == nil || (lt.Decimal == nil && lt.Float16 == nil && lt.UUID == nil)
}

// checkBounds checks a lower and upper bound (either may be absent)
// against data; where says what the bounds are, for messages.
func (v *validator) checkBounds(rg int, path string, page int, off int64, leaf *schema.Node, lo, hi any, d pageData, where string) {
	if d.unordered {
		return
	}
	if lo != nil && d.min != nil {
		if c, ok := statvalue.Compare(lo, d.min); ok && c > 0 {
			v.add(rg, path, page, off, false, "%s min %s is above the smallest value %s", where, show(lo, leaf), show(d.min, leaf))
		} else if ok && c < 0 && !truncatable(leaf) {
			v.add(rg, path, page, off, true, "%s min %s is below the smallest value %s (not tight)", where, show(lo, leaf), show(d.min, leaf))
		}
	}
	if hi != nil && d.max != nil {
		if c, ok := statvalue.Compare(hi, d.max); ok && c < 0 {
			v.add(rg, path, page, off, false, "%s max %s is below the largest value %s", where, show(hi, leaf), show(d.max, leaf))
		} else if ok && c > 0 && !truncatable(leaf) {
			v.add(rg, path, page, off, true, "%s max %s is above the largest value %s (not tight)", where, show(hi, leaf), show(d.max, leaf))
		}
	}
}

func (v *validator) checkStats(rg int, path string, leaf *schema.Node, md *format.ColumnMetaData, cd *chunkData) {
	st := md.Statistics
	if st == nil {
		return
	}
	t := cd.total
	if n, ok := st.NullCount.Get(); ok && n != t.nulls {
		// Writers disagree on what a null is below a repeated field
		// (an empty or null list is no value but has def < max).
		v.add(rg, path, -1, -1, leaf.MaxRep > 0, "statistics null_count %d, the data has %d nulls", n, t.nulls)
	}
	if n, ok := st.NanCount.Get(); ok && n != t.nans {
		v.add(rg, path, -1, -1, false, "statistics nan_count %d, the data has %d NaNs", n, t.nans)
	}
	lo, hi, okLo, okHi, legacy := statvalue.ChunkBounds(leaf, st)
	if (st.MinValue != nil || (legacy && st.Min != nil)) && !okLo {
		v.add(rg, path, -1, -1, false, "statistics min of %d bytes does not fit the column type", len(st.MinValue))
	}
	if (st.MaxValue != nil || (legacy && st.Max != nil)) && !okHi {
		v.add(rg, path, -1, -1, false, "statistics max of %d bytes does not fit the column type", len(st.MaxValue))
	}
	where := "statistics"
	if legacy {
		where = "statistics (deprecated min/max)"
	}
	v.checkBounds(rg, path, -1, -1, leaf, lo, hi, t, where)
	if exact, ok := st.IsMinValueExact.Get(); ok && exact && okLo && t.min != nil {
		if c, ok := statvalue.Compare(lo, t.min); ok && c != 0 {
			v.add(rg, path, -1, -1, false, "statistics min %s is marked exact but the smallest value is %s", show(lo, leaf), show(t.min, leaf))
		}
	}
	if exact, ok := st.IsMaxValueExact.Get(); ok && exact && okHi && t.max != nil {
		if c, ok := statvalue.Compare(hi, t.max); ok && c != 0 {
			v.add(rg, path, -1, -1, false, "statistics max %s is marked exact but the largest value is %s", show(hi, leaf), show(t.max, leaf))
		}
	}
}

func (v *validator) checkColumnIndex(rg int, path string, leaf *schema.Node, ci *format.ColumnIndex, pages []pageInfo, cd *chunkData) {
	n := len(pages)
	if len(ci.NullPages) != n || len(ci.MinValues) != n || len(ci.MaxValues) != n {
		v.add(rg, path, -1, -1, false, "column index has %d null_pages, %d min_values, %d max_values for %d data pages",
			len(ci.NullPages), len(ci.MinValues), len(ci.MaxValues), n)
		return
	}
	if bogusColumnIndex(ci) {
		for _, d := range cd.pages {
			if d.nonNull > 0 {
				v.add(rg, path, -1, -1, true, "column index marks every page null with null_counts -1 and no bounds "+
					"(what parquet-mr writes with statistics off): wrong, readers must ignore it")
				return
			}
		}
	}
	if ci.NullCounts != nil && len(ci.NullCounts) != n {
		v.add(rg, path, -1, -1, false, "column index has %d null_counts for %d data pages", len(ci.NullCounts), n)
	}
	var prevLo, prevHi any
	for i, p := range pages {
		d := cd.pages[i]
		allNull := d.nonNull == 0
		if ci.NullPages[i] != allNull {
			v.add(rg, path, i, p.offset, false, "column index null_pages is %v, the page has %d non-null values", ci.NullPages[i], d.nonNull)
		}
		if ci.NullCounts != nil && i < len(ci.NullCounts) && ci.NullCounts[i] != d.nulls {
			v.add(rg, path, i, p.offset, leaf.MaxRep > 0, "column index null_count %d, the page has %d nulls", ci.NullCounts[i], d.nulls)
		}
		if ci.NanCounts != nil && i < len(ci.NanCounts) && ci.NanCounts[i] != d.nans {
			v.add(rg, path, i, p.offset, false, "column index nan_count %d, the page has %d NaNs", ci.NanCounts[i], d.nans)
		}
		if ci.NullPages[i] || !statvalue.Ordered(leaf) {
			continue
		}
		lo, okLo := statvalue.Decode(leaf, ci.MinValues[i])
		hi, okHi := statvalue.Decode(leaf, ci.MaxValues[i])
		if !okLo || !okHi {
			v.add(rg, path, i, p.offset, false, "column index bounds of %d and %d bytes do not fit the column type", len(ci.MinValues[i]), len(ci.MaxValues[i]))
			continue
		}
		// A page of only NaNs has NaN bounds: nothing to check.
		if statvalue.IsNaN(lo) || statvalue.IsNaN(hi) {
			continue
		}
		v.checkBounds(rg, path, i, p.offset, leaf, lo, hi, d, "column index")
		if prevLo != nil {
			cLo, ok1 := statvalue.Compare(prevLo, lo)
			cHi, ok2 := statvalue.Compare(prevHi, hi)
			switch ci.BoundaryOrder {
			case format.Ascending:
				if ok1 && ok2 && (cLo > 0 || cHi > 0) {
					v.add(rg, path, i, p.offset, false, "column index boundary_order is ASCENDING but the page's bounds [%s, %s] are below the previous page's [%s, %s]",
						show(lo, leaf), show(hi, leaf), show(prevLo, leaf), show(prevHi, leaf))
				}
			case format.Descending:
				if ok1 && ok2 && (cLo < 0 || cHi < 0) {
					v.add(rg, path, i, p.offset, false, "column index boundary_order is DESCENDING but the page's bounds [%s, %s] are above the previous page's [%s, %s]",
						show(lo, leaf), show(hi, leaf), show(prevLo, leaf), show(prevHi, leaf))
				}
			}
		}
		prevLo, prevHi = lo, hi
	}
}

// bogusColumnIndex recognises the column index parquet-mr writes for a
// column without statistics: every page null, empty bounds, null counts
// of -1.
func bogusColumnIndex(ci *format.ColumnIndex) bool {
	for i, null := range ci.NullPages {
		if !null || len(ci.MinValues[i]) > 0 || len(ci.MaxValues[i]) > 0 {
			return false
		}
	}
	for _, n := range ci.NullCounts {
		if n >= 0 {
			return false
		}
	}
	return len(ci.NullPages) > 0
}

func (v *validator) checkBloom(rg int, path string, leaf *schema.Node, bf *bloom.Filter, cd *chunkData, off int64) {
	missing := 0
	var first string
	for _, vec := range cd.values {
		for j := 0; j < vec.Len; j++ {
			var h uint64
			switch vec.Kind {
			case vector.Int32:
				h = bloom.HashInt32(vec.Int32s[j])
			case vector.Int64:
				h = bloom.HashInt64(vec.Int64s[j])
			case vector.Int96:
				h = bloom.HashInt96(vec.Int96s[j])
			case vector.Float32:
				h = bloom.HashFloat32(vec.Float32s[j])
			case vector.Float64:
				h = bloom.HashFloat64(vec.Float64s[j])
			case vector.ByteArray:
				h = bloom.HashBytes(vec.Bytes(j))
			case vector.FixedLenByteArray:
				h = bloom.HashFixed(vec.Bytes(j))
			default:
				return
			}
			if !bf.Check(h) {
				if missing == 0 {
					first = show(value.Primitive(leaf, vec, j), leaf)
				}
				missing++
			}
		}
	}
	if missing > 0 {
		v.add(rg, path, -1, off, false, "bloom filter misses %d values of the chunk (the first: %s)", missing, first)
	}
}
