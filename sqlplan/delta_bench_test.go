package sqlplan

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/writer"
)

// deltaBenchTable writes a Delta table of files×rows rows over six
// columns, then a commit giving every file an on-disk deletion vector
// that removes one row.
func deltaBenchTable(b *testing.B, root string, files, rows int) {
	tb := deltatest.New(b, root)
	cols := []deltatest.Column{
		{Field: writer.Int64("id").Required(), Name: "id"},
		{Field: writer.Int64("a"), Name: "a"},
		{Field: writer.Double("x"), Name: "x"},
		{Field: writer.Double("y"), Name: "y"},
		{Field: writer.String("s"), Name: "s"},
		{Field: writer.Int32("k"), Name: "k"},
	}
	var adds []*deltatest.Add
	var bms []*dv.Bitmap
	for f := 0; f < files; f++ {
		data := make([][]any, rows)
		for r := range data {
			id := int64(f*rows + r)
			data[r] = []any{id, id % 1000, float64(id) * 0.25, float64(id%97) + 0.5, fmt.Sprintf("s%05d", id%20000), int32(id % 13)}
		}
		adds = append(adds, tb.DataFile(fmt.Sprintf("part-%05d.parquet", f), cols, data, nil))
		bm := dv.New()
		bm.Add(uint64((f * 37) % rows))
		bms = append(bms, bm)
	}
	schema := deltatest.Struct(
		deltatest.StructField("id", "long", false, nil), deltatest.StructField("a", "long", true, nil),
		deltatest.StructField("x", "double", true, nil), deltatest.StructField("y", "double", true, nil),
		deltatest.StructField("s", "string", true, nil), deltatest.StructField("k", "integer", true, nil))
	acts := []any{&deltatest.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}, WriterFeatures: []string{"deletionVectors"}},
		deltatest.NewMetaData(schema, nil, nil)}
	for _, a := range adds {
		acts = append(acts, a)
	}
	tb.Commit(acts...)
	tb.DeleteRows(adds, bms)
}

func drainCount(b *testing.B, e *Engine, q string) int {
	s, err := e.Prepare(q)
	if err != nil {
		b.Fatal(err)
	}
	rows, err := s.Query(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for {
		bt, err := rows.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n += bt.N
	}
}

// BenchmarkDelta compares a Delta table of 200 files with one deleted row
// each against a plain scan of the same Parquet files read as a glob
// (which sees the deleted rows too). first-row-cold opens a new engine
// every time (log replay, or listing and footers, included);
// the others reuse the engine's open table.
func BenchmarkDelta(b *testing.B) {
	const files, rows = 200, 5000
	dir := b.TempDir()
	deltaBenchTable(b, filepath.Join(dir, "d"), files, rows)
	tables := map[string]string{"delta": "d", "plain": "`d/*.parquet`"}
	for _, kind := range []string{"delta", "plain"} {
		tbl := tables[kind]
		b.Run("first-row-cold/"+kind, func(b *testing.B) {
			for b.Loop() {
				e, err := Open(dir, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if n := drainCount(b, e, "SELECT * FROM "+tbl+" LIMIT 1"); n != 1 {
					b.Fatalf("%d rows", n)
				}
				e.Close()
			}
		})
	}
	queries := []struct{ name, q string }{
		{"first-row-warm", "SELECT * FROM %s LIMIT 1"},
		{"full-scan", "SELECT * FROM %s"},
		{"projection", "SELECT id, x, s, k FROM %s"},
		{"filter", "SELECT id, s FROM %s WHERE a = 7"},
	}
	for _, qq := range queries {
		for _, kind := range []string{"delta", "plain"} {
			tbl := tables[kind]
			b.Run(qq.name+"/"+kind, func(b *testing.B) {
				e, err := Open(dir, Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				q := fmt.Sprintf(qq.q, tbl)
				want := drainCount(b, e, q)
				if qq.name == "full-scan" {
					live := files * (rows - 1)
					if kind == "plain" {
						live = files * rows
					}
					if want != live {
						b.Fatalf("%d rows, want %d", want, live)
					}
				}
				for b.Loop() {
					if n := drainCount(b, e, q); n != want {
						b.Fatalf("%d rows, want %d", n, want)
					}
				}
			})
		}
	}
}

// BenchmarkDeltaInsertPartitioned inserts 200,000 rows into a Delta table
// without partitions and into tables partitioned into 10 and 1,000
// partitions (one data file each): the cost of splitting rows by their
// partition values and of the many small files.
func BenchmarkDeltaInsertPartitioned(b *testing.B) {
	const rows = 200_000
	for _, parts := range []int{0, 10, 1000} {
		b.Run(fmt.Sprintf("partitions=%d", parts), func(b *testing.B) {
			e, err := Open(b.TempDir(), Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			ddl := "CREATE TABLE t (id BIGINT, p VARCHAR, x DOUBLE) USING delta"
			if parts > 0 {
				ddl += " PARTITIONED BY (p)"
			}
			run := func(q string) {
				s, err := e.Prepare(q)
				if err == nil {
					_, err = s.Exec(context.Background(), nil, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			run(ddl)
			mod := max(parts, 1)
			ins := fmt.Sprintf("INSERT INTO t SELECT range, 'p' || (range %% %d), range * 0.5 FROM range(%d)", mod, rows)
			b.SetBytes(rows * 8 * 3)
			for b.Loop() {
				run(ins)
			}
		})
	}
}
