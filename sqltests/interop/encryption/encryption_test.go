// Package encryption checks Parquet Modular Encryption between carquet
// and arrow-go (a port of Arrow C++'s implementation): files each writes
// encrypted, in every mode (GCM and GCM_CTR, encrypted and plaintext
// footers, per-column keys with a plaintext column, AAD prefixes stored
// and supplied), with a column of every physical type, the other reads
// with the keys, value for value.
package encryption

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

const rows = 3000

var (
	footerKey = "footer-key-16byt"
	idKey     = "id-column-key-16"
	nameKey   = "name-column-key-24bytes!"
)

// column is one column of the test table, which has one of each Parquet
// physical type (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY twice: strings and
// binary; decimals and fixed binary), all but id with nulls.
type column struct {
	name    string
	carquet writer.Field
	arrow   arrow.DataType
	// key is the column's own key in the column-key modes: "" encrypts it
	// with the footer key, plaintext leaves it unencrypted.
	key       string
	plaintext bool
	// value is row i's value as the tests compare it (nil for NULL):
	// bool, int32, int64, float32, float64, string (text and bytes), and
	// int64 for INT96 (nanoseconds since the epoch) and decimals
	// (unscaled).
	value func(i int) any
}

var epoch96 = time.Date(1938, 4, 24, 22, 13, 20, 123456789, time.UTC)

var columns = []column{
	{name: "id", carquet: writer.Int64("id").Required(), arrow: arrow.PrimitiveTypes.Int64, key: idKey,
		value: func(i int) any { return int64(i) }},
	{name: "flag", carquet: writer.Bool("flag"), arrow: arrow.FixedWidthTypes.Boolean, plaintext: true,
		value: func(i int) any { return nullOr(i, 11, 3, i%3 == 0) }},
	{name: "i32", carquet: writer.Int32("i32"), arrow: arrow.PrimitiveTypes.Int32, key: idKey,
		value: func(i int) any { return nullOr(i, 5, 1, int32(i*7919-1_000_000)) }},
	// INT96 timestamps from 1938 to 2055, to the nanosecond: days before
	// and after the epoch, and nanoseconds of the day.
	{name: "ts", carquet: writer.Int96("ts"), arrow: arrow.FixedWidthTypes.Timestamp_ns,
		value: func(i int) any { return nullOr(i, 13, 2, epoch96.UnixNano()+int64(i)*1_234_567_890_123) }},
	{name: "f", carquet: writer.Float("f"), arrow: arrow.PrimitiveTypes.Float32, key: nameKey,
		value: func(i int) any { return nullOr(i, 9, 4, float32(i)/3-100) }},
	{name: "value", carquet: writer.Double("value"), arrow: arrow.PrimitiveTypes.Float64,
		value: func(i int) any { return nullOr(i, 8, 6, float64(i)/4-1e9) }},
	{name: "name", carquet: writer.String("name"), arrow: arrow.BinaryTypes.String, key: nameKey,
		value: func(i int) any { return nullOr(i, 7, 0, fmt.Sprintf("name-%d", i%50)) }},
	// Binary values of 0 to 4 bytes, zero bytes and 0xff among them.
	{name: "blob", carquet: writer.Binary("blob"), arrow: arrow.BinaryTypes.Binary,
		value: func(i int) any { return nullOr(i, 6, 5, string([]byte{byte(i), 0, byte(i >> 8), 0xff}[:i%5])) }},
	{name: "dec", carquet: writer.DecimalAs("dec", 20, 2, format.FixedLenByteArray, 9), arrow: &arrow.Decimal128Type{Precision: 20, Scale: 2}, key: idKey,
		value: func(i int) any { return nullOr(i, 12, 7, int64(i-1500)*1_000_000_007) }},
	{name: "fx", carquet: writer.FixedLen("fx", 16), arrow: &arrow.FixedSizeBinaryType{ByteWidth: 16},
		value: func(i int) any {
			return nullOr(i, 14, 0, fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15))
		}},
}

