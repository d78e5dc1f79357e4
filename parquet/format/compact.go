package format

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/carquet-go/carquet/parquet/thrift"
)

// Compact decoding: every column chunk of a footer decoded in full — each
// field parsed and checked — into records that hold no pointers, instead
// of into ColumnChunk structs. A ColumnChunk struct with what it points to
// takes about 800 bytes and a dozen pointers for the garbage collector to
// trace; a record takes about 250 bytes in one block per row group that
// the collector never scans, its strings and binaries kept as spans of the
// footer. A ColumnChunk is built from its record when it is asked for
// (Chunks.ColumnChunk), which copies fields and parses nothing.
//
// The records take the common case: the fields that parquet.thrift gives
// ColumnChunk, ColumnMetaData, Statistics, SizeStatistics and
// PageEncodingStats, in short-form headers, with their wire types. A
// column chunk with anything else (key-value metadata, geospatial
// statistics, encryption, an extension or unknown field, a malformed
// value) is decoded by the generated code instead and kept as a
// ColumnChunk, so that results and errors are exactly those of
// UnmarshalAliased.

// span locates bytes of the footer; n is their length plus one, 0 for an
// absent field (a nil slice).
type span struct{ off, n uint32 }

// list locates the elements of a list field in one of Chunks' side arrays.
type list struct{ start, n uint32 }

// Presence bits of the optional fields of a record.
const (
	ccFilePath = 1 << iota
	ccMetaData
	ccOffsetIndexOffset
	ccOffsetIndexLength
	ccColumnIndexOffset
	ccColumnIndexLength
	ccOverflow // decoded by the generated code: Chunks.overflow[overflow]
)

const (
	mdEncodings = 1 << iota
	mdPathInSchema
	mdIndexPageOffset
	mdDictionaryPageOffset
	mdStatistics
	mdEncodingStats
	mdBloomFilterOffset
	mdBloomFilterLength
	mdSizeStatistics
)

const (
	stNullCount = 1 << iota
	stDistinctCount
	stNanCount
	stMaxExact     // is_max_value_exact present
	stMaxExactTrue // ... and true
	stMinExact
	stMinExactTrue
)

type statsRecord struct {
	nullCount, distinctCount, nanCount int64
	max, min, maxValue, minValue       span
	has                                uint32
}

const (
	szUnencodedBytes = 1 << iota
	szRepetition
	szDefinition
)

type sizeRecord struct {
	unencodedBytes int64
	rep, def       list // into Chunks.hist
	has            uint32
}

type metaRecord struct {
	numValues, totalUncompressedSize, totalCompressedSize, dataPageOffset int64
	indexPageOffset, dictionaryPageOffset, bloomFilterOffset              int64
	bloomFilterLength, typ, codec                                         int32
	has                                                                   uint32
	encodings, pathInSchema, encodingStats                                list
	stats                                                                 statsRecord
	size                                                                  sizeRecord
}

type chunkRecord struct {
	fileOffset, offsetIndexOffset, columnIndexOffset int64
	offsetIndexLength, columnIndexLength             int32
	has                                              uint32
	overflow                                         uint32
	filePath, encrypted                              span
	meta                                             metaRecord
}

// pesRecord is a PageEncodingStats.
type pesRecord struct{ pageType, encoding, count int32 }

// Chunks holds the column chunks of one row group decoded by
// UnmarshalCompact. It is immutable and safe for concurrent use.
type Chunks struct {
	footer   []byte
	recs     []chunkRecord
	encs     []Encoding
	paths    []span
	pes      []pesRecord
	hist     []int64
	overflow []ColumnChunk
	// prev is, by kind, the last list decoded: its bytes b[from:to] and
	// where its elements went (see decodeList).
	prev [kHist + 1]struct {
		from, to int
		l        list
	}
	// raw is the row group's column list in the footer (RowGroup.ColumnsRaw).
	raw []byte
}

// Len returns the number of column chunks.
func (c *Chunks) Len() int { return len(c.recs) }

