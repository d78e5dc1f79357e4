package compress

import (
	"errors"
	"fmt"
	"sync"

	"github.com/carquet-go/carquet/parquet/compress/inflate"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/klauspost/compress/gzip"
)

// gzipMaxRatio bounds deflate's expansion (258 bytes per 2 bits at best).
const gzipMaxRatio = 1032

// gzipDefaultLevel is 5. On the benchmark's events table (with the
// writer's default encodings) klauspost/compress's level 5 writes the file
// 2.9x faster than its level 7, reads back 1.6x faster, and is 1.5% larger;
// level 7 adds entropy coding of data with few repeats (bit-packed
// dictionary indices, PLAIN ids), which only pays where values are stored
// wastefully. Ask for level 7 or more where size matters above all.
const gzipDefaultLevel = 5

// gzipWriter pairs a reusable gzip.Writer with the appendWriter it writes
// into.
type gzipWriter struct {
	aw appendWriter
	zw *gzip.Writer
}

// gzipWriters holds one pool of writers per level 0..9.
var gzipWriters [10]sync.Pool

type gzipCodec struct{ level int }

var gzipDefault = gzipCodec{level: gzipDefaultLevel}

func newGzip(level int) (Codec, error) {
	switch {
	case level == DefaultLevel || level == gzip.DefaultCompression:
		return gzipDefault, nil
	case level < 0 || level > 9:
		return nil, fmt.Errorf("compress: %v: level %d not in 0..9: %w", format.Gzip, level, ErrLevel)
	}
	return gzipCodec{level: level}, nil
}

func (gzipCodec) Codec() format.CompressionCodec { return format.Gzip }

// Decode reads every gzip member in src, one after another, as RFC 1952
// readers must: some writers emit several members per page. Package inflate
// decodes straight into the output, which therefore has the page's size from
// the start; see gzipOutput for how that size is trusted.
func (gzipCodec) Decode(dst, src []byte, size int) ([]byte, error) {
	if err := checkClaim(format.Gzip, size, len(src), gzipMaxRatio); err != nil {
		return dst[:0], err
	}
	if len(src) == 0 && size == 0 {
		return dst[:0], nil
	}
	n := size
	if cap(dst) < size {
		n = firstChunk(size, len(src))
	}
	for {
		out := gzipOutput(dst, n)
		_, err := inflate.DecodeGzip(out, src)
		switch {
		case err == nil:
			return out, nil
		case errors.Is(err, inflate.ErrTooLong) && n < size:
			// The data really produces more than n bytes: try again
			// with room for more, growing as the old streaming reader
			// did, so that a header's claim alone never sizes memory.
			n = min(4*n, size)
		case errors.Is(err, inflate.ErrTooLong), errors.Is(err, inflate.ErrTooShort):
			return dst[:0], fmt.Errorf("compress: %v: page header says %d bytes: %w: %w", format.Gzip, size, ErrSizeMismatch, err)
		default:
			return dst[:0], corrupt(format.Gzip, err)
		}
	}
}

// gzipOutput returns n bytes of output space, dst's own where it is large
// enough. n is the page header's size only when the caller's buffer already
// holds it or the claim is within firstChunk of the input's size; above
// that, Decode starts smaller and grows only while the data really fills
// the space.
func gzipOutput(dst []byte, n int) []byte {
	if cap(dst) >= n {
		return dst[:n]
	}
	return make([]byte, n)
}

func (c gzipCodec) Encode(dst, src []byte) ([]byte, error) {
	pool := &gzipWriters[c.level]
	w, _ := pool.Get().(*gzipWriter)
	if w == nil {
		w = new(gzipWriter)
		var err error
		if w.zw, err = gzip.NewWriterLevel(&w.aw, c.level); err != nil {
			return dst[:0], fmt.Errorf("compress: %v: %w", format.Gzip, err)
		}
	} else {
		w.zw.Reset(&w.aw)
	}
	w.aw.b = dst[:0]
	_, err := w.zw.Write(src)
	if err == nil {
		err = w.zw.Close()
	}
	out := w.aw.b
	w.aw.b = nil
	pool.Put(w)
	if err != nil {
		return dst[:0], fmt.Errorf("compress: %v: %w", format.Gzip, err)
	}
	return out, nil
}
