package file

import (
	"fmt"
	"io"
	"slices"
	"unsafe"

	"github.com/carquet-go/carquet/parquet/encoding"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
)

// LeafData is what a ColumnReader produces for a run of rows: the levels
// of every entry, and the non-null values packed densely.
type LeafData struct {
	// Def and Rep hold one level per entry; they stay empty when the
	// column's maximum level is 0. Inside a Reader (ColumnReader.omitDef)
	// Def also stays empty for a flat column while every entry read is
	// defined (no nulls): its levels would all be the maximum (defLevels
	// gives them when needed). Pages that hold no null are not decoded
	// either way.
	Def, Rep []int16
	// Values holds the non-null values, Values.Len of them.
	Values vector.Vector
	// Rows and Entries count what was read.
	Rows, Entries int
	// maxDef is the column's maximum definition level.
	maxDef int16
	// spare keeps up to two of Values' own fixed-width buffers while
	// Values lends page bytes, so that the next batches that must copy
	// reuse them instead of allocating: two, because the leaf and the
	// batch swap buffers at every batch (scatter).
	spare  [2]vector.Vector
	nspare int
}

// defLevels returns one definition level per entry: Def, or when Def was
// left empty because every entry is defined, Def filled with maxDef.
func (d *LeafData) defLevels() []int16 {
	if d.maxDef > 0 && len(d.Def) < d.Entries {
		d.Def = appendLevel(d.Def, d.maxDef, d.Entries-len(d.Def))
	}
	return d.Def
}

// appendLevel appends n copies of level to s.
func appendLevel(s []int16, level int16, n int) []int16 {
	s = slices.Grow(s, n)
	t := s[len(s) : len(s)+n]
	for i := range t {
		t[i] = level
	}
	return s[:len(s)+n]
}

// Reset empties d for reuse.
func (d *LeafData) Reset() {
	d.Def, d.Rep = d.Def[:0], d.Rep[:0]
	d.Values.Reset()
	if d.nspare > 0 && fixedCap(&d.Values) == 0 {
		d.nspare--
		moveFixed(&d.Values, &d.spare[d.nspare])
	}
	d.Rows, d.Entries = 0, 0
}

// unborrow copies lent values into an own buffer (a spare one if any),
// with room for more, so that values of the next page can be appended.
func (d *LeafData) unborrow(room int) {
	v := &d.Values
	if !v.Borrowed {
		return
	}
	var own vector.Vector
	if d.nspare > 0 {
		d.nspare--
		moveFixed(&own, &d.spare[d.nspare])
	}
	switch v.Kind {
	case vector.Int32:
		v.Int32s = ownCopy(own.Int32s, v.Int32s, room)
	case vector.Int64:
		v.Int64s = ownCopy(own.Int64s, v.Int64s, room)
	case vector.Float32:
		v.Float32s = ownCopy(own.Float32s, v.Float32s, room)
	case vector.Float64:
		v.Float64s = ownCopy(own.Float64s, v.Float64s, room)
	}
	v.Borrowed = false
}

// keepOwned parks Values' own buffer among the spares before Values
// borrows page bytes (when there is room; otherwise it is dropped).
func (d *LeafData) keepOwned() {
	if d.Values.Borrowed || fixedCap(&d.Values) == 0 || d.nspare == len(d.spare) {
		return
	}
	moveFixed(&d.spare[d.nspare], &d.Values)
	d.nspare++
}

// fixedCap is the capacity of v's fixed-width value buffers.
func fixedCap(v *vector.Vector) int {
	return cap(v.Int32s) + cap(v.Int64s) + cap(v.Float32s) + cap(v.Float64s)
}

// moveFixed moves src's fixed-width value buffers, emptied, to dst.
func moveFixed(dst, src *vector.Vector) {
	dst.Int32s, src.Int32s = src.Int32s[:0], nil
	dst.Int64s, src.Int64s = src.Int64s[:0], nil
	dst.Float32s, src.Float32s = src.Float32s[:0], nil
	dst.Float64s, src.Float64s = src.Float64s[:0], nil
}

func ownCopy[T any](own, lent []T, room int) []T {
	if cap(own) < len(lent)+room {
		own = make([]T, 0, len(lent)+room)
	}
	return append(own[:0], lent...)
}

