package interop

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"testing"

	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/parquet-go/parquet-go"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"github.com/carquet-go/carquet/writer"
)

// parquetGoMaxColumns is the most leaf columns parquet-go opens.
const parquetGoMaxColumns = 65534

// TestFooterIndexReadByPeers writes files that carry carquet's footer index
// (the binary field 32767 of FileMetaData, docs/footer-index.md), checks
// that the field is there, and reads each file with DuckDB, arrow-go and
// parquet-go — readers that do not know the extension and must skip it —
// comparing every value with what was written.
func TestFooterIndexReadByPeers(t *testing.T) {
	db := openDuckDB(t)
	for _, c := range []struct{ cols, rowGroups int }{{3, 4}, {1000, 3}, {100000, 1}} {
		name := fmt.Sprintf("%d columns x %d row groups", c.cols, c.rowGroups)
		t.Run(name, func(t *testing.T) {
			if c.cols > 1000 && testing.Short() {
				t.Skip("wide file: not in -short")
			}
			path := tempPath(t, name)
			want := writeWide(t, path, c.cols, c.rowGroups)
			checkFooterIndex(t, path, c.cols, c.rowGroups)
			got, err := peers.ReadCarquet(path)
			if err != nil {
				t.Fatalf("carquet: %v", err)
			}
			compareTables(t, "written", want, "carquet", got, nil)
			if c.cols > 1000 {
				// The peers' whole-table readers take many minutes over
				// 100,000 columns (DuckDB to bind a SELECT naming them all,
				// arrow-go to build the Arrow schema): each peer opens the
				// file and reads its first, middle and last columns.
				readWideByPeers(t, db, path, want)
				return
			}
			for _, r := range peerReaders(db) {
				t.Run(r.name, func(t *testing.T) {
					got, err := r.read(path, nil)
					if err != nil && r.name == "parquet-go" && c.cols > parquetGoMaxColumns {
						t.Skipf("parquet-go opens at most %d columns: %v", parquetGoMaxColumns, firstLine(err))
					}
					if err != nil {
						t.Fatalf("%s: %v", r.name, firstLine(err))
					}
					compareTables(t, "written", want, r.name, got, nil)
				})
			}
		})
	}
}

// writeWide writes cols INT64 columns (every third one optional, with
// nulls) in rowGroups row groups of two rows, with the footer index, and
// returns the values written.
func writeWide(t *testing.T, path string, cols, rowGroups int) *peers.Table {
	t.Helper()
	fields := make([]writer.Field, cols)
	want := &peers.Table{}
	for i := range fields {
		name := fmt.Sprintf("c%06d", i)
		fields[i] = writer.Int64(name)
		if i%3 != 0 {
			fields[i] = fields[i].Required()
		}
		want.Columns = append(want.Columns, name)
		want.Types = append(want.Types, "written INT64")
	}
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.Create(path, sch, writer.WithFooterIndex(true), writer.WithRowGroupRows(2))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]any, 2*rowGroups)
	for r := range rows {
		rows[r] = make([]any, cols)
		cells := make([]string, cols)
		for i := range cols {
			if i%3 == 0 && (r+i)%2 == 0 {
				cells[i] = "null"
				continue
			}
			v := int64(r*cols+i) - 7
			rows[r][i] = v
			cells[i] = strconv.FormatInt(v, 10)
		}
		want.Rows = append(want.Rows, cells)
	}
	if err := w.WriteRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return want
}

// checkFooterIndex checks that the file's footer ends with the extension
// field as BinaryProtocolExtensions.md lays it out (header 08 FF FF 01,
// ULEB128 length, the bytes, FileMetaData's stop byte) and that it is a
// footer index covering every column chunk.
func checkFooterIndex(t *testing.T, path string, cols, rowGroups int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	footer := b[len(b)-8-n : len(b)-8]
	var fm format.FileMetaData
	if _, err := format.Unmarshal(footer, &fm); err != nil {
		t.Fatal(err)
	}
	if fm.Extension == nil {
		t.Fatal("footer has no field 32767")
	}
	length := binary.AppendUvarint(nil, uint64(len(fm.Extension)))
	head := append([]byte{0x08, 0xff, 0xff, 0x01}, length...)
	end := len(footer) - 1
	if start := end - len(fm.Extension); start < len(head) || !bytes.Equal(footer[start-len(head):start], head) ||
		!bytes.Equal(footer[start:end], fm.Extension) || footer[end] != 0 {
		t.Fatal("field 32767 is not laid out as BinaryProtocolExtensions.md says, at the end of the footer")
	}
	x, err := format.ParseFooterIndex(footer)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Verify(); err != nil {
		t.Fatal(err)
	}
	if r, c := x.Size(); r != rowGroups || c != cols || len(fm.RowGroups) != rowGroups {
		t.Fatalf("index covers %d×%d chunks, the file has %d row groups × %d columns", r, c, len(fm.RowGroups), cols)
	}
	for rg := range rowGroups {
		for _, col := range []int{0, cols / 2, cols - 1} {
			var cc format.ColumnChunk
			if err := x.ColumnChunk(rg, col, &cc); err != nil {
				t.Fatal(err)
			}
			if got, want := format.Marshal(nil, &cc), format.Marshal(nil, &fm.RowGroups[rg].Columns[col]); !bytes.Equal(got, want) {
				t.Fatalf("chunk (%d, %d) through the index differs from the full decode", rg, col)
			}
		}
	}
}

