package simd

import (
	"syscall"
	"testing"
)

// guarded returns a slice of n bytes that ends right before an unmapped
// page (unmapped when the test ends), so that an assembly kernel reading past the end of its input
// faults instead of silently reading a neighbour's memory.
func guarded(t testing.TB, n int) []byte {
	page := syscall.Getpagesize()
	size := (n+page-1)/page*page + page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n)
	}
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size-page:], syscall.PROT_NONE); err != nil {
		return make([]byte, n)
	}
	return mem[size-page-n : size-page : size-page]
}
