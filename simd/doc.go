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
// Three kernel sets exist: "purego" (everywhere), "avx2" (bit unpacking,
// gather, BYTE_STREAM_SPLIT, delta prefix sums, min/max, compare) and
// "avx512" (the AVX2 set plus register-permute gathers for small
// dictionaries, 512-bit compares and int64 min/max). Implementations lists
// those the CPU can run and SetImplementation switches between them, so
// tests and benchmarks compare every set inside one binary; the package's
// own tests check each set against the portable one, including on inputs
// that end at an unmapped page.
//
// Kernels work on caller-owned slices and never allocate. Their inputs are
// trusted: a length that does not match what the kernel needs is a bug in
// the caller and panics (before any memory is touched); the Parquet layers
// above validate untrusted input before calling in.
package simd
