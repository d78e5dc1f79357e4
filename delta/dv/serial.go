package dv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

const (
	// Magic starts Delta's portable RoaringBitmapArray serialization
	// (little-endian int32).
	Magic = 1681511377
	// nativeMagic marks Delta's older "native" serialization, which this
	// package does not read.
	nativeMagic = 1681511376

	cookieNoRun = 12346 // 32-bit Roaring: no run containers, uint32 count follows
	cookieRun   = 12347 // low 16 bits; high 16 bits hold count-1, run flags follow
	noOffsetMax = 4     // with cookieRun, offsets are written only for >= 4 containers
)

// ErrFormat is wrapped by every error about malformed serialized bitmaps.
var ErrFormat = errors.New("dv: malformed deletion vector bitmap")

func formatErr(pos int, format string, args ...any) error {
	return fmt.Errorf("%w: at byte %d: %s", ErrFormat, pos, fmt.Sprintf(format, args...))
}

// MarshalBinary returns the set in Delta's portable RoaringBitmapArray
// form: the little-endian int32 magic 1681511377, then the 64-bit Roaring
// "portable" serialization (uint64 bucket count; per bucket the uint32 high
// key and a standard 32-bit Roaring serialization). Each container is written
// in whichever of array, bitmap or run form is smallest. Delta requires the
// most significant bit of every bucket key to be 0, so rows >= 2^63 are an
// error.
func (b *Bitmap) MarshalBinary() ([]byte, error) {
	if n := len(b.keys); n > 0 && b.keys[n-1]>>47 != 0 {
		return nil, fmt.Errorf("dv: row %d is >= 2^63, which Delta deletion vectors cannot hold", b.keys[n-1]<<16)
	}
	out := binary.LittleEndian.AppendUint32(nil, Magic)
	nb := 0
	for i := range b.keys {
		if i == 0 || b.keys[i]>>16 != b.keys[i-1]>>16 {
			nb++
		}
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(nb))
	for i := 0; i < len(b.keys); {
		j := i + 1
		for j < len(b.keys) && b.keys[j]>>16 == b.keys[i]>>16 {
			j++
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(b.keys[i]>>16))
		out = appendBucket(out, b.keys[i:j], b.conts[i:j])
		i = j
	}
	return out, nil
}

// appendBucket appends the 32-bit Roaring serialization of one bucket.
func appendBucket(out []byte, keys []uint64, conts []container) []byte {
	m := len(conts)
	kinds := make([]kind, m)
	nruns := make([]int, m)
	hasRun := false
	for i := range conts {
		c := &conts[i]
		r := c.numRuns()
		plain, k := 2*c.n, kindArray
		if c.n > arrayMax {
			plain, k = 8192, kindBitmap
		}
		if 2+4*r < plain {
			k, hasRun = kindRun, true
		}
		kinds[i], nruns[i] = k, r
	}
	start := len(out)
	if hasRun {
		out = binary.LittleEndian.AppendUint32(out, cookieRun|uint32(m-1)<<16)
		flags := make([]byte, (m+7)/8)
		for i, k := range kinds {
			if k == kindRun {
				flags[i/8] |= 1 << (i % 8)
			}
		}
		out = append(out, flags...)
	} else {
		out = binary.LittleEndian.AppendUint32(out, cookieNoRun)
		out = binary.LittleEndian.AppendUint32(out, uint32(m))
	}
	for i := range conts {
		out = binary.LittleEndian.AppendUint16(out, uint16(keys[i]))
		out = binary.LittleEndian.AppendUint16(out, uint16(conts[i].n-1))
	}
	if !hasRun || m >= noOffsetMax {
		off := len(out) - start + 4*m
		for i := range conts {
			out = binary.LittleEndian.AppendUint32(out, uint32(off))
			switch kinds[i] {
			case kindRun:
				off += 2 + 4*nruns[i]
			case kindBitmap:
				off += 8192
			default:
				off += 2 * conts[i].n
			}
		}
	}
	for i := range conts {
		c := &conts[i]
		switch kinds[i] {
		case kindRun:
			rs := c.toRuns()
			out = binary.LittleEndian.AppendUint16(out, uint16(len(rs)))
			for _, r := range rs {
				out = binary.LittleEndian.AppendUint16(out, r.start)
				out = binary.LittleEndian.AppendUint16(out, r.last-r.start)
			}
		case kindBitmap:
			bm := c.bm
			if c.k != kindBitmap {
				bm = c.toBitmap()
			}
			for _, w := range bm {
				out = binary.LittleEndian.AppendUint64(out, w)
			}
		default:
			arr := c.arr
			if c.k != kindArray {
				arr = c.toArray()
			}
			for _, v := range arr {
				out = binary.LittleEndian.AppendUint16(out, v)
			}
		}
	}
	return out
}

