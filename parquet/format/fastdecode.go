package format

import (
	"math"
	"unsafe"

	"github.com/carquet-go/carquet/parquet/thrift"
)

// The decoding fast path of the structs a footer holds one of per column:
// ColumnChunk (with its ColumnMetaData, Statistics and PageEncodingStats),
// SchemaElement and ColumnOrder. It reads the input slice directly, with
// the cursor in a local variable instead of going through thrift.Reader's
// methods per value, and takes its per-column objects from the reader's
// arena.
//
// It handles the well-formed common case only: short-form field headers,
// the wire type parquet.thrift gives each known field, varints in range.
// On anything else — an unknown or repeated-with-another-type field, an
// extension field, a long-form header, malformed or truncated input — it
// reports false, the caller restores the struct and the reader, and the
// generated decoder (decodeGeneric) decodes the struct again from its start,
// so that results and errors are exactly those of the generated code.
// Nested structs it has no fast path for (LogicalType, SizeStatistics,
// KeyValue, ...) are handed to their generated decoders through the reader.

// fastDepth is the deepest nesting the fast path reaches below the depth it
// starts at (ColumnChunk > ColumnMetaData > encoding_stats > element); it
// only runs where the generated code could not hit thrift.MaxDepth either.
const fastDepth = 4

// noFastPath turns the fast path off (tests compare it with the generated
// code).
var noFastPath bool

// fuv reads an unsigned varint at b[p]. A negative position reports
// malformed or truncated input (and is passed through by every reader
// below, so that checks can wait until the end of a field).
func fuv(b []byte, p int) (uint64, int) {
	if uint(p) < uint(len(b)) && b[p] < 0x80 {
		return uint64(b[p]), p + 1
	}
	return thrift.UvarintAt(b, p)
}

// fi64 reads a zigzag i64.
func fi64(b []byte, p int) (int64, int) {
	u, p := fuv(b, p)
	return int64(u>>1) ^ -int64(u&1), p
}

// fi32 reads a zigzag i32, failing where thrift.Reader.I32 would.
func fi32(b []byte, p int) (int32, int) {
	u, p := fuv(b, p)
	if u > math.MaxUint32 {
		return 0, -1
	}
	return int32(u>>1) ^ -int32(u&1), p
}

// fbin reads a length-prefixed binary aliasing b, never nil (as
// thrift.Reader.Binary).
func fbin(b []byte, p int) ([]byte, int) {
	n, p := fuv(b, p)
	if p < 0 || n > uint64(len(b)-p) {
		return nil, -1
	}
	e := p + int(n)
	return b[p:e:e], e
}

// fstr reads a string, aliasing b or copying it as thrift.Reader.String.
func fstr(b []byte, p int, alias bool) (string, int) {
	v, p := fbin(b, p)
	switch {
	case p < 0 || len(v) == 0:
		return "", p
	case alias:
		return unsafe.String(&v[0], len(v)), p
	}
	return string(v), p
}

// fnext reads the next field header of a struct whose fields have the
// wire types wire (by field id; 0 for a field the fast path does not
// take). It returns the field id and type, or id 0 at the end of the
// struct (q after the stop byte) and on anything the fast path leaves to
// the generated code (q = -1): long-form headers, invalid types, unknown
// fields, fields of another type. Sets are taken as lists, booleans by
// either type.
func fnext(b []byte, p int, last int16, wire []thrift.Type) (id int16, t thrift.Type, q int) {
	if uint(p) >= uint(len(b)) {
		return 0, 0, -1
	}
	c := b[p]
	t = thrift.Type(c & 0x0f)
	if t == thrift.Stop {
		return 0, 0, p + 1
	}
	id = last + int16(c>>4)
	if c < 0x10 || uint16(id) >= uint16(len(wire)) {
		return 0, 0, -1
	}
	w := t
	switch t {
	case thrift.Set:
		w = thrift.List
	case thrift.BoolFalse:
		w = thrift.BoolTrue
	}
	if wire[id] != w || w == 0 {
		return 0, 0, -1
	}
	return id, t, p + 1
}

