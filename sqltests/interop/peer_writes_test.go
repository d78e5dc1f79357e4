package interop

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pq "github.com/parquet-go/parquet-go"
	pqbrotli "github.com/parquet-go/parquet-go/compress/brotli"
	pqgzip "github.com/parquet-go/parquet-go/compress/gzip"
	pqlz4 "github.com/parquet-go/parquet-go/compress/lz4"
	pqsnappy "github.com/parquet-go/parquet-go/compress/snappy"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"github.com/carquet-go/carquet/sqltests/internal/tables"
)

// peerCodecs are the codecs every peer writes (LZ4 with Hadoop framing is
// written by none of them).
var peerCodecs = []string{"none", "snappy", "gzip", "zstd", "lz4_raw", "brotli"}

// source writes a table with carquet (PLAIN, uncompressed): the peers read
// it and write it again with their own writers.
func source(t *testing.T, tbl *tables.Table) string {
	path := tempPath(t, "source_"+tbl.Name)
	writeCarquet(t, path, tbl, codecs[0], "plain", 1)
	return path
}

// checkCarquetReads reads a peer-written file with carquet and compares
// it with the writer's own reading of it.
func checkCarquetReads(t *testing.T, path, writerName string, own *peers.Table, skip map[string]string) {
	t.Helper()
	got, err := peers.ReadCarquet(path)
	if err != nil {
		t.Fatalf("carquet reads the %s file: %v", writerName, err)
	}
	compareTables(t, writerName, own, "carquet", got, skip)
}

// duckdbWriteSkip are columns DuckDB's own reading renders differently
// from carquet's for a reason unrelated to the file (see ReadDuckDBFile).
func duckdbWriteSkip(tbl string) map[string]string {
	return nil
}

// TestDuckDBWrites: DuckDB COPY ... TO (FORMAT parquet) with each codec
// and PARQUET_VERSION V1 (data page v1) and V2 (data page v2 with DELTA
// and BYTE_STREAM_SPLIT encodings), read by carquet.
func TestDuckDBWrites(t *testing.T) {
	db := openDuckDB(t)
	for _, tbl := range allTables() {
		src := source(t, tbl)
		for _, c := range peerCodecs {
			for _, version := range []string{"V1", "V2"} {
				name := cellName(tbl.Name, c, version)
				t.Run(name, func(t *testing.T) {
					dst := tempPath(t, "duckdb_"+name)
					codec := map[string]string{"none": "uncompressed"}[c]
					if codec == "" {
						codec = c
					}
					rg := ""
					if tbl.Name == "many_row_groups" {
						rg = ", ROW_GROUP_SIZE 97"
					}
					q := fmt.Sprintf("COPY (SELECT * FROM read_parquet('%s')) TO '%s' (FORMAT parquet, COMPRESSION '%s', PARQUET_VERSION %s%s)", src, dst, codec, version, rg)
					if _, err := db.Exec(q); err != nil {
						t.Fatalf("DuckDB COPY: %v", err)
					}
					own, err := peers.ReadDuckDBFile(db, dst, nil)
					if err != nil {
						t.Fatalf("DuckDB reads its own file: %v", err)
					}
					checkCarquetReads(t, dst, "duckdb", own, duckdbWriteSkip(tbl.Name))
				})
			}
		}
	}
}

func arrowCodec(c string) compress.Compression {
	switch c {
	case "snappy":
		return compress.Codecs.Snappy
	case "gzip":
		return compress.Codecs.Gzip
	case "zstd":
		return compress.Codecs.Zstd
	case "lz4_raw":
		return compress.Codecs.Lz4Raw
	case "brotli":
		return compress.Codecs.Brotli
	}
	return compress.Codecs.Uncompressed
}

