package writer

import (
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"
	"sync"

	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/encoding"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// miniBatch is the most rows added to a page at once: page sizes are
// checked between mini-batches, so a page overshoots its target by at most
// one of them.
const miniBatch = 1024

// pageMode says how the values of the current page are held.
type pageMode uint8

const (
	modeDict     pageMode = iota // dictionary indices
	modePlain                    // PLAIN bytes, appended as values arrive
	modeBuffered                 // raw values, encoded when the page is cut
)

// pageState is the data page being filled.
type pageState struct {
	mode                   pageMode
	def, rep               []int16
	entries, rows, nonNull int
	indices                []int32
	plain                  []byte
	vals                   vector.Vector
	rawBytes               int
	stats                  statsAcc
	unencoded              int64
	defHist, repHist       []int64
}

// chunkState is the column chunk of the current row group.
type chunkState struct {
	pages          [][]byte // data pages, header and body each
	size           int64    // bytes in pages
	locs           []format.PageLocation
	unencodedPages []int64
	// column index lists, one entry per page
	nullPages        []bool
	mins, maxs       [][]byte
	nullCounts       []int64
	nanCounts        []int64
	defHists         []int64
	repHists         []int64
	ciValid          bool
	stats            statsAcc
	numValues        int64
	rows             int64
	uncompressed     int64
	compressed       int64
	unencoded        int64
	defHist, repHist []int64
	encStats         []format.PageEncodingStats
	dictPages        int // data pages that are dictionary-encoded
	plainPages       int // data pages in any other encoding
}

// dictState holds the dictionary of the current column chunk.
type dictState struct {
	active bool // new pages are dictionary-encoded
	i32    encoding.Int32Dict
	i64    encoding.Int64Dict
	i96    encoding.Int96Dict
	f32    encoding.Float32Dict
	f64    encoding.Float64Dict
	ba     encoding.ByteArrayDict
	fl     *encoding.FixedLenDict
}

// columnWriter encodes one leaf column: it cuts pages, keeps the
// dictionary, the statistics, the page index entries and the bloom filter
// of the column chunk being written.
type columnWriter struct {
	node           *schema.Node
	path           string
	cfg            columnConfig
	codec          compress.Codec
	phys           format.Type
	kind           vector.Kind
	width          int
	maxDef, maxRep int16
	order          sortOrder
	utf8           bool
	v2             bool
	checksum       bool
	pageStats      bool
	truncate       int
	withStats      bool

	page  pageState
	chunk chunkState
	dict  dictState
	bloom *bloom.Filter

	delta encoding.DeltaBinaryPackedEncoder
	dlba  encoding.DeltaLengthByteArrayEncoder
	dba   encoding.DeltaByteArrayEncoder
	alp   encoding.ALPEncoder

	lvl, vals, body, comp, hdr []byte
	seen                       []uint64 // dictionary entries a page uses
	// boolPlain: a page of this chunk found PLAIN smaller than RLE for its
	// booleans (values without runs); the rest of the chunk is PLAIN too.
	boolPlain bool
	// autoDelta: the column is INT32 or INT64, compressed, with no value
	// encoding chosen by the user, so pages that are not dictionary-encoded
	// try DELTA_BINARY_PACKED and keep it where it is much smaller than
	// PLAIN (sorted timestamps, ids in a narrow range). deltaLost: a page
	// of this chunk found it was not; the rest of the chunk is PLAIN.
	autoDelta, deltaLost bool
	// enc encrypts the column's modules; nil for a plaintext column.
	enc *columnEncryptor
}

func newColumnWriter(n *schema.Node, cfg columnConfig, wc *config) (*columnWriter, error) {
	codec, err := compress.NewEncoder(cfg.codec, cfg.level)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", n.PathString(), err)
	}
	codec = compress.NewPageEncoder(codec)
	c := &columnWriter{
		node: n, path: n.PathString(), cfg: cfg, codec: codec,
		phys: n.Physical, kind: kindOf(n.Physical), width: n.TypeLength,
		maxDef: n.MaxDef, maxRep: n.MaxRep, order: orderOf(n),
		v2: wc.pageVersion == 2, checksum: wc.pageChecksum, pageStats: wc.pageStatistics,
		truncate: wc.truncate, withStats: cfg.statistics,
	}
	// Uncompressed columns keep PLAIN: whoever turns compression off wants
	// the cheapest pages to read, which PLAIN fixed-width values are.
	c.autoDelta = !cfg.encSet && cfg.codec != format.Uncompressed && (c.kind == vector.Int32 || c.kind == vector.Int64)
	if lt := n.Logical; lt != nil && (lt.String != nil || lt.Enum != nil || lt.JSON != nil) {
		c.utf8 = true
	}
	if c.phys == format.FixedLenByteArray {
		c.dict.fl = encoding.NewFixedLenDict(c.width)
	}
	if cfg.bloom && c.phys != format.Boolean {
		c.bloom = newBloomFilter(cfg.bloomNDV, cfg.bloomFPP)
	}
	c.resetChunk()
	return c, nil
}

