package compress

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/klauspost/compress/zstd"
)

// NewPageEncoder returns the encoder for the pages of one column, given
// in the order they are written. It differs from c only for ZSTD at its
// default level, where it learns from the column's pages which encoder
// suits them (zstdPages); so unlike a Codec it is not safe for concurrent
// use. Decode and Codec are c's.
func NewPageEncoder(c Codec) Codec {
	if z, ok := c.(zstdCodec); ok && z.byDefault {
		return &zstdPages{zstdCodec: z}
	}
	return c
}

// zstdPages compresses a column's pages at zstd's default level (3,
// klauspost's SpeedDefault) or with SpeedFastest (level 1), whichever the
// column's pages show to be smaller. Neither wins everywhere: on PLAIN
// doubles the fastest encoder's single hash table finds more of the short
// matches and its output is 6% smaller, in half the time; on text the
// default's second table for long matches makes it 3–10% smaller.
//
// The first page is compressed both ways and the smaller output kept. The
// fastest encoder then goes on only where it was smaller by at least
// 1/zstdFastMargin, and is checked the same way every zstdReprobe pages
// while it is used, so a column whose data changes goes back to the
// default. Once the default has won it stays: pages are never larger than
// the default level would make them except where the data changes between
// probes (TPC-H's lineitem and partsupp at SF1: +0.03% and +0.06%).
type zstdPages struct {
	zstdCodec
	probed, fast bool
	sinceProbe   int
	spare        []byte // the losing probe's output
}

const (
	zstdFastMargin = 50
	zstdReprobe    = 8
)

func (z *zstdPages) Encode(dst, src []byte) ([]byte, error) {
	def, err := zstdEncoder(zstd.SpeedDefault)
	if err != nil {
		return dst[:0], fmt.Errorf("compress: %v: %w", format.Zstd, err)
	}
	if z.probed && !z.fast {
		return def.EncodeAll(src, dst[:0]), nil
	}
	fast, err := zstdEncoder(zstd.SpeedFastest)
	if err != nil {
		return dst[:0], fmt.Errorf("compress: %v: %w", format.Zstd, err)
	}
	if z.probed && z.sinceProbe < zstdReprobe-1 {
		z.sinceProbe++
		return fast.EncodeAll(src, dst[:0]), nil
	}
	out := def.EncodeAll(src, dst[:0])
	z.spare = fast.EncodeAll(src, z.spare[:0])
	z.probed, z.sinceProbe = true, 0
	z.fast = len(z.spare) <= len(out)-len(out)/zstdFastMargin
	if len(z.spare) < len(out) {
		out = append(out[:0], z.spare...)
	}
	return out, nil
}
