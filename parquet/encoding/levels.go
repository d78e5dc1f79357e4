package encoding

import (
	"encoding/binary"

	"github.com/carquet-go/carquet/parquet/format"
)

// LevelDecoder decodes repetition or definition levels: the RLE hybrid
// (with the 4-byte length of data page v1, or without it in v2) or the
// deprecated BIT_PACKED encoding. Every level is checked against the
// maximum level.
type LevelDecoder struct {
	maxLevel  int16
	left      int
	bitPacked bool
	rle       RLEDecoder
	// BIT_PACKED state
	src []byte
	bit uint
	bw  uint
}

// ResetV1 points the decoder at the levels at the start of a v1 data page
// body, encoded with enc (RLE or BIT_PACKED), and returns how many bytes of
// src they occupy (the values start there). With maxLevel 0 no levels are
// stored: it consumes nothing and decodes zeros.
func (d *LevelDecoder) ResetV1(enc format.Encoding, src []byte, maxLevel int16, numValues int) (int, error) {
	*d = LevelDecoder{rle: RLEDecoder{}}
	if err := d.init(enc, maxLevel, numValues); err != nil {
		return 0, err
	}
	if maxLevel == 0 {
		return 0, nil
	}
	switch enc {
	case format.RLE:
		if len(src) < 4 {
			return 0, corruptf(enc, 0, "missing 4-byte length of levels")
		}
		l := binary.LittleEndian.Uint32(src)
		if uint64(l) > uint64(len(src)-4) {
			return 0, corruptf(enc, 0, "levels length %d exceeds the %d bytes left", l, len(src)-4)
		}
		return 4 + int(l), d.rle.reset(enc, src[4:4+int(l)], 4, int(d.bw), numValues)
	case format.BitPacked:
		n := (uint64(numValues)*uint64(d.bw) + 7) / 8
		if n > uint64(len(src)) {
			return 0, corruptf(enc, len(src), "%d levels of %d bits need %d bytes, page has %d", numValues, d.bw, n, len(src))
		}
		d.bitPacked = true
		d.src = src[:n]
		return int(n), nil
	}
	return 0, unsupported(enc, "levels")
}

// ResetV2 points the decoder at the levels of a v2 data page: the RLE
// hybrid without a length prefix, src being exactly the levels' bytes (the
// page header gives their length).
func (d *LevelDecoder) ResetV2(src []byte, maxLevel int16, numValues int) error {
	*d = LevelDecoder{}
	if err := d.init(format.RLE, maxLevel, numValues); err != nil {
		return err
	}
	if maxLevel == 0 {
		return nil
	}
	return d.rle.reset(format.RLE, src, 0, int(d.bw), numValues)
}

func (d *LevelDecoder) init(enc format.Encoding, maxLevel int16, numValues int) error {
	if maxLevel < 0 {
		return &Error{Encoding: enc, Offset: -1, Msg: "negative max level", Err: ErrCorrupt}
	}
	if numValues < 0 {
		return badCount(enc, numValues)
	}
	d.maxLevel, d.left, d.bw = maxLevel, numValues, uint(MaxBitWidth(int(maxLevel)))
	return nil
}

// Remaining is the number of levels not yet read.
func (d *LevelDecoder) Remaining() int { return d.left }

// Decode appends up to n levels to dst.
func (d *LevelDecoder) Decode(dst []int16, n int) ([]int16, error) {
	n = max(0, min(n, d.left))
	at := len(dst)
	dst = extend(dst, n)
	out := dst[at:]
	switch {
	case d.maxLevel == 0:
		clear(out)
	case d.bitPacked:
		hi := int16(0)
		for i := range out {
			v := int16(readMSB(d.src, d.bit, d.bw))
			d.bit += d.bw
			hi = max(hi, v)
			out[i] = v
		}
		if hi > d.maxLevel {
			return dst, corruptf(format.BitPacked, int(d.bit/8), "level %d above the maximum %d", hi, d.maxLevel)
		}
	default:
		k, hi, err := d.rle.decodeInt16(out)
		d.left -= k
		if err != nil {
			return dst[:at+k], err
		}
		if hi > int32(d.maxLevel) {
			return dst, corruptf(format.RLE, d.rle.base+d.rle.pos, "level %d above the maximum %d", hi, d.maxLevel)
		}
		return dst, nil
	}
	d.left -= n
	return dst, nil
}

// Skip passes over n levels.
func (d *LevelDecoder) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(format.RLE, n, d.left)
	}
	if d.maxLevel != 0 && !d.bitPacked {
		if err := d.rle.Skip(n); err != nil {
			return err
		}
		d.left -= n
		return nil
	}
	d.bit += uint(n) * d.bw
	d.left -= n
	return nil
}

