package encoding

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveGather is the reference: values appended one by one.
func naiveGather(data []byte, offsets []int32, dict [][]byte, indices []int32) ([]byte, []int32) {
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(data)))
	}
	for _, x := range indices {
		data = append(data, dict[x]...)
		offsets = append(offsets, int32(len(data)))
	}
	return data, offsets
}

// TestGatherByteArray checks the gather against appending value by value,
// for dictionaries of short values (the 16-byte block path, including
// values at the very end of the dictionary's data), of long values, and
// for output appended after existing data.
func TestGatherByteArray(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 300 {
		maxLen := []int{0, 1, 5, 16, 17, 40}[iter%6]
		nd := 1 + rng.IntN(30)
		dict := make([][]byte, nd)
		dictData := []byte{}
		dictOffsets := []int32{0}
		for i := range dict {
			v := make([]byte, rng.IntN(maxLen+1))
			for j := range v {
				v[j] = byte(rng.Uint32())
			}
			dict[i] = v
			dictData = append(dictData, v...)
			dictOffsets = append(dictOffsets, int32(len(dictData)))
		}
		if iter%3 == 2 {
			// Spare capacity holding junk, as readers leave it.
			n := len(dictData)
			dictData = append(dictData, bytes.Repeat([]byte{0xee}, 16)...)[:n]
		} else {
			dictData = dictData[:len(dictData):len(dictData)] // no slack past the last value
		}
		indices := make([]int32, rng.IntN(200))
		for i := range indices {
			indices[i] = int32(rng.IntN(nd))
		}
		var pre []byte
		var preOff []int32
		if iter%2 == 1 {
			pre, preOff = []byte("prefix"), []int32{0, 6}
		}
		wantData, wantOff := naiveGather(bytes.Clone(pre), append([]int32(nil), preOff...), dict, indices)
		gotData, gotOff, err := GatherByteArray(bytes.Clone(pre), append([]int32(nil), preOff...), dictData, dictOffsets, indices)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gotData, wantData) || fmt.Sprint(gotOff) != fmt.Sprint(wantOff) {
			t.Fatalf("iteration %d (values up to %d bytes): got %q %v, want %q %v", iter, maxLen, gotData, gotOff, wantData, wantOff)
		}
	}
}

func BenchmarkGatherByteArray(b *testing.B) {
	for _, size := range []int{8, 40} {
		b.Run(fmt.Sprintf("value=%dB", size), func(b *testing.B) {
			var dictData []byte
			dictOffsets := []int32{0}
			for i := range 10 {
				dictData = append(dictData, bytes.Repeat([]byte{byte('a' + i)}, size-i%3)...)
				dictOffsets = append(dictOffsets, int32(len(dictData)))
			}
			dictData = slices.Grow(dictData, 16) // as parquet/file leaves it
			rng := rand.New(rand.NewPCG(1, 2))
			indices := make([]int32, 8192)
			for i := range indices {
				indices[i] = int32(rng.IntN(10))
			}
			var data []byte
			var offsets []int32
			b.SetBytes(int64(len(indices)))
			for b.Loop() {
				var err error
				data, offsets, err = GatherByteArray(data[:0], offsets[:0], dictData, dictOffsets, indices)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
