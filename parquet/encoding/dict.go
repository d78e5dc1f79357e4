package encoding

import (
	"fmt"
	"unsafe"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/simd"
)

// DictIndexDecoder decodes the dictionary indices of a PLAIN_DICTIONARY or
// RLE_DICTIONARY data page: one byte of bit width (at most 32), then the
// RLE hybrid. Indices are not checked against a dictionary here; the
// Gather functions do that.
type DictIndexDecoder struct {
	rle RLEDecoder
}

// Reset points the decoder at a page's encoded indices.
func (d *DictIndexDecoder) Reset(src []byte, numValues int) error {
	if len(src) == 0 {
		if numValues == 0 {
			return d.rle.reset(format.RLEDictionary, nil, 0, 0, 0)
		}
		d.rle = RLEDecoder{}
		return corruptf(format.RLEDictionary, 0, "missing bit width byte")
	}
	return d.rle.reset(format.RLEDictionary, src[1:], 1, int(src[0]), numValues)
}

// BitWidth is the bit width the page's indices are packed with.
func (d *DictIndexDecoder) BitWidth() int { return int(d.rle.bitWidth) }

// Decode appends up to n indices to dst.
func (d *DictIndexDecoder) Decode(dst []int32, n int) ([]int32, error) { return d.rle.Decode(dst, n) }

// Skip passes over n indices without unpacking them.
func (d *DictIndexDecoder) Skip(n int) error { return d.rle.Skip(n) }

// Remaining is the number of indices not yet read.
func (d *DictIndexDecoder) Remaining() int { return d.rle.left }

// AppendDictIndices appends dictionary indices as a data page stores them:
// the bit width for a dictionary of dictLen entries as one byte, then the
// RLE hybrid.
func AppendDictIndices(dst []byte, indices []int32, dictLen int) []byte {
	bw := DictIndexBitWidth(dictLen)
	dst = append(dst, byte(bw))
	return AppendRLE(dst, indices, bw)
}

func badIndex(pos int, idx int32, n int) error {
	return &Error{Encoding: format.RLEDictionary, Offset: -1,
		Msg: fmt.Sprintf("dictionary index %d (value %d of the batch) out of range for a dictionary of %d entries", idx, pos, n),
		Err: ErrCorrupt}
}

// CheckIndices returns an error naming the first of indices that is out of
// range for a dictionary of entries values, for callers that keep indices
// as codes instead of gathering the values they name.
func CheckIndices(indices []int32, entries int) error {
	// The range of the indices (a vector kernel) for the common case, then
	// the search for the culprit.
	lo, hi, ok := simd.MinMaxInt32(indices)
	if !ok || lo >= 0 && int(hi) < entries {
		return nil
	}
	for i, x := range indices {
		if uint(uint32(x)) >= uint(entries) {
			return badIndex(i, x, entries)
		}
	}
	return nil
}

// gatherFixed appends dict[indices[i]] to dst for every i, using the simd
// kernels for 4-, 8- and 16-byte values.
func gatherFixed[T any](dst []T, dict []T, indices []int32) ([]T, error) {
	at := len(dst)
	dst = extend(dst, len(indices))
	out := dst[at:]
	var n int
	switch unsafe.Sizeof(out[0]) {
	case 4:
		n = simd.GatherUint32(castSlice[uint32](out), castSlice[uint32](dict), indices)
	case 8:
		n = simd.GatherUint64(castSlice[uint64](out), castSlice[uint64](dict), indices)
	case 16:
		n = simd.GatherUint128(castSlice[[16]byte](out), castSlice[[16]byte](dict), indices)
	default:
		for i, x := range indices {
			if uint(uint32(x)) >= uint(len(dict)) {
				break
			}
			out[i] = dict[x]
			n = i + 1
		}
	}
	if n < len(indices) {
		return dst[:at+n], badIndex(n, indices[n], len(dict))
	}
	return dst, nil
}

// castSlice reinterprets a slice of same-sized values.
func castSlice[To, From any](s []From) []To {
	if len(s) == 0 {
		return nil
	}
	var f From
	var t To
	return unsafe.Slice((*To)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(f))/int(unsafe.Sizeof(t)))
}

// GatherInt32 appends dict[i] for each index i to dst; an index outside the
// dictionary is an error (the values before it are appended).
func GatherInt32(dst, dict, indices []int32) ([]int32, error) { return gatherFixed(dst, dict, indices) }

// GatherInt64 is GatherInt32 for INT64 dictionaries.
func GatherInt64(dst, dict []int64, indices []int32) ([]int64, error) {
	return gatherFixed(dst, dict, indices)
}

// GatherFloat32 is GatherInt32 for FLOAT dictionaries.
func GatherFloat32(dst, dict []float32, indices []int32) ([]float32, error) {
	return gatherFixed(dst, dict, indices)
}

// GatherFloat64 is GatherInt32 for DOUBLE dictionaries.
func GatherFloat64(dst, dict []float64, indices []int32) ([]float64, error) {
	return gatherFixed(dst, dict, indices)
}

// GatherInt96 is GatherInt32 for INT96 dictionaries.
func GatherInt96(dst, dict [][12]byte, indices []int32) ([][12]byte, error) {
	return gatherFixed(dst, dict, indices)
}

// GatherBool is GatherInt32 for BOOLEAN dictionaries.
func GatherBool(dst, dict []bool, indices []int32) ([]bool, error) {
	return gatherFixed(dst, dict, indices)
}