// reader reads little-endian values from untrusted bytes, never past the end.
type reader struct {
	data []byte
	pos  int
}

func (r *reader) left() int { return len(r.data) - r.pos }

func (r *reader) need(n int, what string) error {
	if n < 0 || r.left() < n {
		return formatErr(r.pos, "truncated: %s needs %d bytes, %d left", what, n, r.left())
	}
	return nil
}

func (r *reader) bytes(n int, what string) ([]byte, error) {
	if err := r.need(n, what); err != nil {
		return nil, err
	}
	b := r.data[r.pos : r.pos+n]
	r.pos += n
	return b, nil
}

func (r *reader) u16(what string) (uint16, error) {
	b, err := r.bytes(2, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

func (r *reader) u32(what string) (uint32, error) {
	b, err := r.bytes(4, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (r *reader) u64(what string) (uint64, error) {
	b, err := r.bytes(8, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// Unmarshal parses Delta's portable RoaringBitmapArray serialization (see
// [Bitmap.MarshalBinary]); array, bitmap and run containers are accepted.
// Every count is checked against the bytes actually present before anything
// is allocated, keys must be strictly ascending, container contents must be
// sorted and match their declared cardinalities, and trailing bytes are an
// error. All errors wrap [ErrFormat].
func Unmarshal(data []byte) (*Bitmap, error) {
	r := &reader{data: data}
	magic, err := r.u32("magic number")
	if err != nil {
		return nil, err
	}
	switch magic {
	case Magic:
	case nativeMagic:
		return nil, formatErr(0, "magic number %d denotes Delta's native RoaringBitmapArray format, which is not supported (want the portable format, %d)", magic, Magic)
	default:
		return nil, formatErr(0, "bad magic number %d (want %d)", magic, Magic)
	}
	nb, err := r.u64("bucket count")
	if err != nil {
		return nil, err
	}
	// The smallest bucket is a 4-byte key and an empty 8-byte 32-bit bitmap.
	if nb > uint64(r.left()/12) {
		return nil, formatErr(4, "bucket count %d cannot fit in the %d remaining bytes", nb, r.left())
	}
	b := New()
	prev := int64(-1)
	for i := uint64(0); i < nb; i++ {
		at := r.pos
		key, err := r.u32("bucket key")
		if err != nil {
			return nil, err
		}
		if key>>31 != 0 {
			return nil, formatErr(at, "bucket key %#x has its most significant bit set, which Delta forbids", key)
		}
		if int64(key) <= prev {
			return nil, formatErr(at, "bucket key %d is not above the previous bucket's key %d", key, prev)
		}
		prev = int64(key)
		if err := b.readBucket(r, uint64(key)); err != nil {
			return nil, err
		}
	}
	if r.left() != 0 {
		return nil, formatErr(r.pos, "%d trailing bytes after the last bucket", r.left())
	}
	return b, nil
}

// readBucket reads one 32-bit Roaring serialization whose values get the
// high key hi32, appending its containers to b.
func (b *Bitmap) readBucket(r *reader, hi32 uint64) error {
	at := r.pos
	cookie, err := r.u32("roaring cookie")
	if err != nil {
		return err
	}
	var m int
	var runFlags []byte
	switch {
	case cookie&0xFFFF == cookieRun:
		m = int(cookie>>16) + 1
		if runFlags, err = r.bytes((m+7)/8, "run-container flags"); err != nil {
			return err
		}
	case cookie == cookieNoRun:
		n, err := r.u32("container count")
		if err != nil {
			return err
		}
		if n > 1<<16 {
			return formatErr(at+4, "container count %d exceeds 65536", n)
		}
		m = int(n)
	default:
		return formatErr(at, "bad roaring cookie %d (want %d or %d in the low 16 bits)", cookie, cookieNoRun, cookieRun)
	}
	header, err := r.bytes(4*m, "container keys and cardinalities")
	if err != nil {
		return err
	}
	if runFlags == nil || m >= noOffsetMax {
		// Offsets only help random access; containers are read in order.
		if _, err := r.bytes(4*m, "container offsets"); err != nil {
			return err
		}
	}
	// Each container takes at least 2 bytes, so m is bounded by the input.
	if err := r.need(2*m, "containers"); err != nil {
		return err
	}
	b.keys = slices.Grow(b.keys, m)
	b.conts = slices.Grow(b.conts, m)
	for i := 0; i < m; i++ {
		ckey := binary.LittleEndian.Uint16(header[4*i:])
		card := int(binary.LittleEndian.Uint16(header[4*i+2:])) + 1
		if i > 0 && ckey <= uint16(b.keys[len(b.keys)-1]) {
			return formatErr(at, "container key %d is not above the previous container's key %d", ckey, uint16(b.keys[len(b.keys)-1]))
		}
		isRun := runFlags != nil && runFlags[i/8]&(1<<(i%8)) != 0
		c, err := readContainer(r, card, isRun)
		if err != nil {
			return fmt.Errorf("%w (container %d of bucket %d)", err, ckey, hi32)
		}
		b.keys = append(b.keys, hi32<<16|uint64(ckey))
		b.conts = append(b.conts, c)
		b.card += uint64(card)
	}
	return nil
}

func readContainer(r *reader, card int, isRun bool) (container, error) {
	at := r.pos
	switch {
	case isRun:
		nr, err := r.u16("run count")
		if err != nil {
			return container{}, err
		}
		raw, err := r.bytes(4*int(nr), "runs")
		if err != nil {
			return container{}, err
		}
		runs := make([]run, nr)
		total := 0
		for j := range runs {
			s := binary.LittleEndian.Uint16(raw[4*j:])
			l := binary.LittleEndian.Uint16(raw[4*j+2:])
			if uint32(s)+uint32(l) > 0xFFFF {
				return container{}, formatErr(at+2+4*j, "run start %d length %d passes 65535", s, uint32(l)+1)
			}
			if j > 0 && s <= runs[j-1].last {
				return container{}, formatErr(at+2+4*j, "run start %d overlaps or precedes the previous run ending at %d", s, runs[j-1].last)
			}
			runs[j] = run{s, s + l}
			total += int(l) + 1
		}
		if total != card {
			return container{}, formatErr(at, "runs hold %d values but the header says %d", total, card)
		}
		return container{k: kindRun, n: card, runs: runs}, nil
	case card > arrayMax:
		raw, err := r.bytes(8192, "bitmap container")
		if err != nil {
			return container{}, err
		}
		bm := new([1024]uint64)
		pop := 0
		for w := range bm {
			bm[w] = binary.LittleEndian.Uint64(raw[8*w:])
			pop += bits.OnesCount64(bm[w])
		}
		if pop != card {
			return container{}, formatErr(at, "bitmap container holds %d values but the header says %d", pop, card)
		}
		return container{k: kindBitmap, n: card, bm: bm}, nil
	default:
		raw, err := r.bytes(2*card, "array container")
		if err != nil {
			return container{}, err
		}
		arr := make([]uint16, card)
		for j := range arr {
			arr[j] = binary.LittleEndian.Uint16(raw[2*j:])
			if j > 0 && arr[j] <= arr[j-1] {
				return container{}, formatErr(at+2*j, "array container values not strictly ascending (%d after %d)", arr[j], arr[j-1])
			}
		}
		return container{k: kindArray, n: card, arr: arr}, nil
	}
}