func (c *columnWriter) resetChunk() {
	c.boolPlain = false // each chunk tries RLE for its booleans again
	c.deltaLost = false // and DELTA for its integers
	ch := &c.chunk
	clear(ch.pages)
	ch.pages = ch.pages[:0]
	ch.size = 0
	ch.locs = ch.locs[:0]
	ch.unencodedPages = ch.unencodedPages[:0]
	ch.nullPages, ch.mins, ch.maxs = ch.nullPages[:0], ch.mins[:0], ch.maxs[:0]
	ch.nullCounts, ch.nanCounts = ch.nullCounts[:0], ch.nanCounts[:0]
	ch.defHists, ch.repHists = ch.defHists[:0], ch.repHists[:0]
	ch.ciValid = c.cfg.pageIndex && c.withStats && c.order != orderNone
	ch.stats.reset()
	ch.numValues, ch.rows, ch.uncompressed, ch.compressed, ch.unencoded = 0, 0, 0, 0, 0
	ch.defHist = resetHist(ch.defHist, c.maxDef)
	ch.repHist = resetHist(ch.repHist, c.maxRep)
	ch.encStats = ch.encStats[:0]
	ch.dictPages, ch.plainPages = 0, 0
	c.dict.active = c.cfg.dictionary
	c.resetDict()
	if c.bloom != nil {
		c.bloom.Reset()
	}
	c.resetPage()
}

func (c *columnWriter) resetDict() {
	c.dict.i32.Reset()
	c.dict.i64.Reset()
	c.dict.i96.Reset()
	c.dict.f32.Reset()
	c.dict.f64.Reset()
	c.dict.ba.Reset()
	if c.dict.fl != nil {
		c.dict.fl.Reset()
	}
}

func resetHist(h []int64, maxLevel int16) []int64 {
	if maxLevel == 0 {
		return h[:0]
	}
	h = resize(h, int(maxLevel)+1)
	clear(h)
	return h
}

func (c *columnWriter) resetPage() {
	p := &c.page
	p.def, p.rep = p.def[:0], p.rep[:0]
	p.entries, p.rows, p.nonNull = 0, 0, 0
	p.indices = p.indices[:0]
	p.plain = p.plain[:0]
	p.vals.Reset()
	p.vals.Kind, p.vals.Width = c.kind, c.width
	p.vals.Offsets = append(p.vals.Offsets[:0], 0)
	p.rawBytes = 0
	p.stats.reset()
	p.unencoded = 0
	p.defHist = resetHist(p.defHist, c.maxDef)
	p.repHist = resetHist(p.repHist, c.maxRep)
}

func (c *columnWriter) dictLen() int {
	switch c.kind {
	case vector.Int32:
		return c.dict.i32.Len()
	case vector.Int64:
		return c.dict.i64.Len()
	case vector.Int96:
		return c.dict.i96.Len()
	case vector.Float32:
		return c.dict.f32.Len()
	case vector.Float64:
		return c.dict.f64.Len()
	case vector.ByteArray:
		return c.dict.ba.Len()
	case vector.FixedLenByteArray:
		return c.dict.fl.Len()
	}
	return 0
}

func (c *columnWriter) dictPlainSize() int {
	switch c.kind {
	case vector.Int32:
		return c.dict.i32.PlainSize()
	case vector.Int64:
		return c.dict.i64.PlainSize()
	case vector.Int96:
		return c.dict.i96.PlainSize()
	case vector.Float32:
		return c.dict.f32.PlainSize()
	case vector.Float64:
		return c.dict.f64.PlainSize()
	case vector.ByteArray:
		return c.dict.ba.PlainSize()
	case vector.FixedLenByteArray:
		return c.dict.fl.PlainSize()
	}
	return 0
}

func (c *columnWriter) appendDictPlain(dst []byte) []byte {
	switch c.kind {
	case vector.Int32:
		return c.dict.i32.AppendPlain(dst)
	case vector.Int64:
		return c.dict.i64.AppendPlain(dst)
	case vector.Int96:
		return c.dict.i96.AppendPlain(dst)
	case vector.Float32:
		return c.dict.f32.AppendPlain(dst)
	case vector.Float64:
		return c.dict.f64.AppendPlain(dst)
	case vector.ByteArray:
		return c.dict.ba.AppendPlain(dst)
	case vector.FixedLenByteArray:
		return c.dict.fl.AppendPlain(dst)
	}
	return dst
}

// pageBytes estimates the encoded size of the current page.
func (c *columnWriter) pageBytes() int {
	p := &c.page
	n := 0
	if c.maxDef > 0 {
		n += p.entries * encoding.MaxBitWidth(int(c.maxDef)) / 8
	}
	if c.maxRep > 0 {
		n += p.entries * encoding.MaxBitWidth(int(c.maxRep)) / 8
	}
	switch p.mode {
	case modeDict:
		n += len(p.indices)*encoding.DictIndexBitWidth(c.dictLen())/8 + 1
	case modePlain:
		n += len(p.plain)
	default:
		n += p.rawBytes
	}
	return n
}

// bufferedBytes estimates what the column holds for the current row group.
func (c *columnWriter) bufferedBytes() int64 {
	n := c.chunk.size + int64(c.pageBytes())
	if c.chunk.dictPages > 0 || c.page.mode == modeDict {
		n += int64(c.dictPlainSize())
	}
	return n
}

// write takes rows rows from d's cursor into pages.
func (c *columnWriter) write(d *leafData, rows int) error {
	for rows > 0 {
		n := min(rows, miniBatch, c.cfg.pageRows-c.page.rows)
		if n <= 0 {
			if err := c.flushPage(); err != nil {
				return err
			}
			continue
		}
		if c.kind == vector.ByteArray {
			n = c.fitByteArray(d, n)
		}
		e0, e1, v0, v1 := d.take(n, c.maxDef)
		if err := c.appendPiece(d, e0, e1, v0, v1, n); err != nil {
			return err
		}
		rows -= n
		if c.page.rows >= c.cfg.pageRows || c.pageBytes() >= c.cfg.pageSize {
			if err := c.flushPage(); err != nil {
				return err
			}
		}
		if c.page.mode == modeDict && c.dict.active && c.dictPlainSize() > c.cfg.dictLimit {
			// The dictionary grew too large: close the page it encodes and
			// write the rest of the chunk in the fallback encoding.
			if err := c.flushPage(); err != nil {
				return err
			}
			c.dict.active = false
		}
	}
	return nil
}

