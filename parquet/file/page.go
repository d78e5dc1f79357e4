package file

import (
	"fmt"
	"hash/crc32"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/thrift"
)

// Page is one decompressed page of a column chunk.
type Page struct {
	Header *format.PageHeader
	Type   format.PageType
	// Offset is the file offset of the page header.
	Offset int64
	// NumValues counts level entries (values including nulls) of a data
	// page, or the entries of a dictionary page.
	NumValues int
	// NumNulls and NumRows are what a v2 data page header says (-1 for
	// other pages); NumNulls as written, which may be wrong (see
	// ColumnReader.checkNulls).
	NumNulls, NumRows int
	Encoding          format.Encoding
	// DefLevelEncoding and RepLevelEncoding are v1's level encodings.
	DefLevelEncoding, RepLevelEncoding format.Encoding
	// V2 is set for DATA_PAGE_V2, whose levels are RLE without a length
	// prefix, in RepLevels and DefLevels; for v1 pages the levels are at
	// the start of Data.
	V2                   bool
	RepLevels, DefLevels []byte
	// Data holds the decompressed page body (v1: levels then values; v2:
	// values only).
	Data []byte
	// InFile says that Data is a slice of the file's bytes as read (the page
	// is not compressed) that nothing overwrites — the mapping, or a page
	// read on its own — not of a decompression or pooled chunk buffer that
	// later pages reuse: values in it may be lent out.
	InFile bool
}

// PageIterator walks the pages of a column chunk. By default it reads the
// whole chunk with its first page; once given an offset index (ReadLazily)
// it reads one page at a time, so that pages skipped by a seek are never
// read from the file.
type PageIterator struct {
	c *Chunk
	// start and end are the chunk's file offsets.
	start, end int64
	// buf holds file bytes [base, base+len(buf)): the whole chunk, or in
	// lazy mode the current page; pos is the read position within it.
	buf    []byte
	base   int64
	pos    int
	loaded bool
	pooled bool // buf is a window buffer (getWindow), reused and given back
	// reusePages makes pages read one at a time (lazy) go into reused
	// window buffers too, instead of buffers of their own that values
	// can be lent from at any time: for readers whose batches do not
	// outlive the next one (ColumnReader.lendPooled).
	reusePages bool
	lazy       *format.OffsetIndex
	codec      compress.Codec
	values     int64 // level entries seen in data pages
	scratch    []byte
	hdr        format.PageHeader
	r          thrift.Reader
	verify     bool
	stats      *ReadStats
	// check is the offset index data page headers are checked against
	// (with verify), loaded at the first page when checkLoaded is unset;
	// nil when the chunk has none.
	check       *format.OffsetIndex
	checkLoaded bool
	// Of encrypted chunks: the ordinal of the next data page, the offset
	// index that gives the ordinal of a page sought to, and the buffer
	// pages are decrypted into.
	ordinal int
	ords    *format.OffsetIndex
	plain   []byte
}

// ReadStats count the I/O of reads that share it (safe for concurrent use).
type ReadStats struct {
	BytesRead, BytesDecompressed, Pages atomic.Int64
}

// Pages returns an iterator over the chunk's pages.
func (c *Chunk) Pages() (*PageIterator, error) {
	start, length, err := c.ByteRange()
	if err != nil {
		return nil, err
	}
	codec, err := compress.Lookup(c.Meta.Codec)
	if err != nil {
		return nil, c.wrap(start, err)
	}
	return &PageIterator{c: c, start: start, end: start + length, base: start, codec: codec,
		verify: !c.File.opts.SkipChecksums, stats: c.Stats}, nil
}

// SkipIndexCheck turns off the cross-check of page headers against the
// offset index (see crossCheck), for tools that compare the two
// themselves and report each difference (pqsql validate). CRCs are still
// checked unless the file's Options skip them.
func (it *PageIterator) SkipIndexCheck() {
	it.check, it.checkLoaded = nil, true
}

