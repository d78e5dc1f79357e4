package compress

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/format"
)

// testingRoot is the folder of the conformance files (testfiles.Dir).
func testingRoot(t testing.TB) string {
	t.Helper()
	return testfiles.Dir(t, "")
}

// page is one page body as stored: what Decode gets.
type page struct {
	column    int
	offset    int64
	codec     format.CompressionCodec
	body      []byte // compressed part
	size      int    // uncompressed size of body
	pageType  int64
	levels    []byte // v2: uncompressed level bytes preceding body
	plainBody bool   // v2 page with is_compressed = false
}

// filePages lists every page of every column chunk of a Parquet file,
// walking the footer and page headers with parquet/format.
func filePages(data []byte) ([]page, error) {
	if len(data) < 12 || string(data[len(data)-4:]) != "PAR1" {
		return nil, errors.New("not a plaintext-footer parquet file")
	}
	flen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if flen > len(data)-12 {
		return nil, errors.New("bad footer length")
	}
	var fmd format.FileMetaData
	if _, err := format.Unmarshal(data[len(data)-8-flen:len(data)-8], &fmd); err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	var pages []page
	for _, rg := range fmd.RowGroups {
		for ci, cc := range rg.Columns {
			md := cc.MetaData
			if md == nil {
				return nil, errors.New("column chunk without metadata")
			}
			start := md.DataPageOffset
			if dict, ok := md.DictionaryPageOffset.Get(); ok && dict > 0 && dict < start {
				start = dict
			}
			total := md.TotalCompressedSize
			if start < 4 || total < 0 || start+total > int64(len(data)) {
				return nil, fmt.Errorf("column %d: bad chunk range %d+%d", ci, start, total)
			}
			chunk := data[start : start+total]
			for pos := 0; pos < len(chunk); {
				var ph format.PageHeader
				hlen, err := format.Unmarshal(chunk[pos:], &ph)
				if err != nil {
					return nil, fmt.Errorf("column %d page header at %d: %w", ci, start+int64(pos), err)
				}
				csize := int64(ph.CompressedPageSize)
				bodyStart := pos + hlen
				if csize < 0 || int64(bodyStart)+csize > int64(len(chunk)) {
					return nil, fmt.Errorf("column %d page at %d: bad size", ci, start+int64(pos))
				}
				body := chunk[bodyStart : bodyStart+int(csize)]
				p := page{column: ci, offset: start + int64(pos), codec: md.Codec,
					body: body, size: int(ph.UncompressedPageSize), pageType: int64(ph.Type)}
				if v2 := ph.DataPageHeaderV2; ph.Type == format.DataPageV2 && v2 != nil {
					lv := int(v2.DefinitionLevelsByteLength + v2.RepetitionLevelsByteLength)
					if lv < 0 || lv > len(body) || lv > int(ph.UncompressedPageSize) {
						return nil, fmt.Errorf("column %d page at %d: bad level sizes", ci, p.offset)
					}
					p.levels, p.body, p.size = body[:lv], body[lv:], int(ph.UncompressedPageSize)-lv
					p.plainBody = !v2.IsCompressed.Or(true)
				}
				pages = append(pages, p)
				pos = bodyStart + int(csize)
			}
		}
	}
	return pages, nil
}
