package file

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/format"
)

// Row counts stated by the conformance files' READMEs and .md notes.
var documentedRows = map[string]int64{
	"delta_binary_packed.parquet":            200,
	"delta_byte_array.parquet":               1000,
	"delta_encoding_optional_column.parquet": 100,
	"delta_encoding_required_column.parquet": 100,
}

func csvRows(t *testing.T, path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n int64
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		n++
	}
	return n - 1 // header line
}

func TestOpenConformanceFiles(t *testing.T) {
	files := testfiles.Glob(t, "data", ".parquet", ".parquet.encrypted")
	files = append(files, testfiles.Glob(t, "shredded_variant", ".parquet")...)
	if len(files) < 100 {
		t.Fatalf("only %d conformance files found", len(files))
	}
	for _, p := range files {
		name := filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			f, err := OpenFile(p, Options{}, false)
			encrypted := strings.HasSuffix(name, ".encrypted")
			if encrypted && !strings.Contains(name, "plaintext_footer") {
				if !errors.Is(err, ErrEncrypted) {
					t.Fatalf("want an encryption error, got %v", err)
				}
				if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "encrypt") {
					t.Fatalf("error should name the file and encryption: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if encrypted && f.Meta.EncryptionAlgorithm == nil {
				t.Fatal("plaintext-footer encrypted file has no encryption algorithm in its footer")
			}
			if f.NumRows() != f.Meta.NumRows && f.Meta.NumRows != 0 {
				t.Fatalf("row groups hold %d rows, footer says %d", f.NumRows(), f.Meta.NumRows)
			}
			if want, ok := documentedRows[name]; ok && f.NumRows() != want {
				t.Fatalf("rows = %d, documentation says %d", f.NumRows(), want)
			}
			if csv := strings.TrimSuffix(p, ".parquet") + "_expect.csv"; fileExists(csv) {
				if want := csvRows(t, csv); f.NumRows() != want {
					t.Fatalf("rows = %d, %s has %d", f.NumRows(), filepath.Base(csv), want)
				}
			}
			text := f.Schema.String()
			if !strings.HasPrefix(text, "message ") || len(f.Schema.Leaves) == 0 && len(f.Meta.Schema) > 1 {
				t.Fatalf("bad schema printout:\n%s", text)
			}
			for _, l := range f.Schema.Leaves {
				if !strings.Contains(text, l.Name) {
					t.Fatalf("schema printout misses column %s:\n%s", l.Name, text)
				}
			}
			// Decoding then re-encoding the footer gives an equal structure.
			again := new(format.FileMetaData)
			enc := format.Marshal(nil, f.Meta)
			if _, err := format.Unmarshal(enc, again); err != nil {
				t.Fatalf("re-decode: %v", err)
			}
			if !reflect.DeepEqual(f.Meta, again) {
				t.Fatal("footer changed in a decode/encode/decode round trip")
			}
		})
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestKnownRowCounts(t *testing.T) {
	// Values stated in data/README.md and the files' .md notes.
	for name, rows := range map[string]int64{
		"data/alltypes_plain.parquet":      8,
		"data/alltypes_dictionary.parquet": 2,
	} {
		f, err := OpenFile(testfiles.Path(t, name), Options{}, true)
		if err != nil {
			t.Fatal(err)
		}
		if f.NumRows() != rows {
			t.Errorf("%s: %d rows, want %d", name, f.NumRows(), rows)
		}
		f.Close()
	}
}

func TestBadDataNeverPanics(t *testing.T) {
	for _, p := range testfiles.Glob(t, "bad_data", ".parquet") {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f, err := OpenFile(p, Options{}, false)
			if err == nil {
				f.Close()
			} else if !strings.Contains(err.Error(), filepath.Base(p)) {
				t.Fatalf("error does not name the file: %v", err)
			}
		})
	}
}
