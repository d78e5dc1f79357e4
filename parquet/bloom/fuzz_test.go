package bloom

import (
	"errors"
	"testing"
)

// FuzzFromBytes feeds arbitrary bitsets and hashes: FromBytes either
// rejects the bytes or returns a filter whose Check and Insert never panic,
// and a hash just inserted is always found.
func FuzzFromBytes(f *testing.F) {
	f.Fuzz(func(t *testing.T, bitset []byte, h uint64) {
		filter, err := FromBytes(bitset)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			if len(bitset) != 0 && len(bitset)%BlockBytes == 0 && len(bitset) <= MaxBytes {
				t.Fatalf("valid size %d rejected", len(bitset))
			}
			return
		}
		before := filter.Check(h)
		filter.Insert(h)
		if !filter.Check(h) {
			t.Fatal("inserted hash not found")
		}
		if before && !filter.Check(h^1<<63) && len(bitset) == BlockBytes {
			// Only the low 32 bits pick the bits within the single block.
			t.Fatal("single-block filter depends on the high bits")
		}
		if len(filter.Bytes()) != len(bitset) {
			t.Fatal("size changed")
		}
	})
}