// readWideByPeers reads the first, middle and last columns of a wide file
// with each peer.
func readWideByPeers(t *testing.T, db *sql.DB, path string, want *peers.Table) {
	n := len(want.Columns)
	idx := []int{0, n / 2, n - 1}
	cols := []string{want.Columns[idx[0]], want.Columns[idx[1]], want.Columns[idx[2]]}
	sub := project(want, cols)
	t.Run("duckdb", func(t *testing.T) {
		got, err := peers.ReadDuckDB(db, fmt.Sprintf(`SELECT %q, %q, %q FROM read_parquet('%s')`, cols[0], cols[1], cols[2], path))
		if err != nil {
			t.Fatalf("duckdb: %v", firstLine(err))
		}
		compareTables(t, "written", sub, "duckdb", got, nil)
	})
	t.Run("arrow-go", func(t *testing.T) {
		rdr, err := pqfile.OpenParquetFile(path, false)
		if err != nil {
			t.Fatalf("arrow-go: %v", firstLine(err))
		}
		defer rdr.Close()
		if got := rdr.MetaData().Schema.NumColumns(); got != n {
			t.Fatalf("arrow-go sees %d columns, %d written", got, n)
		}
		got := &peers.Table{Columns: cols, Types: []string{"INT64", "INT64", "INT64"}}
		for rg := 0; rg < rdr.NumRowGroups(); rg++ {
			rgr := rdr.RowGroup(rg)
			rows := int(rgr.NumRows())
			cells := make([][]string, rows)
			for r := range cells {
				cells[r] = make([]string, len(idx))
			}
			for k, ci := range idx {
				cr, err := rgr.Column(ci)
				if err != nil {
					t.Fatal(err)
				}
				ir, ok := cr.(*pqfile.Int64ColumnChunkReader)
				if !ok {
					t.Fatalf("column %d: %T", ci, cr)
				}
				vals, defs := make([]int64, rows), make([]int16, rows)
				_, nv, err := ir.ReadBatch(int64(rows), vals, defs, nil)
				if err != nil {
					t.Fatal(err)
				}
				maxDef := rdr.MetaData().Schema.Column(ci).MaxDefinitionLevel()
				v := 0
				for r := 0; r < rows; r++ {
					if maxDef > 0 && defs[r] < maxDef {
						cells[r][k] = "null"
						continue
					}
					cells[r][k] = strconv.FormatInt(vals[v], 10)
					v++
				}
				if v != nv {
					t.Fatalf("column %d: %d values for %d present", ci, nv, v)
				}
			}
			got.Rows = append(got.Rows, cells...)
		}
		compareTables(t, "written", sub, "arrow-go", got, nil)
	})
	t.Run("parquet-go", func(t *testing.T) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil && n > parquetGoMaxColumns {
			t.Skipf("parquet-go opens at most %d columns: %v", parquetGoMaxColumns, firstLine(err))
		}
		if err != nil {
			t.Fatalf("parquet-go: %v", firstLine(err))
		}
		if got := len(pf.Schema().Columns()); got != n || pf.NumRows() != int64(len(want.Rows)) {
			t.Fatalf("parquet-go sees %d columns and %d rows, %d and %d written", got, pf.NumRows(), n, len(want.Rows))
		}
	})
}

// project returns the named columns of tbl.
func project(tbl *peers.Table, cols []string) *peers.Table {
	out := &peers.Table{Columns: cols}
	idx := make([]int, len(cols))
	for i, name := range cols {
		for j, c := range tbl.Columns {
			if c == name {
				idx[i] = j
				out.Types = append(out.Types, tbl.Types[j])
			}
		}
	}
	for _, row := range tbl.Rows {
		r := make([]string, len(cols))
		for i, j := range idx {
			r[i] = row[j]
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}
