package compress

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/parquet/format"
)

// Codec compresses and decompresses page bodies. Implementations must be
// safe for concurrent use.
type Codec interface {
	// Decode decompresses src into dst[:0], growing it if needed, and
	// returns it. uncompressedSize is the size the page header claims: it
	// sizes the output and the result must have exactly that length. Claims
	// that are negative, above the codec's limit or impossible for len(src)
	// bytes of input are rejected before anything is allocated.
	Decode(dst, src []byte, uncompressedSize int) ([]byte, error)
	// Encode appends the compressed form of src to dst[:0] and returns it.
	Encode(dst, src []byte) ([]byte, error)
	// Codec names the codec as the column metadata does.
	Codec() format.CompressionCodec
}

// MaxDecodedSize is the largest uncompressed page size any built-in codec
// accepts: a page header stores sizes as i32.
const MaxDecodedSize = math.MaxInt32

// DefaultLevel asks NewEncoder for the codec's default level: zstd 3,
// gzip 5 (see gzipDefaultLevel), brotli 6, LZ4 0 (the fast compressor;
// 1-9 select the high-compression one).
const DefaultLevel = -1 << 31

var (
	// ErrUnsupported is wrapped by errors for codecs this build cannot
	// handle (LZO unless registered, unknown codec numbers).
	// It is a kind of errs.ErrUnsupported.
	ErrUnsupported = errs.New("compression codec is not supported", errs.ErrUnsupported)
	// ErrCorrupt is wrapped by errors for compressed data that does not
	// decode. It, ErrSizeMismatch and ErrTooLarge are kinds of
	// errs.ErrCorrupt.
	ErrCorrupt = errs.New("corrupt compressed data", errs.ErrCorrupt)
	// ErrSizeMismatch is wrapped by errors for data that decodes to a size
	// other than the page header's uncompressed size.
	ErrSizeMismatch = errs.New("decoded size differs from the uncompressed size", errs.ErrCorrupt)
	// ErrTooLarge is wrapped by errors for uncompressed sizes above the
	// limit or beyond what the compressed size can expand to.
	ErrTooLarge = errs.New("uncompressed size out of bounds", errs.ErrCorrupt)
	// ErrLevel is wrapped by errors for compression levels out of range.
	ErrLevel = errors.New("compression level out of range")
)

// UnsupportedError reports a codec this build cannot handle. Its message
// reads like "LZO compression is not supported".
type UnsupportedError struct{ Codec format.CompressionCodec }

func (e *UnsupportedError) Error() string {
	return e.Codec.String() + " compression is not supported"
}

// Unwrap makes errors.Is(err, ErrUnsupported) and errors.Is(err,
// errs.ErrUnsupported) hold.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

// Factory builds a Codec encoding at level, which is DefaultLevel or a
// codec-specific number. Lookup calls it with DefaultLevel.
type Factory func(level int) (Codec, error)

var registry = struct {
	sync.RWMutex
	factories map[format.CompressionCodec]Factory
	decoders  map[format.CompressionCodec]Codec
}{
	factories: map[format.CompressionCodec]Factory{
		format.Uncompressed: func(int) (Codec, error) { return uncompressedCodec{}, nil },
		format.Snappy:       func(int) (Codec, error) { return snappyCodec{}, nil },
		format.Gzip:         newGzip,
		format.Brotli:       newBrotli,
		format.LZ4: func(level int) (Codec, error) {
			l, err := lz4Level(level)
			return lz4HadoopCodec{level: l}, err
		},
		format.Zstd: newZstd,
		format.LZ4Raw: func(level int) (Codec, error) {
			l, err := lz4Level(level)
			return lz4RawCodec{level: l}, err
		},
	},
	decoders: map[format.CompressionCodec]Codec{},
}

// Register plugs in the factory for codec c, replacing any built-in one.
// It lets a program supply codecs this package does not carry, such as LZO.
func Register(c format.CompressionCodec, factory Factory) {
	registry.Lock()
	defer registry.Unlock()
	if factory == nil {
		delete(registry.factories, c)
	} else {
		registry.factories[c] = factory
	}
	delete(registry.decoders, c)
}

// Lookup returns the codec for c at its default level, for decoding pages
// (and encoding them at the default level). The codec is shared: it is safe
// for concurrent use.
func Lookup(c format.CompressionCodec) (Codec, error) {
	registry.RLock()
	codec, ok := registry.decoders[c]
	factory := registry.factories[c]
	registry.RUnlock()
	if ok {
		return codec, nil
	}
	if factory == nil {
		return nil, &UnsupportedError{Codec: c}
	}
	codec, err := factory(DefaultLevel)
	if err != nil {
		return nil, err
	}
	registry.Lock()
	if registry.factories[c] != nil {
		if cached, ok := registry.decoders[c]; ok {
			codec = cached
		} else {
			registry.decoders[c] = codec
		}
	}
	registry.Unlock()
	return codec, nil
}

// NewEncoder returns the codec for c compressing at level: for ZSTD the zstd
// level (-7..22, mapped onto the four klauspost encoder speeds: below 3
// fastest, 3-5 default, 6-9 better, 10 and up best); for GZIP 0-9 (0 stores);
// for BROTLI the quality 0-11. Other codecs ignore the level. DefaultLevel
// picks the codec's default.
func NewEncoder(c format.CompressionCodec, level int) (Codec, error) {
	if level == DefaultLevel {
		return Lookup(c)
	}
	registry.RLock()
	factory := registry.factories[c]
	registry.RUnlock()
	if factory == nil {
		return nil, &UnsupportedError{Codec: c}
	}
	return factory(level)
}

