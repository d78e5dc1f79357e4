//go:build !(amd64 || arm64) || race || checkptr

package file

// unalignedOK says whether typed slices may start at any address. Under
// the race detector (which checks pointer alignment) and on architectures
// without cheap unaligned loads, borrowed values must be aligned.
const unalignedOK = false