// nullOr is v, or NULL on the rows i where i%m == r.
func nullOr(i, m, r int, v any) any {
	if i%m == r {
		return nil
	}
	return v
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
		e.ColumnKeys = map[string]writer.ColumnKey{}
		for _, c := range columns {
			switch {
			case c.plaintext:
			case c.key == "":
				e.ColumnKeys[c.name] = writer.ColumnKey{}
			default:
				e.ColumnKeys[c.name] = writer.ColumnKey{Key: []byte(c.key), KeyMetadata: []byte("k" + c.name)}
			}
		}
	}
	return e
}

func (m mode) carquetDecryption() *file.Decryption {
	d := &file.Decryption{FooterKey: []byte(footerKey)}
	if m.columnKeys {
		d.ColumnKeys = map[string][]byte{}
		for _, c := range columns {
			if c.key != "" {
				d.ColumnKeys[c.name] = []byte(c.key)
			}
		}
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
		cols := parquet.ColumnPathToEncryptionPropsMap{}
		for _, c := range columns {
			switch {
			case c.plaintext:
			case c.key == "":
				cols[c.name] = parquet.NewColumnEncryptionProperties(c.name)
			default:
				cols[c.name] = parquet.NewColumnEncryptionProperties(c.name, parquet.WithKey(c.key), parquet.WithKeyMetadata("k"+c.name))
			}
		}
		opts = append(opts, parquet.WithEncryptedColumns(cols))
	}
	return parquet.NewFileEncryptionProperties(footerKey, opts...)
}

func (m mode) arrowDecryption() *parquet.FileDecryptionProperties {
	opts := []parquet.FileDecryptionOption{parquet.WithFooterKey(footerKey)}
	if m.columnKeys {
		cols := parquet.ColumnPathToDecryptionPropsMap{}
		for _, c := range columns {
			if c.key != "" {
				cols[c.name] = parquet.NewColumnDecryptionProperties(c.name, parquet.WithDecryptKey(c.key))
			}
		}
		opts = append(opts, parquet.WithColumnKeys(cols))
	}
	if m.aadPrefix != "" && !m.storePrefix {
		opts = append(opts, parquet.WithDecryptAadPrefix(m.aadPrefix))
	}
	return parquet.NewFileDecryptionProperties(opts...)
}

// checkRows compares rows read with what was written, value by value.
func checkRows(t *testing.T, who string, got [][]any) {
	t.Helper()
	if len(got) != rows {
		t.Fatalf("%s read %d rows, want %d", who, len(got), rows)
	}
	for i, r := range got {
		for j, c := range columns {
			if want := c.value(i); r[j] != want {
				t.Fatalf("%s: row %d, column %s = %#v, want %#v", who, i, c.name, r[j], want)
			}
		}
	}
}

// carquetRow is row i as carquet's writer takes it.
func carquetRow(i int) []any {
	row := make([]any, len(columns))
	for j, c := range columns {
		v := c.value(i)
		switch {
		case v == nil:
		case c.name == "ts":
			row[j] = time.Unix(0, v.(int64)).UTC()
		case c.name == "dec":
			row[j] = value.DecimalFromInt64(v.(int64), 2)
		case c.name == "blob" || c.name == "fx":
			row[j] = []byte(v.(string))
		default:
			row[j] = v
		}
	}
	return row
}