// ReadLazily makes the iterator read one page at a time, using the offset
// index for page sizes. Memory-mapped files are read whole regardless (it
// costs nothing).
func (it *PageIterator) ReadLazily(oi *format.OffsetIndex) {
	if oi != nil && it.c.File.mapped == nil && !it.loaded {
		it.lazy = oi
	}
	if oi != nil && it.check == nil && !it.checkLoaded {
		it.check, it.checkLoaded = oi, true
	}
	if oi != nil {
		it.ords = oi
	}
}

// windowSize is how much of a column chunk the iterator reads at a time
// (unless a page needs more): small enough to stay in cache while its
// pages are checked (CRC) and decoded — a reader of five columns holds
// five windows, and with 1 MiB each a window's pages were evicted by
// the others' before they were decoded (a full read of the events table
// spent 15% more CPU) — and to come from a few reused buffers
// (windowCache) rather than a fresh allocation whose every 4 KiB page
// faults on first touch, which cost more than the decoding when whole
// chunks of several MiB were read at once.
var windowSize int64 = 256 << 10 // a variable for tests

// windowCache keeps a few idle window buffers: enough for the columns two
// or three workers read at once. Unlike a sync.Pool it is not emptied by
// garbage collections, which in a process that allocates (any reader of
// batches) come between two scans.
var windowCache = make(chan []byte, 16)

// getWindow returns a buffer of n bytes, from windowCache when n fits a
// window. A read that finds none gets a buffer of its size; a window's
// worth of capacity when n is at least an eighth of one, so that the
// chunks of files with many small row groups (DuckDB writes 122,880 rows
// a group) are read into kept buffers rather than fresh ones; smaller
// reads (small tables) are not worth a window.
func getWindow(n int64) []byte {
	if n <= windowSize {
		select {
		case b := <-windowCache:
			if int64(cap(b)) >= n {
				return b[:n]
			}
		default:
		}
		if n >= windowSize/8 {
			return make([]byte, n, windowSize)
		}
	} else if b := getScratch(int(n)); b != nil {
		// a page larger than a window, read whole
		return b[:n]
	}
	return make([]byte, n)
}

// scratch keeps a few buffers of finished iterators — their decompression
// buffers (ColumnReader.Release) and pages larger than a window read whole —
// so that the next column chunks use memory already touched rather than
// fresh allocations, which the runtime clears and the kernel faults in
// page by page: with writers that put a whole column chunk in one page
// (DuckDB: 8 MB for a million doubles) that cost a fifth of a full read.
// It keeps at most maxScratchBytes, and no buffer over maxScratchKept.
// bufs is in the order the buffers were given back; when a new one does
// not fit in the budget the oldest go to make room: they are the ones
// that fitted no page since, sized for files read earlier (a reader of
// DuckDB's 8 MB pages after another file's smaller decompression buffers
// filled the budget allocated each page afresh, at every read, and gave
// it up again: a full read of its uncompressed file spent twice the CPU).
var scratch struct {
	sync.Mutex
	bufs  [][]byte
	bytes int
}

const (
	minScratchKept = 64 << 10
	maxScratchKept = 16 << 20
)

var maxScratchBytes = 48 << 20 // a variable for tests

