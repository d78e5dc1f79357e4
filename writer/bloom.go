package writer

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/cespare/xxhash/v2"

	"github.com/carquet-go/carquet/parquet/format"
)

// The split-block bloom filter of BloomFilter.md. parquet/bloom does not
// exist yet, so the writer carries its own (insert side only).

const (
	bloomMinBytes   = 32
	bloomMaxBytes   = 128 << 20
	defaultBloomNDV = 1 << 20
)

var bloomSalt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// bloomFilter is a split-block bloom filter: blocks of eight 32-bit words.
type bloomFilter struct {
	words []uint32
}

// bloomBytes is the bitset size for ndv distinct values at false positive
// probability fpp: the optimal bit count, rounded up to a power of two.
func bloomBytes(ndv int64, fpp float64) int {
	if ndv <= 0 {
		ndv = defaultBloomNDV
	}
	m := -8 * float64(ndv) / math.Log(1-math.Pow(fpp, 1.0/8))
	n := int64(m / 8)
	if n < bloomMinBytes || m != m {
		n = bloomMinBytes
	}
	if n > bloomMaxBytes {
		n = bloomMaxBytes
	}
	p := int64(1) << bits.Len64(uint64(n-1))
	return int(min(p, bloomMaxBytes))
}

func newBloomFilter(numBytes int) *bloomFilter {
	return &bloomFilter{words: make([]uint32, numBytes/4)}
}

func (f *bloomFilter) insert(h uint64) {
	nb := uint64(len(f.words) / 8)
	i := ((h >> 32) * nb) >> 32
	b := f.words[i*8 : i*8+8 : i*8+8]
	x := uint32(h)
	for k := range 8 {
		b[k] |= 1 << ((x * bloomSalt[k]) >> 27)
	}
}

func (f *bloomFilter) check(h uint64) bool {
	nb := uint64(len(f.words) / 8)
	i := ((h >> 32) * nb) >> 32
	b := f.words[i*8 : i*8+8 : i*8+8]
	x := uint32(h)
	for k := range 8 {
		if b[k]&(1<<((x*bloomSalt[k])>>27)) == 0 {
			return false
		}
	}
	return true
}

func (f *bloomFilter) reset() { clear(f.words) }

// appendTo appends the filter as a file stores it: the Thrift
// BloomFilterHeader, then the bitset (little-endian words).
func (f *bloomFilter) appendTo(dst []byte) []byte {
	h := format.BloomFilterHeader{
		NumBytes:    int32(len(f.words) * 4),
		Algorithm:   format.BloomFilterAlgorithm{Block: &format.SplitBlockAlgorithm{}},
		Hash:        format.BloomFilterHash{XxHash: &format.XxHash{}},
		Compression: format.BloomFilterCompression{Uncompressed: &format.BloomFilterUncompressed{}},
	}
	dst = format.Marshal(dst, &h)
	for _, w := range f.words {
		dst = binary.LittleEndian.AppendUint32(dst, w)
	}
	return dst
}

// Hashes of values as their PLAIN encoding (BloomFilter.md): fixed-width
// values little-endian, byte arrays without their length prefix.

func hashInt32(v int32) uint64 {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(v))
	return xxhash.Sum64(b[:])
}

func hashInt64(v int64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return xxhash.Sum64(b[:])
}

func hashFloat32(v float32) uint64 { return hashInt32(int32(math.Float32bits(v))) }

func hashFloat64(v float64) uint64 { return hashInt64(int64(math.Float64bits(v))) }

func hashBytes(b []byte) uint64 { return xxhash.Sum64(b) }