// UnmarshalCompact decodes a footer as UnmarshalLazy does, and decodes every
// row group's column chunks in full into Chunks (by row group; nil for a row
// group without a column list), failing on any error UnmarshalAliased would
// report. Lists are bounded by maxAlloc as in UnmarshalFooter.
func UnmarshalCompact(buf []byte, fm *FileMetaData, maxAlloc int64) ([]*Chunks, int, error) {
	r := newLazyReader(buf)
	r.MaxAlloc = maxAlloc
	r.StructSize = largestListStruct
	a := r.Arena.(*arena)
	a.compact = true
	if err := fm.Decode(r); err != nil {
		return nil, r.Offset(), err
	}
	// A row group's (or the footer's) repeated list field keeps the last
	// one, as the generated code does: the tables are matched to the row
	// groups by the bytes they were decoded from.
	out := make([]*Chunks, len(fm.RowGroups))
	j := 0
	for i := range fm.RowGroups {
		raw := fm.RowGroups[i].ColumnsRaw
		if len(raw) == 0 {
			continue
		}
		for j < len(a.chunks) && unsafe.SliceData(a.chunks[j].raw) != unsafe.SliceData(raw) {
			j++
		}
		if j < len(a.chunks) {
			out[i] = a.chunks[j]
			j++
		}
	}
	return out, r.Offset(), nil
}

// decodeChunkList decodes the list of column chunks (field 1 of RowGroup,
// of wire type t) at r's position, leaving r after it.
func decodeChunkList(r *thrift.Reader, t thrift.Type) (*Chunks, error) {
	start := r.Offset()
	if t != thrift.List && t != thrift.Set {
		return nil, r.Skip(t) // not a list: the generated code skips it
	}
	if err := r.Enter(); err != nil {
		return nil, err
	}
	et, n, err := r.ListHeader()
	if err != nil {
		return nil, err
	}
	if et != thrift.Struct && n > 0 {
		return nil, errElemType(r, et)
	}
	if err := r.ChargeBytes(int64(n) * int64(unsafe.Sizeof(chunkRecord{}))); err != nil {
		return nil, err
	}
	b := r.Bytes()
	c := &Chunks{footer: b, recs: make([]chunkRecord, n)}
	// Every chunk has a path of its own; encodings and encoding stats are
	// mostly shared with the chunk before (see decodeList).
	c.paths = make([]span, 0, n)
	// The fast decoder reaches three levels below a chunk; spans are
	// 32-bit offsets.
	fast := r.Depth()+fastDepth <= thrift.MaxDepth && uint64(len(b)) < math.MaxUint32 && !noFastPath
	for i := range c.recs {
		p, d := r.Offset(), r.Depth()
		if fast {
			// A chunk the records do not take leaves what it added to the
			// side arrays there, unused: decodeList may share it later.
			if q := c.decodeChunkRec(r, b, p, &c.recs[i]); q >= 0 {
				r.SetPosition(q, d)
				continue
			}
			r.SetPosition(p, d)
		}
		var cc ColumnChunk
		if err := cc.Decode(r); err != nil {
			return nil, err
		}
		c.recs[i] = chunkRecord{has: ccOverflow, overflow: uint32(len(c.overflow))}
		c.overflow = append(c.overflow, cc)
	}
	r.Leave()
	c.raw = b[start:r.Offset():r.Offset()]
	return c, nil
}

// The kinds of list a record holds, for decodeList.
const (
	kEncs = iota // list<Encoding>
	kPES         // list<PageEncodingStats>
	kHist        // list<i64> (level histograms)
)

// Each struct a record holds has a decoder of its own, in which each
// field's destination is known to the compiler. They read field headers
// and varints inline, without a call per field (one-byte varints are the
// common case; longer ones are read by a call): a table-driven decoder, or
// one calling a function per field, took about twice the instructions.
// ColumnChunk, ColumnMetaData and Statistics first read their fields in id
// order while they come, by straight-line code generated into
// compact_gen.go; their loops take what follows, in any order.

//go:generate go run ./internal/gencompact

// fieldHeader reads the short-form field header at b[p] of a struct whose
// previous field was last: the wire type (thrift.Stop at the stop byte),
// the field id and the position after it; q is -1 at the end of the input
// and for a long-form header.
func fieldHeader(b []byte, p int, last int16) (t thrift.Type, id int16, q int) {
	if uint(p) >= uint(len(b)) {
		return 0, 0, -1
	}
	h := b[p]
	t = thrift.Type(h & 0x0f)
	if t != thrift.Stop && h < 0x10 {
		return 0, 0, -1
	}
	return t, last + int16(h>>4), p + 1
}

