package writer

import (
	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/format"
)

// defaultBloomNDV sizes bloom filters when no distinct-value count is given.
const defaultBloomNDV = 1 << 20

func newBloomFilter(ndv int64, fpp float64) *bloom.Filter {
	if ndv <= 0 {
		ndv = defaultBloomNDV
	}
	return bloom.NewForNDV(ndv, fpp)
}

// appendBloom appends a filter as a file stores it: the Thrift
// BloomFilterHeader, then the bitset.
func appendBloom(dst []byte, f *bloom.Filter) []byte {
	h := format.BloomFilterHeader{
		NumBytes:    int32(f.NumBytes()),
		Algorithm:   format.BloomFilterAlgorithm{Block: &format.SplitBlockAlgorithm{}},
		Hash:        format.BloomFilterHash{XxHash: &format.XxHash{}},
		Compression: format.BloomFilterCompression{Uncompressed: &format.BloomFilterUncompressed{}},
	}
	dst = format.Marshal(dst, &h)
	return append(dst, f.Bytes()...)
}
