package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/carquet-go/carquet/parquet/thrift"
)

// The footer index is carquet's extension of FileMetaData (field 32767,
// BinaryProtocolExtensions.md): the byte offset of every ColumnChunk within
// the footer, so that a reader finds one column's metadata in O(1)
// without decoding the others. Its bytes, placed at the very end of the
// footer so that it can be found by reading backwards:
//
//	R×C × uint32 LE   offset of ColumnChunk (rg, col) from the footer start
//	uint32 LE         R, the number of row groups
//	uint32 LE         C, the number of columns
//	uint32 LE         CRC-32 (IEEE) of the offsets
//	16 bytes          footerIndexID
//
// followed by FileMetaData's stop byte. Readers that do not know it skip
// it like any unknown binary field.
var footerIndexID = [16]byte{0x63, 0x61, 0x72, 0x71, 0x75, 0x65, 0x74, 0x2d, 0x66, 0x69, 0x64, 0x78, 0x9d, 0x3a, 0x51, 0x01}

// footerIndexTrailer is the size of the fixed part after the offsets.
const footerIndexTrailer = 4 + 4 + 4 + 16

// ErrNoFooterIndex is returned when a footer carries no footer index.
var ErrNoFooterIndex = errors.New("footer has no column chunk index")

// ColumnChunkOffsets scans an encoded FileMetaData and returns the offset of
// every ColumnChunk struct, per row group, without decoding them.
func ColumnChunkOffsets(footer []byte) ([][]uint32, error) {
	r := thrift.NewReader(footer)
	var out [][]uint32
	var last int16
	for {
		t, id, err := r.FieldHeader(&last)
		if err != nil {
			return nil, err
		}
		if t == thrift.Stop {
			return out, nil
		}
		if id != 4 || t != thrift.List {
			if err := r.Skip(t); err != nil {
				return nil, err
			}
			continue
		}
		et, n, err := r.ListHeader()
		if err != nil {
			return nil, err
		}
		if et != thrift.Struct {
			return nil, fmt.Errorf("row_groups: list of %v", et)
		}
		for g := 0; g < n; g++ {
			offs, err := rowGroupChunkOffsets(r)
			if err != nil {
				return nil, fmt.Errorf("row group %d: %w", g, err)
			}
			out = append(out, offs)
		}
	}
}

func rowGroupChunkOffsets(r *thrift.Reader) ([]uint32, error) {
	var offs []uint32
	var last int16
	for {
		t, id, err := r.FieldHeader(&last)
		if err != nil {
			return nil, err
		}
		if t == thrift.Stop {
			return offs, nil
		}
		if id != 1 || t != thrift.List {
			if err := r.Skip(t); err != nil {
				return nil, err
			}
			continue
		}
		et, n, err := r.ListHeader()
		if err != nil {
			return nil, err
		}
		if et != thrift.Struct {
			return nil, fmt.Errorf("columns: list of %v", et)
		}
		offs = make([]uint32, n)
		for c := 0; c < n; c++ {
			offs[c] = uint32(r.Offset())
			if err := r.Skip(thrift.Struct); err != nil {
				return nil, err
			}
		}
	}
}

// AddFooterIndex returns footer — an encoded FileMetaData without an
// extension — with the footer index appended as its extension field.
func AddFooterIndex(footer []byte) ([]byte, error) {
	if len(footer) == 0 || footer[len(footer)-1] != 0 {
		return nil, errors.New("footer does not end with a stop byte")
	}
	offs, err := ColumnChunkOffsets(footer)
	if err != nil {
		return nil, err
	}
	cols := 0
	if len(offs) > 0 {
		cols = len(offs[0])
	}
	ext := make([]byte, 0, 4*len(offs)*cols+footerIndexTrailer)
	for _, rg := range offs {
		if len(rg) != cols {
			return nil, errors.New("row groups with different column counts")
		}
		for _, o := range rg {
			ext = binary.LittleEndian.AppendUint32(ext, o)
		}
	}
	sum := crc32.ChecksumIEEE(ext)
	ext = binary.LittleEndian.AppendUint32(ext, uint32(len(offs)))
	ext = binary.LittleEndian.AppendUint32(ext, uint32(cols))
	ext = binary.LittleEndian.AppendUint32(ext, sum)
	ext = append(ext, footerIndexID[:]...)
	w := thrift.NewWriter(append([]byte(nil), footer[:len(footer)-1]...))
	w.ExtensionField(ext)
	w.FieldStop()
	return w.Bytes(), nil
}