// TestArrowWrites: arrow-go's pqarrow.WriteTable with each codec, the
// dictionary on or off, DELTA/BYTE_STREAM_SPLIT encodings by column type,
// and data page v1/v2, read by carquet.
func TestArrowWrites(t *testing.T) {
	for _, tbl := range allTables() {
		src := source(t, tbl)
		at, err := peers.ReadArrowTable(src)
		if err != nil {
			t.Fatalf("arrow-go reads the source table %s: %v", tbl.Name, err)
		}
		defer at.Release()
		for _, c := range peerCodecs {
			for _, enc := range []string{"plain", "dict", "delta", "bss"} {
				for _, pv := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
					name := cellName(tbl.Name, c, enc, fmt.Sprintf("v%d", pv+1))
					t.Run(name, func(t *testing.T) {
						props := []parquet.WriterProperty{parquet.WithCompression(arrowCodec(c)), parquet.WithDataPageVersion(pv),
							parquet.WithDictionaryDefault(enc == "dict"), parquet.WithStats(true)}
						if tbl.Name == "many_row_groups" {
							props = append(props, parquet.WithMaxRowGroupLength(97), parquet.WithDataPageSize(256))
						}
						for i := 0; i < int(at.NumCols()); i++ {
							f := at.Schema().Field(i)
							switch enc {
							case "delta":
								switch {
								case strings.HasPrefix(f.Type.String(), "int32"), strings.HasPrefix(f.Type.String(), "int64"):
									props = append(props, parquet.WithEncodingFor(f.Name, parquet.Encodings.DeltaBinaryPacked))
								case f.Type.String() == "utf8", f.Type.String() == "binary":
									props = append(props, parquet.WithEncodingFor(f.Name, parquet.Encodings.DeltaByteArray))
								}
							case "bss":
								switch f.Type.String() {
								case "float32", "float64", "int32", "int64":
									props = append(props, parquet.WithEncodingFor(f.Name, parquet.Encodings.ByteStreamSplit))
								}
							}
						}
						dst := tempPath(t, "arrow_"+name)
						out, err := os.Create(dst)
						if err != nil {
							t.Fatal(err)
						}
						err = pqarrow.WriteTable(at, out, 1<<20, parquet.NewWriterProperties(props...), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
						out.Close()
						if err != nil {
							t.Fatalf("arrow-go writes: %v", err)
						}
						own, err := peers.ReadArrow(dst)
						if err != nil {
							t.Fatalf("arrow-go reads its own file: %v", err)
						}
						checkCarquetReads(t, dst, "arrow-go", own, nil)
					})
				}
			}
		}
	}
}

func parquetGoCodec(c string) pq.WriterOption {
	switch c {
	case "snappy":
		return pq.Compression(&pqsnappy.Codec{})
	case "gzip":
		return pq.Compression(&pqgzip.Codec{})
	case "zstd":
		return pq.Compression(&pqzstd.Codec{})
	case "lz4_raw":
		return pq.Compression(&pqlz4.Codec{})
	case "brotli":
		return pq.Compression(&pqbrotli.Codec{})
	}
	return pq.Compression(&pq.Uncompressed)
}

// TestParquetGoWrites: parquet-go copies the rows of the source file into
// a writer with the file's schema, each codec and data page v1/v2 (its
// default encodings: PLAIN, RLE for levels), read by carquet.
func TestParquetGoWrites(t *testing.T) {
	for _, tbl := range allTables() {
		src := source(t, tbl)
		for _, c := range peerCodecs {
			for _, pv := range []int{1, 2} {
				name := cellName(tbl.Name, c, fmt.Sprintf("v%d", pv))
				t.Run(name, func(t *testing.T) {
					in, err := os.Open(src)
					if err != nil {
						t.Fatal(err)
					}
					defer in.Close()
					st, _ := in.Stat()
					f, err := pq.OpenFile(in, st.Size())
					if err != nil {
						t.Fatal(err)
					}
					dst := tempPath(t, "parquetgo_"+name)
					out, err := os.Create(dst)
					if err != nil {
						t.Fatal(err)
					}
					opts := []pq.WriterOption{f.Schema(), parquetGoCodec(c), pq.DataPageVersion(pv)}
					if tbl.Name == "many_row_groups" {
						opts = append(opts, pq.MaxRowsPerRowGroup(97), pq.PageBufferSize(256))
					}
					w := pq.NewWriter(out, opts...)
					for _, rg := range f.RowGroups() {
						rows := rg.Rows()
						_, err := pq.CopyRows(w, rows)
						rows.Close()
						if err != nil {
							t.Fatalf("parquet-go copies rows: %v", err)
						}
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					out.Close()
					own, err := peers.ReadParquetGo(dst)
					if err != nil {
						t.Fatalf("parquet-go reads its own file: %v", err)
					}
					k := knownRead("parquet-go", tbl.Name, c, "plain", pv)
					checkCarquetReads(t, dst, "parquet-go", own, k.cols)
				})
			}
		}
	}
}
