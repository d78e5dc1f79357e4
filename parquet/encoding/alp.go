package encoding

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/simd"
)

// ALP (AlpEncoding.md): values become integers by decimal scaling, then
// frame of reference and bit-packing, in vectors of up to 2^log values;
// values that do not survive the round trip are stored as exceptions.

const (
	alpHeaderSize = 7
	// DefaultALPLogVectorSize gives vectors of 1024 values.
	DefaultALPLogVectorSize = 10
)

// The power-of-ten constants the spec requires: Go evaluates these
// literals exactly and rounds them once to the target type, so they are
// the correctly rounded IEEE values.
var (
	alpPow10F64 = [19]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}
	alpNegPow10F64 = [19]float64{1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10,
		1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18}
	alpPow10F32    = [11]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}
	alpNegPow10F32 = [11]float32{1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10}
)

// alpCore holds what the float and double decoders share: the page
// header, the offsets, and where the caller is.
type alpCore struct {
	src        []byte
	vs         int // values per vector
	numVectors int
	numElems   int
	left       int
	vec        int // next vector to decode
	valueSize  int // 4 or 8
}

func (c *alpCore) reset(src []byte, numValues, valueSize int) error {
	*c = alpCore{src: src, valueSize: valueSize}
	if numValues < 0 {
		return badCount(format.ALP, numValues)
	}
	if numValues == 0 && len(src) == 0 {
		return nil
	}
	if len(src) < alpHeaderSize {
		return corruptf(format.ALP, 0, "truncated ALP header")
	}
	if src[0] != 0 {
		return &Error{Encoding: format.ALP, Offset: 0, Msg: "compression mode " + strconv.Itoa(int(src[0])) + " is not supported", Err: ErrUnsupported}
	}
	if src[1] != 0 {
		return &Error{Encoding: format.ALP, Offset: 1, Msg: "integer encoding " + strconv.Itoa(int(src[1])) + " is not supported", Err: ErrUnsupported}
	}
	logVS := src[2]
	if logVS < 3 || logVS > 15 {
		return corruptf(format.ALP, 2, "log vector size %d out of range 3..15", logVS)
	}
	n := int32(binary.LittleEndian.Uint32(src[3:]))
	if n < 0 || int(n) < numValues {
		return corruptf(format.ALP, 3, "header holds %d values, page has %d", n, numValues)
	}
	c.vs = 1 << logVS
	c.numElems = int(n)
	c.numVectors = (int(n) + c.vs - 1) / c.vs
	if (len(src)-alpHeaderSize)/4 < c.numVectors {
		return corruptf(format.ALP, alpHeaderSize, "%d vector offsets do not fit in %d bytes", c.numVectors, len(src)-alpHeaderSize)
	}
	c.left = numValues
	return nil
}

// vectorLen is the number of values in vector i.
func (c *alpCore) vectorLen(i int) int { return min(c.vs, c.numElems-i*c.vs) }

// vector returns the bytes from vector i's start to the end of the page,
// and its offset in src.
func (c *alpCore) vector(i int) ([]byte, int, error) {
	at := alpHeaderSize + 4*i
	off := binary.LittleEndian.Uint32(c.src[at:])
	start := uint64(alpHeaderSize) + uint64(off)
	if uint64(off) < uint64(4*c.numVectors) || start > uint64(len(c.src)) {
		return nil, 0, corruptf(format.ALP, at, "vector %d offset %d out of range", i, off)
	}
	return c.src[start:], int(start), nil
}

// alpVector is a parsed vector header.
type alpVector struct {
	e, f     int
	exc      int
	forVal   uint64
	bw       uint
	packed   []byte
	excPos   []byte
	excVals  []byte
	base     int
	excStart int
}