// ColumnReader reads the rows of one column chunk in order.
type ColumnReader struct {
	c              *Chunk
	pages          *PageIterator
	maxDef, maxRep int16
	kind           vector.Kind
	width          int

	dict     *vector.Vector
	decoders map[format.Encoding]valueDecoder
	dictDec  *dictDecoder

	// The current data page: level decoders, a window of decoded levels
	// [pos, count), the levels not yet decoded, and a decoder positioned at
	// the next value.
	page           *Page
	defDec, repDec encoding.LevelDecoder
	// dense says the page's entries are all defined at maxDef in a flat
	// column (a REQUIRED one, or an OPTIONAL one without nulls on this
	// page, as DuckDB writes every column): its definition levels are not
	// decoded, and its values are read as a required column's.
	dense      bool
	def, rep   []int16
	pos, count int
	pageLeft   int
	values     valueDecoder
	// rowsLeft counts rows not yet returned from the chunk.
	rowsLeft int64
	// oi, when set, lets SeekRow jump over whole pages.
	oi *format.OffsetIndex
	// plain holds the current page's values when they are PLAIN and
	// dense (see dense) — a slice of the mapped file or of a page read on
	// its own (Page.InFile), which nothing overwrites, or with lendPooled of
	// a reused buffer (a window of the file, a decompressed page): borrow
	// then lends them out without copying. plainPos is the index of the
	// next value.
	plain    []byte
	plainPos int
	// omitDef lets Def stay empty while no null was read (LeafData.Def):
	// a Reader sets it, its assembler asks for the levels it needs.
	omitDef bool
	// lendPooled lets borrow lend values from the reused buffers, which
	// the next page overwrites: a Reader sets it unless its batches must
	// outlive the next call to Next (ReaderOptions.Fresh). plainPooled says
	// plain is such a buffer.
	lendPooled, plainPooled bool
	// codes makes dictionary-encoded pages of a BYTE_ARRAY column come
	// back as codes (vector.Vector.Dict) instead of gathered values.
	codes bool
}

// NewColumnReader returns a reader over the chunk's rows.
func (c *Chunk) NewColumnReader() (*ColumnReader, error) {
	pages, err := c.Pages()
	if err != nil {
		return nil, err
	}
	r := &ColumnReader{
		c: c, pages: pages,
		maxDef: c.Leaf.MaxDef, maxRep: c.Leaf.MaxRep,
		kind: KindOf(c.Leaf.Physical), width: c.Leaf.TypeLength,
		decoders: map[format.Encoding]valueDecoder{},
		rowsLeft: c.NumRows,
	}
	return r, nil
}

// Chunk is the column chunk being read.
func (r *ColumnReader) Chunk() *Chunk { return r.c }

// RowsLeft is the number of rows not yet read or skipped.
func (r *ColumnReader) RowsLeft() int64 { return r.rowsLeft }

// NewLeafData returns an empty LeafData whose value vector has the
// column's kind.
func (r *ColumnReader) NewLeafData() *LeafData {
	return &LeafData{Values: vector.Vector{Kind: r.kind, Width: r.width}, maxDef: r.maxDef}
}

// loadPage reads pages until a data page, loading any dictionary page on
// the way. It returns io.EOF at the end of the chunk.
func (r *ColumnReader) loadPage() error {
	for {
		if r.pages.Done() {
			return io.EOF
		}
		p, err := r.pages.Next()
		if err != nil {
			return err
		}
		if p.Type == format.DictionaryPage {
			if err := r.loadDictionary(p); err != nil {
				return r.c.wrap(p.Offset, err)
			}
			continue
		}
		if err := r.startDataPage(p); err != nil {
			return r.c.wrap(p.Offset, err)
		}
		if r.pageLeft == 0 {
			continue
		}
		return nil
	}
}

