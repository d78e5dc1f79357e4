package writer

import (
	"errors"
	"fmt"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
)

// errNoRawCopy marks a row group that cannot be copied as stored (an
// encrypted file or writer, a chunk whose recorded size cannot be
// trusted): its rows are copied instead.
var errNoRawCopy = errors.New("the row group cannot be copied as stored")

// CopyRowGroup writes row group rg of f as it is stored, without decoding
// a page: its column chunks' bytes, their metadata (statistics included)
// with offsets moved to the new place, their page indexes and bloom
// filters. Where that cannot be done (encryption, an old writer's chunk
// sizes) it writes the row group's rows instead. f must have the
// writer's schema. Rows given to WriteBatch before are written first, as
// a row group of their own.
func (w *Writer) CopyRowGroup(f *file.File, rg int) error {
	err := w.copyRowGroup(f, rg)
	if errors.Is(err, errNoRawCopy) {
		return copyRowGroupRows(w, f, rg)
	}
	return err
}

func (w *Writer) copyRowGroup(f *file.File, rg int) error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	if enc, _ := f.Encrypted(); enc || w.enc != nil {
		return errNoRawCopy
	}
	if rg < 0 || rg >= f.NumRowGroups() {
		return fmt.Errorf("writer: row group %d of %s, which has %d", rg, f.Name(), f.NumRowGroups())
	}
	if err := sameSchema(w.sch, f.Schema); err != nil {
		return fmt.Errorf("writer: copy from %s: %w", f.Name(), err)
	}
	chunks := make([]*file.Chunk, len(w.sch.Leaves))
	for c := range chunks {
		ch, err := f.Chunk(rg, c)
		if err != nil {
			return err
		}
		if _, n, err := ch.ByteRange(); err != nil {
			return err
		} else if n != ch.Meta.TotalCompressedSize {
			return errNoRawCopy // an old writer's chunk size, read with slack
		}
		chunks[c] = ch
	}
	if err := w.flushRows(); err != nil {
		return err
	}
	if err := w.flushRowGroup(); err != nil {
		return err
	}
	if err := w.place(); err != nil {
		return err
	}
	src := &f.Meta.RowGroups[rg]
	idx := len(w.rowGroups)
	out := format.RowGroup{NumRows: src.NumRows, TotalByteSize: src.TotalByteSize, FileOffset: format.Some(w.out.off), SortingColumns: src.SortingColumns}
	if ordinal := idx + w.prevRowGroups(); ordinal <= 32767 {
		out.Ordinal = format.Some(int16(ordinal))
	}
	var compressed int64
	for c, ch := range chunks {
		res, err := w.copyChunk(ch)
		if err != nil {
			w.err = fmt.Errorf("writer: copy row group %d of %s: %w", rg, f.Name(), err)
			return w.err
		}
		out.Columns = append(out.Columns, res.cc)
		compressed += res.cc.MetaData.TotalCompressedSize
		if res.ci != nil || res.oi != nil || res.bloom != nil {
			w.pending = append(w.pending, pendingChunk{rg: idx, col: c, res: res})
		}
	}
	out.TotalCompressedSize = format.Some(compressed)
	w.rowGroups = append(w.rowGroups, out)
	w.numRows += src.NumRows
	if err := w.writeBlooms(); err != nil {
		w.err = fmt.Errorf("writer: copy row group %d of %s: bloom filters: %w", rg, f.Name(), err)
		return w.err
	}
	return nil
}

// prevRowGroups is the number of row groups an append keeps.
func (w *Writer) prevRowGroups() int {
	if w.prev == nil {
		return 0
	}
	return len(w.prev.RowGroups)
}

// copyChunk writes one column chunk's bytes at the writer's offset and
// returns its metadata there, with its page indexes and bloom filter for
// the tail.
func (w *Writer) copyChunk(ch *file.Chunk) (chunkResult, error) {
	start, n, err := ch.ByteRange()
	if err != nil {
		return chunkResult{}, err
	}
	b, err := ch.File.ReadRange(start, n)
	if err != nil {
		return chunkResult{}, err
	}
	delta := w.out.off - start
	md := *ch.Meta
	md.DataPageOffset += delta
	if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 {
		md.DictionaryPageOffset = format.Some(d + delta)
	}
	if d, ok := md.IndexPageOffset.Get(); ok && d > 0 {
		md.IndexPageOffset = format.Some(d + delta)
	}
	md.BloomFilterOffset, md.BloomFilterLength = format.Opt[int64]{}, format.Opt[int32]{}
	res := chunkResult{cc: format.ColumnChunk{FileOffset: w.out.off, MetaData: &md}}
	if _, err := w.out.Write(b); err != nil {
		return chunkResult{}, err
	}
	if res.ci, err = ch.ColumnIndex(); err != nil {
		return chunkResult{}, err
	}
	if res.oi, err = ch.OffsetIndex(); err != nil {
		return chunkResult{}, err
	}
	if res.oi != nil {
		oi := *res.oi
		oi.PageLocations = append([]format.PageLocation(nil), oi.PageLocations...)
		for i := range oi.PageLocations {
			oi.PageLocations[i].Offset += delta
		}
		res.oi = &oi
	}
	bf, err := ch.BloomFilter()
	if err != nil {
		return chunkResult{}, err
	}
	if bf != nil {
		res.bloom = appendBloom(nil, bf)
		res.bloomHeader = len(res.bloom) - bf.NumBytes()
	}
	return res, nil
}

// CanCopy reports whether CopyRowGroup can take row groups of f: f has
// the writer's schema.
func (w *Writer) CanCopy(f *file.File) bool { return sameSchema(w.sch, f.Schema) == nil }
