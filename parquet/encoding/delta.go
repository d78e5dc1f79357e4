package encoding

import (
	"math/bits"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/simd"
)

const (
	// No buffer is sized by the block size, so any size a header states
	// is fine as long as the arithmetic stays in range.
	maxDeltaBlockSize = 1 << 30
	// DefaultDeltaBlockSize and DefaultDeltaMiniblocks are what the
	// encoder uses unless told otherwise (as parquet-java and arrow do).
	DefaultDeltaBlockSize  = 128
	DefaultDeltaMiniblocks = 4
)

// deltaCore walks the blocks and miniblocks of a DELTA_BINARY_PACKED
// stream; the typed decoders unpack and sum the deltas it points at.
type deltaCore struct {
	enc  format.Encoding // the encoding named in errors
	src  []byte
	pos  int
	base int // offset of src in the caller's buffer, for errors

	blockSize, miniblocks, perMini int

	left       int // values the caller may still read
	deltasLeft int // deltas of the stream not yet consumed
	first      uint64
	firstReady bool // the first value has not been returned yet
	last       uint64

	minDelta uint64
	widths   []byte // bit widths of the current block
	mini     int    // next miniblock of the current block
	miniLeft int    // deltas left in the current miniblock
	bw       uint
	run      packedRun
	maxWidth uint
	strict   bool // inside a byte-array encoding: miniblocks must be complete
}

// reset parses the header. numValues is what the caller expects; exact
// demands the header state exactly that many (byte-array encodings).
func (d *deltaCore) reset(enc format.Encoding, src []byte, base, numValues int, maxWidth uint, exact bool) error {
	*d = deltaCore{enc: enc, src: src, base: base, maxWidth: maxWidth, strict: exact}
	if numValues < 0 {
		return badCount(enc, numValues)
	}
	if numValues == 0 && len(src) == 0 {
		return nil
	}
	var hdr [4]uint64
	pos := 0
	for i := range hdr {
		v, next, ok := uvarint(src, pos)
		if !ok {
			return corruptf(enc, base+pos, "bad DELTA_BINARY_PACKED header varint")
		}
		hdr[i], pos = v, next
	}
	blockSize, miniblocks, total := hdr[0], hdr[1], hdr[2]
	// The spec asks for blocks of a multiple of 128 values and miniblocks
	// of a multiple of 32; its own examples use 8. Anything that keeps
	// miniblocks on whole bytes (multiples of 8 values) decodes.
	if blockSize == 0 || blockSize > maxDeltaBlockSize {
		return corruptf(enc, base, "block size %d out of range", blockSize)
	}
	if miniblocks == 0 || blockSize%miniblocks != 0 || (blockSize/miniblocks)%8 != 0 {
		return corruptf(enc, base, "%d miniblocks do not divide a block of %d into multiples of 8", miniblocks, blockSize)
	}
	if total < uint64(numValues) || (exact && total != uint64(numValues)) {
		return corruptf(enc, base, "header holds %d values, page has %d", total, numValues)
	}
	d.blockSize, d.miniblocks, d.perMini = int(blockSize), int(miniblocks), int(blockSize/miniblocks)
	d.pos = pos
	d.left = numValues
	if total > 0 {
		if exact {
			d.deltasLeft = numValues - 1
		} else {
			// Deltas past what the caller reads are never looked at,
			// whatever total says.
			d.deltasLeft = max(numValues-1, 0)
		}
		d.first = uint64(unzigzag(hdr[3]))
		d.last = d.first
		d.firstReady = true
	}
	return nil
}

