package compress

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/pierrec/lz4/v4"
)

// lz4MaxRatio bounds LZ4's expansion: a match can grow by 255 bytes per
// input byte.
const lz4MaxRatio = 256

var lz4Compressors = sync.Pool{New: func() any { return new(lz4.Compressor) }}

// lz4Level maps a codec level to pierrec/lz4's: 0 (the default) is the
// fast compressor; 1 to 9 the high-compression one at that depth, smaller
// output for slower writes.
func lz4Level(level int) (lz4.CompressionLevel, error) {
	switch {
	case level == DefaultLevel || level == 0:
		return lz4.Fast, nil
	case level >= 1 && level <= 9:
		return lz4.Level1 << (level - 1), nil
	}
	return 0, fmt.Errorf("%w: LZ4 level %d (0 fast, 1-9 high compression)", ErrLevel, level)
}

var lz4HCCompressors = sync.Pool{New: func() any { return new(lz4.CompressorHC) }}

// lz4Block appends the LZ4 block for src to dst.
func lz4Block(dst, src []byte, level lz4.CompressionLevel) ([]byte, error) {
	bound := lz4.CompressBlockBound(len(src))
	start := len(dst)
	if cap(dst)-start < bound {
		grown := make([]byte, start, start+bound)
		copy(grown, dst)
		dst = grown
	}
	var n int
	var err error
	if level == lz4.Fast {
		c := lz4Compressors.Get().(*lz4.Compressor)
		n, err = c.CompressBlock(src, dst[start:start+bound])
		lz4Compressors.Put(c)
	} else {
		c := lz4HCCompressors.Get().(*lz4.CompressorHC)
		c.Level = level
		n, err = c.CompressBlock(src, dst[start:start+bound])
		lz4HCCompressors.Put(c)
	}
	if err != nil {
		return dst[:start], err
	}
	return dst[:start+n], nil
}

var errLZ4NotEmpty = errors.New("LZ4 block does not decode to zero bytes")

// lz4Uncompress decodes one LZ4 block into dst, which it must fill. It never
// hands pierrec/lz4 an empty dst: its amd64 decoder (v4.1.33) writes
// through dst's pointer regardless and faults on a nil one. The only block
// that decodes to nothing is a lone zero token.
func lz4Uncompress(src, dst []byte) (int, error) {
	if len(dst) == 0 {
		if len(src) == 1 && src[0] == 0 {
			return 0, nil
		}
		return 0, errLZ4NotEmpty
	}
	return lz4.UncompressBlock(src, dst)
}

// lz4RawCodec handles LZ4_RAW: one LZ4 block, no framing.
type lz4RawCodec struct{ level lz4.CompressionLevel }

func (lz4RawCodec) Codec() format.CompressionCodec { return format.LZ4Raw }

func (lz4RawCodec) Decode(dst, src []byte, size int) ([]byte, error) {
	if err := checkClaim(format.LZ4Raw, size, len(src), lz4MaxRatio); err != nil {
		return dst[:0], err
	}
	if len(src) == 0 && size == 0 {
		return dst[:0], nil
	}
	out := sized(dst, size)
	n, err := lz4Uncompress(src, out)
	if err != nil {
		return dst[:0], corrupt(format.LZ4Raw, err)
	}
	if n != size {
		return dst[:0], mismatch(format.LZ4Raw, n, size)
	}
	return out, nil
}

func (c lz4RawCodec) Encode(dst, src []byte) ([]byte, error) {
	out, err := lz4Block(dst[:0], src, c.level)
	if err != nil {
		return dst[:0], fmt.Errorf("compress: %v: %w", format.LZ4Raw, err)
	}
	return out, nil
}

// lz4HadoopCodec handles the deprecated LZ4 codec. Writers framed its data
// the way Hadoop's Lz4Codec does: a sequence of frames, each a big-endian
// uint32 uncompressed size, a big-endian uint32 compressed size and one raw
// LZ4 block. Old parquet-cpp wrote a bare LZ4 block instead, and some
// writers the LZ4 frame format; Decode tries the three in that order, as
// Arrow and parquet-mr do.
type lz4HadoopCodec struct{ level lz4.CompressionLevel }

// hadoopFrameSize bounds the uncompressed bytes per Hadoop frame Encode
// writes: Hadoop's decompressor works in 256 KiB buffers by default.
const hadoopFrameSize = 128 << 10

var errNotHadoop = errors.New("not Hadoop-framed")

func (lz4HadoopCodec) Codec() format.CompressionCodec { return format.LZ4 }

func (lz4HadoopCodec) Decode(dst, src []byte, size int) ([]byte, error) {
	if err := checkClaim(format.LZ4, size, len(src), lz4MaxRatio); err != nil {
		return dst[:0], err
	}
	if len(src) == 0 && size == 0 {
		return dst[:0], nil
	}
	out := sized(dst, size)
	if decodeHadoop(out, src) == nil {
		return out, nil
	}
	if n, err := lz4Uncompress(src, out); err == nil && n == size {
		return out, nil
	}
	if len(src) >= 4 && binary.LittleEndian.Uint32(src) == 0x184D2204 {
		return decodeLZ4Frame(out, src, size)
	}
	return dst[:0], corrupt(format.LZ4, errors.New("neither Hadoop-framed LZ4, a raw LZ4 block nor an LZ4 frame of the page's size"))
}

// decodeHadoop decodes Hadoop-framed src into out, which must come out
// exactly full.
func decodeHadoop(out, src []byte) error {
	pos := 0
	for len(src) >= 8 {
		usize := binary.BigEndian.Uint32(src)
		csize := binary.BigEndian.Uint32(src[4:])
		src = src[8:]
		if uint64(csize) > uint64(len(src)) || uint64(usize) > uint64(len(out)-pos) {
			return errNotHadoop
		}
		n, err := lz4Uncompress(src[:csize], out[pos:pos+int(usize)])
		if err != nil || n != int(usize) {
			return errNotHadoop
		}
		pos += n
		src = src[csize:]
	}
	if len(src) != 0 || pos != len(out) {
		return errNotHadoop
	}
	return nil
}

var lz4Readers = sync.Pool{New: func() any { return &lz4FrameReader{zr: lz4.NewReader(nil)} }}

type lz4FrameReader struct {
	br bytes.Reader
	zr *lz4.Reader
}

func decodeLZ4Frame(out, src []byte, size int) ([]byte, error) {
	r := lz4Readers.Get().(*lz4FrameReader)
	defer func() {
		r.br.Reset(nil)
		r.zr.Reset(nil)
		lz4Readers.Put(r)
	}()
	r.br.Reset(src)
	r.zr.Reset(&r.br)
	return readExactly(format.LZ4, r.zr, out, size, len(src))
}

// Encode writes Hadoop framing, which parquet-mr, Arrow and every other
// reader of the LZ4 codec accept, cutting src into frames of at most 128 KiB.
func (c lz4HadoopCodec) Encode(dst, src []byte) ([]byte, error) {
	out := dst[:0]
	for first := true; first || len(src) > 0; first = false {
		chunk := src[:min(len(src), hadoopFrameSize)]
		src = src[len(chunk):]
		hdr := len(out)
		out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)
		var err error
		if out, err = lz4Block(out, chunk, c.level); err != nil {
			return dst[:0], fmt.Errorf("compress: %v: %w", format.LZ4, err)
		}
		binary.BigEndian.PutUint32(out[hdr:], uint32(len(chunk)))
		binary.BigEndian.PutUint32(out[hdr+4:], uint32(len(out)-hdr-8))
	}
	return out, nil
}