// GatherFixedLen appends the width-byte dictionary entries named by
// indices to dst; dict holds the entries back to back.
func GatherFixedLen(dst, dict []byte, width int, indices []int32) ([]byte, error) {
	if width <= 0 {
		return dst, &Error{Encoding: format.RLEDictionary, Offset: -1, Msg: "bad FIXED_LEN_BYTE_ARRAY width", Err: ErrUnsupported}
	}
	n := len(dict) / width
	at := len(dst)
	dst = extend(dst, len(indices)*width)
	out := dst[at:]
	// The typed kernels need the byte slices aligned for their word size
	// (Go's pointer rules, not the CPU, ask for it).
	if len(indices) > 0 && n > 0 && aligned(out, width) && aligned(dict, width) {
		switch width {
		case 4:
			return gatherBytes[uint32](dst[:at], dict[:4*n], indices)
		case 8:
			return gatherBytes[uint64](dst[:at], dict[:8*n], indices)
		case 16:
			return gatherBytes[[16]byte](dst[:at], dict[:16*n], indices)
		}
	}
	for i, x := range indices {
		if uint(uint32(x)) >= uint(n) {
			return dst[:at+i*width], badIndex(i, x, n)
		}
		copy(out[i*width:i*width+width], dict[int(x)*width:])
	}
	return dst, nil
}

func aligned(b []byte, width int) bool {
	a := 1
	switch width {
	case 4:
		a = 4
	case 8:
		a = 8
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(a) == 0
}

// gatherBytes gathers fixed-width entries held in a byte slice through the
// typed kernels.
func gatherBytes[T uint32 | uint64 | [16]byte](dst, dict []byte, indices []int32) ([]byte, error) {
	size := int(unsafe.Sizeof(*new(T)))
	at := len(dst)
	dst = extend(dst, len(indices)*size)
	out := dst[at:]
	var n int
	switch size {
	case 4:
		n = simd.GatherUint32(castSlice[uint32](out), castSlice[uint32](dict), indices)
	case 8:
		n = simd.GatherUint64(castSlice[uint64](out), castSlice[uint64](dict), indices)
	default:
		n = simd.GatherUint128(castSlice[[16]byte](out), castSlice[[16]byte](dict), indices)
	}
	if n < len(indices) {
		return dst[:at+n*size], badIndex(n, indices[n], len(dict)/size)
	}
	return dst, nil
}

// GatherByteArray appends the dictionary entries named by indices to
// data/offsets (Arrow style, see ByteArrayDecoder); the dictionary is
// dictData with dictOffsets (len = entries+1).
func GatherByteArray(data []byte, offsets []int32, dictData []byte, dictOffsets []int32, indices []int32) ([]byte, []int32, error) {
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(data)))
	}
	n := max(len(dictOffsets)-1, 0)
	// Size the output once: one pass over the indices is cheap next to the
	// copies, and it checks every index before anything is written.
	good, total, longest := len(indices), 0, int32(0)
	for i, x := range indices {
		if uint(uint32(x)) >= uint(n) {
			good = i
			break
		}
		l := dictOffsets[x+1] - dictOffsets[x]
		total += int(l)
		longest = max(longest, l)
	}
	if len(data)+total > maxInt32 {
		return data, offsets, &Error{Encoding: format.RLEDictionary, Offset: -1, Msg: "byte array data exceeds 2 GiB", Err: ErrCorrupt}
	}
	at := len(offsets)
	offsets = extend(offsets, good)
	out := offsets[at:]
	// The block copy needs 16 readable bytes past the dictionary's end:
	// worth a padded copy of a small dictionary if it has no slack.
	if longest <= shortValue && good > 0 && (cap(dictData)-len(dictData) >= shortValue || len(dictData) <= 4*good) {
		data = gatherShort(data, out, dictData, dictOffsets, indices[:good], total)
	} else {
		data = extend(data, total)[:len(data)]
		for i, x := range indices[:good] {
			data = append(data, dictData[dictOffsets[x]:dictOffsets[x+1]]...)
			out[i] = int32(len(data))
		}
	}
	if good < len(indices) {
		return data, offsets, badIndex(good, indices[good], n)
	}
	return data, offsets, nil
}

// shortValue is the longest dictionary value gatherShort copies with one
// fixed-size move.
const shortValue = 16

// gatherShort appends the values of indices (each at most shortValue bytes
// long, total bytes in all) to data and their end offsets to out. Each
// value is copied as a whole 16-byte block — two register moves instead of
// a memmove call per value — into a buffer with 16 bytes of slack; the
// bytes past a value's end are overwritten by the next one and cut off at
// the end. The blocks read up to 16 bytes past the dictionary's last
// value: from the slice's spare capacity where it has some (readers leave
// it there), else from a padded copy.
func gatherShort(data []byte, out []int32, dictData []byte, dictOffsets []int32, indices []int32, total int) []byte {
	src := dictData[:cap(dictData)]
	if len(src)-len(dictData) < shortValue {
		src = make([]byte, len(dictData)+shortValue)
		copy(src, dictData)
	}
	pos := len(data)
	buf := extend(data, total+shortValue)
	for i, x := range indices {
		start, end := dictOffsets[x], dictOffsets[x+1]
		*(*[shortValue]byte)(buf[pos : pos+shortValue]) = *(*[shortValue]byte)(src[start : start+shortValue])
		pos += int(end - start)
		out[i] = int32(pos)
	}
	return buf[:pos]
}
