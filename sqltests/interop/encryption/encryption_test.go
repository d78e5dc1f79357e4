// Package encryption checks Parquet Modular Encryption between carquet
// and arrow-go (a port of Arrow C++'s implementation): files each writes
// encrypted, in every mode, the other reads with the keys.
package encryption

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

const rows = 3000

var (
	footerKey = "footer-key-16byt"
	idKey     = "id-column-key-16"
	nameKey   = "name-column-key-24bytes!"
)

func nameOf(i int) any {
	if i%7 == 0 {
		return nil
	}
	return fmt.Sprintf("name-%d", i%50)
}

// mode is one way of encrypting, as both writers spell it.
type mode struct {
	name                 string
	ctr, plaintextFooter bool
	columnKeys           bool // id and name with their own keys, value with the footer key's
	aadPrefix            string
	storePrefix          bool
}

var modes = []mode{
	{name: "uniform-gcm"},
	{name: "uniform-ctr", ctr: true},
	{name: "columns-gcm", columnKeys: true},
	{name: "columns-ctr-plaintext-footer", ctr: true, plaintextFooter: true, columnKeys: true},
	{name: "uniform-plaintext-footer", plaintextFooter: true},
	{name: "columns-aad-stored", columnKeys: true, aadPrefix: "table/part-0", storePrefix: true},
	{name: "columns-aad-supplied", columnKeys: true, aadPrefix: "table/part-1"},
}

func (m mode) carquetEncryption() writer.Encryption {
	e := writer.Encryption{FooterKey: []byte(footerKey), FooterKeyMetadata: []byte("kf"), PlaintextFooter: m.plaintextFooter,
		AADPrefix: []byte(m.aadPrefix), DontStoreAADPrefix: m.aadPrefix != "" && !m.storePrefix}
	if m.aadPrefix == "" {
		e.AADPrefix = nil
	}
	if m.ctr {
		e.Algorithm = writer.AesGcmCtr
	}
	if m.columnKeys {
		e.ColumnKeys = map[string]writer.ColumnKey{
			"id":    {Key: []byte(idKey), KeyMetadata: []byte("kid")},
			"name":  {Key: []byte(nameKey), KeyMetadata: []byte("kname")},
			"value": {},
		}
	}
	return e
}

func (m mode) carquetDecryption() *file.Decryption {
	d := &file.Decryption{FooterKey: []byte(footerKey)}
	if m.columnKeys {
		d.ColumnKeys = map[string][]byte{"id": []byte(idKey), "name": []byte(nameKey)}
	}
	if m.aadPrefix != "" && !m.storePrefix {
		d.AADPrefix = []byte(m.aadPrefix)
	}
	return d
}

func (m mode) arrowEncryption() *parquet.FileEncryptionProperties {
	opts := []parquet.EncryptOption{parquet.WithFooterKeyMetadata("kf")}
	if m.ctr {
		opts = append(opts, parquet.WithAlg(parquet.AesCtr))
	}
	if m.plaintextFooter {
		opts = append(opts, parquet.WithPlaintextFooter())
	}
	if m.aadPrefix != "" {
		opts = append(opts, parquet.WithAadPrefix(m.aadPrefix))
		if !m.storePrefix {
			opts = append(opts, parquet.DisableAadPrefixStorage())
		}
	}
	if m.columnKeys {
		opts = append(opts, parquet.WithEncryptedColumns(parquet.ColumnPathToEncryptionPropsMap{
			"id":    parquet.NewColumnEncryptionProperties("id", parquet.WithKey(idKey), parquet.WithKeyMetadata("kid")),
			"name":  parquet.NewColumnEncryptionProperties("name", parquet.WithKey(nameKey), parquet.WithKeyMetadata("kname")),
			"value": parquet.NewColumnEncryptionProperties("value"),
		}))
	}
	return parquet.NewFileEncryptionProperties(footerKey, opts...)
}

func (m mode) arrowDecryption() *parquet.FileDecryptionProperties {
	opts := []parquet.FileDecryptionOption{parquet.WithFooterKey(footerKey)}
	if m.columnKeys {
		opts = append(opts, parquet.WithColumnKeys(parquet.ColumnPathToDecryptionPropsMap{
			"id":   parquet.NewColumnDecryptionProperties("id", parquet.WithDecryptKey(idKey)),
			"name": parquet.NewColumnDecryptionProperties("name", parquet.WithDecryptKey(nameKey)),
		}))
	}
	if m.aadPrefix != "" && !m.storePrefix {
		opts = append(opts, parquet.WithDecryptAadPrefix(m.aadPrefix))
	}
	return parquet.NewFileDecryptionProperties(opts...)
}

// checkRows compares rows read (id, value, name) with what was written.
func checkRows(t *testing.T, who string, got [][3]any) {
	t.Helper()
	if len(got) != rows {
		t.Fatalf("%s read %d rows, want %d", who, len(got), rows)
	}
	for i, r := range got {
		want := [3]any{int64(i), float64(i) / 4, nameOf(i)}
		if r != want {
			t.Fatalf("%s: row %d = %v, want %v", who, i, r, want)
		}
	}
}