// nextMiniblock moves to the next miniblock that holds deltas, reading a
// block header when the current block is done.
func (d *deltaCore) nextMiniblock() error {
	if d.widths == nil || d.mini == d.miniblocks {
		md, next, ok := uvarint(d.src, d.pos)
		if !ok {
			if d.pos >= len(d.src) {
				return corruptf(d.enc, d.base+d.pos, "data ends with %d values still expected", d.deltasLeft)
			}
			return corruptf(d.enc, d.base+d.pos, "bad min delta varint")
		}
		if len(d.src)-next < d.miniblocks {
			return corruptf(d.enc, d.base+next, "truncated miniblock bit widths")
		}
		d.minDelta = uint64(unzigzag(md))
		d.widths = d.src[next : next+d.miniblocks]
		d.pos = next + d.miniblocks
		d.mini = 0
	}
	bw := uint(d.widths[d.mini])
	if bw > d.maxWidth {
		return corruptf(d.enc, d.base+d.pos-d.miniblocks+d.mini, "miniblock bit width %d above %d", bw, d.maxWidth)
	}
	d.mini++
	full := d.perMini / 8 * int(bw)
	avail := len(d.src) - d.pos
	take := full
	if full > avail {
		// The last miniblock must be padded to full size, but a short one
		// still holds the values we need when nothing follows it.
		need := simd.PackedLen(min(d.perMini, d.deltasLeft), bw)
		if d.strict || need > avail {
			return corruptf(d.enc, d.base+d.pos, "truncated miniblock: %d bytes left, %d needed", avail, full)
		}
		take = avail
	}
	d.bw = bw
	// The run sees the rest of the page, not just its own bytes: the
	// unpack kernels read whole 16-byte blocks past the bits they need.
	d.run.reset(d.src[d.pos:], bw)
	d.pos += take
	d.miniLeft = d.perMini
	if take == full {
		d.joinMiniblocks()
	}
	return nil
}

// joinMiniblocks adds to the current miniblock the ones after it in the
// block that have its bit width and are whole: their bits follow its own,
// so one unpack and one prefix sum (the block has one min delta) cover
// them all, instead of a round of calls per 32 values. Miniblocks of a
// block often share a width (random ids, timestamps at a steady rate).
func (d *deltaCore) joinMiniblocks() {
	full := d.perMini / 8 * int(d.bw)
	for d.mini < d.miniblocks && uint(d.widths[d.mini]) == d.bw &&
		d.miniLeft < d.deltasLeft && len(d.src)-d.pos >= full {
		d.mini++
		d.pos += full
		d.miniLeft += d.perMini
	}
}

// end returns the offset just past the stream, walking the block headers
// without unpacking anything.
func (d *deltaCore) end() (int, error) {
	c := *d
	for c.deltasLeft > 0 {
		if c.miniLeft == 0 {
			if err := c.nextMiniblock(); err != nil {
				return 0, err
			}
		}
		k := min(c.miniLeft, c.deltasLeft)
		c.miniLeft -= k
		c.deltasLeft -= k
	}
	return c.pos, nil
}

// chunk readies the next deltas and says how many (at most n) can be read
// from the current miniblock.
func (d *deltaCore) chunk(n int) (int, error) {
	if d.miniLeft == 0 {
		if err := d.nextMiniblock(); err != nil {
			return 0, err
		}
	}
	return min(n, d.miniLeft), nil
}

func (d *deltaCore) consumed(k int) {
	d.miniLeft -= k
	d.deltasLeft -= k
	d.left -= k
}

// DeltaInt32Decoder decodes DELTA_BINARY_PACKED INT32 values in wrapping
// 32-bit arithmetic. Bit widths up to 64 are accepted (a writer that
// computed deltas in 64 bits); only the low 32 bits of each delta matter.
type DeltaInt32Decoder struct {
	c       deltaCore
	scratch [256]int64
	skip    [256]int32
}

// Reset parses the header; it holds at least numValues values.
func (d *DeltaInt32Decoder) Reset(src []byte, numValues int) error {
	return d.c.reset(format.DeltaBinaryPacked, src, 0, numValues, 64, false)
}

// Remaining is the number of values not yet read.
func (d *DeltaInt32Decoder) Remaining() int { return d.c.left }

// Decode appends up to n values to dst.
func (d *DeltaInt32Decoder) Decode(dst []int32, n int) ([]int32, error) {
	n = max(0, min(n, d.c.left))
	at := len(dst)
	dst = extend(dst, n)
	k, err := d.decode(dst[at:])
	return dst[:at+k], err
}

func (d *DeltaInt32Decoder) decode(out []int32) (int, error) {
	done := 0
	if len(out) > 0 && d.c.firstReady {
		out[0] = int32(d.c.first)
		d.c.firstReady = false
		d.c.left--
		done = 1
	}
	last := int32(d.c.last)
	for done < len(out) {
		k, err := d.c.chunk(len(out) - done)
		if err != nil {
			d.c.last = uint64(last)
			return done, err
		}
		o := out[done : done+k]
		if d.c.bw <= 32 {
			d.c.run.readInt32(o)
		} else {
			for i := 0; i < len(o); i += len(d.scratch) {
				s := d.scratch[:min(len(d.scratch), len(o)-i)]
				d.c.run.readInt64(s)
				for j, v := range s {
					o[i+j] = int32(v)
				}
			}
		}
		last = simd.DeltaPrefixSumInt32(o, last, int32(d.c.minDelta))
		d.c.consumed(k)
		done += k
	}
	d.c.last = uint64(last)
	return done, nil
}