// fitByteArray lowers n until n rows of byte arrays fit the room left in
// the page (but at least one row).
func (c *columnWriter) fitByteArray(d *leafData, n int) int {
	room := c.cfg.pageSize - c.pageBytes()
	for n > 1 {
		save := *d
		_, _, v0, v1 := d.take(n, c.maxDef)
		d.entryPos, d.valPos, d.rowPos = save.entryPos, save.valPos, save.rowPos
		bytes := int(d.vals.Offsets[v1]-d.vals.Offsets[v0]) + 4*(v1-v0)
		if bytes <= room {
			break
		}
		n /= 2
	}
	return n
}

// appendPiece adds entries [e0, e1) and values [v0, v1) of d (rows rows)
// to the current page.
func (c *columnWriter) appendPiece(d *leafData, e0, e1, v0, v1, rows int) error {
	p := &c.page
	if p.entries == 0 {
		switch {
		case c.dict.active:
			p.mode = modeDict
		case c.cfg.encoding == format.Plain && c.kind != vector.Bool && !(c.autoDelta && !c.deltaLost):
			p.mode = modePlain
		default:
			p.mode = modeBuffered
		}
	}
	if c.maxDef > 0 {
		lv := d.def[e0:e1]
		p.def = append(p.def, lv...)
		h := p.defHist
		for _, l := range lv {
			h[l]++
		}
	}
	if c.maxRep > 0 {
		lv := d.rep[e0:e1]
		p.rep = append(p.rep, lv...)
		h := p.repHist
		for _, l := range lv {
			h[l]++
		}
	}
	nv := v1 - v0
	p.entries += e1 - e0
	p.rows += rows
	p.nonNull += nv
	p.stats.nulls += int64(e1 - e0 - nv)
	if nv == 0 {
		return nil
	}
	v := d.vals
	stats := c.withStats && c.order != orderNone
	switch c.kind {
	case vector.Bool:
		x := v.Bools[v0:v1]
		if stats {
			p.stats.updateBool(x)
		}
		p.vals.Bools = append(p.vals.Bools, x...)
		p.rawBytes += (nv + 7) / 8
	case vector.Int32:
		x := v.Int32s[v0:v1]
		if stats {
			p.stats.updateInt32(x, c.order)
		}
		switch p.mode {
		case modeDict:
			before := c.dict.i32.Len()
			p.indices = c.dict.i32.Insert(p.indices, x)
			if c.bloom != nil {
				for _, y := range c.dict.i32.Values()[before:] {
					c.bloom.Insert(bloom.HashInt32(y))
				}
			}
		default:
			if c.bloom != nil {
				for _, y := range x {
					c.bloom.Insert(bloom.HashInt32(y))
				}
			}
			if p.mode == modePlain {
				p.plain = encoding.AppendPlainInt32(p.plain, x)
			} else {
				p.vals.Int32s = append(p.vals.Int32s, x...)
				p.rawBytes += 4 * nv
			}
		}
	case vector.Int64:
		x := v.Int64s[v0:v1]
		if stats {
			p.stats.updateInt64(x, c.order)
		}
		switch p.mode {
		case modeDict:
			before := c.dict.i64.Len()
			p.indices = c.dict.i64.Insert(p.indices, x)
			if c.bloom != nil {
				for _, y := range c.dict.i64.Values()[before:] {
					c.bloom.Insert(bloom.HashInt64(y))
				}
			}
		default:
			if c.bloom != nil {
				for _, y := range x {
					c.bloom.Insert(bloom.HashInt64(y))
				}
			}
			if p.mode == modePlain {
				p.plain = encoding.AppendPlainInt64(p.plain, x)
			} else {
				p.vals.Int64s = append(p.vals.Int64s, x...)
				p.rawBytes += 8 * nv
			}
		}
	case vector.Int96:
		x := v.Int96s[v0:v1]
		switch p.mode {
		case modeDict:
			before := c.dict.i96.Len()
			p.indices = c.dict.i96.Insert(p.indices, x)
			if c.bloom != nil {
				for _, y := range c.dict.i96.Values()[before:] {
					c.bloom.Insert(bloom.HashBytes(y[:]))
				}
			}
		default:
			if c.bloom != nil {
				for i := range x {
					c.bloom.Insert(bloom.HashBytes(x[i][:]))
				}
			}
			if p.mode == modePlain {
				p.plain = encoding.AppendPlainInt96(p.plain, x)
			} else {
				p.vals.Int96s = append(p.vals.Int96s, x...)
				p.rawBytes += 12 * nv
			}
		}
	case vector.Float32:
		x := v.Float32s[v0:v1]
		if stats {
			p.stats.updateFloat32(x)
		}
		switch p.mode {
		case modeDict:
			before := c.dict.f32.Len()
			p.indices = c.dict.f32.Insert(p.indices, x)
			if c.bloom != nil {
				for _, y := range c.dict.f32.Values()[before:] {
					c.bloom.Insert(bloom.HashFloat32(y))
				}
			}
		default:
			if c.bloom != nil {
				for _, y := range x {
					c.bloom.Insert(bloom.HashFloat32(y))
				}
			}
			if p.mode == modePlain {
				p.plain = encoding.AppendPlainFloat32(p.plain, x)
			} else {
				p.vals.Float32s = append(p.vals.Float32s, x...)
				p.rawBytes += 4 * nv
			}
		}
	case vector.Float64:
		x := v.Float64s[v0:v1]
		if stats {
			p.stats.updateFloat64(x)
		}
		switch p.mode {
		case modeDict:
			before := c.dict.f64.Len()
			p.indices = c.dict.f64.Insert(p.indices, x)
			if c.bloom != nil {
				for _, y := range c.dict.f64.Values()[before:] {
					c.bloom.Insert(bloom.HashFloat64(y))
				}
			}
		default:
			if c.bloom != nil {
				for _, y := range x {
					c.bloom.Insert(bloom.HashFloat64(y))
				}
			}
			if p.mode == modePlain {
				p.plain = encoding.AppendPlainFloat64(p.plain, x)
			} else {
				p.vals.Float64s = append(p.vals.Float64s, x...)
				p.rawBytes += 8 * nv
			}
		}
	case vector.ByteArray:
		offs := v.Offsets[v0 : v1+1]
		data := v.Data
		p.unencoded += int64(offs[nv] - offs[0])
		if stats && !(p.mode == modeDict && c.statsFromDict()) {
			p.stats.updateByteArray(data, offs, c.order)
		}
		switch p.mode {
		case modeDict:
			before := c.dict.ba.Len()
			p.indices = c.dict.ba.Insert(p.indices, data, offs)
			if c.bloom != nil {
				dd, do := c.dict.ba.Data(), c.dict.ba.Offsets()
				for i := before; i < c.dict.ba.Len(); i++ {
					c.bloom.Insert(bloom.HashBytes(dd[do[i]:do[i+1]]))
				}
			}
		default:
			if c.bloom != nil {
				for i := range nv {
					c.bloom.Insert(bloom.HashBytes(data[offs[i]:offs[i+1]]))
				}
			}
			if p.mode == modePlain {
				p.plain = encoding.AppendPlainByteArray(p.plain, data, offs)
			} else {
				base := int32(len(p.vals.Data)) - offs[0]
				p.vals.Data = append(p.vals.Data, data[offs[0]:offs[nv]]...)
				for _, o := range offs[1:] {
					p.vals.Offsets = append(p.vals.Offsets, o+base)
				}
				p.rawBytes += int(offs[nv]-offs[0]) + 4*nv
			}
		}
	case vector.FixedLenByteArray:
		w := c.width
		x := v.Data[v0*w : v1*w]
		if stats && !(p.mode == modeDict && c.statsFromDict()) {
			p.stats.updateFixed(x, w, c.order)
		}
		switch p.mode {
		case modeDict:
			before := c.dict.fl.Len()
			p.indices = c.dict.fl.Insert(p.indices, x)
			if c.bloom != nil {
				vals := c.dict.fl.Values()
				for i := before; i < c.dict.fl.Len(); i++ {
					c.bloom.Insert(bloom.HashBytes(vals[i*w : (i+1)*w]))
				}
			}
		default:
			if c.bloom != nil {
				for i := range nv {
					c.bloom.Insert(bloom.HashBytes(x[i*w : (i+1)*w]))
				}
			}
			if p.mode == modePlain {
				p.plain = append(p.plain, x...)
			} else {
				p.vals.Data = append(p.vals.Data, x...)
				p.rawBytes += len(x)
			}
		}
	}
	if p.mode == modeBuffered {
		p.vals.Len += nv
	}
	return nil
}

