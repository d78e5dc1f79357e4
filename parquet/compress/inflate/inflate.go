// Package inflate decodes DEFLATE (RFC 1951) and gzip (RFC 1952) data whose
// decoded size is known in advance, as a Parquet page's is.
//
// Knowing the size lets the decoder work on whole buffers instead of
// streams: it writes straight into the caller's output slice, which is the
// whole history a match may refer to (no sliding window, no window-to-output
// copy), and it reads the input from memory into a 64-bit bit buffer with
// one unaligned load per refill. Matches are copied eight bytes at a time
// when they do not overlap within a word.
//
// Every malformed input is an error naming the input byte offset where it
// was noticed; nothing is allocated from sizes read from the input.
package inflate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

var (
	// ErrTooLong is wrapped by errors for data that decodes to more bytes
	// than the output slice holds.
	ErrTooLong = errors.New("data decodes to more bytes than expected")
	// ErrTooShort is wrapped by errors for data that decodes to fewer.
	ErrTooShort = errors.New("data decodes to fewer bytes than expected")

	errTruncated    = errors.New("truncated input")
	errBlockType    = errors.New("invalid block type 3")
	errStoredLen    = errors.New("stored block length does not match its complement")
	errSymbol       = errors.New("invalid literal/length symbol")
	errDistSymbol   = errors.New("invalid distance symbol")
	errDistance     = errors.New("distance before the start of the output")
	errCounts       = errors.New("too many literal/length or distance codes")
	errRepeat       = errors.New("code length repeat outside the code lengths")
	errNoEndOfBlock = errors.New("no code for end of block")
)

// CorruptError reports malformed input: what was wrong and about where.
type CorruptError struct {
	Offset int   // input byte being decoded when the problem showed
	Err    error // what was wrong
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("inflate: %v at input byte %d", e.Err, e.Offset)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// decoder holds the state of one decode and the tables of the current
// dynamic block. It is pooled: the tables are 58 KB.
type decoder struct {
	src   []byte
	pos   int    // next src byte to load; runs past len(src) as zero padding
	bits  uint64 // bit buffer, next bit lowest
	nbits uint   // valid bits in bits
	dst   []byte
	o     int // output written so far

	lit     [litTableLen]uint32
	dist    [distTableLen]uint32
	clen    [1 << clenBits]uint32
	lengths [maxLitSyms + maxDistSyms]uint8
}

var decoders = sync.Pool{New: func() any { return new(decoder) }}

// Decode decodes the raw DEFLATE stream at the start of src into dst, which
// must be exactly as long as the decoded data: producing more or fewer bytes
// is an error wrapping ErrTooLong or ErrTooShort. Bytes after the final
// block are ignored. It returns dst.
func Decode(dst, src []byte) ([]byte, error) {
	d := decoders.Get().(*decoder)
	defer d.release()
	d.reset(dst, src, 0, 0)
	if err := d.inflate(); err != nil {
		return dst, err
	}
	if d.o != len(dst) {
		return dst, d.fail(ErrTooShort)
	}
	return dst, nil
}

func (d *decoder) release() {
	d.src, d.dst = nil, nil
	decoders.Put(d)
}

// reset starts decoding src at byte in, writing dst from o on.
func (d *decoder) reset(dst, src []byte, in, o int) {
	d.src, d.pos, d.bits, d.nbits = src, in, 0, 0
	d.dst, d.o = dst, o
}

// offset is the input byte the decoder is at: the first one not wholly
// consumed.
func (d *decoder) offset() int {
	return d.pos - int(d.nbits/8)
}

func (d *decoder) fail(err error) error {
	return &CorruptError{Offset: min(d.offset(), len(d.src)), Err: err}
}

// overrun tells whether bits past the end of src (the zero padding) have
// been consumed.
func (d *decoder) overrun() bool {
	return (d.pos-len(d.src))*8 > int(d.nbits)
}

// refill fills the bit buffer to at least 56 bits, padding with zero bytes
// past the end of src. Decoding may look at the padding, but consuming it is
// an error, which overrun checks at each refill and at the end of each block.
func (d *decoder) refill() error {
	if d.pos+8 <= len(d.src) {
		d.bits |= binary.LittleEndian.Uint64(d.src[d.pos:]) << d.nbits
		d.pos += int((63 - d.nbits) >> 3)
		d.nbits |= 56
		return nil
	}
	for d.nbits <= 56 {
		if d.pos < len(d.src) {
			d.bits |= uint64(d.src[d.pos]) << d.nbits
		}
		d.pos++
		d.nbits += 8
	}
	if d.overrun() {
		return d.fail(errTruncated)
	}
	return nil
}

// take returns the next n (at most 32) bits.
func (d *decoder) take(n uint) (uint32, error) {
	if d.nbits < n {
		if err := d.refill(); err != nil {
			return 0, err
		}
	}
	v := uint32(d.bits & (1<<n - 1))
	d.bits >>= n
	d.nbits -= n
	return v, nil
}

// inflate decodes blocks until the final one.
func (d *decoder) inflate() error {
	for {
		hdr, err := d.take(3)
		if err != nil {
			return err
		}
		switch hdr >> 1 {
		case 0:
			err = d.stored()
		case 1:
			err = d.huffman(&fixedLit, &fixedDist)
		case 2:
			if err = d.dynamic(); err == nil {
				err = d.huffman(&d.lit, &d.dist)
			}
		default:
			err = d.fail(errBlockType)
		}
		if err != nil {
			return err
		}
		if d.overrun() {
			return d.fail(errTruncated)
		}
		if hdr&1 != 0 {
			return nil
		}
	}
}

// align drops the bits up to the next byte boundary and empties the bit
// buffer, leaving pos at the first unread byte.
func (d *decoder) align() {
	d.pos = d.offset()
	d.bits, d.nbits = 0, 0
}

// stored copies a stored block (RFC 1951 3.2.4).
func (d *decoder) stored() error {
	d.align()
	p := d.pos
	if p < 0 || p > len(d.src)-4 {
		return d.fail(errTruncated)
	}
	n := int(binary.LittleEndian.Uint16(d.src[p:]))
	if binary.LittleEndian.Uint16(d.src[p+2:]) != ^uint16(n) {
		return d.fail(errStoredLen)
	}
	p += 4
	if n > len(d.src)-p {
		d.pos = len(d.src)
		return d.fail(errTruncated)
	}
	if n > len(d.dst)-d.o {
		return d.fail(ErrTooLong)
	}
	copy(d.dst[d.o:], d.src[p:p+n])
	d.o += n
	d.pos = p + n
	return nil
}
