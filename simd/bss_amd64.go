//go:build amd64 && gc && !purego && !noasm

package simd

import "unsafe"

// BYTE_STREAM_SPLIT with AVX2 moves 32 values per iteration: decoding
// interleaves 32 bytes of each stream with byte, word (and for 8-byte
// values dword) unpacks and fixes the 128-bit halves with VPERM2I128;
// encoding groups each value's bytes with VPSHUFB/VPERMD and transposes
// 4x4 qwords. The last len%32 values go through the portable code.

//go:noescape
func bssDecode4AVX2(dst, src *byte, stride, blocks int)

//go:noescape
func bssDecode8AVX2(dst, src *byte, stride, blocks int)

//go:noescape
func bssEncode4AVX2(dst, src *byte, n, blocks int)

//go:noescape
func bssEncode8AVX2(dst, src *byte, n, blocks int)

func bssDecode4Asm(dst, src []byte, stride int) {
	n := len(dst) / 4
	blocks := n / 32
	if blocks > 0 {
		bssDecode4AVX2(unsafe.SliceData(dst), unsafe.SliceData(src), stride, blocks)
	}
	if done := 32 * blocks; done < n {
		bssDecode4Generic(dst[4*done:], src[done:], stride)
	}
}

func bssDecode8Asm(dst, src []byte, stride int) {
	n := len(dst) / 8
	blocks := n / 32
	if blocks > 0 {
		bssDecode8AVX2(unsafe.SliceData(dst), unsafe.SliceData(src), stride, blocks)
	}
	if done := 32 * blocks; done < n {
		bssDecode8Generic(dst[8*done:], src[done:], stride)
	}
}

func bssEncode4Asm(dst, src []byte) {
	n := len(src) / 4
	blocks := n / 32
	if blocks > 0 {
		bssEncode4AVX2(unsafe.SliceData(dst), unsafe.SliceData(src), n, blocks)
	}
	for i := 32 * blocks; i < n; i++ {
		v := src[4*i : 4*i+4 : 4*i+4]
		dst[i], dst[n+i], dst[2*n+i], dst[3*n+i] = v[0], v[1], v[2], v[3]
	}
}

func bssEncode8Asm(dst, src []byte) {
	n := len(src) / 8
	blocks := n / 32
	if blocks > 0 {
		bssEncode8AVX2(unsafe.SliceData(dst), unsafe.SliceData(src), n, blocks)
	}
	for i := 32 * blocks; i < n; i++ {
		for k := 0; k < 8; k++ {
			dst[k*n+i] = src[8*i+k]
		}
	}
}

// Constants of the encoders: within each 128-bit half, put byte k of the
// four values together (VPSHUFB), then qword k = byte k of 8 values
// (VPERMD).
var bssShuf4 = [32]byte{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
	0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}
var bssPerm4 = [8]uint32{0, 4, 1, 5, 2, 6, 3, 7}