// TestCarquetWritesArrowReads: carquet writes encrypted files (several
// pages and row groups, dictionaries, page indexes, bloom filters), which
// arrow-go reads with the keys.
func TestCarquetWritesArrowReads(t *testing.T) {
	for _, m := range modes {
		for _, v := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/v%d", m.name, v), func(t *testing.T) {
				sch, err := writer.NewSchema(writer.Int64("id").Required(), writer.Double("value").Required(), writer.String("name"))
				if err != nil {
					t.Fatal(err)
				}
				var buf writer.Buffer
				w, err := writer.New(&buf, sch, writer.WithEncryption(m.carquetEncryption()), writer.WithDataPageVersion(v),
					writer.WithPageRowLimit(200), writer.WithRowGroupRows(1000), writer.WithCompression(format.Snappy),
					writer.WithBloomFilter(100, 0.01))
				if err != nil {
					t.Fatal(err)
				}
				for i := range rows {
					if err := w.WriteRow(int64(i), float64(i)/4, nameOf(i)); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				props := parquet.NewReaderProperties(memory.DefaultAllocator)
				props.FileDecryptProps = m.arrowDecryption()
				tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), props, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
				if err != nil {
					t.Fatalf("arrow-go reads carquet's file: %v", err)
				}
				defer tbl.Release()
				checkRows(t, "arrow-go", arrowRows(t, tbl))
			})
		}
	}
}

func arrowRows(t *testing.T, tbl arrow.Table) [][3]any {
	t.Helper()
	var out [][3]any
	tr := array.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	for tr.Next() {
		rec := tr.Record()
		ids := rec.Column(0).(*array.Int64)
		vals := rec.Column(1).(*array.Float64)
		names := rec.Column(2).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			var name any
			if !names.IsNull(i) {
				name = names.Value(i)
			}
			out = append(out, [3]any{ids.Value(i), vals.Value(i), name})
		}
	}
	return out
}

// TestArrowWritesCarquetReads: arrow-go writes encrypted files, which
// carquet reads with the keys, by rows and by page-index ranges.
func TestArrowWritesCarquetReads(t *testing.T) {
	for _, m := range modes {
		for _, v := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
			t.Run(fmt.Sprintf("%s/v%d", m.name, v+1), func(t *testing.T) {
				mem := memory.DefaultAllocator
				schema := arrow.NewSchema([]arrow.Field{
					{Name: "id", Type: arrow.PrimitiveTypes.Int64},
					{Name: "value", Type: arrow.PrimitiveTypes.Float64},
					{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
				}, nil)
				b := array.NewRecordBuilder(mem, schema)
				defer b.Release()
				for i := range rows {
					b.Field(0).(*array.Int64Builder).Append(int64(i))
					b.Field(1).(*array.Float64Builder).Append(float64(i) / 4)
					if n := nameOf(i); n == nil {
						b.Field(2).(*array.StringBuilder).AppendNull()
					} else {
						b.Field(2).(*array.StringBuilder).Append(n.(string))
					}
				}
				rec := b.NewRecord()
				defer rec.Release()
				tbl := array.NewTableFromRecords(schema, []arrow.Record{rec})
				defer tbl.Release()
				props := parquet.NewWriterProperties(parquet.WithEncryptionProperties(m.arrowEncryption()), parquet.WithDataPageVersion(v),
					parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageSize(2048), parquet.WithPageIndexEnabled(true),
					// arrow-go v18.9.0 crashes writing bloom filters of
					// files with column keys.
					parquet.WithBloomFilterEnabled(!m.columnKeys))
				var buf bytes.Buffer
				if err := pqarrow.WriteTable(tbl, &buf, 1000, props, pqarrow.DefaultWriterProps()); err != nil {
					t.Fatal(err)
				}
				data := buf.Bytes()
				for _, lazy := range []bool{false, true} {
					f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{Name: "arrow.parquet", Decryption: m.carquetDecryption(), LazyColumns: lazy})
					if err != nil {
						t.Fatalf("carquet opens arrow-go's file: %v", err)
					}
					checkRows(t, "carquet", carquetRows(t, f, nil))
					// Rows by ranges: pages sought through the offset index.
					got := carquetRows(t, f, map[int][]file.RowRange{0: {{Start: 10, End: 20}, {Start: 700, End: 990}}})
					if len(got) != 300 || got[0][0] != int64(10) || got[10][0] != int64(700) {
						t.Fatalf("ranges: %d rows, %v", len(got), got[:1])
					}
					// Every column's page indexes and bloom filter decrypt.
					for rg := range f.NumRowGroups() {
						for col := range f.Schema.Leaves {
							c, err := f.Chunk(rg, col)
							if err != nil {
								t.Fatal(err)
							}
							if _, err := c.ColumnIndex(); err != nil {
								t.Fatal(err)
							}
							if _, err := c.OffsetIndex(); err != nil {
								t.Fatal(err)
							}
							if _, err := c.BloomFilter(); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
			})
		}
	}
}

func carquetRows(t *testing.T, f *file.File, ranges map[int][]file.RowRange) [][3]any {
	t.Helper()
	opts := file.ReaderOptions{Ranges: ranges}
	if ranges != nil {
		opts.RowGroups = []int{0}
	}
	r, err := f.NewReader(opts)
	if err != nil {
		t.Fatal(err)
	}
	var out [][3]any
	for {
		b, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		ids, vals, names := b.Columns[0], b.Columns[1], b.Columns[2]
		for i := range b.NumRows {
			var name any
			if !names.IsNull(i) {
				name = string(names.Bytes(i))
			}
			out = append(out, [3]any{ids.Int64s[i], vals.Float64s[i], name})
		}
	}
}
