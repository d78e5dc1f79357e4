package compress

import (
	"bytes"
	"sync"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/klauspost/compress/gzip"
)

// klauspostGunzip is the gzip page decoder carquet used before package
// inflate: a pooled klauspost gzip.Reader streaming from a bytes.Reader. It
// stays as a test reference and as the baseline of the benchmarks.
func klauspostGunzip(dst, src []byte, size int) ([]byte, error) {
	type reader struct {
		br bytes.Reader
		zr gzip.Reader
	}
	r, _ := klauspostReaders.Get().(*reader)
	if r == nil {
		r = new(reader)
	}
	defer klauspostReaders.Put(r)
	r.br.Reset(src)
	if err := r.zr.Reset(&r.br); err != nil {
		return dst[:0], corrupt(format.Gzip, err)
	}
	r.zr.Multistream(true)
	return readExactly(format.Gzip, &r.zr, dst, size, len(src))
}

var klauspostReaders sync.Pool
