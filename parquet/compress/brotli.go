package compress

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/carquet-go/carquet/parquet/format"
)

const brotliDefaultQuality = brotli.DefaultCompression

type brotliReader struct {
	br bytes.Reader
	zr *brotli.Reader
}

var brotliReaders = sync.Pool{New: func() any {
	r := new(brotliReader)
	r.zr = brotli.NewReader(&r.br)
	return r
}}

type brotliWriter struct {
	aw appendWriter
	zw *brotli.Writer
}

// brotliWriters holds one pool of writers per quality 0..11.
var brotliWriters [12]sync.Pool

type brotliCodec struct{ quality int }

func newBrotli(level int) (Codec, error) {
	switch {
	case level == DefaultLevel:
		return brotliCodec{quality: brotliDefaultQuality}, nil
	case level < 0 || level > 11:
		return nil, fmt.Errorf("compress: %v: quality %d not in 0..11: %w", format.Brotli, level, ErrLevel)
	}
	return brotliCodec{quality: level}, nil
}

func (brotliCodec) Codec() format.CompressionCodec { return format.Brotli }

// Decode streams: Brotli's expansion has no useful bound, so the output
// grows only as the data really decodes.
func (brotliCodec) Decode(dst, src []byte, size int) ([]byte, error) {
	if err := checkClaim(format.Brotli, size, len(src), 0); err != nil {
		return dst[:0], err
	}
	if len(src) == 0 && size == 0 {
		return dst[:0], nil
	}
	r := brotliReaders.Get().(*brotliReader)
	defer func() {
		r.br.Reset(nil)
		brotliReaders.Put(r)
	}()
	r.br.Reset(src)
	if err := r.zr.Reset(&r.br); err != nil {
		return dst[:0], corrupt(format.Brotli, err)
	}
	out, err := readExactly(format.Brotli, r.zr, dst, size, len(src))
	if err != nil {
		return dst[:0], err
	}
	return out, nil
}

func (c brotliCodec) Encode(dst, src []byte) ([]byte, error) {
	pool := &brotliWriters[c.quality]
	w, _ := pool.Get().(*brotliWriter)
	if w == nil {
		w = new(brotliWriter)
		w.zw = brotli.NewWriterLevel(&w.aw, c.quality)
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
		return dst[:0], fmt.Errorf("compress: %v: %w", format.Brotli, err)
	}
	return out, nil
}