// TestCarquetWritesArrowReads: carquet writes encrypted files (several
// pages and row groups, dictionaries, page indexes, bloom filters), which
// arrow-go reads with the keys.
func TestCarquetWritesArrowReads(t *testing.T) {
	for _, m := range modes {
		for _, v := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/v%d", m.name, v), func(t *testing.T) {
				var fields []writer.Field
				for _, c := range columns {
					fields = append(fields, c.carquet)
				}
				sch, err := writer.NewSchema(fields...)
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
					if err := w.WriteRow(carquetRow(i)...); err != nil {
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

func arrowRows(t *testing.T, tbl arrow.Table) [][]any {
	t.Helper()
	var out [][]any
	tr := array.NewTableReader(tbl, 1<<20)
	defer tr.Release()
	for tr.Next() {
		rec := tr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]any, len(columns))
			for j := range columns {
				row[j] = arrowValue(t, rec.Column(j), i)
			}
			out = append(out, row)
		}
	}
	return out
}

// arrowValue is value i of a as checkRows compares it.
func arrowValue(t *testing.T, a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Timestamp:
		if u := a.DataType().(*arrow.TimestampType).Unit; u != arrow.Nanosecond {
			t.Fatalf("INT96 read as a timestamp in %s", u)
		}
		return int64(a.Value(i))
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return string(a.Value(i))
	case *array.Decimal128:
		d := a.Value(i)
		if !d.FitsInPrecision(18) {
			t.Fatalf("decimal %v out of the test's range", d)
		}
		return int64(d.LowBits())
	case *array.FixedSizeBinary:
		return string(a.Value(i))
	}
	t.Fatalf("unexpected Arrow array %s", a.DataType())
	return nil
}

