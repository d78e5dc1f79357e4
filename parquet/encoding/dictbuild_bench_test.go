package encoding

import (
	"fmt"
	"testing"
)

// BenchmarkByteArrayDictInsert builds the dictionary of a column of short
// strings: 10 distinct values (the events table's category), 10,000, and
// (almost) all distinct.
func BenchmarkByteArrayDictInsert(b *testing.B) {
	for _, distinct := range []int{10, 10_000, 1 << 20} {
		const n = 1 << 16
		var data []byte
		offsets := []int32{0}
		x := uint64(1)
		for range n {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			data = fmt.Appendf(data, "category-%d", x%uint64(distinct))
			offsets = append(offsets, int32(len(data)))
		}
		b.Run(fmt.Sprintf("distinct=%d", distinct), func(b *testing.B) {
			var d ByteArrayDict
			indices := make([]int32, 0, n)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				d.Reset()
				indices = d.Insert(indices[:0], data, offsets)
			}
		})
	}
}
