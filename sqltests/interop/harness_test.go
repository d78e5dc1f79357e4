package interop

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/sqltests/internal/canon"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"github.com/carquet-go/carquet/sqltests/internal/tables"
	"github.com/carquet-go/carquet/writer"
)

// rows is the number of rows per generated table.
func rows() int {
	if s := os.Getenv("CARQUET_INTEROP_ROWS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return n
		}
	}
	return 300
}

func allTables() []*tables.Table {
	n := rows()
	return []*tables.Table{tables.Primitives(n), tables.Nested(n), tables.Empty(), tables.ManyRowGroups(max(n, 500))}
}

type codec struct {
	name   string
	format format.CompressionCodec
}

var codecs = []codec{
	{"none", format.Uncompressed}, {"snappy", format.Snappy}, {"gzip", format.Gzip}, {"zstd", format.Zstd},
	{"lz4_raw", format.LZ4Raw}, {"brotli", format.Brotli}, {"lz4", format.LZ4},
}

// encodings are the cells of the encoding axis: delta is
// DELTA_BINARY_PACKED (INT32/INT64) with DELTA_LENGTH_BYTE_ARRAY
// (BYTE_ARRAY); delta_byte_array and delta_byte_array_flba put
// DELTA_BYTE_ARRAY on BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY columns; bss_float
// and bss_other put BYTE_STREAM_SPLIT on FLOAT/DOUBLE and on
// INT32/INT64/FIXED_LEN_BYTE_ARRAY columns. Split this way, a peer that
// lacks one combination loses one cell, not the whole encoding.
var encodings = []string{"plain", "dict", "delta", "delta_byte_array", "delta_byte_array_flba", "bss_float", "bss_other"}

// encodingOptions returns the writer options of an encoding cell: the
// encoding on every leaf whose physical type it can encode, PLAIN (RLE for
// booleans) elsewhere, and the dictionary only in the "dict" cell.
func encodingOptions(sch *schema.Schema, enc string) []writer.Option {
	if enc == "dict" {
		return []writer.Option{writer.WithDictionary(true)}
	}
	opts := []writer.Option{writer.WithDictionary(false)}
	for _, leaf := range sch.Leaves {
		var e format.Encoding
		ok := false
		switch enc {
		case "delta":
			switch leaf.Physical {
			case format.Int32, format.Int64:
				e, ok = format.DeltaBinaryPacked, true
			case format.ByteArray:
				e, ok = format.DeltaLengthByteArray, true
			}
		case "delta_byte_array":
			e, ok = format.DeltaByteArray, leaf.Physical == format.ByteArray
		case "delta_byte_array_flba":
			e, ok = format.DeltaByteArray, leaf.Physical == format.FixedLenByteArray
		case "bss_float":
			e, ok = format.ByteStreamSplit, leaf.Physical == format.Float || leaf.Physical == format.Double
		case "bss_other":
			switch leaf.Physical {
			case format.Int32, format.Int64, format.FixedLenByteArray:
				e, ok = format.ByteStreamSplit, true
			}
		}
		if ok {
			opts = append(opts, writer.WithEncodingFor(leaf.PathString(), e))
		}
	}
	return opts
}

