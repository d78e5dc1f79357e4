package encoding

import (
	"encoding/binary"

	"github.com/carquet-go/carquet/parquet/format"
)

// Run lengths are capped at 2^31-1 values by the spec.
const maxRunLength = 1<<31 - 1

// RLEDecoder decodes the RLE/bit-packing hybrid at a fixed bit width
// (0..32) into int32, int16 levels or booleans. It is the engine under
// LevelDecoder, DictIndexDecoder and RLE booleans.
type RLEDecoder struct {
	enc      format.Encoding // named in errors
	src      []byte
	pos      int // next run header
	base     int // offset of src within what the caller gave us, for errors
	bitWidth uint
	left     int // values the caller may still read

	runLeft  int  // values left in the current run
	isRLE    bool // current run is a repeated value
	rleValue int32
	packed   packedRun
	scratch  [256]int32
}

// Reset points the decoder at encoded data (no length prefix) holding
// numValues values of bitWidth bits.
func (d *RLEDecoder) Reset(src []byte, bitWidth, numValues int) error {
	return d.reset(format.RLE, src, 0, bitWidth, numValues)
}

func (d *RLEDecoder) reset(enc format.Encoding, src []byte, base, bitWidth, numValues int) error {
	*d = RLEDecoder{enc: enc, src: src, base: base}
	if bitWidth < 0 || bitWidth > 32 {
		return corruptf(enc, base, "bit width %d out of range 0..32", bitWidth)
	}
	if numValues < 0 {
		return badCount(enc, numValues)
	}
	d.bitWidth = uint(bitWidth)
	d.left = numValues
	return nil
}

// Remaining is the number of values not yet read.
func (d *RLEDecoder) Remaining() int { return d.left }

// nextRun reads a run header.
func (d *RLEDecoder) nextRun() error {
	for {
		if d.pos >= len(d.src) {
			return corruptf(d.enc, d.base+d.pos, "data ends with %d values still expected", d.left)
		}
		h, next, ok := uvarint(d.src, d.pos)
		if !ok {
			return corruptf(d.enc, d.base+d.pos, "bad run header varint")
		}
		if h&1 == 0 {
			n := h >> 1
			if n > maxRunLength {
				return corruptf(d.enc, d.base+d.pos, "run length %d too long", n)
			}
			w := int(d.bitWidth+7) / 8
			if len(d.src)-next < w {
				return corruptf(d.enc, d.base+next, "truncated repeated value")
			}
			var v uint32
			for i := 0; i < w; i++ {
				v |= uint32(d.src[next+i]) << (8 * i)
			}
			d.pos = next + w
			if n == 0 {
				continue
			}
			d.isRLE, d.rleValue, d.runLeft = true, int32(v), int(n)
			return nil
		}
		groups := h >> 1
		if groups > maxRunLength/8 {
			return corruptf(d.enc, d.base+d.pos, "bit-packed run of %d groups too long", groups)
		}
		n := int(groups) * 8
		size := n / 8 * int(d.bitWidth)
		avail := len(d.src) - next
		if size > avail {
			// A last run cut short: only the values whose bits are all
			// there can be read.
			size = avail
			n = avail * 8 / int(d.bitWidth)
		}
		// The run sees the rest of the data (see deltaCore.nextMiniblock).
		d.packed.reset(d.src[next:], d.bitWidth)
		d.pos = next + size
		if n == 0 {
			continue
		}
		d.isRLE, d.runLeft = false, n
		return nil
	}
}

// Decode appends up to n values to dst.
func (d *RLEDecoder) Decode(dst []int32, n int) ([]int32, error) {
	n = max(0, min(n, d.left))
	at := len(dst)
	dst = extend(dst, n)
	k, err := d.decode(dst[at:])
	return dst[:at+k], err
}