// scalarAt reads the value of a field of wire type t at b[p], returning
// the position after it: a varint (an i32 out of range fails, as
// thrift.Reader.I32 does) or a binary's span; other types read nothing.
func scalarAt(b []byte, p int, t thrift.Type) (u uint64, sp span, q int) {
	switch t {
	case thrift.I32, thrift.I64, thrift.Binary:
		if u, q = thrift.UvarintAt(b, p); q < 0 || t == thrift.I32 && u > math.MaxUint32 {
			return 0, span{}, -1
		}
		if t == thrift.Binary {
			if u > uint64(len(b)-q) {
				return 0, span{}, -1
			}
			sp = span{uint32(q), uint32(u) + 1}
			q += int(u)
		}
		return u, sp, q
	}
	return 0, span{}, p
}

// at reports whether b[p] is the short-form header of field id, of wire
// type t, in a struct whose previous field was last.
func at(b []byte, p int, last, id int16, t thrift.Type) bool {
	return uint(p) < uint(len(b)) && id-last <= 15 && b[p] == byte(id-last)<<4|byte(t)
}

// u1 reads a varint of one byte at b[p]; q is -1 for any other.
func u1(b []byte, p int) (u uint64, q int) {
	if uint(p) < uint(len(b)) && b[p] < 0x80 {
		return uint64(b[p]), p + 1
	}
	return 0, -1
}

// zigzag decodes a zigzag-encoded integer.
func zigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// decodeChunkRec decodes the ColumnChunk at b[p] into rec (zero) and
// returns the position after it, or -1 for what the generated code must
// decode.
func (c *Chunks) decodeChunkRec(r *thrift.Reader, b []byte, p int, rec *chunkRecord) int {
	p, last, done := c.chunkFields(r, b, p, rec)
	if p < 0 || done {
		return p
	}
	for {
		t, id, q := fieldHeader(b, p, last)
		if q < 0 || t == thrift.Stop {
			return q
		}
		u, sp, q := scalarAt(b, q, t)
		if q < 0 {
			return -1
		}
		if int(id) >= len(columnChunkWire) || columnChunkWire[id] != t {
			return -1 // another type, or a field records do not hold
		}
		p, last = q, id
		switch last {
		case 1:
			rec.has |= ccFilePath
			rec.filePath = sp
		case 2:
			rec.fileOffset = zigzag(u)
		case 3:
			if rec.has&ccMetaData != 0 {
				rec.meta = metaRecord{} // repeated: a new struct
			}
			rec.has |= ccMetaData
			if p = c.decodeMetaRec(r, b, p, &rec.meta); p < 0 {
				return -1
			}
		case 4:
			rec.has |= ccOffsetIndexOffset
			rec.offsetIndexOffset = zigzag(u)
		case 5:
			rec.has |= ccOffsetIndexLength
			rec.offsetIndexLength = int32(zigzag(u))
		case 6:
			rec.has |= ccColumnIndexOffset
			rec.columnIndexOffset = zigzag(u)
		case 7:
			rec.has |= ccColumnIndexLength
			rec.columnIndexLength = int32(zigzag(u))
		case 9:
			rec.encrypted = sp
		default:
			return -1
		}
	}
}

// decodeMetaRec decodes a ColumnMetaData at b[p] into m (zero).
func (c *Chunks) decodeMetaRec(r *thrift.Reader, b []byte, p int, m *metaRecord) int {
	p, last, done := c.metaFields(r, b, p, m)
	if p < 0 || done {
		return p
	}
	for {
		t, id, q := fieldHeader(b, p, last)
		if q < 0 || t == thrift.Stop {
			return q
		}
		p, last = q, id
		if t == thrift.I32 || t == thrift.I64 {
			u, _, q := scalarAt(b, p, t)
			if q < 0 {
				return -1
			}
			p = q
			v := zigzag(u)
			switch {
			case t == thrift.I64 && last == 5:
				m.numValues = v
			case t == thrift.I64 && last == 6:
				m.totalUncompressedSize = v
			case t == thrift.I64 && last == 7:
				m.totalCompressedSize = v
			case t == thrift.I64 && last == 9:
				m.dataPageOffset = v
			case t == thrift.I32 && last == 1:
				m.typ = int32(v)
			case t == thrift.I32 && last == 4:
				m.codec = int32(v)
			case t == thrift.I64 && last == 10:
				m.has |= mdIndexPageOffset
				m.indexPageOffset = v
			case t == thrift.I64 && last == 11:
				m.has |= mdDictionaryPageOffset
				m.dictionaryPageOffset = v
			case t == thrift.I64 && last == 14:
				m.has |= mdBloomFilterOffset
				m.bloomFilterOffset = v
			case t == thrift.I32 && last == 15:
				m.has |= mdBloomFilterLength
				m.bloomFilterLength = int32(v)
			default:
				return -1
			}
			continue
		}
		switch {
		case t == thrift.Struct && last == 12:
			if m.has&mdStatistics != 0 {
				m.stats = statsRecord{}
			}
			m.has |= mdStatistics
			p = decodeStatsRec(b, p, &m.stats)
		case isList(t) && last == 2:
			m.has |= mdEncodings
			p = c.decodeList(r, b, p, kEncs, &m.encodings)
		case isList(t) && last == 3:
			m.has |= mdPathInSchema
			p = c.decodePaths(r, b, p, &m.pathInSchema)
		case isList(t) && last == 13:
			m.has |= mdEncodingStats
			p = c.decodeList(r, b, p, kPES, &m.encodingStats)
		case t == thrift.Struct && last == 16:
			if m.has&mdSizeStatistics != 0 {
				m.size = sizeRecord{}
			}
			m.has |= mdSizeStatistics
			p = c.decodeSizeRec(r, b, p, &m.size)
		default:
			return -1 // key-value metadata, geospatial statistics, ...
		}
		if p < 0 {
			return -1
		}
	}
}

