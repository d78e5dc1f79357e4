package compress

import (
	"encoding/binary"

	"github.com/klauspost/compress/zstd"
)

// NewPageEncoder returns the encoder for the pages of one column, given
// in the order they are written. It differs from c only for ZSTD at its
// default level, where it learns from the column's pages which encoder
// suits them (zstdPages); so unlike a Codec it is not safe for concurrent
// use. Decode and Codec are c's.
//
// Level 3 gets the choice whether it is asked for or left to default: it is
// zstd's default level, and klauspost's speeds only approximate zstd's
// levels anyway (levels 3 to 5 all map to SpeedDefault); level 4 or 5
// asks for SpeedDefault on every page.
func NewPageEncoder(c Codec) Codec {
	if z, ok := c.(zstdCodec); ok && z.pickPerColumn {
		return &zstdPages{zstdCodec: z}
	}
	return c
}

// zstdPages compresses a column's pages with klauspost's SpeedDefault (what
// level 3 maps to), with SpeedFastest (level 1), or stores them in raw
// zstd blocks, whichever the column's pages show to be smallest. Neither
// encoder wins everywhere: on PLAIN doubles the fastest encoder's single
// hash table finds more of the short matches and its output is 6% smaller,
// in half the time; on text the default's second table for long matches
// makes it 3–10% smaller. Bit-packed pages (DELTA_BINARY_PACKED
// timestamps and ids, booleans) do not compress at all: the encoders
// spend their time to emit raw blocks, which storing them does with one
// copy.
//
// The first page is compressed both ways and the smallest of the three
// outputs kept. The fastest encoder or storing then goes on (the fastest
// only where it was smaller than the default by at least 1/zstdFastMargin)
// and is checked the same way every zstdReprobe pages, so a column whose
// data changes goes back to the default. Once the default has won it
// stays: pages are never larger than SpeedDefault would make them except
// where the data changes between probes (TPC-H's lineitem and partsupp at
// SF1: +0.03% and +0.06%).
type zstdPages struct {
	zstdCodec
	mode       zstdMode
	sinceProbe int
	spare      []byte // the losing probe's output
}

type zstdMode uint8

const (
	zstdUnprobed zstdMode = iota
	zstdDefault
	zstdFastest
	zstdStored
)

const (
	zstdFastMargin = 50
	zstdReprobe    = 8
)

func (z *zstdPages) Encode(dst, src []byte) ([]byte, error) {
	if z.mode == zstdDefault {
		return zstdEncodeAll(zstd.SpeedDefault, dst, src)
	}
	if z.mode != zstdUnprobed && z.sinceProbe < zstdReprobe-1 {
		z.sinceProbe++
		if z.mode == zstdStored && len(src) > 0 && len(src) <= maxStoredFrame {
			return appendStoredFrame(dst[:0], src), nil
		}
		return zstdEncodeAll(zstd.SpeedFastest, dst, src)
	}
	out, err := zstdEncodeAll(zstd.SpeedDefault, dst, src)
	if err != nil {
		return out, err
	}
	if z.spare, err = zstdEncodeAll(zstd.SpeedFastest, z.spare, src); err != nil {
		return out[:0], err
	}
	z.sinceProbe = 0
	z.mode = zstdDefault
	if len(z.spare) <= len(out)-len(out)/zstdFastMargin {
		z.mode = zstdFastest
	}
	if len(z.spare) < len(out) {
		out = append(out[:0], z.spare...)
	}
	if len(src) > 0 && len(src) <= maxStoredFrame && storedFrameSize(len(src)) <= len(out) {
		z.mode = zstdStored
		out = appendStoredFrame(out[:0], src)
	}
	return out, nil
}

// Zstandard's framing (RFC 8878, section 3.1.1), for appendStoredFrame.
const (
	zstdMagic = 0xFD2FB528
	// maxStoredBlock is the largest block a frame may hold.
	maxStoredBlock = 128 << 10
	// maxStoredFrame bounds the pages that are stored: the frame declares
	// a window as large as its content (a single segment), and readers
	// limit windows (the reference library to 128 MiB unless told); 8 MiB
	// is the window klauspost's encoder declares for the frames it makes.
	maxStoredFrame = 8 << 20
	zstdBlockRaw   = 0 // Block_Type of a raw block
)

// storedFrameSize is the length appendStoredFrame gives n > 0 bytes.
func storedFrameSize(n int) int {
	blocks := (n + maxStoredBlock - 1) / maxStoredBlock
	return 4 + 1 + fcsSize(n) + 3*blocks + n
}

// fcsSize is the size of the Frame_Content_Size field of a single-segment
// frame of n bytes.
func fcsSize(n int) int {
	switch {
	case n < 256:
		return 1
	case n < 65536+256:
		return 2
	default:
		return 4
	}
}

// appendStoredFrame appends src (1 to maxStoredFrame bytes: an empty frame
// still needs one block, which klauspost's encoder makes) as one zstd
// frame of raw blocks: a single segment (the window is the content size,
// so no Window_Descriptor), no checksum, no dictionary.
func appendStoredFrame(dst, src []byte) []byte {
	n := len(src)
	dst = binary.LittleEndian.AppendUint32(dst, zstdMagic)
	const singleSegment = 1 << 5
	switch fcsSize(n) {
	case 1:
		dst = append(dst, singleSegment, byte(n))
	case 2:
		dst = append(dst, 1<<6|singleSegment)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(n-256))
	default:
		dst = append(dst, 2<<6|singleSegment)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	}
	for len(src) > 0 {
		block := src[:min(len(src), maxStoredBlock)]
		src = src[len(block):]
		h := uint32(len(block))<<3 | zstdBlockRaw<<1
		if len(src) == 0 {
			h |= 1 // Last_Block
		}
		dst = append(dst, byte(h), byte(h>>8), byte(h>>16))
		dst = append(dst, block...)
	}
	return dst
}