// flist reads a list header of element type want; any other element
// type fails, and so does a list above r's memory limit (the generated
// code then reports it).
func flist(r *thrift.Reader, b []byte, p int, want thrift.Type) (int, int) {
	if uint(p) >= uint(len(b)) {
		return 0, -1
	}
	c := b[p]
	p++
	if thrift.Type(c&0x0f) != want {
		return 0, -1
	}
	n := uint64(c >> 4)
	if n == 15 {
		if n, p = fuv(b, p); p < 0 {
			return 0, -1
		}
	}
	if n > uint64(len(b)-p) || r.MaxAlloc > 0 && r.Charge(want, int(n)) != nil {
		return 0, -1
	}
	return int(n), p
}

// The wire types of the fields the fast path takes, by field id.
var (
	columnChunkWire = [...]thrift.Type{1: thrift.Binary, 2: thrift.I64, 3: thrift.Struct,
		4: thrift.I64, 5: thrift.I32, 6: thrift.I64, 7: thrift.I32, 9: thrift.Binary}
	columnMetaDataWire = [...]thrift.Type{1: thrift.I32, 2: thrift.List, 3: thrift.List, 4: thrift.I32,
		5: thrift.I64, 6: thrift.I64, 7: thrift.I64, 8: thrift.List, 9: thrift.I64, 10: thrift.I64,
		11: thrift.I64, 12: thrift.Struct, 13: thrift.List, 14: thrift.I64, 15: thrift.I32,
		16: thrift.Struct, 17: thrift.Struct}
	statisticsWire = [...]thrift.Type{1: thrift.Binary, 2: thrift.Binary, 3: thrift.I64, 4: thrift.I64,
		5: thrift.Binary, 6: thrift.Binary, 7: thrift.BoolTrue, 8: thrift.BoolTrue, 9: thrift.I64}
	pageEncodingStatsWire = [...]thrift.Type{1: thrift.I32, 2: thrift.I32, 3: thrift.I32}
	schemaElementWire     = [...]thrift.Type{1: thrift.I32, 2: thrift.I32, 3: thrift.I32, 4: thrift.Binary,
		5: thrift.I32, 6: thrift.I32, 7: thrift.I32, 8: thrift.I32, 9: thrift.I32, 10: thrift.Struct, 11: thrift.I32}
)

// viaReader decodes v at b[p] with its generated decoder, the reader
// standing at nesting depth d (that of the struct holding the field).
func viaReader(r *thrift.Reader, p, d int, v interface{ Decode(*thrift.Reader) error }) int {
	r.SetPosition(p, d)
	if v.Decode(r) != nil {
		return -1
	}
	return r.Offset()
}

func (s *ColumnChunk) decodeFast(r *thrift.Reader) bool {
	d, start := r.Depth(), r.Offset()
	if d+fastDepth > thrift.MaxDepth || noFastPath {
		return false
	}
	saved := *s
	a, _ := r.Arena.(*arena)
	p := s.fast(r, a, r.Bytes(), start, d+1)
	if p < 0 {
		*s = saved
		r.SetPosition(start, d)
		return false
	}
	r.SetPosition(p, d)
	return true
}