// FooterIndex locates the ColumnChunks of an encoded footer.
type FooterIndex struct {
	footer     []byte
	rowGroups  int
	columns    int
	offsetsBuf []byte
	checksum   uint32
}

// ParseFooterIndex finds the footer index at the end of an encoded footer,
// in O(1) whatever the footer's width: it reads backwards from the end,
// checking the marker and that the offsets fit before it. It does not
// checksum the offsets (that reads all of them: see Verify); each lookup
// checks instead that the entry it uses points at a whole ColumnChunk
// (see ColumnChunk).
func ParseFooterIndex(footer []byte) (*FooterIndex, error) {
	n := len(footer)
	if n < footerIndexTrailer+1 || footer[n-1] != 0 || !bytes.Equal(footer[n-17:n-1], footerIndexID[:]) {
		return nil, ErrNoFooterIndex
	}
	t := footer[n-1-footerIndexTrailer : n-17]
	rgs, cols, sum := binary.LittleEndian.Uint32(t), binary.LittleEndian.Uint32(t[4:]), binary.LittleEndian.Uint32(t[8:])
	size := uint64(rgs) * uint64(cols) * 4
	start := uint64(n - 1 - footerIndexTrailer)
	if size > start {
		return nil, fmt.Errorf("footer index claims %d×%d entries in a %d-byte footer", rgs, cols, n)
	}
	offs := footer[start-size : start]
	return &FooterIndex{footer: footer, rowGroups: int(rgs), columns: int(cols), offsetsBuf: offs, checksum: sum}, nil
}

// Verify checks the CRC-32 of all the offsets: O(row groups × columns),
// for callers that want the whole index checked once.
func (x *FooterIndex) Verify() error {
	if crc32.ChecksumIEEE(x.offsetsBuf) != x.checksum {
		return errors.New("footer index checksum mismatch")
	}
	return nil
}

// Size is the number of row groups and columns the index covers.
func (x *FooterIndex) Size() (rowGroups, columns int) { return x.rowGroups, x.columns }

func (x *FooterIndex) offset(rg, col int) int {
	return int(binary.LittleEndian.Uint32(x.offsetsBuf[4*(rg*x.columns+col):]))
}

// ColumnChunk decodes the ColumnChunk of (rg, col) into dst; its strings
// and binaries alias the footer. It costs the same at any width, and it
// checks the entry it uses against its neighbours, so that a damaged entry
// gives an error rather than another column's metadata: the chunk lies
// before the index; the previous chunk of the row group, skipped from its
// own entry, ends exactly where this one starts (for the first column: the
// bytes before it are the header of a list of as many structs as the index
// has columns); and where a next column follows, this chunk ends exactly
// where the index says that one starts.
func (x *FooterIndex) ColumnChunk(rg, col int, dst *ColumnChunk) error {
	if rg < 0 || rg >= x.rowGroups || col < 0 || col >= x.columns {
		return fmt.Errorf("column chunk (%d, %d) outside the footer index (%d×%d)", rg, col, x.rowGroups, x.columns)
	}
	// The index's own field header precedes its bytes: chunks end before it.
	limit := len(x.footer) - 1 - footerIndexTrailer - len(x.offsetsBuf)
	off := x.offset(rg, col)
	if off <= 0 || off >= limit || !x.startsChunk(rg, col, off, limit) {
		return fmt.Errorf("footer index: offset %d of column chunk (%d, %d) does not start a column chunk", off, rg, col)
	}
	// One allocation for the reader and everything the chunk points to.
	l := new(chunkLookup)
	l.a.cmd.free, l.a.stats.free, l.a.encs.free, l.a.strs.free, l.a.pes.free = l.cmd[:], l.stats[:], l.encs[:], l.strs[:], l.pes[:]
	r := &l.r
	r.Reset(x.footer[off:limit])
	r.AliasStrings = true
	r.Arena = &l.a
	*dst = ColumnChunk{}
	if err := dst.Decode(r); err != nil {
		return fmt.Errorf("footer index: column chunk (%d, %d) at offset %d: %w", rg, col, off, err)
	}
	if col+1 < x.columns {
		if next := x.offset(rg, col+1); off+r.Offset() != next {
			return fmt.Errorf("footer index: column chunk (%d, %d) at offset %d ends at %d, the next starts at %d", rg, col, off, off+r.Offset(), next)
		}
	}
	return nil
}

// chunkLookup holds what decoding one column chunk needs, in one block.
type chunkLookup struct {
	r     thrift.Reader
	a     arena
	cmd   [1]ColumnMetaData
	stats [1]Statistics
	encs  [4]Encoding
	strs  [2]string
	pes   [3]PageEncodingStats
}

