//go:build amd64 && gc && !purego && !noasm

package simd

import "golang.org/x/sys/cpu"

// The assembly sets. Each starts from the portable set and replaces the
// kernels it has; the best one the CPU supports is chosen once, here.
var avx2Kernels = func() kernels {
	k := goKernels
	k.name = "avx2"
	k.unpackInt32 = unpackInt32AVX2
	k.unpackInt64 = unpackInt64AVX2
	k.gatherUint32 = gatherUint32AVX2
	k.gatherUint64 = gatherUint64AVX2
	k.gatherUint128 = gatherUint128AVX2
	k.bssDecode4 = bssDecode4Asm
	k.bssDecode8 = bssDecode8Asm
	k.bssEncode4 = bssEncode4Asm
	k.bssEncode8 = bssEncode8Asm
	k.deltaInt32 = deltaInt32Asm
	k.deltaInt64 = deltaInt64Asm
	k.minmaxInt32 = minmaxInt32Asm
	k.minmaxInt64 = minmaxInt64With(minmaxInt64AVX2)
	k.minmaxFloat32 = minmaxFloat32Asm
	k.minmaxFloat64 = minmaxFloat64Asm
	k.compareInt32 = compareInt32Asm
	k.compareInt64 = compareInt64Asm
	k.compareFloat32 = compareFloat32Asm
	k.compareFloat64 = compareFloat64Asm
	return k
}()

// avx512Kernels uses AVX-512 F, BW and VL. It also asks for VBMI, not
// because a kernel needs it but to pick CPUs (Ice Lake, Zen 4 and later)
// where 512-bit instructions do not lower the clock.
var avx512Kernels = func() kernels {
	k := avx2Kernels
	k.name = "avx512"
	k.gatherUint32 = gatherUint32AVX512
	k.gatherUint64 = gatherUint64AVX512
	k.minmaxInt64 = minmaxInt64With(minmaxInt64AVX512)
	k.compareInt32 = compareInt32AVX512
	k.compareInt64 = compareInt64AVX512
	k.compareFloat32 = compareFloat32AVX512
	k.compareFloat64 = compareFloat64AVX512
	return k
}()

func init() {
	x := &cpu.X86
	if x.HasAVX2 {
		variants = append(variants, &avx2Kernels)
		impl = &avx2Kernels
	}
	if x.HasAVX2 && x.HasAVX512F && x.HasAVX512BW && x.HasAVX512VL && x.HasAVX512VBMI {
		variants = append(variants, &avx512Kernels)
		impl = &avx512Kernels
	}
}
