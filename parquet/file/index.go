package file

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/encryption"
	"github.com/carquet-go/carquet/parquet/format"
)

// maxIndexSize bounds the page-index and bloom-filter sizes a footer may
// claim before we read them.
const maxIndexSize = 256 << 20

// ColumnIndex reads the column index (per-page min/max) of a chunk, or nil
// when the file has none.
func (c *Chunk) ColumnIndex() (*format.ColumnIndex, error) {
	off, ok := c.CC.ColumnIndexOffset.Get()
	n := c.CC.ColumnIndexLength.Value
	if !ok || !c.CC.ColumnIndexLength.Set {
		return nil, nil
	}
	b, err := c.indexBytes(off, n, "column index")
	if err != nil {
		return nil, err
	}
	if c.crypt != nil {
		if b, err = c.crypt.open(nil, b, encryption.ColumnIndex, -1); err != nil {
			return nil, c.wrap(off, err)
		}
	}
	ci := new(format.ColumnIndex)
	if _, err := format.Unmarshal(b, ci); err != nil {
		return nil, c.errorf(off, "%w: column index: %w", ErrCorrupt, err)
	}
	if len(ci.MinValues) != len(ci.NullPages) || len(ci.MaxValues) != len(ci.NullPages) ||
		(ci.NullCounts != nil && len(ci.NullCounts) != len(ci.NullPages)) {
		return nil, c.errorf(off, "%w: column index lists of different lengths", ErrCorrupt)
	}
	return ci, nil
}

// OffsetIndex reads the offset index (page locations) of a chunk, or nil.
func (c *Chunk) OffsetIndex() (*format.OffsetIndex, error) {
	off, ok := c.CC.OffsetIndexOffset.Get()
	n := c.CC.OffsetIndexLength.Value
	if !ok || !c.CC.OffsetIndexLength.Set {
		return nil, nil
	}
	b, err := c.indexBytes(off, n, "offset index")
	if err != nil {
		return nil, err
	}
	if c.crypt != nil {
		if b, err = c.crypt.open(nil, b, encryption.OffsetIndex, -1); err != nil {
			return nil, c.wrap(off, err)
		}
	}
	oi := new(format.OffsetIndex)
	if _, err := format.Unmarshal(b, oi); err != nil {
		return nil, c.errorf(off, "%w: offset index: %w", ErrCorrupt, err)
	}
	prev := int64(-1)
	for i, pl := range oi.PageLocations {
		if pl.FirstRowIndex <= prev || pl.FirstRowIndex < 0 || pl.FirstRowIndex >= max(c.NumRows, 1) && i > 0 || pl.Offset < 0 || pl.CompressedPageSize < 0 {
			return nil, c.errorf(off, "%w: offset index page %d is out of order or out of range", ErrCorrupt, i)
		}
		prev = pl.FirstRowIndex
	}
	return oi, nil
}

func (c *Chunk) indexBytes(off int64, n int32, what string) ([]byte, error) {
	if n < 0 || n > maxIndexSize {
		return nil, c.errorf(off, "%w: %s length %d", ErrCorrupt, what, n)
	}
	b, err := c.File.ReadRange(off, int64(n))
	if err != nil {
		return nil, c.wrap(off, fmt.Errorf("%s: %w", what, err))
	}
	return b, nil
}

// BloomFilter reads the chunk's split-block bloom filter, or nil when it
// has none (or one of an algorithm, hash or compression we do not know).
func (c *Chunk) BloomFilter() (*bloom.Filter, error) {
	off, ok := c.Meta.BloomFilterOffset.Get()
	if !ok {
		return nil, nil
	}
	if c.crypt != nil {
		return c.encryptedBloomFilter(off)
	}
	// Without bloom_filter_length, read the header with some slack first.
	length := int64(c.Meta.BloomFilterLength.Value)
	if !c.Meta.BloomFilterLength.Set {
		length = 256
	}
	if length <= 0 || length > maxIndexSize {
		return nil, c.errorf(off, "%w: bloom filter length %d", ErrCorrupt, length)
	}
	if off < 0 || off > c.File.size {
		return nil, c.errorf(off, "%w: bloom filter offset outside the file", ErrCorrupt)
	}
	length = min(length, c.File.size-off)
	b, err := c.File.ReadRange(off, length)
	if err != nil {
		return nil, err
	}
	var h format.BloomFilterHeader
	hn, err := format.Unmarshal(b, &h)
	if err != nil {
		return nil, c.errorf(off, "%w: bloom filter header: %w", ErrCorrupt, err)
	}
	if h.Algorithm.Block == nil || h.Hash.XxHash == nil || h.Compression.Uncompressed == nil {
		return nil, nil
	}
	if h.NumBytes <= 0 || h.NumBytes > maxIndexSize || h.NumBytes%32 != 0 {
		return nil, c.errorf(off, "%w: bloom filter of %d bytes", ErrCorrupt, h.NumBytes)
	}
	need := int64(hn) + int64(h.NumBytes)
	if need > int64(len(b)) {
		if b, err = c.File.ReadRange(off, need); err != nil {
			return nil, err
		}
	}
	f, err := bloom.FromBytes(b[hn : hn+int(h.NumBytes)])
	if err != nil {
		return nil, c.wrap(off, err)
	}
	return f, nil
}

func bloomHash(b []byte) uint64 { return bloom.HashBytes(b) }

// encryptedBloomFilter reads the bloom filter of an encrypted chunk: its
// header module at off, then its bitset module.
func (c *Chunk) encryptedBloomFilter(off int64) (*bloom.Filter, error) {
	if off < 0 || off > c.File.size {
		return nil, c.errorf(off, "%w: bloom filter offset outside the file", ErrCorrupt)
	}
	hm, err := c.readModule(off, maxIndexSize, "bloom filter header")
	if err != nil {
		return nil, err
	}
	hb, err := c.crypt.open(nil, hm, encryption.BloomFilterHeader, -1)
	if err != nil {
		return nil, c.wrap(off, err)
	}
	var h format.BloomFilterHeader
	if _, err := format.Unmarshal(hb, &h); err != nil {
		return nil, c.errorf(off, "%w: bloom filter header: %w", ErrCorrupt, err)
	}
	if h.Algorithm.Block == nil || h.Hash.XxHash == nil || h.Compression.Uncompressed == nil {
		return nil, nil
	}
	if h.NumBytes <= 0 || h.NumBytes > maxIndexSize || h.NumBytes%32 != 0 {
		return nil, c.errorf(off, "%w: bloom filter of %d bytes", ErrCorrupt, h.NumBytes)
	}
	boff := off + int64(len(hm))
	bm, err := c.readModule(boff, int64(h.NumBytes)+encryption.GCMOverhead, "bloom filter bitset")
	if err != nil {
		return nil, err
	}
	bits, err := c.crypt.open(nil, bm, encryption.BloomFilterBitset, -1)
	if err != nil {
		return nil, c.wrap(boff, err)
	}
	if len(bits) != int(h.NumBytes) {
		return nil, c.errorf(boff, "%w: bloom filter bitset of %d bytes, its header says %d", ErrCorrupt, len(bits), h.NumBytes)
	}
	f, err := bloom.FromBytes(bits)
	if err != nil {
		return nil, c.wrap(off, err)
	}
	return f, nil
}