// decode fills out, returning how many values it wrote.
func (d *RLEDecoder) decode(out []int32) (int, error) {
	done := 0
	for done < len(out) {
		if d.runLeft == 0 {
			if err := d.nextRun(); err != nil {
				return done, err
			}
		}
		k := min(d.runLeft, len(out)-done)
		o := out[done : done+k]
		if d.isRLE {
			v := d.rleValue
			for i := range o {
				o[i] = v
			}
		} else {
			d.packed.readInt32(o)
		}
		d.runLeft -= k
		d.left -= k
		done += k
	}
	return done, nil
}

// Skip passes over n values without unpacking them.
func (d *RLEDecoder) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(d.enc, n, d.left)
	}
	for n > 0 {
		if d.runLeft == 0 {
			if err := d.nextRun(); err != nil {
				return err
			}
		}
		k := min(d.runLeft, n)
		if !d.isRLE {
			d.packed.advance(k)
		}
		d.runLeft -= k
		d.left -= k
		n -= k
	}
	return nil
}

// decodeInt16 fills out with values (levels), returning how many it wrote
// and the largest value seen.
func (d *RLEDecoder) decodeInt16(out []int16) (int, int32, error) {
	done := 0
	var hi int32
	for done < len(out) {
		if d.runLeft == 0 {
			if err := d.nextRun(); err != nil {
				return done, hi, err
			}
		}
		k := min(d.runLeft, len(out)-done)
		o := out[done : done+k]
		if d.isRLE {
			v := d.rleValue
			hi = max(hi, v)
			for i := range o {
				o[i] = int16(v)
			}
		} else {
			for len(o) > 0 {
				m := min(len(o), len(d.scratch))
				s := d.scratch[:m]
				d.packed.readInt32(s)
				for i, v := range s {
					hi = max(hi, v)
					o[i] = int16(v)
				}
				o = o[m:]
			}
		}
		d.runLeft -= k
		d.left -= k
		done += k
	}
	return done, hi, nil
}

// decodeBool fills out with values != 0.
func (d *RLEDecoder) decodeBool(out []bool) (int, error) {
	done := 0
	for done < len(out) {
		if d.runLeft == 0 {
			if err := d.nextRun(); err != nil {
				return done, err
			}
		}
		k := min(d.runLeft, len(out)-done)
		o := out[done : done+k]
		if d.isRLE {
			v := d.rleValue != 0
			for i := range o {
				o[i] = v
			}
		} else if d.packed.bw == 1 {
			d.packed.readBools(o)
		} else {
			for len(o) > 0 {
				m := min(len(o), len(d.scratch))
				s := d.scratch[:m]
				d.packed.readInt32(s)
				for i, v := range s {
					o[i] = v != 0
				}
				o = o[m:]
			}
		}
		d.runLeft -= k
		d.left -= k
		done += k
	}
	return done, nil
}

// rleBoolDecoder decodes BOOLEAN values in RLE encoding: a 4-byte
// little-endian length, then the hybrid at bit width 1.
type rleBoolDecoder struct {
	rle RLEDecoder
}

func (d *rleBoolDecoder) Reset(src []byte, numValues int) error {
	if len(src) < 4 {
		d.rle = RLEDecoder{}
		return corruptf(format.RLE, 0, "missing 4-byte length of RLE booleans")
	}
	l := binary.LittleEndian.Uint32(src)
	if uint64(l) > uint64(len(src)-4) {
		d.rle = RLEDecoder{}
		return corruptf(format.RLE, 0, "RLE boolean length %d exceeds the %d bytes left", l, len(src)-4)
	}
	return d.rle.reset(format.RLE, src[4:4+int(l)], 4, 1, numValues)
}

func (d *rleBoolDecoder) Remaining() int { return d.rle.left }

func (d *rleBoolDecoder) Decode(dst []bool, n int) ([]bool, error) {
	n = max(0, min(n, d.rle.left))
	at := len(dst)
	dst = extend(dst, n)
	k, err := d.rle.decodeBool(dst[at:])
	return dst[:at+k], err
}

func (d *rleBoolDecoder) Skip(n int) error { return d.rle.Skip(n) }
