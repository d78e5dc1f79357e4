package compress

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/klauspost/compress/zstd"
)

// zstdMaxRatio bounds Zstandard's expansion: a 4-byte RLE block decodes to
// at most 128 KiB.
const zstdMaxRatio = 32768

const zstdDefaultLevel = 3

// zstdSlack is spare capacity given to the decoder past the page's size:
// with less than 32 bytes of it, klauspost's decoder copies the last block
// of every frame with its slower bounds-exact routine (a 160 KB page: a
// fifth of its bytes). Output beyond the page's size is still refused
// (len(out) != size).
const zstdSlack = 32

// zstdDecoder is shared by every goroutine: DecodeAll is safe for
// concurrent use and keeps a pool of block decoders. DecodeAll stops at the
// capacity of the buffer it is given, which is how Decode bounds memory.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(0),
		zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(MaxDecodedSize),
	)
})

// zstdEncoders keeps, per klauspost speed, the encoders not in use, the
// one used last at the end. Each has concurrency 1 and is used by one
// goroutine at a time: the next page takes the encoder used last, whose
// hash tables (1.5 MB at SpeedDefault) are still in cache. klauspost's own
// Encoder keeps GOMAXPROCS block encoders and hands them out in turn, so a
// goroutine compressing page after page cycled through all of them.
var zstdEncoders [zstd.SpeedBestCompression + 1]struct {
	mu   sync.Mutex
	free []*zstd.Encoder
}

// zstdEncodeAll compresses src as one frame into dst[:0] at level.
func zstdEncodeAll(level zstd.EncoderLevel, dst, src []byte) ([]byte, error) {
	p := &zstdEncoders[level]
	var enc *zstd.Encoder
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		enc, p.free = p.free[n-1], p.free[:n-1]
	}
	p.mu.Unlock()
	if enc == nil {
		var err error
		if enc, err = newZstdEncoder(level); err != nil {
			return dst[:0], fmt.Errorf("compress: %v: %w", format.Zstd, err)
		}
	}
	out := enc.EncodeAll(src, dst[:0])
	p.mu.Lock()
	if len(p.free) < runtime.GOMAXPROCS(0) {
		p.free = append(p.free, enc)
	}
	p.mu.Unlock()
	return out, nil
}

func newZstdEncoder(level zstd.EncoderLevel) (*zstd.Encoder, error) {
	return zstd.NewWriter(nil,
		zstd.WithEncoderLevel(level),
		zstd.WithEncoderConcurrency(1),
		// Like the reference library's default: no frame checksum.
		zstd.WithEncoderCRC(false),
		// An empty page still gets a frame other readers accept.
		zstd.WithZeroFrames(true),
		// Entropy-code literals even without matches, as the reference
		// library does: pages of integers with unused high bits (ids,
		// counters) otherwise go out uncompressed (a 1M-row INT32
		// column of ids: 4.0 MB before, 3.0 MB after).
		zstd.WithAllLitEntropyCompression(true),
	)
}

// zstdCodec compresses at one klauspost speed. pickPerColumn: the level is
// zstd's default, 3, so NewPageEncoder may pick between klauspost's two
// fastest speeds per column (zstdPages).
type zstdCodec struct {
	level         zstd.EncoderLevel
	pickPerColumn bool
}

func newZstd(level int) (Codec, error) {
	if level == DefaultLevel || level == 0 {
		level = zstdDefaultLevel
	}
	if level < -(1<<17) || level > 22 {
		return nil, fmt.Errorf("compress: %v: level %d not in -131072..22: %w", format.Zstd, level, ErrLevel)
	}
	return zstdCodec{level: zstd.EncoderLevelFromZstd(level), pickPerColumn: level == zstdDefaultLevel}, nil
}

func (zstdCodec) Codec() format.CompressionCodec { return format.Zstd }

func (zstdCodec) Decode(dst, src []byte, size int) ([]byte, error) {
	if err := checkClaim(format.Zstd, size, len(src), zstdMaxRatio); err != nil {
		return dst[:0], err
	}
	if len(src) == 0 && size == 0 {
		return dst[:0], nil
	}
	d, err := zstdDecoder()
	if err != nil {
		return dst[:0], fmt.Errorf("compress: %v: %w", format.Zstd, err)
	}
	var buf []byte
	if cap(dst) >= size+zstdSlack {
		buf = dst[: 0 : size+zstdSlack]
	} else {
		n := firstChunk(size, len(src))
		var h zstd.Header
		if h.Decode(src) == nil && h.HasFCS && h.FrameContentSize == uint64(size) {
			n = size
		}
		buf = make([]byte, 0, n+zstdSlack)
	}
	for {
		out, err := d.DecodeAll(src, buf)
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) && cap(buf) < size+zstdSlack {
			// The frame did not say how large it is, or said more than we
			// gave: grow only as far as the data has shown it needs.
			n := min(4*cap(buf), size+zstdSlack)
			buf = make([]byte, 0, n)
			continue
		}
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
			return dst[:0], fmt.Errorf("compress: %v: data decodes to more than the page header's %d bytes: %w", format.Zstd, size, ErrSizeMismatch)
		}
		if err != nil {
			return dst[:0], corrupt(format.Zstd, err)
		}
		if len(out) != size {
			return dst[:0], mismatch(format.Zstd, len(out), size)
		}
		return out, nil
	}
}

func (c zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	level := c.level
	if level == 0 {
		level = zstd.SpeedDefault
	}
	return zstdEncodeAll(level, dst, src)
}