// expected renders the rows of a table as carquet's reader would give
// them back: the written Go values, reshaped and rendered by canon.
func expected(t *testing.T, tbl *tables.Table, sch *schema.Schema) *peers.Table {
	fields, err := sch.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	out := &peers.Table{}
	for _, f := range fields {
		out.Columns = append(out.Columns, f.Name)
		out.Types = append(out.Types, "written "+f.Kind.String())
	}
	for _, row := range tbl.Values() {
		r := make([]string, len(row))
		for i, x := range row {
			v, err := peers.Reshape(fields[i], x)
			if err != nil {
				t.Fatal(err)
			}
			r[i] = canon.Value(v)
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}

// writeCarquet writes a table with carquet's writer.
func writeCarquet(t *testing.T, path string, tbl *tables.Table, c codec, enc string, pageVersion int) *schema.Schema {
	sch, err := writer.NewSchema(tbl.Fields()...)
	if err != nil {
		t.Fatal(err)
	}
	opts := append([]writer.Option{}, tbl.Options...)
	opts = append(opts, writer.WithCompression(c.format), writer.WithDataPageVersion(pageVersion))
	opts = append(opts, encodingOptions(sch, enc)...)
	w, err := writer.Create(path, sch, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRows(tbl.Values()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return sch
}

// compareTables reports differing cells of got against want, leaving out
// the columns of skip (with their reasons logged).
func compareTables(t *testing.T, wantName string, want *peers.Table, gotName string, got *peers.Table, skip map[string]string) {
	t.Helper()
	if fmt.Sprint(want.Columns) != fmt.Sprint(got.Columns) {
		t.Errorf("columns: %s %v, %s %v", wantName, want.Columns, gotName, got.Columns)
		return
	}
	if len(want.Rows) != len(got.Rows) {
		t.Errorf("rows: %s %d, %s %d", wantName, len(want.Rows), gotName, len(got.Rows))
		return
	}
	for c, name := range want.Columns {
		if reason, ok := skip[name]; ok {
			t.Logf("%s: column %s not compared: %s", gotName, name, reason)
			continue
		}
		bad := 0
		for r := range want.Rows {
			if want.Rows[r][c] != got.Rows[r][c] {
				if bad < 2 {
					t.Errorf("row %d column %s (%s %s):\n  %s: %.200s\n  %s: %.200s", r, name, gotName, got.Types[c],
						wantName, want.Rows[r][c], gotName, got.Rows[r][c])
				}
				bad++
			}
		}
		if bad > 2 {
			t.Errorf("column %s: %d differing cells in all", name, bad)
		}
	}
}

type reader struct {
	name string
	// read reads a whole file, leaving out (as nulls) the columns of exclude.
	read func(path string, exclude map[string]string) (*peers.Table, error)
}

func peerReaders(db *sql.DB) []reader {
	return []reader{
		{"duckdb", func(p string, ex map[string]string) (*peers.Table, error) { return peers.ReadDuckDBFile(db, p, ex) }},
		{"arrow-go", peers.ReadArrowWith},
		{"parquet-go", func(p string, ex map[string]string) (*peers.Table, error) {
			if len(ex) > 0 {
				return nil, fmt.Errorf("parquet-go reader cannot leave columns out")
			}
			return peers.ReadParquetGo(p)
		}},
	}
}

func openDuckDB(t *testing.T) *sql.DB {
	db, err := peers.OpenDuckDB(1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func cellName(parts ...string) string { return strings.Join(parts, "/") }

func tempPath(t *testing.T, name string) string {
	return filepath.Join(t.TempDir(), strings.ReplaceAll(name, "/", "_")+".parquet")
}

// truncateMicros returns want with the timestamps of the named columns
// truncated to microseconds toward zero.
func truncateMicros(t *testing.T, want *peers.Table, cols map[string]string) *peers.Table {
	if len(cols) == 0 {
		return want
	}
	out := &peers.Table{Columns: want.Columns, Types: want.Types}
	for _, row := range want.Rows {
		out.Rows = append(out.Rows, append([]string(nil), row...))
	}
	for c, name := range want.Columns {
		if cols[name] == "" {
			continue
		}
		t.Logf("column %s compared at microseconds: %s", name, cols[name])
		for _, row := range out.Rows {
			if row[c] == "null" {
				continue
			}
			tm, err := time.Parse(time.RFC3339Nano, row[c])
			if err != nil {
				t.Fatalf("column %s: %v", name, err)
			}
			row[c] = canon.Time(time.UnixMicro(tm.UnixNano() / 1000))
		}
	}
	return out
}
