package file

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/encoding"
	"github.com/carquet-go/carquet/parquet/format"
)

// TestUnsupportedErrors checks that features this package does not
// implement are reported as ErrUnsupported (and not as corruption), by
// name, with the column located.
func TestUnsupportedErrors(t *testing.T) {
	values := make([]byte, 40)
	plain := func(enc format.Encoding) []byte {
		return format.Marshal(nil, &format.PageHeader{Type: format.DataPage, UncompressedPageSize: 40, CompressedPageSize: 40,
			DataPageHeader: &format.DataPageHeader{NumValues: 10, Encoding: enc}})
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		wants []error
		text  string
	}{
		{"lzo", onePageFile(format.Int32, format.LZO, 10, plain(format.Plain), values),
			[]error{compress.ErrUnsupported}, "LZO compression is not supported"},
		{"unknown encoding", onePageFile(format.Int32, format.Uncompressed, 10, plain(format.Encoding(99)), values),
			[]error{encoding.ErrUnsupported}, "not supported"},
		{"encoding for another type", onePageFile(format.Int32, format.Uncompressed, 10, plain(format.DeltaByteArray), values),
			[]error{encoding.ErrUnsupported}, "not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := readBytes(tc.data, Options{Name: "u.parquet"})
			if !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrUnsupported and not ErrCorrupt", err)
			}
			for _, w := range tc.wants {
				if !errors.Is(err, w) {
					t.Errorf("err = %v, want %v too", err, w)
				}
			}
			if !strings.Contains(err.Error(), tc.text) || !strings.Contains(err.Error(), "u.parquet") || !strings.Contains(err.Error(), "column x") {
				t.Errorf("message %q should name the feature, the file and the column", err)
			}
		})
	}
}

// TestErrorKinds checks the kinds of errors of other layers as seen
// through this package: corrupt data, non-Parquet input, encrypted files.
func TestErrorKinds(t *testing.T) {
	if err := readBytes([]byte("hello, this is not parquet"), Options{}); !errors.Is(err, ErrNotParquet) {
		t.Errorf("text: %v", err)
	}
	enc := append([]byte("PAR1"), make([]byte, 8)...)
	enc = append(enc, "PARE"...)
	if err := readBytes(enc, Options{}); !errors.Is(err, ErrEncrypted) {
		t.Errorf("PARE footer: %v", err)
	}
	// A footer that is not Thrift.
	bad := append([]byte("PAR1"), 0xff, 0xff, 0xff, 0xff)
	bad = binary.LittleEndian.AppendUint32(bad, 4)
	bad = append(bad, "PAR1"...)
	if err := readBytes(bad, Options{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("garbage footer: %v", err)
	}
	// Values that end early: an encoding error below is also ErrCorrupt.
	h := format.Marshal(nil, &format.PageHeader{Type: format.DataPage, UncompressedPageSize: 8, CompressedPageSize: 8,
		DataPageHeader: &format.DataPageHeader{NumValues: 10, Encoding: format.DeltaBinaryPacked}})
	short := onePageFile(format.Int32, format.Uncompressed, 10, h, []byte{0x80, 1, 4, 10, 2, 0, 0, 0})
	if err := readBytes(short, Options{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("short delta page: %v", err)
	}
}