func (c *alpCore) parse(i int) (alpVector, error) {
	var v alpVector
	b, base, err := c.vector(i)
	if err != nil {
		return v, err
	}
	hdr := 4 + 1 + c.valueSize
	if len(b) < hdr {
		return v, corruptf(format.ALP, base, "truncated vector %d header", i)
	}
	maxE, maxBW := 10, uint(32)
	if c.valueSize == 8 {
		maxE, maxBW = 18, 64
	}
	v.e, v.f, v.exc = int(b[0]), int(b[1]), int(binary.LittleEndian.Uint16(b[2:]))
	if v.e > maxE || v.f > v.e {
		return v, corruptf(format.ALP, base, "vector %d: exponent %d, factor %d out of range", i, v.e, v.f)
	}
	count := c.vectorLen(i)
	if v.exc > count {
		return v, corruptf(format.ALP, base+2, "vector %d: %d exceptions in a vector of %d values", i, v.exc, count)
	}
	if c.valueSize == 8 {
		v.forVal = binary.LittleEndian.Uint64(b[4:])
	} else {
		v.forVal = uint64(binary.LittleEndian.Uint32(b[4:]))
	}
	v.bw = uint(b[hdr-1])
	if v.bw > maxBW {
		return v, corruptf(format.ALP, base+hdr-1, "vector %d: bit width %d above %d", i, v.bw, maxBW)
	}
	packed := simd.PackedLen(count, v.bw)
	need := hdr + packed + v.exc*(2+c.valueSize)
	if len(b) < need {
		return v, corruptf(format.ALP, base, "vector %d needs %d bytes, %d left", i, need, len(b))
	}
	v.packed = b[hdr:] // the kernels may read past the packed bytes
	v.excPos = b[hdr+packed : hdr+packed+2*v.exc]
	v.excVals = b[hdr+packed+2*v.exc : need]
	v.base, v.excStart = base, base+hdr+packed
	for j := 0; j < v.exc; j++ {
		if p := int(binary.LittleEndian.Uint16(v.excPos[2*j:])); p >= count {
			return v, corruptf(format.ALP, v.excStart+2*j, "vector %d: exception position %d past its %d values", i, p, count)
		}
	}
	return v, nil
}

// ALPFloat64Decoder decodes ALP DOUBLE values.
type ALPFloat64Decoder struct {
	c      alpCore
	buf    []float64
	bufPos int
}

// Reset checks the page header and offsets; the page must hold at least
// numValues values.
func (d *ALPFloat64Decoder) Reset(src []byte, numValues int) error {
	d.buf, d.bufPos = d.buf[:0], 0
	return d.c.reset(src, numValues, 8)
}

// Remaining is the number of values not yet read.
func (d *ALPFloat64Decoder) Remaining() int { return d.c.left }

func (d *ALPFloat64Decoder) decodeVector(out []float64) error {
	v, err := d.c.parse(d.c.vec)
	if err != nil {
		return err
	}
	d.c.vec++
	ints := castSlice[int64](out)
	simd.UnpackInt64(ints, v.packed, v.bw)
	pf, pe := alpPow10F64[v.f], alpNegPow10F64[v.e]
	out = out[:len(ints)]
	for i, x := range ints {
		out[i] = float64(int64(uint64(x)+v.forVal)) * pf * pe
	}
	for j := 0; j < v.exc; j++ {
		p := binary.LittleEndian.Uint16(v.excPos[2*j:])
		out[p] = math.Float64frombits(binary.LittleEndian.Uint64(v.excVals[8*j:]))
	}
	return nil
}

// Decode appends up to n values to dst.
func (d *ALPFloat64Decoder) Decode(dst []float64, n int) ([]float64, error) {
	n = max(0, min(n, d.c.left))
	for n > 0 {
		if d.bufPos < len(d.buf) {
			k := min(n, len(d.buf)-d.bufPos)
			dst = append(dst, d.buf[d.bufPos:d.bufPos+k]...)
			d.bufPos += k
			d.c.left -= k
			n -= k
			continue
		}
		vl := d.c.vectorLen(d.c.vec)
		if n >= vl {
			at := len(dst)
			dst = extend(dst, vl)
			if err := d.decodeVector(dst[at:]); err != nil {
				return dst[:at], err
			}
			d.c.left -= vl
			n -= vl
			continue
		}
		d.buf = extend(d.buf[:0], vl)
		d.bufPos = 0
		if err := d.decodeVector(d.buf); err != nil {
			d.buf = d.buf[:0]
			return dst, err
		}
	}
	return dst, nil
}