// fast decodes the fields of s from b[p]; d is the depth of s itself.
func (s *ColumnChunk) fast(r *thrift.Reader, a *arena, b []byte, p, d int) int {
	var last int16
	for {
		id, _, q := fnext(b, p, last, columnChunkWire[:])
		if id == 0 {
			return q
		}
		p, last = q, id
		switch id {
		case 1:
			var v string
			v, p = fstr(b, p, r.AliasStrings)
			s.FilePath = Some(v)
		case 2:
			s.FileOffset, p = fi64(b, p)
		case 3:
			m := a.columnMetaDataOrNew()
			p = m.fast(r, a, b, p, d+1)
			s.MetaData = m
		case 4:
			s.OffsetIndexOffset.Value, p = fi64(b, p)
			s.OffsetIndexOffset.Set = true
		case 5:
			s.OffsetIndexLength.Value, p = fi32(b, p)
			s.OffsetIndexLength.Set = true
		case 6:
			s.ColumnIndexOffset.Value, p = fi64(b, p)
			s.ColumnIndexOffset.Set = true
		case 7:
			s.ColumnIndexLength.Value, p = fi32(b, p)
			s.ColumnIndexLength.Set = true
		case 9:
			s.EncryptedColumnMetadata, p = fbin(b, p)
		}
		if p < 0 {
			return -1
		}
	}
}

// fast decodes the fields of s from b[p]; d is the depth of s itself.
func (s *ColumnMetaData) fast(r *thrift.Reader, a *arena, b []byte, p, d int) int {
	var last int16
	for {
		id, _, q := fnext(b, p, last, columnMetaDataWire[:])
		if id == 0 {
			return q
		}
		p, last = q, id
		var n int
		switch id {
		case 1:
			var v int32
			v, p = fi32(b, p)
			s.Type = Type(v)
		case 2:
			n, p = flist(r, b, p, thrift.I32)
			if p < 0 {
				return -1
			}
			v := a.encodings(n)
			for i := range v {
				var x int32
				x, p = fi32(b, p)
				v[i] = Encoding(x)
			}
			s.Encodings = v
		case 3:
			n, p = flist(r, b, p, thrift.Binary)
			if p < 0 {
				return -1
			}
			v := a.strings(n)
			for i := range v {
				v[i], p = fstr(b, p, r.AliasStrings)
			}
			s.PathInSchema = v
		case 4:
			var v int32
			v, p = fi32(b, p)
			s.Codec = CompressionCodec(v)
		case 5:
			s.NumValues, p = fi64(b, p)
		case 6:
			s.TotalUncompressedSize, p = fi64(b, p)
		case 7:
			s.TotalCompressedSize, p = fi64(b, p)
		case 8:
			n, p = flist(r, b, p, thrift.Struct)
			if p < 0 {
				return -1
			}
			v := make([]KeyValue, n)
			for i := 0; i < n && p >= 0; i++ {
				p = viaReader(r, p, d+1, &v[i])
			}
			s.KeyValueMetadata = v
		case 9:
			s.DataPageOffset, p = fi64(b, p)
		case 10:
			s.IndexPageOffset.Value, p = fi64(b, p)
			s.IndexPageOffset.Set = true
		case 11:
			s.DictionaryPageOffset.Value, p = fi64(b, p)
			s.DictionaryPageOffset.Set = true
		case 12:
			v := a.statisticsOrNew()
			p = v.fast(b, p)
			s.Statistics = v
		case 13:
			n, p = flist(r, b, p, thrift.Struct)
			if p < 0 {
				return -1
			}
			v := a.pageEncodingStats(n)
			for i := 0; i < n && p >= 0; i++ {
				p = v[i].fast(b, p)
			}
			s.EncodingStats = v
		case 14:
			s.BloomFilterOffset.Value, p = fi64(b, p)
			s.BloomFilterOffset.Set = true
		case 15:
			s.BloomFilterLength.Value, p = fi32(b, p)
			s.BloomFilterLength.Set = true
		case 16:
			v := new(SizeStatistics)
			p = viaReader(r, p, d, v)
			s.SizeStatistics = v
		case 17:
			v := new(GeospatialStatistics)
			p = viaReader(r, p, d, v)
			s.GeospatialStatistics = v
		}
		if p < 0 {
			return -1
		}
	}
}

