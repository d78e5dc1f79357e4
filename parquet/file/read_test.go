package file

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/value"
)

// readAll reads every row of a file as Go values, one []any per row.
func readAll(t testing.TB, f *File, batchSize int) [][]any {
	t.Helper()
	r, err := f.NewReader(ReaderOptions{BatchSize: batchSize})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.NumRows; i++ {
			row := make([]any, len(b.Columns))
			for c, v := range b.Columns {
				row[c] = value.Get(b.Fields[c], v, i)
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// parseCSV parses the *_expect.csv files, telling an empty unquoted field
// (null, as *nil) from a quoted empty string.
func parseCSV(t *testing.T, path string) [][]*string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]*string
	for _, line := range strings.Split(strings.TrimRight(string(b), "\r\n"), "\n") {
		line = strings.TrimRight(line, "\r")
		var row []*string
		for i := 0; i <= len(line); {
			if i < len(line) && line[i] == '"' {
				var sb strings.Builder
				i++
				for i < len(line) {
					if line[i] == '"' {
						if i+1 < len(line) && line[i+1] == '"' {
							sb.WriteByte('"')
							i += 2
							continue
						}
						i++
						break
					}
					sb.WriteByte(line[i])
					i++
				}
				s := sb.String()
				row = append(row, &s)
				i++ // the comma
				continue
			}
			j := strings.IndexByte(line[i:], ',')
			if j < 0 {
				j = len(line) - i
			}
			if j == 0 {
				row = append(row, nil)
			} else {
				s := line[i : i+j]
				row = append(row, &s)
			}
			i += j + 1
		}
		rows = append(rows, row)
	}
	return rows
}

func format1(v any) string {
	switch x := v.(type) {
	case []byte:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}

func TestExpectCSVFiles(t *testing.T) {
	for _, csv := range testfiles.Glob(t, "data", "_expect.csv") {
		name := strings.TrimSuffix(filepath.Base(csv), "_expect.csv") + ".parquet"
		t.Run(name, func(t *testing.T) {
			f, err := OpenFile(filepath.Join(filepath.Dir(csv), name), Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			want := parseCSV(t, csv)
			for _, bs := range []int{7, 8192} {
				got := readAll(t, f, bs)
				if len(got) != len(want)-1 {
					t.Fatalf("%d rows, want %d", len(got), len(want)-1)
				}
				for i, row := range got {
					exp := want[i+1]
					if len(row) != len(exp) {
						t.Fatalf("row %d: %d columns, want %d", i, len(row), len(exp))
					}
					for c, v := range row {
						switch {
						case exp[c] == nil && v != nil:
							t.Fatalf("row %d col %d: %v, want null", i, c, v)
						case exp[c] != nil && v == nil:
							t.Fatalf("row %d col %d: null, want %q", i, c, *exp[c])
						case exp[c] != nil && format1(v) != *exp[c]:
							t.Fatalf("row %d col %d: %q, want %q", i, c, format1(v), *exp[c])
						}
					}
				}
			}
		})
	}
}

// TestReadEveryConformanceFile reads every row of every readable file: the
// values themselves are checked against DuckDB and arrow-go in sqltests;
// here every page must decode and every column agree on its row count.
func TestReadEveryConformanceFile(t *testing.T) {
	// Files that other readers reject too (none at present: the chunk
	// sizes of nation.dict-malformed.parquet, written by an old parquet-mr,
	// are read with PARQUET-816's allowance).
	malformed := map[string]string{}
	files := testfiles.Glob(t, "data", ".parquet")
	files = append(files, testfiles.Glob(t, "shredded_variant", ".parquet")...)
	for _, p := range files {
		name := filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			f, err := OpenFile(p, Options{SkipChecksums: strings.Contains(name, "corrupt")}, true)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if want, ok := malformed[name]; ok {
				r, err := f.NewReader(ReaderOptions{})
				for err == nil {
					_, err = r.Next()
				}
				if err == io.EOF || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), name) {
					t.Fatalf("want an error naming the file and %q, got %v", want, err)
				}
				return
			}
			if name == "large_string_map.brotli.parquet" {
				return // TestLargeStringMap reads it, one row per batch
			}
			rows := readAll(t, f, 1000)
			if int64(len(rows)) != f.NumRows() {
				t.Fatalf("read %d rows, footer says %d", len(rows), f.NumRows())
			}
		})
	}
}