// isList reports whether t is a list's wire type (sets are read as lists).
func isList(t thrift.Type) bool { return t == thrift.List || t == thrift.Set }

// decodeStatsRec decodes a Statistics at b[p] into s (zero).
func decodeStatsRec(b []byte, p int, s *statsRecord) int {
	p, last, done := statsFields(b, p, s)
	if p < 0 || done {
		return p
	}
	for {
		t, id, q := fieldHeader(b, p, last)
		if q < 0 || t == thrift.Stop {
			return q
		}
		p, last = q, id
		switch t {
		case thrift.BoolTrue, thrift.BoolFalse:
			var bit uint32
			switch last {
			case 7:
				bit = stMaxExact
			case 8:
				bit = stMinExact
			default:
				return -1
			}
			s.has = s.has&^(bit<<1) | bit
			if t == thrift.BoolTrue {
				s.has |= bit << 1
			}
			continue
		case thrift.I64, thrift.Binary:
		default:
			return -1
		}
		u, sp, q := scalarAt(b, p, t)
		if q < 0 {
			return -1
		}
		p = q
		if t == thrift.I64 {
			switch last {
			case 3:
				s.has |= stNullCount
				s.nullCount = zigzag(u)
			case 4:
				s.has |= stDistinctCount
				s.distinctCount = zigzag(u)
			case 9:
				s.has |= stNanCount
				s.nanCount = zigzag(u)
			default:
				return -1
			}
			continue
		}
		switch last {
		case 1:
			s.max = sp
		case 2:
			s.min = sp
		case 5:
			s.maxValue = sp
		case 6:
			s.minValue = sp
		default:
			return -1
		}
	}
}

// decodeSizeRec decodes a SizeStatistics at b[p] into z (zero).
func (c *Chunks) decodeSizeRec(r *thrift.Reader, b []byte, p int, z *sizeRecord) int {
	var last int16
	for {
		t, id, q := fieldHeader(b, p, last)
		if q < 0 || t == thrift.Stop {
			return q
		}
		p, last = q, id
		switch {
		case t == thrift.I64 && last == 1:
			var v int64
			v, p = fi64(b, p)
			z.has |= szUnencodedBytes
			z.unencodedBytes = v
		case isList(t) && last == 2:
			z.has |= szRepetition
			p = c.decodeList(r, b, p, kHist, &z.rep)
		case isList(t) && last == 3:
			z.has |= szDefinition
			p = c.decodeList(r, b, p, kHist, &z.def)
		default:
			return -1
		}
		if p < 0 {
			return -1
		}
	}
}

// decodePESRec decodes a PageEncodingStats at b[p] into e.
func decodePESRec(b []byte, p int, e *pesRecord) int {
	var last int16
	for {
		t, id, q := fieldHeader(b, p, last)
		if q < 0 || t == thrift.Stop {
			return q
		}
		if t != thrift.I32 {
			return -1
		}
		u, _, q := scalarAt(b, q, t)
		if q < 0 {
			return -1
		}
		p, last = q, id
		switch last {
		case 1:
			e.pageType = int32(zigzag(u))
		case 2:
			e.encoding = int32(zigzag(u))
		case 3:
			e.count = int32(zigzag(u))
		default:
			return -1
		}
	}
}