func (s *Statistics) fast(b []byte, p int) int {
	var last int16
	for {
		id, t, q := fnext(b, p, last, statisticsWire[:])
		if id == 0 {
			return q
		}
		p, last = q, id
		var v []byte
		var x int64
		switch id {
		case 1, 2, 5, 6:
			v, p = fbin(b, p)
		case 3, 4, 9:
			x, p = fi64(b, p)
		}
		switch id {
		case 1:
			s.Max = v
		case 2:
			s.Min = v
		case 3:
			s.NullCount = Some(x)
		case 4:
			s.DistinctCount = Some(x)
		case 5:
			s.MaxValue = v
		case 6:
			s.MinValue = v
		case 7:
			s.IsMaxValueExact = Some(t == thrift.BoolTrue)
		case 8:
			s.IsMinValueExact = Some(t == thrift.BoolTrue)
		case 9:
			s.NanCount = Some(x)
		}
		if p < 0 {
			return -1
		}
	}
}

func (s *PageEncodingStats) fast(b []byte, p int) int {
	var last int16
	for {
		id, _, q := fnext(b, p, last, pageEncodingStatsWire[:])
		if id == 0 {
			return q
		}
		var v int32
		v, p = fi32(b, q)
		last = id
		switch id {
		case 1:
			s.PageType = PageType(v)
		case 2:
			s.Encoding = Encoding(v)
		case 3:
			s.Count = v
		}
		if p < 0 {
			return -1
		}
	}
}

func (s *SchemaElement) decodeFast(r *thrift.Reader) bool {
	d, start := r.Depth(), r.Offset()
	if d+fastDepth > thrift.MaxDepth || noFastPath {
		return false
	}
	saved := *s
	p := s.fast(r, r.Bytes(), start, d+1)
	if p < 0 {
		*s = saved
		r.SetPosition(start, d)
		return false
	}
	r.SetPosition(p, d)
	return true
}

func (s *SchemaElement) fast(r *thrift.Reader, b []byte, p, d int) int {
	// Headers and varints are read inline: a footer holds a schema element
	// per column, and their fields are the most numerous after the column
	// chunks'.
	var last int16
	for {
		t, id, q := fieldHeader(b, p, last)
		if q < 0 || t == thrift.Stop {
			return q
		}
		if uint16(id) >= uint16(len(schemaElementWire)) || schemaElementWire[id] != t {
			return -1
		}
		p, last = q, id
		switch id {
		case 4:
			s.Name, p = fstr(b, p, r.AliasStrings)
			if p < 0 {
				return -1
			}
			continue
		case 10:
			v := new(LogicalType)
			if p = viaReader(r, p, d, v); p < 0 {
				return -1
			}
			s.LogicalType = v
			continue
		}
		u, q := u1(b, p)
		if q < 0 {
			if u, q = thrift.UvarintAt(b, p); q < 0 || u > math.MaxUint32 {
				return -1
			}
		}
		p = q
		v := int32(zigzag(u))
		switch id {
		case 1:
			s.Type = Some(Type(v))
		case 2:
			s.TypeLength = Some(v)
		case 3:
			s.RepetitionType = Some(FieldRepetitionType(v))
		case 5:
			s.NumChildren = Some(v)
		case 6:
			s.ConvertedType = Some(ConvertedType(v))
		case 7:
			s.Scale = Some(v)
		case 8:
			s.Precision = Some(v)
		case 9:
			s.FieldID = Some(v)
		case 11:
			s.VectorLength = Some(v)
		}
	}
}

func (s *ColumnOrder) decodeFast(r *thrift.Reader) bool {
	// The common case: TYPE_ORDER, an empty struct, and nothing else.
	b, p := r.Bytes(), r.Offset()
	if len(b)-p < 3 || b[p] != 0x1c || b[p+1]&0x0f != 0 || b[p+2]&0x0f != 0 ||
		r.Depth()+2 > thrift.MaxDepth || noFastPath {
		return false
	}
	a, _ := r.Arena.(*arena)
	s.TypeOrder = a.typeDefinedOrderOrNew()
	r.SetPosition(p+3, r.Depth())
	return true
}