func (r *ColumnReader) loadDictionary(p *Page) error {
	if r.dict != nil {
		return fmt.Errorf("%w: a second dictionary page in the column chunk", ErrCorrupt)
	}
	enc := p.Encoding
	if enc == format.PlainDictionary {
		enc = format.Plain
	}
	if enc != format.Plain {
		return fmt.Errorf("%w: dictionary page encoding %v", ErrCorrupt, p.Encoding)
	}
	d, err := newValueDecoder(r.c.Leaf.Physical, r.width, format.Plain)
	if err != nil {
		return err
	}
	if err := d.reset(p.Data, p.NumValues); err != nil {
		return err
	}
	dict := &vector.Vector{Kind: r.kind, Width: r.width}
	if err := d.read(dict, p.NumValues); err != nil {
		return fmt.Errorf("dictionary page: %w", err)
	}
	if dict.Kind == vector.ByteArray {
		// Slack past the last value lets the gather copy every short value
		// as one 16-byte block (encoding.GatherByteArray reads up to cap).
		dict.Data = slices.Grow(dict.Data, 16)
	}
	r.dict = dict
	return nil
}

// levelChunk is how many levels are decoded at a time: levels are decoded
// as rows are read, never a whole page at once, so that a page claiming
// billions of values in a few bytes of RLE costs no more memory than a
// batch.
const levelChunk = 4096

func (r *ColumnReader) startDataPage(p *Page) error {
	n := p.NumValues
	data := p.Data
	nonNull := n
	var err error
	if p.V2 {
		if err = r.repDec.ResetV2(p.RepLevels, r.maxRep, n); err != nil {
			return fmt.Errorf("repetition levels: %w", err)
		}
		if err = r.defDec.ResetV2(p.DefLevels, r.maxDef, n); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
	} else {
		used, err := r.repDec.ResetV1(p.RepLevelEncoding, data, r.maxRep, n)
		if err != nil {
			return fmt.Errorf("repetition levels: %w", err)
		}
		data = data[used:]
		if used, err = r.defDec.ResetV1(p.DefLevelEncoding, data, r.maxDef, n); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
		data = data[used:]
	}
	if r.maxDef > 0 {
		// Count the values in a pass over the definition levels, in
		// bounded chunks: v1 headers do not say how many are null, and
		// the num_nulls of v2 headers is not always right (checkNulls).
		counter := r.defDec
		if nonNull, err = counter.CountEqual(n, r.maxDef); err != nil {
			return fmt.Errorf("definition levels: %w", err)
		}
	}
	if p.V2 {
		if err := r.checkNulls(p.NumNulls, n-nonNull); err != nil {
			return err
		}
	}
	r.dense = r.maxRep == 0 && nonNull == n
	vd, err := r.valueDecoderFor(p.Encoding)
	if err != nil {
		return err
	}
	if err := vd.reset(data, nonNull); err != nil {
		return err
	}
	r.plain, r.plainPos = nil, 0
	if p.Encoding == format.Plain && r.dense && (p.InFile || r.lendPooled) {
		r.plain = data // the values as stored: they can be lent out
		r.plainPooled = !p.InFile
	}
	r.page, r.values = p, vd
	r.pos, r.count, r.pageLeft = 0, 0, n
	return nil
}

// checkNulls compares the num_nulls of a v2 page header with the nulls
// its definition levels hold, which are what the reader decodes (as
// other readers do). A difference is corruption (the CRC does not cover
// the header), except for two writers' known mistakes: Arrow C++ leaves
// out of the count the null and empty lists above a leaf (so a repeated
// column's header may say fewer), and parquet-java before 1.18 writes -1
// for a column without statistics.
func (r *ColumnReader) checkNulls(header, levels int) error {
	switch {
	case header == levels:
	case r.maxRep > 0 && header >= 0 && header < levels:
	case header == -1 && r.c.File.nullsUnknown:
	default:
		return fmt.Errorf("%w: the v2 page header says %d nulls, its definition levels hold %d", ErrCorrupt, header, levels)
	}
	return nil
}

// refill decodes the next chunk of the page's levels into the window.
func (r *ColumnReader) refill() error {
	k := min(r.pageLeft, levelChunk)
	if r.dense {
		// No levels to decode: the window is the rest of the page, so that
		// a batch inside it is one span (which borrow can lend).
		k = r.pageLeft
	}
	var err error
	if r.maxRep > 0 {
		if r.rep, err = r.repDec.Decode(r.rep[:0], k); err != nil {
			return r.c.wrap(r.page.Offset, fmt.Errorf("repetition levels: %w", err))
		}
		if len(r.rep) != k {
			return r.c.errorf(r.page.Offset, "%w: the page's repetition levels end early", ErrCorrupt)
		}
	}
	if r.maxDef > 0 && !r.dense {
		if r.def, err = r.defDec.Decode(r.def[:0], k); err != nil {
			return r.c.wrap(r.page.Offset, fmt.Errorf("definition levels: %w", err))
		}
		if len(r.def) != k {
			return r.c.errorf(r.page.Offset, "%w: the page's definition levels end early", ErrCorrupt)
		}
	}
	r.pos, r.count = 0, k
	r.pageLeft -= k
	return nil
}