// readMSB reads a width-bit value (width <= 16) at bit offset bit of a
// most-significant-bit-first bit stream.
func readMSB(src []byte, bit, width uint) uint32 {
	b := bit >> 3
	var w uint32
	for i := uint(0); i < 4; i++ {
		w <<= 8
		if b+i < uint(len(src)) {
			w |= uint32(src[b+i])
		}
	}
	return w << (bit & 7) >> (32 - width)
}

// DecodeLevelsV1 decodes numValues levels from the start of a v1 data page
// body into dst and returns how many bytes they occupied.
func DecodeLevelsV1(dst []int16, enc format.Encoding, src []byte, maxLevel int16, numValues int) ([]int16, int, error) {
	var d LevelDecoder
	n, err := d.ResetV1(enc, src, maxLevel, numValues)
	if err != nil {
		return dst, 0, err
	}
	dst, err = d.Decode(dst, numValues)
	return dst, n, err
}

// DecodeLevelsV2 decodes numValues levels of a v2 data page into dst.
func DecodeLevelsV2(dst []int16, src []byte, maxLevel int16, numValues int) ([]int16, error) {
	var d LevelDecoder
	if err := d.ResetV2(src, maxLevel, numValues); err != nil {
		return dst, err
	}
	return d.Decode(dst, numValues)
}

// AppendLevelsV1 appends levels as a v1 data page stores them: a 4-byte
// length, then the RLE hybrid. With maxLevel 0 nothing is written.
func AppendLevelsV1(dst []byte, levels []int16, maxLevel int16) []byte {
	if maxLevel == 0 {
		return dst
	}
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = AppendRLELevels(dst, levels, MaxBitWidth(int(maxLevel)))
	binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst
}

// AppendLevelsV2 appends levels as a v2 data page stores them: the RLE
// hybrid without a length (the page header records it).
func AppendLevelsV2(dst []byte, levels []int16, maxLevel int16) []byte {
	if maxLevel == 0 {
		return dst
	}
	return AppendRLELevels(dst, levels, MaxBitWidth(int(maxLevel)))
}

// AppendBitPackedLevels appends levels in the deprecated BIT_PACKED
// encoding (most significant bit first, last byte padded with zeros).
func AppendBitPackedLevels(dst []byte, levels []int16, maxLevel int16) []byte {
	bw := uint(MaxBitWidth(int(maxLevel)))
	if bw == 0 {
		return dst
	}
	var acc uint64
	var n uint
	for _, v := range levels {
		acc = acc<<bw | uint64(uint16(v))&(1<<bw-1)
		n += bw
		for n >= 8 {
			dst = append(dst, byte(acc>>(n-8)))
			n -= 8
		}
	}
	if n > 0 {
		dst = append(dst, byte(acc<<(8-n)))
	}
	return dst
}

// CountEqual reads the next n levels and counts those equal to level,
// without materialising them where it can: an RLE run is counted in one
// step, however long. (A v1 page's non-null count, which its header does
// not give, is the count of maximum definition levels.)
func (d *LevelDecoder) CountEqual(n int, level int16) (int, error) {
	if n < 0 || n > d.left {
		return 0, errSkip(format.RLE, n, d.left)
	}
	if d.maxLevel == 0 {
		d.left -= n
		if level == 0 {
			return n, nil
		}
		return 0, nil
	}
	count := 0
	if d.bitPacked {
		for i := 0; i < n; i++ {
			if int16(readMSB(d.src, d.bit, d.bw)) == level {
				count++
			}
			d.bit += d.bw
		}
		d.left -= n
		return count, nil
	}
	r := &d.rle
	var buf [256]int32
	for left := n; left > 0; {
		if r.runLeft == 0 {
			if err := r.nextRun(); err != nil {
				return 0, err
			}
		}
		k := min(r.runLeft, left)
		if r.isRLE {
			if r.rleValue > int32(d.maxLevel) {
				return 0, corruptf(format.RLE, r.base+r.pos, "level %d above the maximum %d", r.rleValue, d.maxLevel)
			}
			if r.rleValue == int32(level) {
				count += k
			}
		} else {
			for done := 0; done < k; {
				m := min(k-done, len(buf))
				r.packed.readInt32(buf[:m])
				for _, v := range buf[:m] {
					if v > int32(d.maxLevel) {
						return 0, corruptf(format.RLE, r.base+r.pos, "level %d above the maximum %d", v, d.maxLevel)
					}
					if v == int32(level) {
						count++
					}
				}
				done += m
			}
		}
		r.runLeft -= k
		r.left -= k
		left -= k
	}
	d.left -= n
	return count, nil
}
