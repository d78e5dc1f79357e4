//go:build !linux

package simd

import "testing"

func guarded(_ testing.TB, n int) []byte { return make([]byte, n) }