func (r *ColumnReader) valueDecoderFor(enc format.Encoding) (valueDecoder, error) {
	if enc == format.PlainDictionary || enc == format.RLEDictionary {
		if r.dict == nil {
			return nil, fmt.Errorf("%w: dictionary-encoded page without a dictionary page", ErrCorrupt)
		}
		if r.dictDec == nil {
			r.dictDec = &dictDecoder{dict: r.dict, maxBytes: r.c.File.opts.batchBytes(), longest: -1}
		}
		return r.dictDec, nil
	}
	if d, ok := r.decoders[enc]; ok {
		return d, nil
	}
	d, err := newValueDecoder(r.c.Leaf.Physical, r.width, enc)
	if err != nil {
		return nil, err
	}
	r.decoders[enc] = d
	return d, nil
}

// nextSpan finds how many entries from the page position make up at most
// maxRows rows (stopping before the entry that would start row maxRows+1),
// and counts the rows started and the non-null values among them.
func (r *ColumnReader) nextSpan(maxRows int) (entries, rows, nonNull int) {
	end := r.count
	if r.maxRep == 0 {
		entries = min(maxRows, end-r.pos)
		rows = entries
	} else {
		i := r.pos
		for ; i < end; i++ {
			if r.rep[i] == 0 {
				if rows == maxRows {
					break
				}
				rows++
			}
		}
		entries = i - r.pos
	}
	if r.maxDef == 0 || r.dense {
		return entries, rows, entries
	}
	for _, d := range r.def[r.pos : r.pos+entries] {
		if d == r.maxDef {
			nonNull++
		}
	}
	return entries, rows, nonNull
}

// ReadRows appends up to maxRows rows to out and returns how many it
// appended; at the end of the chunk it returns 0 and io.EOF.
func (r *ColumnReader) ReadRows(out *LeafData, maxRows int) (int, error) {
	return r.advance(out, maxRows)
}

// SkipRows passes over n rows without materialising their values.
func (r *ColumnReader) SkipRows(n int) error {
	for n > 0 {
		got, err := r.advance(nil, n)
		if err != nil {
			if err == io.EOF {
				return r.c.errorf(-1, "%w: skipped past the end of the column chunk", ErrCorrupt)
			}
			return err
		}
		n -= got
	}
	return nil
}

