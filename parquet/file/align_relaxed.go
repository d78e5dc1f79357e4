//go:build (amd64 || arm64) && !race && !checkptr

package file

// unalignedOK says whether typed slices may start at any address: amd64
// and arm64 load unaligned integers and floats at full speed, so values in
// a memory-mapped page are lent out wherever the page put them.
const unalignedOK = true