// WithMaxDecodedSize returns c with Decode rejecting uncompressed sizes above
// max, for callers that want a tighter bound than MaxDecodedSize.
func WithMaxDecodedSize(c Codec, max int) Codec {
	return limitedCodec{inner: c, max: max}
}

type limitedCodec struct {
	inner Codec
	max   int
}

func (l limitedCodec) Codec() format.CompressionCodec { return l.inner.Codec() }

func (l limitedCodec) Encode(dst, src []byte) ([]byte, error) { return l.inner.Encode(dst, src) }

func (l limitedCodec) Decode(dst, src []byte, uncompressedSize int) ([]byte, error) {
	if uncompressedSize > l.max {
		return dst[:0], fmt.Errorf("compress: %v: uncompressed size %d %w %d",
			l.inner.Codec(), uncompressedSize, errs.ErrLimit, l.max)
	}
	return l.inner.Decode(dst, src, uncompressedSize)
}

// checkClaim rejects uncompressed sizes that are negative, above
// MaxDecodedSize, or (when maxRatio > 0) more than the codec can expand
// srcLen bytes into.
func checkClaim(c format.CompressionCodec, size, srcLen, maxRatio int) error {
	if size < 0 || size > MaxDecodedSize {
		return fmt.Errorf("compress: %v: uncompressed size %d out of range [0, %d]: %w", c, size, MaxDecodedSize, ErrTooLarge)
	}
	if maxRatio > 0 && size/maxRatio > srcLen+64 {
		return fmt.Errorf("compress: %v: %d compressed bytes cannot expand to %d: %w", c, srcLen, size, ErrTooLarge)
	}
	return nil
}

func corrupt(c format.CompressionCodec, err error) error {
	if err == nil {
		return fmt.Errorf("compress: %v: %w", c, ErrCorrupt)
	}
	return fmt.Errorf("compress: %v: %w: %w", c, ErrCorrupt, err)
}

func mismatch(c format.CompressionCodec, got, want int) error {
	return fmt.Errorf("compress: %v: decoded %d bytes, page header says %d: %w", c, got, want, ErrSizeMismatch)
}

// sized returns dst resized to n bytes, reusing its array when it is large
// enough.
func sized(dst []byte, n int) []byte {
	if cap(dst) >= n {
		return dst[:n]
	}
	return make([]byte, n)
}

// firstChunk is how much output a streaming decoder gets before it has
// shown that it really produces more: hostile headers claiming huge sizes
// for a few bytes of input cost no more than this.
func firstChunk(size, srcLen int) int {
	n := 1<<20 + 16*srcLen
	if n > size || n < 0 {
		n = size
	}
	return n
}

// readExactly reads exactly size bytes from r into dst[:0] and checks that r
// then ends. It grows dst geometrically, so memory follows what the stream
// really produces rather than what the page header claims.
func readExactly(c format.CompressionCodec, r io.Reader, dst []byte, size, srcLen int) ([]byte, error) {
	dst = dst[:0]
	if cap(dst) < size {
		if want := firstChunk(size, srcLen); cap(dst) < want {
			dst = make([]byte, 0, want)
		}
	}
	for len(dst) < size {
		if len(dst) == cap(dst) {
			grown := 2 * cap(dst)
			if grown > size || grown < 0 {
				grown = size
			}
			next := make([]byte, len(dst), grown)
			copy(next, dst)
			dst = next
		}
		limit := min(cap(dst), size)
		n, err := r.Read(dst[len(dst):limit])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			if len(dst) < size {
				return dst, mismatch(c, len(dst), size)
			}
			return dst, nil
		}
		if err != nil {
			return dst, corrupt(c, err)
		}
	}
	// The stream must end here; reading to its end also verifies trailers
	// (gzip CRC and size, brotli's last meta-block).
	var probe [64]byte
	for range 1 << 10 {
		n, err := r.Read(probe[:])
		if n > 0 {
			return dst, fmt.Errorf("compress: %v: data decodes to more than the page header's %d bytes: %w", c, size, ErrSizeMismatch)
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, corrupt(c, err)
		}
	}
	return dst, corrupt(c, errors.New("stream does not end"))
}

// appendWriter is an io.Writer appending to a byte slice, so that streaming
// compressors write straight into the caller's buffer.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

type uncompressedCodec struct{}

func (uncompressedCodec) Codec() format.CompressionCodec { return format.Uncompressed }

// Decode copies src: the result never aliases src. A reader that wants to
// avoid the copy checks Codec() == format.Uncompressed itself.
func (uncompressedCodec) Decode(dst, src []byte, size int) ([]byte, error) {
	if err := checkClaim(format.Uncompressed, size, len(src), 0); err != nil {
		return dst[:0], err
	}
	if len(src) != size {
		return dst[:0], mismatch(format.Uncompressed, len(src), size)
	}
	return append(dst[:0], src...), nil
}

func (uncompressedCodec) Encode(dst, src []byte) ([]byte, error) {
	return append(dst[:0], src...), nil
}
