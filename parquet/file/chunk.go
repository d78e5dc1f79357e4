package file

import (
	"fmt"
	"io"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// Chunk is one column chunk: one leaf column of one row group.
type Chunk struct {
	File     *File
	RowGroup int
	Leaf     *schema.Node
	Meta     *format.ColumnMetaData
	CC       *format.ColumnChunk
	// NumRows is the row count of the row group.
	NumRows int64
	// Stats, when set, counts the chunk's I/O.
	Stats *ReadStats
	// crypt decrypts the chunk's modules; nil when it is not encrypted.
	crypt *chunkCrypto
}

// Chunk returns the column chunk of leaf column col in row group rg.
func (f *File) Chunk(rg, col int) (*Chunk, error) {
	if rg < 0 || rg >= len(f.Meta.RowGroups) {
		return nil, f.errorf(-1, "", -1, "row group %d out of range [0, %d)", rg, len(f.Meta.RowGroups))
	}
	if col < 0 || col >= len(f.Schema.Leaves) {
		return nil, f.errorf(rg, "", -1, "column %d out of range [0, %d)", col, len(f.Schema.Leaves))
	}
	g := &f.Meta.RowGroups[rg]
	cc, err := f.ColumnChunk(rg, col)
	if err != nil {
		return nil, err
	}
	leaf := f.Schema.Leaves[col]
	var crypt *chunkCrypto
	if cc.CryptoMetadata != nil || cc.EncryptedColumnMetadata != nil || cc.MetaData == nil && f.Meta.EncryptionAlgorithm != nil {
		if crypt = f.chunkCrypto(rg, col); crypt == nil {
			return nil, f.wrap(rg, leaf.PathString(), -1, fmt.Errorf("%w: the column is encrypted", ErrEncrypted))
		}
		if crypt.err != nil {
			return nil, f.wrap(rg, leaf.PathString(), -1, crypt.err)
		}
		if cc.MetaData == nil {
			return nil, f.errorf(rg, leaf.PathString(), -1, "%w: encrypted column chunk has no metadata", ErrCorrupt)
		}
	}
	if cc.FilePath.Set && cc.FilePath.Value != "" {
		return nil, f.errorf(rg, leaf.PathString(), -1, "column data in another file (%q) is %w", cc.FilePath.Value, ErrUnsupported)
	}
	if cc.MetaData.Type != leaf.Physical {
		return nil, f.errorf(rg, leaf.PathString(), -1, "%w: column chunk type %v differs from the schema's %v", ErrCorrupt, cc.MetaData.Type, leaf.Physical)
	}
	return &Chunk{File: f, RowGroup: rg, Leaf: leaf, Meta: cc.MetaData, CC: cc, NumRows: g.NumRows, crypt: crypt}, nil
}

// Path is the dotted column path.
func (c *Chunk) Path() string { return c.Leaf.PathString() }

func (c *Chunk) errorf(offset int64, format string, args ...any) error {
	return c.File.errorf(c.RowGroup, c.Path(), offset, format, args...)
}

func (c *Chunk) wrap(offset int64, err error) error {
	return c.File.wrap(c.RowGroup, c.Path(), offset, err)
}

// ByteRange is the span of the file holding the chunk's pages: from the
// dictionary page (or the first data page) for total_compressed_size bytes.
func (c *Chunk) ByteRange() (start, length int64, err error) {
	md := c.Meta
	start = md.DataPageOffset
	// A dictionary_page_offset of 0 cannot be right (the file starts with
	// PAR1); some writers put 0 there for "none", and readers ignore it.
	if d, ok := md.DictionaryPageOffset.Get(); ok && d > 0 && d < start {
		start = d
	}
	length = md.TotalCompressedSize
	if start < 4 || length < 0 || start > c.File.size || length > c.File.size-start {
		return 0, 0, c.errorf(start, "%w: column chunk [%d, +%d) lies outside the file of %d bytes", ErrCorrupt, start, length, c.File.size)
	}
	if start+length > c.File.footerStart {
		// Pages never share bytes with the footer: a chunk reaching into
		// it belongs to a damaged file (cut short, with its footer kept).
		return 0, 0, c.errorf(start, "%w: column chunk [%d, +%d) overlaps the footer at %d", ErrCorrupt, start, length, c.File.footerStart)
	}
	if c.File.shortChunks {
		// PARQUET-816: parquet-mr before 1.2.9 left the dictionary page
		// header out of total_compressed_size. Read up to 100 bytes more,
		// never into the footer, as other readers do.
		length = min(length+100, c.File.footerStart-start)
	}
	return start, length, nil
}

// shortChunksWriter reports whether created_by names a writer whose
// column chunk sizes may omit the dictionary page header (parquet-mr
// before 1.2.9, or parquet-mr without a version).
func shortChunksWriter(createdBy string) bool { return parquetMRBefore(createdBy, 1, 2, 9) }

// parquetMRBefore reports whether created_by names parquet-mr (now
// parquet-java) older than major.minor.patch, or without a version.
func parquetMRBefore(createdBy string, major, minor, patch int) bool {
	rest, ok := strings.CutPrefix(createdBy, "parquet-mr")
	if !ok {
		return false
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(rest), "version ")
	if !ok {
		return true // no version: assume the old writer
	}
	v, _, _ = strings.Cut(v, " ")
	var ma, mi, pa int
	if n, _ := fmt.Sscanf(v, "%d.%d.%d", &ma, &mi, &pa); n < 2 {
		return true
	}
	return ma < major || ma == major && (mi < minor || mi == minor && pa < patch)
}

// readRange returns length bytes at off: a slice of the mapping when the
// file is memory-mapped, else a fresh read.
func (f *File) readRange(off, length int64) ([]byte, error) {
	if f.mapped != nil {
		return f.mapped[off : off+length : off+length], nil
	}
	buf := make([]byte, length)
	if err := readFull(f.r, buf, off); err != nil {
		return nil, err
	}
	return buf, nil
}

// readFull fills buf from r at off; a short read is io.ErrUnexpectedEOF.
func readFull(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// ReadRange reads length bytes at off (used for page indexes and bloom filters).
func (f *File) ReadRange(off, length int64) ([]byte, error) {
	if off < 0 || length < 0 || off > f.size || length > f.size-off {
		return nil, f.errorf(-1, "", off, "%w: range [%d, +%d) lies outside the file of %d bytes", ErrCorrupt, off, length, f.size)
	}
	if ra, ok := f.r.(ReadAheader); ok {
		f.indexesAhead.Do(func() { f.readIndexesAhead(ra) })
	}
	b, err := f.readRange(off, length)
	if err != nil {
		return nil, f.wrap(-1, "", off, err)
	}
	return b, nil
}

// ReadAheader is a reader that can start reading a range before it is
// asked for (a file in an object store, where each read is a request).
type ReadAheader interface {
	ReadAhead(off, n int64)
}

// maxIndexAhead bounds the bytes read ahead for page indexes and bloom
// filters.
const maxIndexAhead = 64 << 20

// readIndexesAhead asks for the bytes between the last row group's pages
// and the footer — where writers put the page indexes and bloom filters —
// at once, when the first of them is read: one request instead of one
// per column chunk.
func (f *File) readIndexesAhead(ra ReadAheader) {
	last := len(f.Meta.RowGroups) - 1
	if last < 0 || len(f.Schema.Leaves) == 0 {
		return
	}
	// Writers put a row group's column chunks in schema order: the last
	// leaf's chunk ends the pages (were it not so, the range read ahead
	// would only hold some pages too).
	c, err := f.Chunk(last, len(f.Schema.Leaves)-1)
	if err != nil {
		return
	}
	start, n, err := c.ByteRange()
	if err != nil {
		return
	}
	if end := start + n; end < f.footerStart && f.footerStart-end <= maxIndexAhead {
		ra.ReadAhead(end, f.footerStart-end)
	}
}