// encodeBuffered encodes the raw values of the page in the column's
// value encoding.
func (c *columnWriter) encodeBuffered(dst []byte) []byte {
	v := &c.page.vals
	switch c.cfg.encoding {
	case format.RLE:
		return encoding.AppendRLEBool(dst, v.Bools)
	case format.DeltaBinaryPacked:
		if c.kind == vector.Int32 {
			return c.delta.AppendInt32(dst, v.Int32s)
		}
		return c.delta.AppendInt64(dst, v.Int64s)
	case format.DeltaLengthByteArray:
		return c.dlba.Append(dst, v.Data, v.Offsets)
	case format.DeltaByteArray:
		if c.kind == vector.FixedLenByteArray {
			return c.dba.AppendFixedLen(dst, v.Data, c.width)
		}
		return c.dba.Append(dst, v.Data, v.Offsets)
	case format.ByteStreamSplit:
		switch c.kind {
		case vector.Int32:
			return encoding.AppendByteStreamSplitInt32(dst, v.Int32s)
		case vector.Int64:
			return encoding.AppendByteStreamSplitInt64(dst, v.Int64s)
		case vector.Float32:
			return encoding.AppendByteStreamSplitFloat32(dst, v.Float32s)
		case vector.Float64:
			return encoding.AppendByteStreamSplitFloat64(dst, v.Float64s)
		default:
			return encoding.AppendByteStreamSplitFixedLen(dst, v.Data, c.width)
		}
	case format.ALP:
		if c.kind == vector.Float32 {
			return c.alp.AppendFloat32(dst, v.Float32s)
		}
		return c.alp.AppendFloat64(dst, v.Float64s)
	}
	// PLAIN of values held raw: booleans (bit-packed as a whole page).
	switch c.kind {
	case vector.Bool:
		return encoding.AppendPlainBool(dst, v.Bools)
	case vector.Int32:
		return encoding.AppendPlainInt32(dst, v.Int32s)
	case vector.Int64:
		return encoding.AppendPlainInt64(dst, v.Int64s)
	case vector.Int96:
		return encoding.AppendPlainInt96(dst, v.Int96s)
	case vector.Float32:
		return encoding.AppendPlainFloat32(dst, v.Float32s)
	case vector.Float64:
		return encoding.AppendPlainFloat64(dst, v.Float64s)
	case vector.ByteArray:
		return encoding.AppendPlainByteArray(dst, v.Data, v.Offsets)
	}
	return append(dst, v.Data...)
}

