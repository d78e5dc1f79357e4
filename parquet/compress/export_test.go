package compress

import "github.com/carquet-go/carquet/parquet/format"

// KlauspostGunzip exports klauspostGunzip to the benchmarks of package
// compress_test.
var KlauspostGunzip = klauspostGunzip

// CodecPages returns the bodies and uncompressed sizes of the pages of a
// Parquet file (held in data) compressed with codec c.
func CodecPages(data []byte, c format.CompressionCodec) (bodies [][]byte, sizes []int, err error) {
	pages, err := filePages(data)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pages {
		if p.codec == c && !p.plainBody {
			bodies = append(bodies, p.body)
			sizes = append(sizes, p.size)
		}
	}
	return bodies, sizes, nil
}