// Skip passes over n values. The running sum needs every delta, so they
// are unpacked into a scratch buffer, except in miniblocks of bit width 0.
func (d *DeltaInt32Decoder) Skip(n int) error {
	if n < 0 || n > d.c.left {
		return errSkip(d.c.enc, n, d.c.left)
	}
	if n > 0 && d.c.firstReady {
		d.c.firstReady = false
		d.c.left--
		n--
	}
	for n > 0 {
		k, err := d.c.chunk(n)
		if err != nil {
			return err
		}
		if d.c.bw == 0 {
			d.c.last += uint64(k) * d.c.minDelta
			d.c.run.advance(k)
			d.c.consumed(k)
		} else {
			k = min(k, len(d.skip))
			if _, err := d.decode(d.skip[:k]); err != nil {
				return err
			}
		}
		n -= k
	}
	return nil
}

// DeltaInt64Decoder decodes DELTA_BINARY_PACKED INT64 values in wrapping
// 64-bit arithmetic.
type DeltaInt64Decoder struct {
	c    deltaCore
	skip [256]int64
}

// Reset parses the header; it holds at least numValues values.
func (d *DeltaInt64Decoder) Reset(src []byte, numValues int) error {
	return d.c.reset(format.DeltaBinaryPacked, src, 0, numValues, 64, false)
}

// Remaining is the number of values not yet read.
func (d *DeltaInt64Decoder) Remaining() int { return d.c.left }

// Decode appends up to n values to dst.
func (d *DeltaInt64Decoder) Decode(dst []int64, n int) ([]int64, error) {
	n = max(0, min(n, d.c.left))
	at := len(dst)
	dst = extend(dst, n)
	k, err := d.decode(dst[at:])
	return dst[:at+k], err
}

func (d *DeltaInt64Decoder) decode(out []int64) (int, error) {
	done := 0
	if len(out) > 0 && d.c.firstReady {
		out[0] = int64(d.c.first)
		d.c.firstReady = false
		d.c.left--
		done = 1
	}
	last := int64(d.c.last)
	for done < len(out) {
		k, err := d.c.chunk(len(out) - done)
		if err != nil {
			d.c.last = uint64(last)
			return done, err
		}
		o := out[done : done+k]
		d.c.run.readInt64(o)
		last = simd.DeltaPrefixSumInt64(o, last, int64(d.c.minDelta))
		d.c.consumed(k)
		done += k
	}
	d.c.last = uint64(last)
	return done, nil
}

// Skip passes over n values (see DeltaInt32Decoder.Skip).
func (d *DeltaInt64Decoder) Skip(n int) error {
	if n < 0 || n > d.c.left {
		return errSkip(d.c.enc, n, d.c.left)
	}
	if n > 0 && d.c.firstReady {
		d.c.firstReady = false
		d.c.left--
		n--
	}
	for n > 0 {
		k, err := d.c.chunk(n)
		if err != nil {
			return err
		}
		if d.c.bw == 0 {
			d.c.last += uint64(k) * d.c.minDelta
			d.c.run.advance(k)
			d.c.consumed(k)
		} else {
			k = min(k, len(d.skip))
			if _, err := d.decode(d.skip[:k]); err != nil {
				return err
			}
		}
		n -= k
	}
	return nil
}

// DeltaBinaryPackedEncoder encodes INT32 and INT64 values as
// DELTA_BINARY_PACKED. The zero value uses blocks of 128 values in 4
// miniblocks; set BlockSize (a multiple of 128) and Miniblocks (dividing
// it into multiples of 32) for other shapes.
type DeltaBinaryPackedEncoder struct {
	BlockSize  int
	Miniblocks int
	deltas     []uint64
	packed     []uint32
}

func (e *DeltaBinaryPackedEncoder) shape() (int, int) {
	bs, mb := e.BlockSize, e.Miniblocks
	if bs <= 0 || bs%128 != 0 || mb <= 0 || bs%mb != 0 || (bs/mb)%32 != 0 {
		bs, mb = DefaultDeltaBlockSize, DefaultDeltaMiniblocks
	}
	return bs, mb
}