// Skip passes over n values; whole vectors are not decoded at all.
func (d *ALPFloat64Decoder) Skip(n int) error {
	if n < 0 || n > d.c.left {
		return errSkip(format.ALP, n, d.c.left)
	}
	for n > 0 {
		if d.bufPos < len(d.buf) {
			k := min(n, len(d.buf)-d.bufPos)
			d.bufPos += k
			d.c.left -= k
			n -= k
			continue
		}
		vl := d.c.vectorLen(d.c.vec)
		if n >= vl {
			d.c.vec++
			d.c.left -= vl
			n -= vl
			continue
		}
		d.buf = extend(d.buf[:0], vl)
		d.bufPos = 0
		if err := d.decodeVector(d.buf); err != nil {
			d.buf = d.buf[:0]
			return err
		}
	}
	return nil
}

// ALPFloat32Decoder decodes ALP FLOAT values.
type ALPFloat32Decoder struct {
	c      alpCore
	buf    []float32
	bufPos int
}

// Reset checks the page header and offsets; the page must hold at least
// numValues values.
func (d *ALPFloat32Decoder) Reset(src []byte, numValues int) error {
	d.buf, d.bufPos = d.buf[:0], 0
	return d.c.reset(src, numValues, 4)
}

// Remaining is the number of values not yet read.
func (d *ALPFloat32Decoder) Remaining() int { return d.c.left }

func (d *ALPFloat32Decoder) decodeVector(out []float32) error {
	v, err := d.c.parse(d.c.vec)
	if err != nil {
		return err
	}
	d.c.vec++
	ints := castSlice[int32](out)
	simd.UnpackInt32(ints, v.packed, v.bw)
	pf, pe := alpPow10F32[v.f], alpNegPow10F32[v.e]
	forVal := uint32(v.forVal)
	out = out[:len(ints)]
	for i, x := range ints {
		out[i] = float32(int32(uint32(x)+forVal)) * pf * pe
	}
	for j := 0; j < v.exc; j++ {
		p := binary.LittleEndian.Uint16(v.excPos[2*j:])
		out[p] = math.Float32frombits(binary.LittleEndian.Uint32(v.excVals[4*j:]))
	}
	return nil
}

// Decode appends up to n values to dst.
func (d *ALPFloat32Decoder) Decode(dst []float32, n int) ([]float32, error) {
	n = max(0, min(n, d.c.left))
	for n > 0 {
		if d.bufPos < len(d.buf) {
			k := min(n, len(d.buf)-d.bufPos)
			dst = append(dst, d.buf[d.bufPos:d.bufPos+k]...)
			d.bufPos += k
			d.c.left -= k
			n -= k
			continue
		}
		vl := d.c.vectorLen(d.c.vec)
		if n >= vl {
			at := len(dst)
			dst = extend(dst, vl)
			if err := d.decodeVector(dst[at:]); err != nil {
				return dst[:at], err
			}
			d.c.left -= vl
			n -= vl
			continue
		}
		d.buf = extend(d.buf[:0], vl)
		d.bufPos = 0
		if err := d.decodeVector(d.buf); err != nil {
			d.buf = d.buf[:0]
			return dst, err
		}
	}
	return dst, nil
}

// Skip passes over n values; whole vectors are not decoded at all.
func (d *ALPFloat32Decoder) Skip(n int) error {
	if n < 0 || n > d.c.left {
		return errSkip(format.ALP, n, d.c.left)
	}
	for n > 0 {
		if d.bufPos < len(d.buf) {
			k := min(n, len(d.buf)-d.bufPos)
			d.bufPos += k
			d.c.left -= k
			n -= k
			continue
		}
		vl := d.c.vectorLen(d.c.vec)
		if n >= vl {
			d.c.vec++
			d.c.left -= vl
			n -= vl
			continue
		}
		d.buf = extend(d.buf[:0], vl)
		d.bufPos = 0
		if err := d.decodeVector(d.buf); err != nil {
			d.buf = d.buf[:0]
			return err
		}
	}
	return nil
}

// ALPEncoder encodes FLOAT and DOUBLE pages as ALP. It picks up to five
// candidate (exponent, factor) pairs from samples of the first page it
// sees (8 vectors, 256 values each, every pair tried) and keeps them until
// Reset, normally once per column chunk; each vector then uses whichever
// candidate encodes a 32-value sample of it smallest.
type ALPEncoder struct {
	// LogVectorSize is log2 of the vector size, 3..15; 0 means 10.
	LogVectorSize int
	preset        []alpCombo
	ints          []int64
	excPos        []uint16
	deltas        []uint64
	deltas32      []uint32
}

