package writer

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// fuzzSource is a rand.Source that hands out the fuzzer's bytes, eight at
// a time, so that mutations of the input steer the choices (schema shape,
// types, encodings, codecs, page version and sizes, values); once the
// bytes are used up it continues with a generator seeded by them.
type fuzzSource struct {
	b    []byte
	rest *rand.PCG
}

func (s *fuzzSource) Uint64() uint64 {
	if len(s.b) >= 8 {
		v := binary.LittleEndian.Uint64(s.b)
		s.b = s.b[8:]
		return v
	}
	if len(s.b) > 0 {
		var tail [8]byte
		copy(tail[:], s.b)
		s.b = nil
		return binary.LittleEndian.Uint64(tail[:])
	}
	return s.rest.Uint64()
}

// FuzzRoundTrip writes a file whose schema, options and values the input
// chooses, reads it back and compares every value (runRandomCase, the
// body of TestRoundTripRandom, driven by the fuzzer's bytes instead of a
// seeded generator).
func FuzzRoundTrip(f *testing.F) {
	for seed := range 16 {
		var b []byte
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		for range 8 + seed*4 {
			b = binary.LittleEndian.AppendUint64(b, rng.Uint64())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4096 {
			return
		}
		h := fnv.New64a()
		h.Write(b)
		rng := rand.New(&fuzzSource{b: b, rest: rand.NewPCG(h.Sum64(), 13)})
		runRandomCase(t, 0, rng, randomSchema(t, rng, 4))
	})
}