// AppendInt32 appends the encoding of src to dst. Deltas are computed in
// wrapping 32-bit arithmetic, so bit widths never exceed 32.
func (e *DeltaBinaryPackedEncoder) AppendInt32(dst []byte, src []int32) []byte {
	bs, mb := e.shape()
	dst = appendUvarint(dst, uint64(bs))
	dst = appendUvarint(dst, uint64(mb))
	dst = appendUvarint(dst, uint64(len(src)))
	if len(src) == 0 {
		return appendUvarint(dst, 0)
	}
	dst = appendUvarint(dst, zigzag(int64(src[0])))
	if cap(e.packed) < bs {
		e.packed = make([]uint32, bs)
	}
	deltas := e.packed[:bs]
	per := bs / mb
	for i := 1; i < len(src); i += bs {
		blk := src[i-1 : min(len(src), i+bs)]
		n := len(blk) - 1
		minD := int32(blk[1] - blk[0])
		for j := 1; j < len(blk); j++ {
			d := blk[j] - blk[j-1]
			deltas[j-1] = uint32(d)
			minD = min(minD, d)
		}
		clear(deltas[n:])
		dst = appendUvarint(dst, zigzag(int64(minD)))
		wpos := len(dst)
		for m := 0; m < mb; m++ {
			dst = append(dst, 0)
		}
		for m := 0; m*per < n; m++ {
			var or uint32
			mini := deltas[m*per : (m+1)*per]
			for k, v := range mini[:min(len(mini), n-m*per)] {
				v -= uint32(minD)
				mini[k] = v
				or |= v
			}
			bw := uint(bits.Len32(or))
			dst[wpos+m] = byte(bw)
			dst = appendPacked32(dst, deltas[m*per:(m+1)*per], bw)
		}
	}
	return dst
}

// AppendInt64 appends the encoding of src to dst, with deltas in wrapping
// 64-bit arithmetic.
func (e *DeltaBinaryPackedEncoder) AppendInt64(dst []byte, src []int64) []byte {
	bs, mb := e.shape()
	dst = appendUvarint(dst, uint64(bs))
	dst = appendUvarint(dst, uint64(mb))
	dst = appendUvarint(dst, uint64(len(src)))
	if len(src) == 0 {
		return appendUvarint(dst, 0)
	}
	dst = appendUvarint(dst, zigzag(src[0]))
	if cap(e.deltas) < bs {
		e.deltas = make([]uint64, bs)
	}
	deltas := e.deltas[:bs]
	per := bs / mb
	for i := 1; i < len(src); i += bs {
		blk := src[i-1 : min(len(src), i+bs)]
		n := len(blk) - 1
		minD := int64(uint64(blk[1]) - uint64(blk[0]))
		for j := 1; j < len(blk); j++ {
			d := uint64(blk[j]) - uint64(blk[j-1])
			deltas[j-1] = d
			minD = min(minD, int64(d))
		}
		clear(deltas[n:])
		dst = appendUvarint(dst, zigzag(minD))
		wpos := len(dst)
		for m := 0; m < mb; m++ {
			dst = append(dst, 0)
		}
		for m := 0; m*per < n; m++ {
			var or uint64
			mini := deltas[m*per : (m+1)*per]
			for k, v := range mini[:min(len(mini), n-m*per)] {
				v -= uint64(minD)
				mini[k] = v
				or |= v
			}
			bw := uint(bits.Len64(or))
			dst[wpos+m] = byte(bw)
			dst = appendPacked64(dst, deltas[m*per:(m+1)*per], bw)
		}
	}
	return dst
}

// AppendDeltaBinaryPackedInt32 appends src as DELTA_BINARY_PACKED with the
// default block shape.
func AppendDeltaBinaryPackedInt32(dst []byte, src []int32) []byte {
	var e DeltaBinaryPackedEncoder
	return e.AppendInt32(dst, src)
}

// AppendDeltaBinaryPackedInt64 appends src as DELTA_BINARY_PACKED with the
// default block shape.
func AppendDeltaBinaryPackedInt64(dst []byte, src []int64) []byte {
	var e DeltaBinaryPackedEncoder
	return e.AppendInt64(dst, src)
}
