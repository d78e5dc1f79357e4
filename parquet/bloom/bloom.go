package bloom

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/carquet-go/carquet/parquet/errs"
)

// BlockBytes is the size of one block: eight 32-bit words, 256 bits.
const BlockBytes = 32

// MinBytes and MaxBytes bound the bitsets New and NewForNDV create and the
// ones FromBytes accepts (parquet-mr and Arrow use the same bounds).
const (
	MinBytes = BlockBytes
	MaxBytes = 128 << 20
)

// salt holds the eight odd constants of the spec's mask operation.
var salt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
	0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

// ErrInvalid is wrapped by FromBytes errors for bitsets that are not a
// valid split-block Bloom filter.
// It is a kind of errs.ErrCorrupt.
var ErrInvalid = errs.New("bloom: invalid bitset", errs.ErrCorrupt)

// Filter is a split-block Bloom filter. The bitset is kept in its on-disk
// form (little-endian 32-bit words), so Bytes and FromBytes copy nothing.
// Insert is not safe for concurrent use; Check is, when nothing inserts.
type Filter struct {
	bitset []byte
	blocks uint64
}

// New returns an empty filter of numBytes rounded up to a power of two and
// clamped to [MinBytes, MaxBytes].
func New(numBytes int) *Filter {
	n := roundBytes(numBytes)
	return &Filter{bitset: make([]byte, n), blocks: uint64(n / BlockBytes)}
}

func roundBytes(n int) int {
	if n <= MinBytes {
		return MinBytes
	}
	if n >= MaxBytes {
		return MaxBytes
	}
	return 1 << bits.Len(uint(n-1))
}

// OptimalNumBytes returns the bitset size for ndv distinct values at false
// positive probability fpp: the spec's bits-per-value relation for eight
// hash bits per block, m = -8·ndv / ln(1 - fpp^(1/8)), in bytes, rounded up
// to a power of two and clamped to [MinBytes, MaxBytes]. An fpp outside
// (0, 1) counts as 0.01 (1%), and ndv <= 0 gives MinBytes.
func OptimalNumBytes(ndv int64, fpp float64) int {
	if !(fpp > 0 && fpp < 1) {
		fpp = 0.01
	}
	if ndv <= 0 {
		return MinBytes
	}
	m := -8 * float64(ndv) / math.Log(1-math.Pow(fpp, 1.0/8))
	nbytes := m / 8
	if !(nbytes < MaxBytes) {
		return MaxBytes
	}
	return roundBytes(int(math.Ceil(nbytes)))
}

// NewForNDV returns an empty filter sized by OptimalNumBytes.
func NewForNDV(ndv int64, fpp float64) *Filter {
	return New(OptimalNumBytes(ndv, fpp))
}

// FromBytes wraps a bitset read from a file (the bytes after the
// BloomFilterHeader). It does not copy: bitset must not change while the
// filter is in use. The size must be a non-zero multiple of BlockBytes and
// at most MaxBytes.
func FromBytes(bitset []byte) (*Filter, error) {
	n := len(bitset)
	switch {
	case n == 0:
		return nil, fmt.Errorf("%w: empty", ErrInvalid)
	case n%BlockBytes != 0:
		return nil, fmt.Errorf("%w: %d bytes is not a multiple of %d", ErrInvalid, n, BlockBytes)
	case n > MaxBytes:
		return nil, fmt.Errorf("%w: %d bytes is above the %d-byte limit", ErrInvalid, n, MaxBytes)
	}
	return &Filter{bitset: bitset, blocks: uint64(n / BlockBytes)}, nil
}

// Bytes returns the bitset as stored in a file, without copying.
func (f *Filter) Bytes() []byte { return f.bitset }

// NumBytes returns the size of the bitset.
func (f *Filter) NumBytes() int { return len(f.bitset) }

// block returns the 32 bytes of the block hash h selects: the spec's
// ((h >> 32) * z) >> 32.
func (f *Filter) block(h uint64) *[BlockBytes]byte {
	i := ((h >> 32) * f.blocks) >> 32
	return (*[BlockBytes]byte)(f.bitset[i*BlockBytes:])
}

// Insert adds a value's hash to the filter.
func (f *Filter) Insert(h uint64) {
	b := f.block(h)
	x := uint32(h)
	// Unrolled over the eight words: constant offsets into the block's
	// array need no bounds checks.
	le := binary.LittleEndian
	le.PutUint32(b[0:], le.Uint32(b[0:])|1<<((x*salt[0])>>27))
	le.PutUint32(b[4:], le.Uint32(b[4:])|1<<((x*salt[1])>>27))
	le.PutUint32(b[8:], le.Uint32(b[8:])|1<<((x*salt[2])>>27))
	le.PutUint32(b[12:], le.Uint32(b[12:])|1<<((x*salt[3])>>27))
	le.PutUint32(b[16:], le.Uint32(b[16:])|1<<((x*salt[4])>>27))
	le.PutUint32(b[20:], le.Uint32(b[20:])|1<<((x*salt[5])>>27))
	le.PutUint32(b[24:], le.Uint32(b[24:])|1<<((x*salt[6])>>27))
	le.PutUint32(b[28:], le.Uint32(b[28:])|1<<((x*salt[7])>>27))
}

// InsertHashes adds many hashes.
func (f *Filter) InsertHashes(hs []uint64) {
	for _, h := range hs {
		f.Insert(h)
	}
}

// Check reports whether a value with hash h may have been inserted: false
// means definitely not.
func (f *Filter) Check(h uint64) bool {
	b := f.block(h)
	x := uint32(h)
	le := binary.LittleEndian
	for k := range 8 {
		if le.Uint32(b[4*k:])&(1<<((x*salt[k])>>27)) == 0 {
			return false
		}
	}
	return true
}

// Reset clears every bit, keeping the size.
func (f *Filter) Reset() { clear(f.bitset) }
