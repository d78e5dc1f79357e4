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
	return k
}()

func init() {
	if cpu.X86.HasAVX2 {
		variants = append(variants, &avx2Kernels)
		impl = &avx2Kernels
	}
}