type alpCombo struct{ e, f uint8 }

// Reset forgets the candidate pairs, for a new column chunk.
func (e *ALPEncoder) Reset() { e.preset = e.preset[:0] }

// AppendFloat64 appends the ALP encoding of src to dst.
func (e *ALPEncoder) AppendFloat64(dst []byte, src []float64) []byte {
	return alpAppend(e, dst, src, &alpF64)
}

// AppendFloat32 appends the ALP encoding of src to dst.
func (e *ALPEncoder) AppendFloat32(dst []byte, src []float32) []byte {
	return alpAppend(e, dst, src, &alpF32)
}

// AppendALPFloat64 appends src as ALP with a fresh encoder.
func AppendALPFloat64(dst []byte, src []float64) []byte {
	var e ALPEncoder
	return e.AppendFloat64(dst, src)
}

// AppendALPFloat32 appends src as ALP with a fresh encoder.
func AppendALPFloat32(dst []byte, src []float32) []byte {
	var e ALPEncoder
	return e.AppendFloat32(dst, src)
}

// alpType holds the per-type constants of the encoder.
type alpType[F float32 | float64] struct {
	maxE       int
	size       int
	pow, neg   []F
	magic      F
	lo, hi     F     // range of scaled values tried
	minI, maxI int64 // range of the integer type
}

var alpF64 = alpType[float64]{
	maxE: 18, size: 8, pow: alpPow10F64[:], neg: alpNegPow10F64[:], magic: 1 << 52,
	lo: -(1 << 62), hi: 1 << 62, minI: math.MinInt64, maxI: math.MaxInt64,
}

var alpF32 = alpType[float32]{
	maxE: 10, size: 4, pow: alpPow10F32[:], neg: alpNegPow10F32[:], magic: 1 << 23,
	lo: -(1 << 31), hi: 1 << 31, minI: math.MinInt32, maxI: math.MaxInt32,
}

// encode maps v to its integer under (e, f); ok is false when the value
// must be an exception.
func (t *alpType[F]) encode(v F, e, f int) (int64, bool) {
	// Explicit conversions keep each product rounded to F on its own (no
	// fused multiply-add), as the decoder computes them.
	s := F(v*t.pow[e]) * t.neg[f]
	if !(s >= t.lo && s < t.hi) {
		return 0, false // NaN, infinities, out of range
	}
	var r F
	if s >= 0 {
		r = F(s+t.magic) - t.magic
	} else {
		r = F(s-t.magic) + t.magic
	}
	n := int64(r)
	if n < t.minI || n > t.maxI {
		return 0, false
	}
	d := F(F(n)*t.pow[f]) * t.neg[e]
	if t.size == 8 {
		if math.Float64bits(float64(d)) != math.Float64bits(float64(v)) {
			return 0, false
		}
	} else if math.Float32bits(float32(d)) != math.Float32bits(float32(v)) {
		return 0, false
	}
	return n, true
}