func TestCorruptChecksums(t *testing.T) {
	for _, name := range []string{"datapage_v1-corrupt-checksum.parquet", "rle-dict-uncompressed-corrupt-checksum.parquet"} {
		f, err := OpenFile(testfiles.Path(t, "data/"+name), Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.NewReader(ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for err == nil {
			_, err = r.Next()
		}
		if !errors.Is(err, ErrChecksum) || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: want a CRC error naming the file, got %v", name, err)
		}
		f.Close()
	}
}

// TestLargeStringMap reads two rows that each hold a 1 GiB string key. One
// row per batch keeps a batch's byte-array offsets within int32; a bigger
// batch must fail cleanly rather than wrap around.
func TestLargeStringMap(t *testing.T) {
	f, err := OpenFile(testfiles.Path(t, "data/large_string_map.brotli.parquet"), Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := f.NewReader(ReaderOptions{BatchSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		m := b.Columns[0]
		key := m.Children[0]
		if m.Len != 1 || key.Len != 1 || len(key.Bytes(0)) != 1<<30 || key.Bytes(0)[12345] != 'a' {
			t.Fatalf("row %d: map of %d entries, key of %d bytes", rows, key.Len, len(key.Data))
		}
		if v := m.Children[1].Int32s[0]; v != 1 {
			t.Fatalf("value = %d, want 1", v)
		}
		rows++
	}
	if rows != 2 {
		t.Fatalf("%d rows, want 2", rows)
	}
}

// TestPlaintextFooterEncryptedColumns: the footer of this file is readable
// but its columns are encrypted; reading them must say so, naming the file.
func TestPlaintextFooterEncryptedColumns(t *testing.T) {
	p := testfiles.Path(t, "data/encrypt_columns_plaintext_footer.parquet.encrypted")
	f, err := OpenFile(p, Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := f.NewReader(ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = r.Next()
	}
	if !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), filepath.Base(p)) {
		t.Fatalf("want an encryption error naming the file, got %v", err)
	}
}

// TestParquet816 reads a file by an old parquet-mr whose column chunk
// sizes leave out the dictionary page header: the first rows are the TPC-H
// nation table's.
func TestParquet816(t *testing.T) {
	f, err := OpenFile(testfiles.Path(t, "data/nation.dict-malformed.parquet"), Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := readAll(t, f, 100)
	if len(rows) != 25 || format1(rows[0][1]) != "ALGERIA" || format1(rows[2][1]) != "BRAZIL" || rows[24][0] != int32(24) {
		t.Fatalf("%d rows, first %v", len(rows), rows[0])
	}
	for _, c := range []struct {
		createdBy string
		short     bool
	}{{"parquet-mr", true}, {"parquet-mr version 1.2.8", true}, {"parquet-mr version 1.2.9", false},
		{"parquet-mr version 1.10.0 (build abc)", false}, {"parquet-cpp-arrow version 14.0.0", false}, {"", false}} {
		if got := shortChunksWriter(c.createdBy); got != c.short {
			t.Errorf("%q: %v, want %v", c.createdBy, got, c.short)
		}
	}
}

// TestSharedLeaves reads a struct and fields under it (and a column
// named twice) in one reader: every field gets the leaf's values (the
// assembler used to move them into the first field that took them).
func TestSharedLeaves(t *testing.T) {
	for _, c := range []struct {
		file string
		cols []string
	}{
		{"nested_structs.rust.parquet", []string{"roll_num.min", "roll_num", "roll_num.max"}},
		{"nullable.impala.parquet", []string{"int_array", "id", "int_array", "nested_struct", "nested_struct.A", "nested_struct.b"}},
	} {
		f, err := OpenFile(testfiles.Path(t, "data/"+c.file), Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		// Each column alone is the reference.
		alone := map[string][]string{}
		for _, col := range c.cols {
			alone[col] = readColumn(t, f, []string{col}, 0)
		}
		r, err := f.NewReader(ReaderOptions{Columns: c.cols})
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]string, len(c.cols))
		for {
			b, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s %v: %v", c.file, c.cols, err)
			}
			for k := range c.cols {
				for i := 0; i < b.NumRows; i++ {
					got[k] = append(got[k], fmt.Sprint(value.Get(b.Fields[k], b.Columns[k], i)))
				}
			}
		}
		for k, col := range c.cols {
			if fmt.Sprint(got[k]) != fmt.Sprint(alone[col]) {
				t.Errorf("%s: %s read with %v = %v, alone %v", c.file, col, c.cols, got[k], alone[col])
			}
		}
		f.Close()
	}
}

// readColumn reads column k of the columns cols as printed values.
func readColumn(t *testing.T, f *File, cols []string, k int) []string {
	r, err := f.NewReader(ReaderOptions{Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		b, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.NumRows; i++ {
			out = append(out, fmt.Sprint(value.Get(b.Fields[k], b.Columns[k], i)))
		}
	}
}