// getScratch returns a kept buffer of at least n bytes of capacity (the
// smallest), or nil.
func getScratch(n int) []byte {
	scratch.Lock()
	defer scratch.Unlock()
	best := -1
	for i, b := range scratch.bufs {
		if cap(b) >= n && (best < 0 || cap(b) < cap(scratch.bufs[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	b := scratch.bufs[best]
	scratch.bufs = slices.Delete(scratch.bufs, best, best+1) // keeps the order
	scratch.bytes -= cap(b)
	return b[:0]
}

func putScratch(b []byte) {
	if cap(b) < minScratchKept || cap(b) > min(maxScratchKept, maxScratchBytes) {
		return
	}
	scratch.Lock()
	defer scratch.Unlock()
	old := 0 // the oldest buffers to drop
	for scratch.bytes+cap(b) > maxScratchBytes {
		scratch.bytes -= cap(scratch.bufs[old])
		old++
	}
	scratch.bufs = slices.Delete(scratch.bufs, 0, old)
	scratch.bufs = append(scratch.bufs, b[:0])
	scratch.bytes += cap(b)
}

// releaseScratch gives the decompression buffer back once the chunk is
// done with (no page of it is used any more).
func (it *PageIterator) releaseScratch() {
	putScratch(it.scratch)
	it.scratch = nil
	if it.plain != nil {
		putScratch(it.plain) // an encrypted chunk's decryption buffer
		it.plain = nil
	}
}

// putWindow keeps b for reuse if it is a window buffer and there is room,
// or, larger, among the decompression buffers.
func putWindow(b []byte) {
	if int64(cap(b)) == windowSize {
		select {
		case windowCache <- b[:0]:
		default:
		}
		return
	}
	if int64(cap(b)) > windowSize {
		putScratch(b) // a page larger than a window, read whole
	}
}

// load makes buf hold the bytes at the current offset: the page (lazy), the
// chunk (mapped), or a window of the chunk.
func (it *PageIterator) load() error {
	off := it.Offset()
	if it.loaded && off >= it.base && off < it.base+int64(len(it.buf)) {
		return nil
	}
	return it.loadAt(off, 0)
}

// windowed reports whether buf is a window that ends before the chunk does
// (a page that does not fit in it is read again, whole).
func (it *PageIterator) windowed() bool {
	return it.pooled && it.lazy == nil && it.base+int64(len(it.buf)) < it.end
}

// loadAt reads the bytes at off into buf: the page there (lazy), the whole
// chunk (mapped: it costs nothing), or a window of at least need bytes.
// Windows (and with reusePages lazily read pages) go into reused buffers,
// so their values are lent only as ColumnReader.lendPooled allows (InFile
// is false); a mapping, or a page read lazily into a buffer of its own,
// lends its values at any time.
func (it *PageIterator) loadAt(off, need int64) error {
	var length int64
	window := it.lazy == nil && it.c.File.mapped == nil
	pool := window || it.lazy != nil && it.reusePages && it.c.File.mapped == nil
	switch {
	case it.c.File.mapped != nil:
		off, length = it.start, it.end-it.start
	case it.lazy != nil:
		length = it.pageExtent(off)
	default:
		length = min(it.end-off, max(windowSize, need))
	}
	var buf []byte
	var err error
	reuse := pool && it.pooled && int64(cap(it.buf)) >= length
	switch {
	case reuse:
		buf = it.buf[:length]
		// Bytes from off that the window holds already (the start of a
		// page it cut) move to the front instead of being read again.
		kept := 0
		if off >= it.base && off < it.base+int64(len(it.buf)) {
			kept = copy(buf, it.buf[off-it.base:])
		}
		err = readFull(it.c.File.r, buf[kept:], off+int64(kept))
	case pool:
		if window {
			buf = getWindow(length)
		} else {
			// A whole window when the chunk has that much left, so
			// that it is kept for reuse (getWindow) and fits the pages
			// that follow.
			buf = getWindow(max(length, min(windowSize, it.end-off)))[:length]
		}
		if err = readFull(it.c.File.r, buf, off); err != nil {
			putWindow(buf)
		}
	default:
		buf, err = it.c.File.readRange(off, length)
	}
	if err != nil {
		if reuse {
			it.Release() // its bytes were overwritten
		}
		return it.c.wrap(off, err)
	}
	if it.stats != nil {
		fresh := length
		if it.loaded && off >= it.base && off < it.base+int64(len(it.buf)) {
			fresh -= it.base + int64(len(it.buf)) - off // read again: counted once
		}
		it.stats.BytesRead.Add(fresh)
	}
	if !reuse {
		it.Release()
	}
	it.pos = int(it.Offset() - off)
	it.buf, it.base, it.loaded, it.pooled = buf, off, true, pool
	return nil
}

// Release gives a window buffer back. The iterator must not be used for
// pages of that buffer afterwards (Next loads again if needed).
func (it *PageIterator) Release() {
	if it.pooled {
		putWindow(it.buf)
		it.buf, it.pooled, it.loaded = nil, false, false
	}
}

// pageExtent is the size of the page at off: from the offset index, or up
// to the first data page for a dictionary page (which the index omits).
func (it *PageIterator) pageExtent(off int64) int64 {
	locs := it.lazy.PageLocations
	i := sort.Search(len(locs), func(i int) bool { return locs[i].Offset >= off })
	if i < len(locs) && locs[i].Offset == off {
		return min(int64(locs[i].CompressedPageSize), it.end-off)
	}
	if i < len(locs) {
		// A dictionary page before the data pages; never past the chunk's
		// end, whatever offset the index gives (a hostile one made this
		// read half a gigabyte in a 3 KB file — found by FuzzOpen).
		return min(locs[i].Offset, it.end) - off
	}
	return it.end - off
}

// SeekTo positions the iterator at a page header at file offset off (from
// an offset index). Offsets outside the chunk are an error.
func (it *PageIterator) SeekTo(off int64) error {
	if off < it.start || off > it.end {
		return it.c.errorf(off, "%w: page offset outside the column chunk", ErrCorrupt)
	}
	if it.c.crypt != nil {
		if err := it.seekOrdinal(off); err != nil {
			return err
		}
	}
	it.pos = int(off - it.base)
	return nil
}

// Offset is the file offset of the next page header.
func (it *PageIterator) Offset() int64 { return it.base + int64(it.pos) }

// Done reports whether the chunk's pages are exhausted: all its values were
// seen, or its bytes used up.
func (it *PageIterator) Done() bool {
	return it.Offset() >= it.end || it.values >= it.c.Meta.NumValues && it.c.Meta.NumValues > 0
}

// Next reads the next page. The returned page's buffers are valid until
// the next call. Index pages are skipped.
func (it *PageIterator) Next() (*Page, error) {
	if it.c.crypt != nil {
		return it.nextEncrypted()
	}
	for {
		if it.Offset() >= it.end {
			return nil, it.c.errorf(it.Offset(), "%w: column chunk ended before all %d values were read", ErrCorrupt, it.c.Meta.NumValues)
		}
		if err := it.load(); err != nil {
			return nil, err
		}
		off := it.Offset()
		it.hdr = format.PageHeader{}
		it.r.Reset(it.buf[it.pos:])
		if err := it.hdr.Decode(&it.r); err != nil {
			if it.windowed() {
				// The window may have cut the header: read again from it,
				// twice as much, until the window reaches the chunk's end.
				if err := it.loadAt(off, 2*int64(len(it.buf)-it.pos)); err != nil {
					return nil, err
				}
				continue
			}
			return nil, it.c.errorf(off, "%w: page header: %w", ErrCorrupt, err)
		}
		h := &it.hdr
		body, reload, err := it.takeBody(off, it.pos+it.r.Offset(), h)
		if err != nil {
			return nil, err
		}
		if reload {
			continue
		}
		switch h.Type {
		case format.IndexPage:
			continue
		case format.DictionaryPage:
			return it.dictionaryPage(off, body)
		case format.DataPage:
			return it.dataPageV1(off, body)
		case format.DataPageV2:
			return it.dataPageV2(off, body)
		default:
			// Unknown page types from newer writers are skipped like index pages.
			continue
		}
	}
}

// crossCheck compares the header of the page at off (length bytes with
// its header) with what the chunk's offset index says of it, and checks
// that its encodings are valid enum values and that the column chunk's
// dictionary page is one: the CRC covers the page body,
// not its header, and a damaged header that still decodes must not pass
// for another page. The offset index lists every data page of the chunk
// (with its size and first row) and no other page.
func (it *PageIterator) crossCheck(off, length int64, h *format.PageHeader) error {
	var encs [3]format.Encoding
	switch {
	case h.DataPageHeader != nil:
		encs = [3]format.Encoding{h.DataPageHeader.Encoding, h.DataPageHeader.DefinitionLevelEncoding, h.DataPageHeader.RepetitionLevelEncoding}
	case h.DataPageHeaderV2 != nil:
		encs[0] = h.DataPageHeaderV2.Encoding
	case h.DictionaryPageHeader != nil:
		encs[0] = h.DictionaryPageHeader.Encoding
	}
	for _, e := range encs {
		if e < 0 {
			return it.c.errorf(off, "%w: page header names encoding %d", ErrCorrupt, int32(e))
		}
	}
	if d, ok := it.c.Meta.DictionaryPageOffset.Get(); ok && d == off && d < it.c.Meta.DataPageOffset && h.Type != format.DictionaryPage {
		return it.c.errorf(off, "%w: a page of type %v where the column chunk metadata puts its dictionary page", ErrCorrupt, h.Type)
	}
	if !it.checkLoaded {
		it.checkLoaded = true
		oi, err := it.c.OffsetIndex()
		if err != nil {
			return err
		}
		it.check = oi
	}
	if it.check == nil {
		return nil
	}
	locs := it.check.PageLocations
	i := sort.Search(len(locs), func(i int) bool { return locs[i].Offset >= off })
	listed := i < len(locs) && locs[i].Offset == off
	data := h.Type == format.DataPage || h.Type == format.DataPageV2
	switch {
	case !listed && data:
		return it.c.errorf(off, "%w: a data page the column chunk's offset index does not list", ErrCorrupt)
	case !listed:
		return nil
	case !data:
		return it.c.errorf(off, "%w: a page of type %v where the offset index lists a data page", ErrCorrupt, h.Type)
	case int64(locs[i].CompressedPageSize) != length:
		return it.c.errorf(off, "%w: page of %d bytes with its header, the offset index says %d", ErrCorrupt, length, locs[i].CompressedPageSize)
	}
	rows := it.c.NumRows - locs[i].FirstRowIndex
	if i+1 < len(locs) {
		rows = locs[i+1].FirstRowIndex - locs[i].FirstRowIndex
	}
	var values, pageRows int64 = -1, -1
	if dh := h.DataPageHeaderV2; dh != nil {
		values, pageRows = int64(dh.NumValues), int64(dh.NumRows)
	} else if dh := h.DataPageHeader; dh != nil {
		values = int64(dh.NumValues)
	}
	if it.c.Leaf.MaxRep == 0 && pageRows < 0 {
		pageRows = values // one value (or null) per row
	}
	if pageRows >= 0 && pageRows != rows || values >= 0 && values < rows {
		return it.c.errorf(off, "%w: page header says %d values in %d rows, the offset index %d rows", ErrCorrupt, values, pageRows, rows)
	}
	return nil
}

// checkLimits refuses pages larger than the file's Options allow, before
// anything is decompressed.
func (it *PageIterator) checkLimits(off int64, h *format.PageHeader) error {
	what, limit := "page", it.c.File.opts.pageSize()
	if h.Type == format.DictionaryPage {
		what, limit = "dictionary page", it.c.File.opts.dictionarySize()
	}
	if size := max(int64(h.CompressedPageSize), int64(h.UncompressedPageSize)); size > int64(limit) {
		return it.c.errorf(off, "%s of %d bytes is %w (%d bytes)", what, size, ErrLimit, limit)
	}
	return nil
}

// decodeSlack is the spare capacity decompression buffers get past the
// page's size: what the codec that asks most wants (zstd).
const decodeSlack = 32

func (it *PageIterator) decompress(off int64, body []byte, size int) ([]byte, error) {
	if it.c.Meta.Codec == format.Uncompressed {
		if len(body) != size {
			return nil, it.c.errorf(off, "%w: uncompressed page holds %d bytes, its header says %d", ErrCorrupt, len(body), size)
		}
		return body, nil
	}
	if size == 0 && len(body) == 0 {
		return body[:0], nil
	}
	// Codecs want a little spare capacity past the page (zstd 32 bytes):
	// a buffer of exactly a page's size was refused by the codec, which
	// allocated a new one for each page a few bytes larger than the last.
	if cap(it.scratch) < size+decodeSlack {
		b := getScratch(size + decodeSlack)
		if b == nil && cap(it.scratch) < size {
			b = getScratch(size) // enough for codecs that want no slack
		}
		if b == nil && size >= minScratchKept/4 && size+decodeSlack <= minScratchKept {
			// A page not tiny but under the size worth keeping
			// (putScratch) gets a buffer of that size: otherwise a chunk
			// of such pages allocates again at each page a little larger
			// than the last, and none of them is ever reused. (Larger
			// buffers are left to the codec, which grows them as the
			// output really comes: the header's size is not trusted.)
			b = make([]byte, 0, minScratchKept)
		}
		if b != nil {
			putScratch(it.scratch)
			it.scratch = b
		}
	}
	out, err := it.codec.Decode(it.scratch[:0], body, size)
	if err != nil {
		return nil, it.c.wrap(off, err)
	}
	if !sameBuffer(out, it.scratch) {
		// The codec grew its own buffer: keep that one. (One it decoded
		// into is kept whole: codecs may cut the capacity they return.)
		it.scratch = out
	}
	return out, nil
}

// sameBuffer reports whether out starts where buf's array does.
func sameBuffer(out, buf []byte) bool {
	return cap(out) > 0 && cap(buf) > 0 && &out[:1][0] == &buf[:1][0]
}

func (it *PageIterator) dictionaryPage(off int64, body []byte) (*Page, error) {
	h := &it.hdr
	dh := h.DictionaryPageHeader
	if dh == nil {
		return nil, it.c.errorf(off, "%w: dictionary page without a dictionary page header", ErrCorrupt)
	}
	if dh.NumValues < 0 {
		return nil, it.c.errorf(off, "%w: dictionary page with %d values", ErrCorrupt, dh.NumValues)
	}
	data, err := it.decompress(off, body, int(h.UncompressedPageSize))
	if err != nil {
		return nil, err
	}
	return &Page{Header: h, Type: format.DictionaryPage, Offset: off, NumValues: int(dh.NumValues),
		NumNulls: -1, NumRows: -1, Encoding: dh.Encoding, Data: data}, nil
}

func (it *PageIterator) dataPageV1(off int64, body []byte) (*Page, error) {
	h := &it.hdr
	dh := h.DataPageHeader
	if dh == nil {
		return nil, it.c.errorf(off, "%w: data page without a data page header", ErrCorrupt)
	}
	if dh.NumValues < 0 {
		return nil, it.c.errorf(off, "%w: data page with %d values", ErrCorrupt, dh.NumValues)
	}
	data, err := it.decompress(off, body, int(h.UncompressedPageSize))
	if err != nil {
		return nil, err
	}
	it.values += int64(dh.NumValues)
	return &Page{Header: h, Type: format.DataPage, Offset: off, NumValues: int(dh.NumValues), NumNulls: -1, NumRows: -1,
		Encoding: dh.Encoding, DefLevelEncoding: dh.DefinitionLevelEncoding, RepLevelEncoding: dh.RepetitionLevelEncoding,
		Data: data, InFile: it.c.Meta.Codec == format.Uncompressed && !it.pooled}, nil
}

func (it *PageIterator) dataPageV2(off int64, body []byte) (*Page, error) {
	h := &it.hdr
	dh := h.DataPageHeaderV2
	if dh == nil {
		return nil, it.c.errorf(off, "%w: v2 data page without its header", ErrCorrupt)
	}
	rl, dl := int(dh.RepetitionLevelsByteLength), int(dh.DefinitionLevelsByteLength)
	// num_nulls is checked against the definition levels when the page is
	// read (ColumnReader.checkNulls).
	if dh.NumValues < 0 || dh.NumRows < 0 || rl < 0 || dl < 0 || rl+dl > len(body) || rl+dl > int(h.UncompressedPageSize) {
		return nil, it.c.errorf(off, "%w: inconsistent v2 data page header", ErrCorrupt)
	}
	values := body[rl+dl:]
	size := int(h.UncompressedPageSize) - rl - dl
	var data []byte
	inFile := true
	if dh.IsCompressed.Or(true) && it.c.Meta.Codec != format.Uncompressed {
		inFile = false
		if len(values) == 0 && size == 0 {
			// An empty body is not a valid stream for some codecs
			// (datapage_v2_empty_datapage.snappy.parquet): nothing to decompress.
			data = values
		} else {
			var err error
			if data, err = it.decompress(off, values, size); err != nil {
				return nil, err
			}
		}
	} else {
		if len(values) != size {
			return nil, it.c.errorf(off, "%w: uncompressed v2 page values hold %d bytes, the header says %d", ErrCorrupt, len(values), size)
		}
		data = values
	}
	it.values += int64(dh.NumValues)
	return &Page{Header: h, Type: format.DataPageV2, Offset: off, NumValues: int(dh.NumValues), NumNulls: int(dh.NumNulls),
		NumRows: int(dh.NumRows), Encoding: dh.Encoding, V2: true, RepLevels: body[:rl], DefLevels: body[rl : rl+dl], Data: data,
		InFile: inFile && !it.pooled}, nil
}

// takeBody takes the body of the page whose header h (at off) ends at
// bodyStart, checking its sizes, its CRC (of the page as stored, so
// encrypted where the chunk is) and, when verifying, the offset index. It
// reports reload when the window cut the page: the window was read again
// from off, and the caller decodes the header anew.
func (it *PageIterator) takeBody(off int64, bodyStart int, h *format.PageHeader) (body []byte, reload bool, err error) {
	size := int(h.CompressedPageSize)
	if h.UncompressedPageSize < 0 {
		return nil, false, it.c.errorf(off, "%w: negative uncompressed page size", ErrCorrupt)
	}
	if err := it.checkLimits(off, h); err != nil {
		return nil, false, err
	}
	if h.CompressedPageSize >= 0 && size > len(it.buf)-bodyStart && it.windowed() {
		// The page goes past the window: read it again, whole (at most to
		// the chunk's end; a size beyond it fails below).
		if err := it.loadAt(off, int64(bodyStart-it.pos)+int64(size)); err != nil {
			return nil, false, err
		}
		return nil, true, nil
	}
	if h.CompressedPageSize < 0 || size > len(it.buf)-bodyStart {
		return nil, false, it.c.errorf(off, "%w: page of %d bytes overruns the column chunk (%d bytes left)", ErrCorrupt, h.CompressedPageSize, len(it.buf)-bodyStart)
	}
	body = it.buf[bodyStart : bodyStart+size]
	it.pos = bodyStart + size
	if it.stats != nil {
		it.stats.Pages.Add(1)
		it.stats.BytesDecompressed.Add(int64(h.UncompressedPageSize))
	}
	// Under AES_GCM_V1 the page's tag authenticates every byte of the
	// body the CRC covers (and more): a damaged page fails to decrypt, so
	// the CRC would only cost time. CTR pages have no tag and keep it.
	gcmPage := it.c.crypt != nil && !it.c.crypt.ctr
	if it.verify && h.CRC.Set && !gcmPage {
		if got := crc32.ChecksumIEEE(body); int32(got) != h.CRC.Value {
			return nil, false, it.c.wrap(off, fmt.Errorf("page CRC32 %w (stored %08x, computed %08x)", ErrChecksum, uint32(h.CRC.Value), got))
		}
	}
	if it.verify {
		if err := it.crossCheck(off, int64(it.pos)-(off-it.base), h); err != nil {
			return nil, false, err
		}
	}
	return body, false, nil
}