func (c *columnWriter) compress(dst, src []byte) ([]byte, error) {
	if c.cfg.codec == format.Uncompressed {
		return append(dst[:0], src...), nil
	}
	out, err := c.codec.Encode(dst[:0], src)
	if err != nil {
		return nil, fmt.Errorf("column %s: %v: %w", c.path, c.cfg.codec, err)
	}
	return out, nil
}

// encodeValues appends the page's encoded values to dst.
func (c *columnWriter) encodeValues(dst []byte) ([]byte, format.Encoding) {
	p := &c.page
	switch {
	case p.mode == modeDict && p.nonNull > 0:
		return encoding.AppendDictIndices(dst, p.indices, c.dictLen()), format.RLEDictionary
	case p.mode == modeDict || p.mode == modePlain:
		return append(dst, p.plain...), format.Plain
	}
	autoBool := c.cfg.encoding == format.RLE && c.kind == vector.Bool && !c.cfg.encSet
	if autoBool && c.boolPlain {
		return encoding.AppendPlainBool(dst, p.vals.Bools), format.Plain
	}
	at := len(dst)
	if c.autoDelta && !c.deltaLost {
		return c.encodeAutoDelta(dst)
	}
	out := c.encodeBuffered(dst)
	if autoBool {
		// Booleans default to RLE, which wins on runs; on values without
		// runs the bit-packed PLAIN form is smaller: keep the smaller, and
		// go on with PLAIN once it has won.
		if plain := (len(p.vals.Bools) + 7) / 8; len(out)-at > plain {
			c.boolPlain = true
			return encoding.AppendPlainBool(out[:at], p.vals.Bools), format.Plain
		}
	}
	return out, c.cfg.encoding
}

// encodeAutoDelta appends the page's integers as DELTA_BINARY_PACKED if
// that takes at most 3/4 of their PLAIN size, else as PLAIN (and PLAIN for
// the rest of the chunk: values that did not delta-encode well once rarely
// do on the next page, and trying costs more than copying).
func (c *columnWriter) encodeAutoDelta(dst []byte) ([]byte, format.Encoding) {
	v := &c.page.vals
	at := len(dst)
	var out []byte
	var plain int
	if c.kind == vector.Int32 {
		out, plain = c.delta.AppendInt32(dst, v.Int32s), 4*len(v.Int32s)
	} else {
		out, plain = c.delta.AppendInt64(dst, v.Int64s), 8*len(v.Int64s)
	}
	if 4*(len(out)-at) <= 3*plain {
		return out, format.DeltaBinaryPacked
	}
	c.deltaLost = true
	if c.kind == vector.Int32 {
		return encoding.AppendPlainInt32(out[:at], v.Int32s), format.Plain
	}
	return encoding.AppendPlainInt64(out[:at], v.Int64s), format.Plain
}

