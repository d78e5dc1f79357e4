//go:build amd64 && gc && !purego && !noasm

package simd

import "unsafe"

// Bit unpacking with AVX2 works on groups of 8 values, which always start
// on a byte (8 values of w bits take w bytes). Per bit width, a table says
// which source bytes each output lane needs (a VPSHUFB mask, per 128-bit
// half of the register) and by how many bits to shift them down.
//
// Narrow widths (1..25) unpack 8 int32 per register: the low half reads
// 16 bytes at the group start, the high half 16 bytes at byte 4w/8, and each
// 32-bit lane takes 4 bytes, a shift of at most 7 and a mask.
//
// Pair layout (int32 widths 26..32, int64 widths 1..56): each 128-bit half
// holds two 64-bit lanes for values 2p and 2p+1, read from 16 bytes at byte
// 2p*w/8; values up to 57 bits fit in 8 bytes after a shift of at most 7.
//
// Wide layout (int64 widths 57..63): a value may straddle nine bytes, so
// each lane is built from the two 64-bit words it overlaps, relative to the
// group start: (word[q] >> s) | (word[q+1] << (64-s)), where a shift of 64
// gives 0. For these widths the words of values 0..3 are always
// q = 0, 0, 1, 2 and those of values 4..7 are q = 3, 4, 5, 6, so only the
// shift counts depend on the width. Width 64 is a copy.

type unpackNarrowTab struct {
	shuf  [32]byte  // 0
	shift [8]uint32 // 32
	mask  uint32    // 64
	_     [3]uint32
	half  int64 // 80
}

type unpackPairTab struct {
	shufA  [32]byte  // 0
	shufB  [32]byte  // 32
	shiftA [4]uint64 // 64
	shiftB [4]uint64 // 96
	mask   uint64    // 128
	off2   int64     // 136
	off4   int64     // 144
	off6   int64     // 152
}

type unpackWideTab struct {
	right [8]uint64 // 0: s for values 0..7
	left  [8]uint64 // 64: 64-s
	mask  uint64    // 128
}

const (
	maxNarrow32 = 25
	maxPair64   = 56
	maxWide64   = 63
)

var (
	narrowTabs [maxNarrow32 + 1]unpackNarrowTab
	pairTabs   [maxPair64 + 1]unpackPairTab
	wideTabs   [maxWide64 + 1]unpackWideTab
)

func init() {
	for w := 1; w <= maxNarrow32; w++ {
		t := &narrowTabs[w]
		t.mask = uint32(1)<<w - 1
		t.half = int64(4 * w / 8)
		for v := 0; v < 8; v++ {
			lane, base := v/4, 0
			if lane == 1 {
				base = int(t.half)
			}
			rel := v*w - 8*base
			for b := 0; b < 4; b++ {
				t.shuf[16*lane+4*(v%4)+b] = byte(rel/8 + b)
			}
			t.shift[v] = uint32(rel % 8)
		}
	}
	for w := 1; w <= maxPair64; w++ {
		t := &pairTabs[w]
		t.mask = ^uint64(0) >> (64 - w)
		bases := [4]int{0, 2 * w / 8, 4 * w / 8, 6 * w / 8}
		t.off2, t.off4, t.off6 = int64(bases[1]), int64(bases[2]), int64(bases[3])
		for v := 0; v < 8; v++ {
			p := v / 2
			rel := v*w - 8*bases[p]
			shuf, shift := &t.shufA, &t.shiftA
			if p >= 2 {
				shuf, shift = &t.shufB, &t.shiftB
			}
			lane := p % 2
			for b := 0; b < 8; b++ {
				shuf[16*lane+8*(v%2)+b] = byte(rel/8 + b)
			}
			shift[2*lane+v%2] = uint64(rel % 8)
		}
	}
	for w := maxPair64 + 1; w <= maxWide64; w++ {
		t := &wideTabs[w]
		t.mask = ^uint64(0) >> (64 - w)
		for v := 0; v < 8; v++ {
			s := uint64(v*w) % 64
			t.right[v], t.left[v] = s, 64-s
		}
	}
}

//go:noescape
func unpack32NarrowAVX2(dst *int32, src *byte, groups, bw int, tab *unpackNarrowTab)

//go:noescape
func unpack32PairAVX2(dst *int32, src *byte, groups, bw int, tab *unpackPairTab)

//go:noescape
func unpack64PairAVX2(dst *int64, src *byte, groups, bw int, tab *unpackPairTab)

//go:noescape
func unpack64WideAVX2(dst *int64, src *byte, groups, bw int, tab *unpackWideTab)

// safeGroups is how many groups of 8 the assembly may unpack: group g reads
// bytes [g*bw, g*bw+read) and must stay inside src.
func safeGroups(n, srcLen, bw, read int) int {
	groups := n / 8
	if srcLen < read {
		return 0
	}
	return min(groups, (srcLen-read)/bw+1)
}

func unpackInt32AVX2(dst []int32, src []byte, bitWidth uint) {
	bw := int(bitWidth)
	if bw == 0 || len(dst) < 8 {
		unpackInt32Generic(dst, src, bitWidth)
		return
	}
	var g int
	if bw <= maxNarrow32 {
		t := &narrowTabs[bw]
		g = safeGroups(len(dst), len(src), bw, int(t.half)+16)
		if g > 0 {
			unpack32NarrowAVX2(unsafe.SliceData(dst), unsafe.SliceData(src), g, bw, t)
		}
	} else {
		t := &pairTabs[bw]
		g = safeGroups(len(dst), len(src), bw, int(t.off6)+16)
		if g > 0 {
			unpack32PairAVX2(unsafe.SliceData(dst), unsafe.SliceData(src), g, bw, t)
		}
	}
	if 8*g < len(dst) {
		unpackInt32Generic(dst[8*g:], src[g*bw:], bitWidth)
	}
}

func unpackInt64AVX2(dst []int64, src []byte, bitWidth uint) {
	bw := int(bitWidth)
	if bw == 0 || bw > 64 || len(dst) < 8 {
		unpackInt64Generic(dst, src, bitWidth)
		return
	}
	var g int
	switch {
	case bw == 64:
		// Little-endian 64-bit values are their own packing.
		g = min(len(dst), len(src)/8) / 8
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), 64*g), src)
	case bw > maxPair64:
		g = safeGroups(len(dst), len(src), bw, 64)
		if g > 0 {
			unpack64WideAVX2(unsafe.SliceData(dst), unsafe.SliceData(src), g, bw, &wideTabs[bw])
		}
	default:
		t := &pairTabs[bw]
		g = safeGroups(len(dst), len(src), bw, int(t.off6)+16)
		if g > 0 {
			unpack64PairAVX2(unsafe.SliceData(dst), unsafe.SliceData(src), g, bw, t)
		}
	}
	if 8*g < len(dst) {
		unpackInt64Generic(dst[8*g:], src[g*bw:], bitWidth)
	}
}