// decodeList decodes a list field at b[p] and sets l to its elements in
// the side array of its kind.
func (c *Chunks) decodeList(r *thrift.Reader, b []byte, p int, kind int, l *list) int {
	// Consecutive chunks mostly have the same encodings and encoding
	// stats: where the bytes at p are those of the previous list of this
	// kind, they decode to the same elements, which are shared.
	prev := &c.prev[kind]
	if n := prev.to - prev.from; n > 0 && n <= len(b)-p && sameBytes(b, p, prev.from, n) {
		*l = prev.l
		return p + n
	}
	start := p
	p = c.decodeListElems(r, b, p, kind, l)
	if p >= 0 {
		prev.from, prev.to, prev.l = start, p, *l
	}
	return p
}

// sameBytes reports whether b[p:p+n] and b[q:q+n] are equal (both within
// b); up to 8 bytes, the lists' common size, with one load each.
func sameBytes(b []byte, p, q, n int) bool {
	if n <= 8 && len(b)-p >= 8 && len(b)-q >= 8 {
		x := binary.LittleEndian.Uint64(b[p:]) ^ binary.LittleEndian.Uint64(b[q:])
		return x<<(64-8*n) == 0
	}
	return string(b[p:p+n]) == string(b[q:q+n])
}

// listHeader reads the header of a list of want elements at b[p]: a short
// list's one-byte header inline, the others through flist; the memory
// limit is charged.
func listHeader(r *thrift.Reader, b []byte, p int, want thrift.Type) (n, q int) {
	if uint(p) < uint(len(b)) && b[p] < 0xf0 && thrift.Type(b[p]&0x0f) == want {
		n = int(b[p] >> 4)
		if r.MaxAlloc > 0 && r.Charge(want, n) != nil {
			return 0, -1
		}
		return n, p + 1
	}
	return flist(r, b, p, want)
}

// decodePaths decodes a path_in_schema list at b[p] into c.paths (each
// chunk has one of its own: not shared as decodeList shares).
func (c *Chunks) decodePaths(r *thrift.Reader, b []byte, p int, l *list) int {
	n, p := listHeader(r, b, p, thrift.Binary)
	if p < 0 {
		return -1
	}
	*l = list{uint32(len(c.paths)), uint32(n)}
	for range n {
		u, q := u1(b, p)
		if q < 0 {
			if u, q = thrift.UvarintAt(b, p); q < 0 {
				return -1
			}
		}
		if u > uint64(len(b)-q) {
			return -1
		}
		c.paths = append(c.paths, span{uint32(q), uint32(u) + 1})
		p = q + int(u)
	}
	return p
}

// decodeListElems decodes a list of the given kind at b[p] into its side
// array.
func (c *Chunks) decodeListElems(r *thrift.Reader, b []byte, p int, kind int, l *list) int {
	want := [...]thrift.Type{kEncs: thrift.I32, kPES: thrift.Struct, kHist: thrift.I64}[kind]
	n, p := listHeader(r, b, p, want)
	if p < 0 {
		return -1
	}
	switch kind {
	case kEncs:
		*l = list{uint32(len(c.encs)), uint32(n)}
		for range n {
			var v int32
			v, p = fi32(b, p)
			c.encs = append(c.encs, Encoding(v))
		}
	case kHist:
		*l = list{uint32(len(c.hist)), uint32(n)}
		for range n {
			var v int64
			v, p = fi64(b, p)
			c.hist = append(c.hist, v)
		}
	case kPES:
		*l = list{uint32(len(c.pes)), uint32(n)}
		for i := 0; i < n && p >= 0; i++ {
			c.pes = append(c.pes, pesRecord{})
			p = decodePESRec(b, p, &c.pes[len(c.pes)-1])
		}
	}
	return p
}

// ColumnChunk sets cc to column chunk i, as UnmarshalAliased would have
// decoded it: its strings and binaries share the footer. What cc points to
// is its own, except for a chunk the generated code decoded, whose pointers
// it shares with the table: treat it as read-only.
func (c *Chunks) ColumnChunk(i int, cc *ColumnChunk) {
	rec := &c.recs[i]
	if rec.has&ccOverflow != 0 {
		*cc = c.overflow[rec.overflow]
		return
	}
	*cc = ColumnChunk{FileOffset: rec.fileOffset, EncryptedColumnMetadata: c.bin(rec.encrypted)}
	if rec.has&ccFilePath != 0 {
		cc.FilePath = Some(c.str(rec.filePath))
	}
	cc.OffsetIndexOffset = Opt[int64]{rec.offsetIndexOffset, rec.has&ccOffsetIndexOffset != 0}
	cc.OffsetIndexLength = Opt[int32]{rec.offsetIndexLength, rec.has&ccOffsetIndexLength != 0}
	cc.ColumnIndexOffset = Opt[int64]{rec.columnIndexOffset, rec.has&ccColumnIndexOffset != 0}
	cc.ColumnIndexLength = Opt[int32]{rec.columnIndexLength, rec.has&ccColumnIndexLength != 0}
	if rec.has&ccMetaData != 0 {
		cc.MetaData = c.metaData(&rec.meta)
	}
}