// flushPage encodes, compresses and appends the current page to the chunk.
func (c *columnWriter) flushPage() error {
	p := &c.page
	if p.entries == 0 {
		return nil
	}
	ch := &c.chunk
	if p.mode == modeDict && len(ch.pages) == 0 && p.nonNull > 0 && !c.dictPays() {
		// The first page shows the dictionary does not beat PLAIN (the
		// values hardly repeat): write the page without it, and the rest
		// of the chunk too.
		c.undictPage()
	}
	if p.mode == modeDict && c.statsFromDict() {
		c.dictPageStats()
	}

	var st *format.Statistics
	pageEnc, pageHasMinMax := p.stats.encode(c.phys, c.order, c.utf8, c.truncate)
	if c.pageStats && c.withStats {
		st = c.statistics(&p.stats, pageEnc, pageHasMinMax, -1)
	}

	h := format.PageHeader{}
	var enc format.Encoding
	var body []byte
	if !c.v2 {
		raw := encoding.AppendLevelsV1(c.body[:0], p.rep, c.maxRep)
		raw = encoding.AppendLevelsV1(raw, p.def, c.maxDef)
		raw, enc = c.encodeValues(raw)
		c.body = raw
		body = raw
		if c.cfg.codec != format.Uncompressed {
			comp, err := c.compress(c.comp, raw)
			if err != nil {
				return err
			}
			c.comp = comp
			body = comp
		}
		h.Type = format.DataPage
		h.UncompressedPageSize = int32(len(raw))
		h.DataPageHeader = &format.DataPageHeader{
			NumValues: int32(p.entries), Encoding: enc,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
			Statistics: st,
		}
	} else {
		lv := encoding.AppendLevelsV2(c.lvl[:0], p.rep, c.maxRep)
		repLen := len(lv)
		lv = encoding.AppendLevelsV2(lv, p.def, c.maxDef)
		c.lvl = lv
		var values []byte
		if c.cfg.codec == format.Uncompressed {
			// Levels and values side by side, encoded in place.
			body, enc = c.encodeValues(append(c.body[:0], lv...))
			c.body = body
			values = body[len(lv):]
		} else {
			values, enc = c.encodeValues(c.vals[:0])
			c.vals = values
			comp, err := c.compress(c.comp, values)
			if err != nil {
				return err
			}
			c.comp = comp
			body = append(append(c.body[:0], lv...), comp...)
			c.body = body
		}
		h.Type = format.DataPageV2
		h.UncompressedPageSize = int32(len(lv) + len(values))
		h.DataPageHeaderV2 = &format.DataPageHeaderV2{
			NumValues: int32(p.entries), NumNulls: int32(p.entries - p.nonNull), NumRows: int32(p.rows),
			Encoding: enc, DefinitionLevelsByteLength: int32(len(lv) - repLen), RepetitionLevelsByteLength: int32(repLen),
			IsCompressed: format.Some(c.cfg.codec != format.Uncompressed), Statistics: st,
		}
	}
	var hdr []byte
	if c.enc != nil {
		var err error
		if hdr, body, err = c.enc.page(&h, body, len(ch.pages), c.checksum); err != nil {
			return err
		}
	} else {
		h.CompressedPageSize = int32(len(body))
		if c.checksum {
			h.CRC = format.Some(int32(crc32.ChecksumIEEE(body)))
		}
		hdr = format.Marshal(c.hdr[:0], &h)
		c.hdr = hdr
	}

	page := getPageBuf(len(hdr) + len(body))
	page = append(append(page, hdr...), body...)
	ch.locs = append(ch.locs, format.PageLocation{Offset: ch.size, CompressedPageSize: int32(len(page)), FirstRowIndex: ch.rows})
	ch.pages = append(ch.pages, page)
	ch.size += int64(len(page))
	ch.uncompressed += int64(len(hdr)) + int64(h.UncompressedPageSize)
	ch.compressed += int64(len(page))
	ch.numValues += int64(p.entries)
	ch.rows += int64(p.rows)
	ch.unencoded += p.unencoded
	ch.unencodedPages = append(ch.unencodedPages, p.unencoded)
	for i, n := range p.defHist {
		ch.defHist[i] += n
	}
	for i, n := range p.repHist {
		ch.repHist[i] += n
	}
	if enc == format.RLEDictionary {
		ch.dictPages++
	} else {
		ch.plainPages++
	}
	addEncStat(&ch.encStats, h.Type, enc)
	if ch.ciValid {
		null := p.nonNull == 0
		if !null && !pageHasMinMax {
			ch.ciValid = false // e.g. a page of NaNs only: no bounds to give
		} else {
			ch.nullPages = append(ch.nullPages, null)
			if null {
				ch.mins, ch.maxs = append(ch.mins, []byte{}), append(ch.maxs, []byte{})
			} else {
				ch.mins, ch.maxs = append(ch.mins, pageEnc.min), append(ch.maxs, pageEnc.max)
			}
			ch.nullCounts = append(ch.nullCounts, p.stats.nulls)
			ch.nanCounts = append(ch.nanCounts, p.stats.nans)
			ch.defHists = append(ch.defHists, p.defHist...)
			ch.repHists = append(ch.repHists, p.repHist...)
		}
	}
	ch.stats.merge(&p.stats, c.kind == vector.ByteArray || c.kind == vector.FixedLenByteArray, c.order)
	c.resetPage()
	return nil
}

// dictPays reports whether the dictionary encoding of the current (first)
// page, dictionary included, is smaller than its PLAIN encoding: the test
// parquet-mr applies before keeping a dictionary.
func (c *columnWriter) dictPays() bool {
	p := &c.page
	n := len(p.indices)
	dictSize := n*encoding.DictIndexBitWidth(c.dictLen())/8 + c.dictPlainSize()
	var plainSize int
	switch c.kind {
	case vector.ByteArray:
		plainSize = int(p.unencoded) + 4*n
	case vector.FixedLenByteArray:
		plainSize = n * c.width
	case vector.Int32, vector.Float32:
		plainSize = 4 * n
	case vector.Int96:
		plainSize = 12 * n
	default:
		plainSize = 8 * n
	}
	return dictSize < plainSize
}

// undictPage turns the current page's dictionary indices back into raw
// values, drops the dictionary, and turns it off for the rest of the chunk.
func (c *columnWriter) undictPage() {
	p := &c.page
	p.vals.Reset()
	p.vals.Kind, p.vals.Width = c.kind, c.width
	v := &p.vals
	switch c.kind {
	case vector.Int32:
		v.Int32s, _ = encoding.GatherInt32(v.Int32s, c.dict.i32.Values(), p.indices)
	case vector.Int64:
		v.Int64s, _ = encoding.GatherInt64(v.Int64s, c.dict.i64.Values(), p.indices)
	case vector.Int96:
		v.Int96s, _ = encoding.GatherInt96(v.Int96s, c.dict.i96.Values(), p.indices)
	case vector.Float32:
		v.Float32s, _ = encoding.GatherFloat32(v.Float32s, c.dict.f32.Values(), p.indices)
	case vector.Float64:
		v.Float64s, _ = encoding.GatherFloat64(v.Float64s, c.dict.f64.Values(), p.indices)
	case vector.ByteArray:
		v.Data, v.Offsets, _ = encoding.GatherByteArray(v.Data[:0], append(v.Offsets[:0], 0), c.dict.ba.Data(), c.dict.ba.Offsets(), p.indices)
	case vector.FixedLenByteArray:
		v.Data, _ = encoding.GatherFixedLen(v.Data, c.dict.fl.Values(), c.width, p.indices)
	}
	v.Len = len(p.indices)
	if c.statsFromDict() {
		c.dictPageStats()
	}
	p.mode = modeBuffered
	p.indices = p.indices[:0]
	c.dict.active = false
	c.resetDict()
}

