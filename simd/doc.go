// Package simd holds the data-parallel kernels that the Parquet decoders,
// encoders and the scan's filters spend their time in: unpacking bit-packed
// integers, gathering dictionary values by index, BYTE_STREAM_SPLIT
// transposition, delta prefix sums, min/max, and comparing a column with a
// constant into a selection bitmap.
//
// It is a leaf package: it imports only the standard library and
// golang.org/x/sys/cpu. Every kernel has one portable Go version (the
// reference) and, on amd64, assembly versions (AVX2, and AVX-512 where it
// pays off). The version is chosen once, at start-up, from the CPU's
// features; build with -tags purego (or noasm) to use only the Go versions.
// Implementation reports which set was chosen.
//
// Kernels work on caller-owned slices and never allocate. Their inputs are
// trusted: a length that does not match what the kernel needs is a bug in
// the caller and panics (before any memory is touched); the Parquet layers
// above validate untrusted input before calling in.
package simd
