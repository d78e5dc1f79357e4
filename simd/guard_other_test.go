//go:build !linux

package simd

func guarded(n int) []byte { return make([]byte, n) }
