package bloom

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

func benchHashes(n int) []uint64 {
	r := rand.New(rand.NewPCG(7, 7))
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = r.Uint64()
	}
	return hs
}

func BenchmarkInsert(b *testing.B) {
	f := NewForNDV(1_000_000, 0.01)
	hs := benchHashes(4096)
	b.SetBytes(8 * int64(len(hs)))
	for b.Loop() {
		f.InsertHashes(hs)
	}
}

func BenchmarkCheck(b *testing.B) {
	for _, present := range []bool{true, false} {
		b.Run("present="+strconv.FormatBool(present), func(b *testing.B) {
			// A filter filled to its design NDV, probed with values that are
			// all present or all absent.
			f := NewForNDV(1_000_000, 0.01)
			all := benchHashes(1_000_000 + 4096)
			f.InsertHashes(all[:1_000_000])
			hs := all[:4096]
			if !present {
				hs = all[1_000_000:]
			}
			b.SetBytes(8 * int64(len(hs)))
			found := 0
			for b.Loop() {
				for _, h := range hs {
					if f.Check(h) {
						found++
					}
				}
			}
			_ = found
		})
	}
}

func BenchmarkHashInt64(b *testing.B) {
	vs := make([]int64, 4096)
	for i := range vs {
		vs[i] = int64(i) * 1_000_003
	}
	dst := make([]uint64, 0, len(vs))
	b.SetBytes(8 * int64(len(vs)))
	for b.Loop() {
		dst = HashInt64s(dst[:0], vs)
	}
}

func BenchmarkHashBytes(b *testing.B) {
	var data []byte
	offsets := []int32{0}
	for i := range 4096 {
		data = strconv.AppendInt(append(data, "customer-"...), int64(i), 10)
		offsets = append(offsets, int32(len(data)))
	}
	dst := make([]uint64, 0, 4096)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		dst = HashByteArrays(dst[:0], data, offsets)
	}
}
