package encoding

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// typed is what every fixed-width decoder implements.
type typed[T any] interface {
	Reset([]byte, int) error
	Decode([]T, int) ([]T, error)
	Skip(int) error
	Remaining() int
}

func bitsEqual[T any](a, b T) bool {
	switch x := any(a).(type) {
	case float32:
		return math.Float32bits(x) == math.Float32bits(any(b).(float32))
	case float64:
		return math.Float64bits(x) == math.Float64bits(any(b).(float64))
	}
	return any(a) == any(b)
}

func sliceEqual[T any](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bitsEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// checkTyped decodes enc with dec all at once, then in random batches
// with random skips, and compares with want each time.
func checkTyped[T any](t testing.TB, name string, dec typed[T], enc []byte, want []T, rng *rand.Rand) {
	t.Helper()
	if err := dec.Reset(enc, len(want)); err != nil {
		t.Fatalf("%s: Reset: %v", name, err)
	}
	if dec.Remaining() != len(want) {
		t.Fatalf("%s: Remaining %d, want %d", name, dec.Remaining(), len(want))
	}
	got, err := dec.Decode([]T{}, len(want)+5)
	if err != nil {
		t.Fatalf("%s: Decode: %v", name, err)
	}
	if !sliceEqual(got, want) {
		t.Fatalf("%s: decoded %d values, differ from the %d encoded (first: %v vs %v)", name, len(got), len(want), head(got), head(want))
	}
	if dec.Remaining() != 0 {
		t.Fatalf("%s: Remaining %d after decoding all", name, dec.Remaining())
	}
	if err := dec.Reset(enc, len(want)); err != nil {
		t.Fatalf("%s: second Reset: %v", name, err)
	}
	got = got[:0]
	i := 0
	for i < len(want) {
		n := 1 + rng.IntN(min(len(want)-i, 1+[]int{3, 17, 300, 2000}[rng.IntN(4)]))
		if rng.IntN(3) == 0 {
			if err := dec.Skip(n); err != nil {
				t.Fatalf("%s: Skip(%d) at %d: %v", name, n, i, err)
			}
			i += n
			continue
		}
		at := len(got)
		got, err = dec.Decode(got, n)
		if err != nil {
			t.Fatalf("%s: Decode(%d) at %d: %v", name, n, i, err)
		}
		if !sliceEqual(got[at:], want[i:i+n]) {
			t.Fatalf("%s: batch of %d at %d differs", name, n, i)
		}
		i += n
		if dec.Remaining() != len(want)-i {
			t.Fatalf("%s: Remaining %d, want %d", name, dec.Remaining(), len(want)-i)
		}
	}
	if err := dec.Skip(1); err == nil {
		t.Fatalf("%s: Skip past the end did not fail", name)
	}
}

func head[T any](s []T) []T { return s[:min(len(s), 8)] }

// byteArrays holds values Arrow-style.
type byteArrays struct {
	data    []byte
	offsets []int32
}

func makeByteArrays(vals [][]byte) byteArrays {
	b := byteArrays{offsets: []int32{0}}
	for _, v := range vals {
		b.data = append(b.data, v...)
		b.offsets = append(b.offsets, int32(len(b.data)))
	}
	return b
}

func (b byteArrays) n() int { return len(b.offsets) - 1 }
func (b byteArrays) at(i int) []byte {
	return b.data[b.offsets[i]:b.offsets[i+1]]
}

func checkByteArrays(t testing.TB, name string, dec ByteArrayDecoder, enc []byte, want byteArrays, rng *rand.Rand) {
	t.Helper()
	if err := dec.Reset(enc, want.n()); err != nil {
		t.Fatalf("%s: Reset: %v", name, err)
	}
	// Start from a non-empty prefix to check appending.
	data, offs, err := dec.Decode([]byte("xy"), []int32{0, 2}, want.n()+3)
	if err != nil {
		t.Fatalf("%s: Decode: %v", name, err)
	}
	got := byteArrays{data, offs}
	if got.n() != want.n()+1 || !bytes.Equal(got.at(0), []byte("xy")) {
		t.Fatalf("%s: got %d values, want %d", name, got.n()-1, want.n())
	}
	for i := 0; i < want.n(); i++ {
		if !bytes.Equal(got.at(i+1), want.at(i)) {
			t.Fatalf("%s: value %d = %q, want %q", name, i, got.at(i+1), want.at(i))
		}
	}
	if err := dec.Reset(enc, want.n()); err != nil {
		t.Fatalf("%s: Reset: %v", name, err)
	}
	i := 0
	for i < want.n() {
		n := 1 + rng.IntN(min(want.n()-i, 1+[]int{3, 17, 300, 2000}[rng.IntN(4)]))
		if rng.IntN(3) == 0 {
			if err := dec.Skip(n); err != nil {
				t.Fatalf("%s: Skip(%d) at %d: %v", name, n, i, err)
			}
			i += n
			continue
		}
		data, offs, err := dec.Decode(nil, nil, n)
		if err != nil {
			t.Fatalf("%s: Decode(%d) at %d: %v", name, n, i, err)
		}
		b := byteArrays{data, offs}
		if b.n() != n {
			t.Fatalf("%s: batch gave %d values, want %d", name, b.n(), n)
		}
		for j := 0; j < n; j++ {
			if !bytes.Equal(b.at(j), want.at(i+j)) {
				t.Fatalf("%s: value %d = %q, want %q", name, i+j, b.at(j), want.at(i+j))
			}
		}
		i += n
	}
}

func mustCorrupt(t testing.TB, name string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", name)
	}
	if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("%s: error %v wraps neither ErrCorrupt nor ErrUnsupported", name, err)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %v is not an *Error", name, err)
	}
}

// sizes are the value counts every round-trip test covers.
var sizes = []int{0, 1, 2, 7, 8, 9, 31, 33, 127, 128, 129, 1000, 4097}

func newRand(t testing.TB) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(len(t.Name())), 42))
}

func label(kind string, n int) string { return fmt.Sprintf("%s/n=%d", kind, n) }