// startsChunk checks that off, the entry of (rg, col), is where the
// previous chunk ends or, for the first column, where the list begins.
func (x *FooterIndex) startsChunk(rg, col, off, limit int) bool {
	if col > 0 {
		prev := x.offset(rg, col-1)
		if prev <= 0 || prev >= off {
			return false
		}
		r := thrift.NewReader(x.footer[prev:limit])
		return r.Skip(thrift.Struct) == nil && prev+r.Offset() == off
	}
	// A compact-protocol list header: size and element type in one byte
	// below 15 elements, else 0xfc and the size as a varint.
	if x.columns < 15 {
		return x.footer[off-1] == byte(x.columns<<4|int(thrift.Struct))
	}
	var h [binary.MaxVarintLen64 + 1]byte
	h[0] = 0xf0 | byte(thrift.Struct)
	n := 1 + binary.PutUvarint(h[1:], uint64(x.columns))
	return off >= n && bytes.Equal(x.footer[off-n:off], h[:n])
}

// UnmarshalLazy decodes a footer leaving each row group's column chunks
// undecoded (RowGroup.ColumnsRaw), aliasing buf like UnmarshalAliased.
// Where buf (the whole footer) carries a footer index, it jumps over each
// row group's column chunks instead of walking them (see skipLazy).
func UnmarshalLazy(buf []byte, fm *FileMetaData) (int, error) {
	r := newLazyReader(buf)
	if x, err := ParseFooterIndex(buf); err == nil {
		r.Arena.(*arena).index = x
	}
	err := fm.Decode(r)
	return r.Offset(), err
}

// skipLazy skips a row group's list of column chunks (field 1, of type t)
// for lazy decoding. With the footer index, it checks that the list
// header is the one of the index's number of columns and ends where the
// index puts the row group's first chunk, and that the last chunk's entry
// is where the one before it ends, then skips only the last chunk: O(1)
// instead of a walk over every chunk. Anything that does not hold falls
// back to walking the list.
func skipLazy(r *thrift.Reader, t thrift.Type) error {
	a, _ := r.Arena.(*arena)
	if a != nil && a.compact {
		c, err := decodeChunkList(r, t)
		if c != nil {
			a.chunks = append(a.chunks, c)
		}
		return err
	}
	if a == nil || a.index == nil || t != thrift.List || noFastPath {
		return r.Skip(t)
	}
	rg := a.lazyRowGroup
	a.lazyRowGroup++
	if end := a.index.columnsEnd(rg, r.Bytes(), r.Offset()); end > 0 {
		r.SetPosition(end, r.Depth())
		return nil
	}
	return r.Skip(t)
}

// columnsEnd returns where the column chunk list of row group rg, whose
// header is at b[start], ends according to the index, or -1 where the
// index does not describe b or fails the checks.
func (x *FooterIndex) columnsEnd(rg int, b []byte, start int) int {
	if rg >= x.rowGroups || x.columns == 0 || len(b) != len(x.footer) || len(b) == 0 || &b[0] != &x.footer[0] {
		return -1
	}
	limit := len(x.footer) - 1 - footerIndexTrailer - len(x.offsetsBuf)
	first, last := x.offset(rg, 0), x.offset(rg, x.columns-1)
	// The first entry must follow the list header at start, the last one
	// the end of the chunk before it (skipped from its own entry): a
	// damaged entry of either fails, and the others are not used.
	if first <= start || last < first || last >= limit || first-start != listHeaderLen(x.columns) ||
		!x.startsChunk(rg, 0, first, limit) || !x.startsChunk(rg, x.columns-1, last, limit) {
		return -1
	}
	r := thrift.NewReader(b[last:limit])
	if r.Skip(thrift.Struct) != nil {
		return -1
	}
	end := last + r.Offset()
	if rg+1 < x.rowGroups && x.offset(rg+1, 0) <= end {
		return -1
	}
	return end
}

// listHeaderLen is the size of the compact-protocol header of a list of n
// elements.
func listHeaderLen(n int) int {
	if n < 15 {
		return 1
	}
	var h [binary.MaxVarintLen64]byte
	return 1 + binary.PutUvarint(h[:], uint64(n))
}

func newLazyReader(buf []byte) *thrift.Reader {
	r := thrift.NewReader(buf)
	r.AliasStrings = true
	r.Arena = &arena{}
	r.SkipLazy = true
	return r
}