// statsFromDict says whether the min/max of dictionary-encoded pages come
// from the dictionary entries they use (byte arrays, where comparing every
// value costs most) rather than from every value. FLOAT16 counts NaNs per
// value, so it is left out.
func (c *columnWriter) statsFromDict() bool {
	return (c.kind == vector.ByteArray || c.kind == vector.FixedLenByteArray) && c.withStats &&
		c.order != orderNone && c.order != orderFloat16
}

// dictPageStats computes the min/max of a dictionary-encoded byte-array
// page from the distinct entries it uses, one comparison per entry rather
// than per value.
func (c *columnWriter) dictPageStats() {
	p := &c.page
	if len(p.indices) == 0 {
		return
	}
	n := c.dictLen()
	seen := resize(c.seen, (n+63)/64)
	clear(seen)
	c.seen = seen
	for _, i := range p.indices {
		seen[i>>6] |= 1 << (uint(i) & 63)
	}
	var entry func(i int) []byte
	if c.kind == vector.ByteArray {
		data, offs := c.dict.ba.Data(), c.dict.ba.Offsets()
		entry = func(i int) []byte { return data[offs[i]:offs[i+1]] }
	} else {
		vals, w := c.dict.fl.Values(), c.width
		entry = func(i int) []byte { return vals[i*w : (i+1)*w] }
	}
	for wi, word := range seen {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			x := entry(wi*64 + b)
			if c.kind == vector.ByteArray {
				p.stats.updateByteArray(x, []int32{0, int32(len(x))}, c.order)
			} else {
				p.stats.updateFixed(x, c.width, c.order)
			}
		}
	}
}

// pagePools recycle the buffers that hold a row group's pages until it is
// written out: fresh memory costs page faults on first touch, and
// consecutive row groups (and writers) need buffers of the same sizes.
// A pool per size class (four per power of two) makes every buffer put
// back fit the next page of its class, and wastes under a quarter of it
// (one pool for all sizes missed mostly: a 1M-row zstd write allocated
// 7.4 MB of 9.8 MB of pages afresh).
var pagePools [4 * 32]sync.Pool

// minPooledPage: smaller pages are allocated as they come.
const minPooledPage = 1 << 10

// pageClass is the smallest size class of at least n > 1 bytes: 2^(k-1)
// plus q quarters of it (q = 1..4), numbered 4(k-1)+q-1.
func pageClass(n int) int {
	k := bits.Len(uint(n - 1))
	base := 1 << (k - 1)
	q := (n - base + base/4 - 1) / (base / 4)
	return 4*(k-1) + q - 1
}

func pageClassSize(c int) int {
	base := 1 << (c / 4)
	return base + (c%4+1)*(base/4)
}

func getPageBuf(n int) []byte {
	if n < minPooledPage || n > 1<<30 {
		return make([]byte, 0, n)
	}
	c := pageClass(n)
	if p, ok := pagePools[c].Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return make([]byte, 0, pageClassSize(c))
}

// putPageBuf pools b in the largest class it holds.
func putPageBuf(b []byte) {
	if cap(b) < minPooledPage || cap(b) > 1<<30 {
		return
	}
	pagePools[pageClass(cap(b)+1)-1].Put(&b)
}

func addEncStat(s *[]format.PageEncodingStats, t format.PageType, e format.Encoding) {
	for i := range *s {
		if (*s)[i].PageType == t && (*s)[i].Encoding == e {
			(*s)[i].Count++
			return
		}
	}
	*s = append(*s, format.PageEncodingStats{PageType: t, Encoding: e, Count: 1})
}

// statistics builds a Statistics struct; distinct < 0 means unknown.
func (c *columnWriter) statistics(s *statsAcc, e encodedStats, ok bool, distinct int64) *format.Statistics {
	st := &format.Statistics{NullCount: format.Some(s.nulls)}
	if ok {
		st.MinValue, st.MaxValue = e.min, e.max
		st.IsMinValueExact, st.IsMaxValueExact = format.Some(e.minExact), format.Some(e.maxExact)
		// The deprecated min/max fields used signed comparison: fill them
		// only where that is the column's order.
		if (c.order == orderSigned || c.order == orderFloat) && c.phys != format.ByteArray && c.phys != format.FixedLenByteArray {
			st.Min, st.Max = e.min, e.max
		}
	}
	if c.order == orderFloat || c.order == orderFloat16 {
		st.NanCount = format.Some(s.nans)
	}
	if distinct >= 0 {
		st.DistinctCount = format.Some(distinct)
	}
	return st
}

// chunkResult is what finishing a column chunk gives the file writer.
type chunkResult struct {
	cc    format.ColumnChunk
	ci    *format.ColumnIndex
	oi    *format.OffsetIndex
	bloom []byte
	// bloomHeader is the length of the bloom filter's header in bloom.
	bloomHeader int
}