// estimate is the encoded size in bits of sample under (e, f).
func (t *alpType[F]) estimate(sample []F, e, f int) int {
	exc := 0
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, v := range sample {
		n, ok := t.encode(v, e, f)
		if !ok {
			exc++
			continue
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	bw := 0
	if hi > lo {
		bw = bits.Len64(uint64(hi) - uint64(lo))
	}
	return (len(sample)-exc)*bw + exc*(16+8*t.size)
}

// sampleOf picks up to n values of v evenly spread, into buf.
func sampleOf[F float32 | float64](buf, v []F, n int) []F {
	buf = buf[:0]
	step := max(1, len(v)/n)
	for i := 0; i < len(v) && len(buf) < n; i += step {
		buf = append(buf, v[i])
	}
	return buf
}

func (t *alpType[F]) choosePreset(e *ALPEncoder, src []F, vs int) {
	type cand struct {
		c     alpCombo
		count int
		size  int
	}
	var cands []cand
	numVectors := (len(src) + vs - 1) / vs
	step := max(1, numVectors/8)
	var buf [256]F
	for vi := 0; vi < numVectors && len(cands) < 64; vi += step {
		vec := src[vi*vs : min(len(src), (vi+1)*vs)]
		sample := sampleOf(buf[:0], vec, 256)
		best, bestSize := alpCombo{}, math.MaxInt
		for ex := t.maxE; ex >= 0; ex-- {
			for f := ex; f >= 0; f-- {
				if s := t.estimate(sample, ex, f); s < bestSize {
					best, bestSize = alpCombo{uint8(ex), uint8(f)}, s
				}
			}
		}
		found := false
		for i := range cands {
			if cands[i].c == best {
				cands[i].count++
				cands[i].size += bestSize
				found = true
			}
		}
		if !found {
			cands = append(cands, cand{best, 1, bestSize})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.count != b.count {
			return b.count - a.count
		}
		return a.size - b.size
	})
	e.preset = e.preset[:0]
	for i := 0; i < len(cands) && i < 5; i++ {
		e.preset = append(e.preset, cands[i].c)
	}
	if len(e.preset) == 0 {
		e.preset = append(e.preset, alpCombo{})
	}
}

func alpAppend[F float32 | float64](e *ALPEncoder, dst []byte, src []F, t *alpType[F]) []byte {
	log := e.LogVectorSize
	if log < 3 || log > 15 {
		log = DefaultALPLogVectorSize
	}
	vs := 1 << log
	if len(e.preset) == 0 && len(src) > 0 {
		t.choosePreset(e, src, vs)
	}
	numVectors := (len(src) + vs - 1) / vs
	dst = append(dst, 0, 0, byte(log))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
	offAt := len(dst)
	dst = extend(dst, 4*numVectors)
	start := offAt
	var buf [32]F
	for vi := 0; vi < numVectors; vi++ {
		binary.LittleEndian.PutUint32(dst[offAt+4*vi:], uint32(len(dst)-start))
		vec := src[vi*vs : min(len(src), (vi+1)*vs)]
		c := e.preset[0]
		if len(e.preset) > 1 {
			sample := sampleOf(buf[:0], vec, 32)
			bestSize := math.MaxInt
			for _, p := range e.preset {
				if s := t.estimate(sample, int(p.e), int(p.f)); s < bestSize {
					c, bestSize = p, s
				}
			}
		}
		dst = t.appendVector(e, dst, vec, int(c.e), int(c.f))
	}
	return dst
}

func (t *alpType[F]) appendVector(e *ALPEncoder, dst []byte, vec []F, ex, f int) []byte {
	ints := extend(e.ints[:0], len(vec))
	e.ints = ints
	pos := e.excPos[:0]
	placeholder, havePlaceholder := int64(0), false
	for i, v := range vec {
		n, ok := t.encode(v, ex, f)
		if !ok {
			pos = append(pos, uint16(i))
			continue
		}
		if !havePlaceholder {
			placeholder, havePlaceholder = n, true
		}
		ints[i] = n
	}
	e.excPos = pos
	for _, p := range pos {
		ints[p] = placeholder
	}
	lo, hi := int64(0), int64(0)
	if len(ints) > 0 {
		lo, hi = ints[0], ints[0]
		for _, n := range ints[1:] {
			lo, hi = min(lo, n), max(hi, n)
		}
	}
	bw := uint(bits.Len64(uint64(hi) - uint64(lo)))
	dst = append(dst, byte(ex), byte(f))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(pos)))
	if t.size == 8 {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(lo))
		dst = append(dst, byte(bw))
		deltas := extend(e.deltas[:0], len(ints))
		e.deltas = deltas
		for i, n := range ints {
			deltas[i] = uint64(n) - uint64(lo)
		}
		dst = appendPacked64(dst, deltas, bw)
	} else {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(lo))
		dst = append(dst, byte(bw))
		deltas := extend(e.deltas32[:0], len(ints))
		e.deltas32 = deltas
		for i, n := range ints {
			deltas[i] = uint32(n) - uint32(lo)
		}
		dst = appendPacked32(dst, deltas, bw)
	}
	for _, p := range pos {
		dst = binary.LittleEndian.AppendUint16(dst, p)
	}
	for _, p := range pos {
		if t.size == 8 {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(float64(vec[p])))
		} else {
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(vec[p])))
		}
	}
	return dst
}