// TestArrowWritesCarquetReads: arrow-go writes encrypted files, which
// carquet reads with the keys, by rows and by page-index ranges.
func TestArrowWritesCarquetReads(t *testing.T) {
	for _, m := range modes {
		for _, v := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
			t.Run(fmt.Sprintf("%s/v%d", m.name, v+1), func(t *testing.T) {
				mem := memory.DefaultAllocator
				var fields []arrow.Field
				for _, c := range columns {
					fields = append(fields, arrow.Field{Name: c.name, Type: c.arrow, Nullable: c.name != "id"})
				}
				schema := arrow.NewSchema(fields, nil)
				b := array.NewRecordBuilder(mem, schema)
				defer b.Release()
				for i := range rows {
					for j, c := range columns {
						appendArrow(b.Field(j), c.value(i))
					}
				}
				rec := b.NewRecordBatch()
				defer rec.Release()
				tbl := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
				defer tbl.Release()
				props := parquet.NewWriterProperties(parquet.WithEncryptionProperties(m.arrowEncryption()), parquet.WithDataPageVersion(v),
					parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageSize(2048), parquet.WithPageIndexEnabled(true),
					// arrow-go v18.9.0 crashes writing bloom filters of
					// files with column keys.
					parquet.WithBloomFilterEnabled(!m.columnKeys))
				var buf bytes.Buffer
				// INT96 for timestamps, as Spark and Impala write them.
				aprops := pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(true))
				if err := pqarrow.WriteTable(tbl, &buf, 1000, props, aprops); err != nil {
					t.Fatal(err)
				}
				data := buf.Bytes()
				if m.plaintextFooter && m.columnKeys {
					checkWithoutKeys(t, data)
				}
				for _, lazy := range []bool{false, true} {
					f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{Name: "arrow.parquet", Decryption: m.carquetDecryption(), LazyColumns: lazy})
					if err != nil {
						t.Fatalf("carquet opens arrow-go's file: %v", err)
					}
					checkRows(t, "carquet", carquetRows(t, f, nil))
					// Rows by ranges: pages sought through the offset index.
					got := carquetRows(t, f, map[int][]file.RowRange{0: {{Start: 10, End: 20}, {Start: 700, End: 990}}})
					if len(got) != 300 || got[0][0] != int64(10) || got[10][0] != int64(700) || got[299][0] != int64(989) {
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

func carquetRows(t *testing.T, f *file.File, ranges map[int][]file.RowRange) [][]any {
	t.Helper()
	opts := file.ReaderOptions{Ranges: ranges}
	if ranges != nil {
		opts.RowGroups = []int{0}
	}
	r, err := f.NewReader(opts)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for {
		b, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.NumRows {
			row := make([]any, len(columns))
			for j, c := range columns {
				row[j] = carquetValue(c, b.Columns[j], i)
			}
			out = append(out, row)
		}
	}
}

// carquetValue is slot i of v, column c's, as checkRows compares it.
func carquetValue(c column, v *vector.Vector, i int) any {
	if v.IsNull(i) {
		return nil
	}
	switch v.Kind {
	case vector.Bool:
		return v.Bools[i]
	case vector.Int32:
		return v.Int32s[i]
	case vector.Int64:
		return v.Int64s[i]
	case vector.Int96:
		return int96Nanos(v.Int96s[i])
	case vector.Float32:
		return v.Float32s[i]
	case vector.Float64:
		return v.Float64s[i]
	case vector.FixedLenByteArray:
		if c.name == "dec" {
			return unscaled(v.Bytes(i))
		}
	}
	return string(v.Bytes(i))
}

// int96Nanos reads an INT96 timestamp (nanoseconds of the day, then the
// Julian day, little-endian) as nanoseconds since the epoch.
func int96Nanos(b [12]byte) int64 {
	const unixJulianDay = 2_440_588
	nanos := int64(binary.LittleEndian.Uint64(b[:8]))
	day := int64(binary.LittleEndian.Uint32(b[8:]))
	return (day-unixJulianDay)*86_400_000_000_000 + nanos
}

// unscaled reads a big-endian two's complement decimal of up to 8
// significant bytes (wider ones sign-extended, as the test's values are).
func unscaled(b []byte) int64 {
	var x [8]byte
	if len(b) > 0 && b[0]&0x80 != 0 {
		x = [8]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	}
	copy(x[8-min(len(b), 8):], b[max(len(b)-8, 0):])
	return int64(binary.BigEndian.Uint64(x[:]))
}

// appendArrow appends v (as column.value gives it) to an Arrow builder.
func appendArrow(b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(v.(bool))
	case *array.Int32Builder:
		b.Append(v.(int32))
	case *array.Int64Builder:
		b.Append(v.(int64))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(v.(int64)))
	case *array.Float32Builder:
		b.Append(v.(float32))
	case *array.Float64Builder:
		b.Append(v.(float64))
	case *array.StringBuilder:
		b.Append(v.(string))
	case *array.BinaryBuilder:
		b.Append([]byte(v.(string)))
	case *array.Decimal128Builder:
		b.Append(decimal128.FromI64(v.(int64)))
	case *array.FixedSizeBinaryBuilder:
		b.Append([]byte(v.(string)))
	default:
		panic(fmt.Sprintf("no case for %T", b))
	}
}

// checkWithoutKeys reads a file with a plaintext footer and a plaintext
// column without any key: the plaintext column reads, an encrypted one
// fails naming itself.
func checkWithoutKeys(t *testing.T, data []byte) {
	t.Helper()
	f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{Name: "arrow.parquet"})
	if err != nil {
		t.Fatalf("carquet opens the plaintext footer without keys: %v", err)
	}
	r, err := f.NewReader(file.ReaderOptions{Columns: []string{"flag"}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("plaintext column without keys: %v", err)
		}
		for i := range b.NumRows {
			if got, want := carquetValue(columns[1], b.Columns[0], i), columns[1].value(n); got != want {
				t.Fatalf("flag, row %d = %v, want %v", n, got, want)
			}
			n++
		}
	}
	if n != rows {
		t.Fatalf("read %d rows of flag", n)
	}
	r, err = f.NewReader(file.ReaderOptions{Columns: []string{"dec"}})
	if err == nil {
		_, err = r.Next()
	}
	if !errors.Is(err, file.ErrEncrypted) || !strings.Contains(err.Error(), "dec") {
		t.Fatalf("encrypted column without its key: %v, want ErrEncrypted naming dec", err)
	}
}