// advance reads (out != nil) or skips (out == nil) up to maxRows rows.
func (r *ColumnReader) advance(out *LeafData, maxRows int) (int, error) {
	rows := 0
	for {
		if r.page == nil || r.pos == r.count && r.pageLeft == 0 {
			if rows == maxRows && r.maxRep == 0 {
				break // flat rows never continue into the next page
			}
			r.page = nil
			if err := r.loadPage(); err != nil {
				if err == io.EOF {
					break
				}
				return rows, err
			}
		}
		if r.pos == r.count && out == nil && r.maxRep == 0 && rows < maxRows {
			// Skipping flat rows: count the non-null values of the levels
			// skipped without materialising them (RLE runs in one step).
			k := min(maxRows-rows, r.pageLeft)
			nonNull := k
			if r.maxDef > 0 && !r.dense {
				var err error
				if nonNull, err = r.defDec.CountEqual(k, r.maxDef); err != nil {
					return rows, r.c.wrap(r.page.Offset, fmt.Errorf("definition levels: %w", err))
				}
			}
			if err := r.skipValues(nonNull); err != nil {
				return rows, err
			}
			r.pageLeft -= k
			rows += k
			continue
		}
		if r.pos == r.count {
			if err := r.refill(); err != nil {
				return rows, err
			}
		}
		if rows == maxRows && !r.continuesRow() {
			break
		}
		entries, got, nonNull := r.nextSpan(maxRows - rows)
		if entries == 0 {
			break
		}
		if out != nil {
			if r.maxDef > 0 {
				r.appendDef(out, entries)
			}
			if r.maxRep > 0 {
				out.Rep = append(out.Rep, r.rep[r.pos:r.pos+entries]...)
			}
			if nonNull > 0 && !r.borrow(out, nonNull, got == maxRows-rows) {
				// Room for the rest of the batch at once: the rows asked
				// for bound the values of flat columns, and growing span
				// by span would copy them over and over.
				room := nonNull
				if r.maxRep == 0 {
					room = int(min(int64(maxRows-rows), r.rowsLeft-int64(rows), 1<<20))
				}
				out.unborrow(room)
				out.Values.Reserve(room)
				if err := r.readValues(&out.Values, nonNull); err != nil {
					return rows, r.c.wrap(r.page.Offset, err)
				}
				if limit := r.c.File.opts.batchBytes(); int64(len(out.Values.Data)) > limit {
					return rows, r.c.errorf(r.page.Offset, "a batch of %d rows holds more than %d bytes of values: %w (MaxBatchBytes); read with a smaller batch size",
						out.Rows, limit, ErrLimit)
				}
			}
			out.Entries += entries
			out.Rows += got
			if limit := r.c.File.opts.batchValues(); out.Entries > limit {
				return rows, r.c.errorf(r.page.Offset, "a batch of %d rows holds more than %d values: %w (MaxBatchValues); read with a smaller batch size",
					out.Rows, limit, ErrLimit)
			}
		} else if err := r.skipValues(nonNull); err != nil {
			return rows, err
		}
		r.pos += entries
		rows += got
	}
	if rows == 0 && maxRows > 0 {
		if r.rowsLeft > 0 {
			return 0, r.c.errorf(-1, "%w: the column chunk ended %d rows short of its row group", ErrCorrupt, r.rowsLeft)
		}
		return 0, io.EOF
	}
	r.rowsLeft -= int64(rows)
	if r.rowsLeft < 0 {
		return rows, r.c.errorf(-1, "%w: the column chunk holds more rows than its row group", ErrCorrupt)
	}
	return rows, nil
}

// appendDef adds the definition levels of the next entries to out. With
// omitDef, Def stays empty while every entry of the batch is defined (see
// LeafData.Def), and the first entries that may hold a null fill in the
// levels before them.
func (r *ColumnReader) appendDef(out *LeafData, entries int) {
	if r.dense {
		if len(out.Def) > 0 || !r.omitDef {
			out.Def = appendLevel(out.Def, r.maxDef, entries)
		}
		return
	}
	out.Def = append(out.defLevels(), r.def[r.pos:r.pos+entries]...)
}

// readValues appends the next n values of the page to out: as codes when
// the reader returns codes, the page is dictionary-encoded and out holds
// no plain values yet; otherwise as values (decoding any codes out holds
// first, so that a batch that spans a dictionary page and a plain page of
// a writer's fallback is plain throughout).
func (r *ColumnReader) readValues(out *vector.Vector, n int) error {
	if r.codes {
		if d, ok := r.values.(*dictDecoder); ok && r.kind == vector.ByteArray && (out.Len == 0 || out.Dict != nil) {
			return d.readCodes(out, n)
		}
		out.Decode()
	}
	return r.values.read(out, n)
}

// skipValues passes over n values of the current page, keeping the
// position that borrow lends values from in step.
func (r *ColumnReader) skipValues(n int) error {
	if n == 0 {
		return nil
	}
	r.plainPos += n
	if err := r.values.skip(n); err != nil {
		return r.c.wrap(r.page.Offset, err)
	}
	return nil
}

// continuesRow reports whether the current page position continues the row
// before it (a v1 page may start inside a row).
func (r *ColumnReader) continuesRow() bool {
	return r.page != nil && r.pos < r.count && r.maxRep > 0 && r.rep[r.pos] != 0
}

// Release returns the chunk's pooled buffers once the reader is done with
// it; the reader must not be used afterwards.
func (r *ColumnReader) Release() {
	r.pages.Release()
	r.pages.releaseScratch()
	r.page = nil
}

// UseOffsetIndex gives the reader the chunk's offset index, so that
// SeekRow can jump over pages without reading them.
func (r *ColumnReader) UseOffsetIndex(oi *format.OffsetIndex) {
	r.oi = oi
	r.pages.ReadLazily(oi)
}

