package bloom

import (
	"math"
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// The hash of a value is XXH64 with seed 0 over its PLAIN encoding, without
// the length prefix for byte arrays. The 4- and 8-byte cases are spelled
// out below (the short-input path of XXH64) so that hashing a fixed-width
// column needs no byte slice per value.

const (
	prime1 uint64 = 11400714785074694791
	prime2 uint64 = 14029467366897019727
	prime3 uint64 = 1609587929392839161
	prime4 uint64 = 9650029242287828579
	prime5 uint64 = 2870177450012600261
)

func avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

func hash4(v uint32) uint64 {
	h := prime5 + 4
	h ^= uint64(v) * prime1
	h = bits.RotateLeft64(h, 23)*prime2 + prime3
	return avalanche(h)
}

func hash8(v uint64) uint64 {
	k := bits.RotateLeft64(v*prime2, 31) * prime1
	h := (prime5 + 8) ^ k
	h = bits.RotateLeft64(h, 27)*prime1 + prime4
	return avalanche(h)
}

// HashInt32 hashes an INT32 value.
func HashInt32(v int32) uint64 { return hash4(uint32(v)) }

// HashInt64 hashes an INT64 value.
func HashInt64(v int64) uint64 { return hash8(uint64(v)) }

// HashFloat32 hashes a FLOAT value by its IEEE bits (so -0 and +0, and NaNs
// with different payloads, hash differently, as other writers do).
func HashFloat32(v float32) uint64 { return hash4(math.Float32bits(v)) }

// HashFloat64 hashes a DOUBLE value by its IEEE bits.
func HashFloat64(v float64) uint64 { return hash8(math.Float64bits(v)) }

// HashBytes hashes a BYTE_ARRAY value (without its length prefix) or a
// FIXED_LEN_BYTE_ARRAY value.
func HashBytes(v []byte) uint64 { return xxhash.Sum64(v) }

// HashString hashes a BYTE_ARRAY value held in a string.
func HashString(v string) uint64 { return xxhash.Sum64String(v) }

// HashFixed hashes a FIXED_LEN_BYTE_ARRAY value; it is HashBytes.
func HashFixed(v []byte) uint64 { return xxhash.Sum64(v) }

// HashInt96 hashes an INT96 value given as its 12 PLAIN bytes.
func HashInt96(v [12]byte) uint64 { return xxhash.Sum64(v[:]) }

// HashInt32s appends the hashes of vs to dst.
func HashInt32s(dst []uint64, vs []int32) []uint64 {
	for _, v := range vs {
		dst = append(dst, hash4(uint32(v)))
	}
	return dst
}

// HashInt64s appends the hashes of vs to dst.
func HashInt64s(dst []uint64, vs []int64) []uint64 {
	for _, v := range vs {
		dst = append(dst, hash8(uint64(v)))
	}
	return dst
}

// HashFloat32s appends the hashes of vs to dst.
func HashFloat32s(dst []uint64, vs []float32) []uint64 {
	for _, v := range vs {
		dst = append(dst, hash4(math.Float32bits(v)))
	}
	return dst
}

// HashFloat64s appends the hashes of vs to dst.
func HashFloat64s(dst []uint64, vs []float64) []uint64 {
	for _, v := range vs {
		dst = append(dst, hash8(math.Float64bits(v)))
	}
	return dst
}

// HashByteArrays appends the hashes of the byte-array values stored as one
// data buffer plus offsets (value i is data[offsets[i]:offsets[i+1]]) to
// dst. Offsets must be non-decreasing and within data.
func HashByteArrays(dst []uint64, data []byte, offsets []int32) []uint64 {
	for i := 0; i+1 < len(offsets); i++ {
		dst = append(dst, xxhash.Sum64(data[offsets[i]:offsets[i+1]]))
	}
	return dst
}