// finish writes the column chunk (dictionary page first, then the data
// pages) to out at file offset off, and returns its metadata.
func (c *columnWriter) finish(out io.Writer, off int64) (chunkResult, error) {
	if err := c.flushPage(); err != nil {
		return chunkResult{}, err
	}
	ch := &c.chunk
	md := &format.ColumnMetaData{
		Type: c.phys, PathInSchema: slices.Clone(c.node.Path), Codec: c.cfg.codec,
		NumValues: ch.numValues,
	}
	var encs []format.Encoding
	dictOff := int64(-1)
	start := off
	if ch.dictPages > 0 {
		raw := c.appendDictPlain(c.body[:0])
		c.body = raw
		comp, err := c.compress(c.comp, raw)
		if err != nil {
			return chunkResult{}, err
		}
		c.comp = comp
		h := format.PageHeader{
			Type: format.DictionaryPage, UncompressedPageSize: int32(len(raw)), CompressedPageSize: int32(len(comp)),
			DictionaryPageHeader: &format.DictionaryPageHeader{NumValues: int32(c.dictLen()), Encoding: format.Plain},
		}
		var hdr []byte
		if c.enc != nil {
			if hdr, comp, err = c.enc.page(&h, comp, -1, c.checksum); err != nil {
				return chunkResult{}, err
			}
		} else {
			if c.checksum {
				h.CRC = format.Some(int32(crc32.ChecksumIEEE(comp)))
			}
			hdr = format.Marshal(c.hdr[:0], &h)
			c.hdr = hdr
		}
		if _, err := out.Write(hdr); err != nil {
			return chunkResult{}, err
		}
		if _, err := out.Write(comp); err != nil {
			return chunkResult{}, err
		}
		dictOff = off
		off += int64(len(hdr) + len(comp))
		ch.uncompressed += int64(len(hdr) + len(raw))
		ch.compressed += int64(len(hdr) + len(comp))
		encs = append(encs, format.Plain)
		md.EncodingStats = append(md.EncodingStats, format.PageEncodingStats{PageType: format.DictionaryPage, Encoding: format.Plain, Count: 1})
	}
	for _, pg := range ch.pages {
		if _, err := out.Write(pg); err != nil {
			return chunkResult{}, err
		}
	}
	for _, pg := range ch.pages {
		putPageBuf(pg)
	}
	md.DataPageOffset = off
	if dictOff >= 0 {
		md.DictionaryPageOffset = format.Some(dictOff)
	}
	md.TotalCompressedSize = ch.compressed
	md.TotalUncompressedSize = ch.uncompressed
	if c.maxDef > 0 || c.maxRep > 0 {
		encs = append(encs, format.RLE)
	}
	for _, es := range ch.encStats {
		encs = append(encs, es.Encoding)
	}
	slices.Sort(encs)
	md.Encodings = slices.Compact(encs)
	md.EncodingStats = append(md.EncodingStats, ch.encStats...)
	if c.withStats {
		e, ok := ch.stats.encode(c.phys, c.order, c.utf8, c.truncate)
		distinct := int64(-1)
		if ch.plainPages == 0 && ch.dictPages > 0 && c.order != orderFloat && c.order != orderFloat16 {
			distinct = int64(c.dictLen())
		}
		md.Statistics = c.statistics(&ch.stats, e, ok, distinct)
	}
	if c.phys == format.ByteArray || c.maxDef > 0 || c.maxRep > 0 {
		ss := &format.SizeStatistics{}
		if c.phys == format.ByteArray {
			ss.UnencodedByteArrayDataBytes = format.Some(ch.unencoded)
		}
		if c.maxRep > 0 {
			ss.RepetitionLevelHistogram = slices.Clone(ch.repHist)
		}
		if c.maxDef > 0 {
			ss.DefinitionLevelHistogram = slices.Clone(ch.defHist)
		}
		md.SizeStatistics = ss
	}
	res := chunkResult{cc: format.ColumnChunk{FileOffset: start, MetaData: md}}
	if c.cfg.pageIndex {
		oi := &format.OffsetIndex{PageLocations: slices.Clone(ch.locs)}
		for i := range oi.PageLocations {
			oi.PageLocations[i].Offset += off
		}
		if c.phys == format.ByteArray {
			oi.UnencodedByteArrayDataBytes = slices.Clone(ch.unencodedPages)
		}
		res.oi = oi
		if ch.ciValid && len(ch.nullPages) == len(ch.locs) {
			ci := &format.ColumnIndex{
				NullPages: slices.Clone(ch.nullPages), MinValues: slices.Clone(ch.mins), MaxValues: slices.Clone(ch.maxs),
				NullCounts: slices.Clone(ch.nullCounts),
			}
			ci.BoundaryOrder = boundaryOrder(c.phys, c.order, ch.nullPages, ch.mins, ch.maxs)
			if c.order == orderFloat || c.order == orderFloat16 {
				ci.NanCounts = slices.Clone(ch.nanCounts)
			}
			if c.maxRep > 0 {
				ci.RepetitionLevelHistograms = slices.Clone(ch.repHists)
			}
			if c.maxDef > 0 {
				ci.DefinitionLevelHistograms = slices.Clone(ch.defHists)
			}
			res.ci = ci
		}
	}
	if c.bloom != nil {
		res.bloom = appendBloom(nil, c.bloom)
		res.bloomHeader = len(res.bloom) - c.bloom.NumBytes()
	}
	c.resetChunk()
	return res, nil
}

// boundaryOrder tells whether the non-null pages' bounds ascend or descend.
func boundaryOrder(t format.Type, order sortOrder, null []bool, mins, maxs [][]byte) format.BoundaryOrder {
	asc, desc := true, true
	prev := -1
	for i := range null {
		if null[i] {
			continue
		}
		if prev >= 0 {
			cmin := compareEncoded(t, order, mins[prev], mins[i])
			cmax := compareEncoded(t, order, maxs[prev], maxs[i])
			if cmin > 0 || cmax > 0 {
				asc = false
			}
			if cmin < 0 || cmax < 0 {
				desc = false
			}
		}
		prev = i
	}
	switch {
	case asc:
		return format.Ascending
	case desc:
		return format.Descending
	}
	return format.Unordered
}