// Row is the index within the row group of the next row to be read.
func (r *ColumnReader) Row() int64 { return r.c.NumRows - r.rowsLeft }

// SeekRow moves forward to row target of the row group. With an offset
// index, pages before the one holding target are not read at all; the
// rest of the way rows are skipped without materialising values.
func (r *ColumnReader) SeekRow(target int64) error {
	cur := r.Row()
	if target < cur {
		return r.c.errorf(-1, "cannot seek back from row %d to row %d", cur, target)
	}
	if target > r.c.NumRows {
		target = r.c.NumRows
	}
	if r.oi != nil && target > cur {
		locs := r.oi.PageLocations
		p := -1
		for i := len(locs) - 1; i >= 0; i-- {
			if locs[i].FirstRowIndex <= target {
				p = i
				break
			}
		}
		if p >= 0 && locs[p].FirstRowIndex > cur && locs[p].Offset >= r.pages.Offset() {
			if err := r.ensureDictionary(); err != nil {
				return err
			}
			if err := r.pages.SeekTo(locs[p].Offset); err != nil {
				return err
			}
			r.page = nil
			r.pos, r.count, r.pageLeft = 0, 0, 0
			r.rowsLeft = r.c.NumRows - locs[p].FirstRowIndex
			cur = locs[p].FirstRowIndex
		}
	}
	if target > cur {
		return r.SkipRows(int(target - cur))
	}
	return nil
}

// ensureDictionary loads the chunk's dictionary page before a seek jumps
// past it.
func (r *ColumnReader) ensureDictionary() error {
	if r.dict != nil || r.page != nil {
		return nil
	}
	start, _, err := r.c.ByteRange()
	if err != nil {
		return err
	}
	if r.pages.Offset() != start {
		return nil // pages were read already: any dictionary was loaded
	}
	if d, ok := r.c.Meta.DictionaryPageOffset.Get(); !ok || d <= 0 {
		// No declared dictionary; a writer may still have put one first.
		if !hasDictionaryEncoding(r.c.Meta) {
			return nil
		}
	}
	p, err := r.pages.Next()
	if err != nil {
		return err
	}
	if p.Type != format.DictionaryPage {
		return r.pages.SeekTo(start)
	}
	if err := r.loadDictionary(p); err != nil {
		return r.c.wrap(p.Offset, err)
	}
	return nil
}

func hasDictionaryEncoding(md *format.ColumnMetaData) bool {
	for _, e := range md.Encodings {
		if e == format.PlainDictionary || e == format.RLEDictionary {
			return true
		}
	}
	return false
}

// borrow hands out n values as a slice over the page's bytes instead
// of decoding them, when the page allows it (see plain) and out is empty,
// so that the batch is exactly a window of the page. From a reused buffer
// only the span that completes the batch is lent (last says it is): one
// that the batch goes on past the page's end would be overwritten by the
// next page before the batch is returned.
func (r *ColumnReader) borrow(d *LeafData, n int, last bool) bool {
	out := &d.Values
	if r.plain == nil || out.Len != 0 || r.plainPooled && !last {
		if r.plain != nil {
			r.plainPos += n
		}
		return false
	}
	w := 0
	switch r.kind {
	case vector.Int32, vector.Float32:
		w = 4
	case vector.Int64, vector.Float64:
		w = 8
	default:
		r.plainPos += n
		return false
	}
	start, end := r.plainPos*w, (r.plainPos+n)*w
	if end > len(r.plain) {
		return false
	}
	b := r.plain[start:end:end]
	if n == 0 || !unalignedOK && uintptr(unsafe.Pointer(&b[0]))%uintptr(w) != 0 {
		r.plainPos += n
		return false
	}
	if err := r.values.skip(n); err != nil {
		return false
	}
	r.plainPos += n
	d.keepOwned()
	ptr := unsafe.Pointer(&b[0])
	switch r.kind {
	case vector.Int32:
		out.Int32s = unsafe.Slice((*int32)(ptr), n)
	case vector.Float32:
		out.Float32s = unsafe.Slice((*float32)(ptr), n)
	case vector.Int64:
		out.Int64s = unsafe.Slice((*int64)(ptr), n)
	case vector.Float64:
		out.Float64s = unsafe.Slice((*float64)(ptr), n)
	}
	out.Len = n
	out.Borrowed = true
	return true
}
