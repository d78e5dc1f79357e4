package simd

import (
	"encoding/binary"
	"slices"
	"testing"
)

// The fuzz targets run every kernel set the CPU has on the fuzzer's input
// and compare with the portable kernels; the source buffers end at an
// unmapped page, so a kernel reading past its input faults.

func FuzzUnpack(f *testing.F) {
	f.Add([]byte{0xff, 0x01, 0x80, 0x7f, 0x00, 0x55}, uint8(3), uint16(17))
	f.Add(make([]byte, 600), uint8(57), uint16(64))
	f.Add(slices.Repeat([]byte{0xa5, 0x5a, 0xff}, 200), uint8(63), uint16(72))
	f.Add(slices.Repeat([]byte{0x12, 0x34}, 300), uint8(64), uint16(75))
	f.Add(slices.Repeat([]byte{0x80}, 150), uint8(25), uint16(48))
	f.Fuzz(func(t *testing.T, data []byte, bw uint8, n uint16) {
		w := uint(bw % 65)
		count := min(int(n), len(data)*8/max(int(w), 1))
		src := guarded(t, len(data))
		copy(src, data)
		want64 := make([]int64, count)
		unpackInt64Generic(want64, src, w)
		var want32 []int32
		if w <= 32 {
			want32 = make([]int32, count)
			unpackInt32Generic(want32, src, w)
		}
		for _, k := range variants {
			got64 := make([]int64, count)
			k.unpackInt64(got64, src, w)
			if !slices.Equal(got64, want64) {
				t.Fatalf("%s: int64 bw=%d n=%d differs", k.name, w, count)
			}
			if w <= 32 {
				got32 := make([]int32, count)
				k.unpackInt32(got32, src, w)
				if !slices.Equal(got32, want32) {
					t.Fatalf("%s: int32 bw=%d n=%d differs", k.name, w, count)
				}
			}
		}
	})
}

// FuzzGather reads the indices from data (4 bytes each, any value) and
// gathers them from dictionaries of dictLen entries.
func FuzzGather(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, uint16(3))
	f.Add(slices.Repeat([]byte{7, 0, 0, 0}, 40), uint16(16))
	f.Add(slices.Repeat([]byte{31, 0, 0, 0, 0, 0, 0, 0}, 40), uint16(32))
	f.Add(slices.Repeat([]byte{0xe7, 0x03, 0, 0, 0xe8, 0x03, 0, 0}, 40), uint16(1000))
	f.Fuzz(func(t *testing.T, data []byte, dictLen uint16) {
		idx := make([]int32, len(data)/4)
		for i := range idx {
			idx[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
		}
		d32, d64, d128 := make([]uint32, dictLen), make([]uint64, dictLen), make([][16]byte, dictLen)
		for i := range int(dictLen) {
			d32[i], d64[i] = uint32(i)*2654435761, uint64(i)*0x9E3779B97F4A7C15
			d128[i][0], d128[i][15] = byte(i), byte(i>>8)
		}
		w32, w64, w128 := make([]uint32, len(idx)), make([]uint64, len(idx)), make([][16]byte, len(idx))
		n32 := gatherUint32Generic(w32, d32, idx)
		n64 := gatherUint64Generic(w64, d64, idx)
		n128 := gatherUint128Generic(w128, d128, idx)
		for _, k := range variants {
			g32, g64, g128 := make([]uint32, len(idx)), make([]uint64, len(idx)), make([][16]byte, len(idx))
			if n := k.gatherUint32(g32, d32, idx); n != n32 || !slices.Equal(g32[:n], w32[:n]) {
				t.Fatalf("%s: 4-byte gather from %d entries: %d values, want %d", k.name, dictLen, n, n32)
			}
			if n := k.gatherUint64(g64, d64, idx); n != n64 || !slices.Equal(g64[:n], w64[:n]) {
				t.Fatalf("%s: 8-byte gather from %d entries: %d values, want %d", k.name, dictLen, n, n64)
			}
			if n := k.gatherUint128(g128, d128, idx); n != n128 || !slices.Equal(g128[:n], w128[:n]) {
				t.Fatalf("%s: 16-byte gather from %d entries: %d values, want %d", k.name, dictLen, n, n128)
			}
		}
	})
}