// metaBlock is a ColumnMetaData and its Statistics in one allocation.
type metaBlock struct {
	md ColumnMetaData
	st Statistics
}

func (c *Chunks) metaData(m *metaRecord) *ColumnMetaData {
	blk := new(metaBlock)
	md := &blk.md
	md.Type = Type(m.typ)
	md.Codec = CompressionCodec(m.codec)
	md.NumValues = m.numValues
	md.TotalUncompressedSize = m.totalUncompressedSize
	md.TotalCompressedSize = m.totalCompressedSize
	md.DataPageOffset = m.dataPageOffset
	md.IndexPageOffset = Opt[int64]{m.indexPageOffset, m.has&mdIndexPageOffset != 0}
	md.DictionaryPageOffset = Opt[int64]{m.dictionaryPageOffset, m.has&mdDictionaryPageOffset != 0}
	md.BloomFilterOffset = Opt[int64]{m.bloomFilterOffset, m.has&mdBloomFilterOffset != 0}
	md.BloomFilterLength = Opt[int32]{m.bloomFilterLength, m.has&mdBloomFilterLength != 0}
	if m.has&mdEncodings != 0 {
		e := m.encodings
		md.Encodings = append(make([]Encoding, 0, e.n), c.encs[e.start:e.start+e.n]...)
	}
	if m.has&mdPathInSchema != 0 {
		l := m.pathInSchema
		md.PathInSchema = make([]string, l.n)
		for i, s := range c.paths[l.start : l.start+l.n] {
			md.PathInSchema[i] = c.str(s)
		}
	}
	if m.has&mdEncodingStats != 0 {
		l := m.encodingStats
		md.EncodingStats = make([]PageEncodingStats, l.n)
		for i, e := range c.pes[l.start : l.start+l.n] {
			md.EncodingStats[i] = PageEncodingStats{PageType: PageType(e.pageType), Encoding: Encoding(e.encoding), Count: e.count}
		}
	}
	if m.has&mdStatistics != 0 {
		s, st := &m.stats, &blk.st
		st.Max, st.Min, st.MaxValue, st.MinValue = c.bin(s.max), c.bin(s.min), c.bin(s.maxValue), c.bin(s.minValue)
		st.NullCount = Opt[int64]{s.nullCount, s.has&stNullCount != 0}
		st.DistinctCount = Opt[int64]{s.distinctCount, s.has&stDistinctCount != 0}
		st.NanCount = Opt[int64]{s.nanCount, s.has&stNanCount != 0}
		st.IsMaxValueExact = Opt[bool]{s.has&stMaxExactTrue != 0, s.has&stMaxExact != 0}
		st.IsMinValueExact = Opt[bool]{s.has&stMinExactTrue != 0, s.has&stMinExact != 0}
		md.Statistics = st
	}
	if m.has&mdSizeStatistics != 0 {
		s := &m.size
		md.SizeStatistics = &SizeStatistics{
			UnencodedByteArrayDataBytes: Opt[int64]{s.unencodedBytes, s.has&szUnencodedBytes != 0},
			RepetitionLevelHistogram:    c.histogram(s.rep, s.has&szRepetition != 0),
			DefinitionLevelHistogram:    c.histogram(s.def, s.has&szDefinition != 0),
		}
	}
	return md
}

// histogram returns a copy of the level histogram at l, nil if absent.
func (c *Chunks) histogram(l list, present bool) []int64 {
	if !present {
		return nil
	}
	return append(make([]int64, 0, l.n), c.hist[l.start:l.start+l.n]...)
}

// bin returns the bytes of s, nil where the field was absent.
func (c *Chunks) bin(s span) []byte {
	if s.n == 0 {
		return nil
	}
	e := s.off + s.n - 1
	return c.footer[s.off:e:e]
}

// str returns the bytes of s as a string sharing the footer.
func (c *Chunks) str(s span) string {
	if s.n <= 1 {
		return ""
	}
	return unsafe.String(&c.footer[s.off], s.n-1)
}
