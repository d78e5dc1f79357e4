package bench

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	pqfile "github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

type arrowLib struct {
	ev  *Events
	tbl arrow.Table
}

// NewArrow prepares arrow-go's in-memory columns (an arrow.Table) of the events.
func NewArrow(ev *Events) (Lib, error) {
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "user_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "category", Type: arrow.BinaryTypes.String},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	ts := b.Field(0).(*array.TimestampBuilder)
	ts.Reserve(ev.N)
	for _, v := range ev.TS {
		ts.UnsafeAppend(arrow.Timestamp(v))
	}
	b.Field(1).(*array.Int32Builder).AppendValues(ev.UserID, nil)
	cat := b.Field(2).(*array.StringBuilder)
	cat.Reserve(ev.N)
	for _, c := range ev.Category {
		cat.Append(Categories[c])
	}
	b.Field(3).(*array.Float64Builder).AppendValues(ev.Amount, nil)
	b.Field(4).(*array.BooleanBuilder).AppendValues(ev.Flag, nil)
	rec := b.NewRecord()
	defer rec.Release()
	return &arrowLib{ev: ev, tbl: array.NewTableFromRecords(schema, []arrow.Record{rec})}, nil
}

func (a *arrowLib) Name() string { return "arrow-go" }
func (a *arrowLib) Close() error {
	if a.tbl != nil {
		a.tbl.Release()
	}
	return nil
}

var arrowCodecs = map[string]compress.Compression{
	"none": compress.Codecs.Uncompressed, "snappy": compress.Codecs.Snappy, "zstd": compress.Codecs.Zstd,
	"gzip": compress.Codecs.Gzip, "lz4_raw": compress.Codecs.Lz4Raw,
}

func (a *arrowLib) Write(codec, path string) error {
	props := []parquet.WriterProperty{parquet.WithCompression(arrowCodecs[codec]), parquet.WithDictionaryDefault(true),
		parquet.WithStats(true), parquet.WithMaxRowGroupLength(RowGroupRows)}
	if codec == "zstd" {
		props = append(props, parquet.WithCompressionLevel(3))
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pqarrow.WriteTable(a.tbl, f, RowGroupRows, parquet.NewWriterProperties(props...), pqarrow.DefaultWriterProps()); err != nil {
		f.Close()
		return err
	}
	// WriteTable closes the file itself.
	if err := f.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		return err
	}
	return nil
}

func openArrow(path string) (*pqfile.Reader, *pqarrow.FileReader, error) {
	pf, err := pqfile.OpenParquetFile(path, false)
	if err != nil {
		return nil, nil, err
	}
	// Parallel false (the default): one goroutine, like every contender.
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10, Parallel: false}, memory.DefaultAllocator)
	if err != nil {
		pf.Close()
		return nil, nil, err
	}
	return pf, fr, nil
}

// ArrowLowLevel selects arrow-go's read path for the full and one-column
// reads: true is the low-level parquet/file column readers (typed
// ColumnChunkReader.ReadBatch), false is pqarrow.FileReader.ReadRowGroups
// into an arrow.Table. Both were measured (TestArrowPaths,
// BenchmarkArrowPaths); the suite uses the faster.
var ArrowLowLevel = true

// ArrowAPI names the path ArrowLowLevel selects, for the report.
func ArrowAPI() string {
	if ArrowLowLevel {
		return "parquet/file ColumnChunkReader.ReadBatch"
	}
	return "pqarrow FileReader.ReadRowGroups"
}

func (a *arrowLib) Read(path string) (Result, error) {
	if ArrowLowLevel {
		return arrowReadLow(path, false)
	}
	return arrowReadTable(path, false)
}

func (a *arrowLib) Column(path string) (Result, error) {
	if ArrowLowLevel {
		return arrowReadLow(path, true)
	}
	return arrowReadTable(path, true)
}

// arrowReadTable reads every column (or amount only) of every row group
// into an arrow.Table with pqarrow and computes the Result from it.
func arrowReadTable(path string, amountOnly bool) (Result, error) {
	pf, fr, err := openArrow(path)
	if err != nil {
		return Result{}, err
	}
	defer pf.Close()
	rgs := make([]int, pf.NumRowGroups())
	for i := range rgs {
		rgs[i] = i
	}
	cols := []int{0, 1, 2, 3, 4}
	if amountOnly {
		cols = []int{3}
	}
	tbl, err := fr.ReadRowGroups(context.Background(), cols, rgs)
	if err != nil {
		return Result{}, err
	}
	defer tbl.Release()
	res := Result{Rows: tbl.NumRows()}
	for i := 0; i < int(tbl.NumCols()); i++ {
		for _, ch := range tbl.Column(i).Data().Chunks() {
			switch tbl.Column(i).Name() {
			case "ts":
				res.TSSum = sumInts(res.TSSum, ch.(*array.Timestamp).TimestampValues())
			case "user_id":
				res.UserSum = sumInts(res.UserSum, ch.(*array.Int32).Int32Values())
			case "category":
				off := ch.(*array.String).ValueOffsets()
				for j := 0; j+1 < len(off); j++ {
					res.CatBytes += int64(off[j+1] - off[j])
				}
			case "amount":
				res.AmountSum = sumFloats(res.AmountSum, ch.(*array.Float64).Float64Values())
			case "flag":
				bl := ch.(*array.Boolean)
				for j := 0; j < bl.Len(); j++ {
					if bl.Value(j) {
						res.Flags++
					}
				}
			}
		}
	}
	return res, nil
}

const arrowBatch = 8192

// arrowReadLow reads every column (or amount only) of every row group with
// the typed column chunk readers of parquet/file, batches of 8192 values:
// no arrow arrays are built; ByteArray values point into the page or the
// dictionary.
func arrowReadLow(path string, amountOnly bool) (Result, error) {
	pf, err := pqfile.OpenParquetFile(path, false)
	if err != nil {
		return Result{}, err
	}
	defer pf.Close()
	sc := pf.MetaData().Schema
	cols := []string{"ts", "user_id", "category", "amount", "flag"}
	if amountOnly {
		cols = []string{"amount"}
	}
	var res Result
	i64 := make([]int64, arrowBatch)
	i32 := make([]int32, arrowBatch)
	f64 := make([]float64, arrowBatch)
	bools := make([]bool, arrowBatch)
	bas := make([]parquet.ByteArray, arrowBatch)
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := pf.RowGroup(g)
		for _, name := range cols {
			ci := sc.ColumnIndexByName(name)
			if ci < 0 {
				return res, fmt.Errorf("no column %q", name)
			}
			cr, err := rg.Column(ci)
			if err != nil {
				return res, err
			}
			for cr.HasNext() {
				var n int
				switch r := cr.(type) {
				case *pqfile.Int64ColumnChunkReader:
					_, n, err = r.ReadBatch(arrowBatch, i64, nil, nil)
					res.TSSum = sumInts(res.TSSum, i64[:n])
				case *pqfile.Int32ColumnChunkReader:
					_, n, err = r.ReadBatch(arrowBatch, i32, nil, nil)
					res.UserSum = sumInts(res.UserSum, i32[:n])
				case *pqfile.ByteArrayColumnChunkReader:
					_, n, err = r.ReadBatch(arrowBatch, bas, nil, nil)
					for _, v := range bas[:n] {
						res.CatBytes += int64(len(v))
					}
				case *pqfile.Float64ColumnChunkReader:
					_, n, err = r.ReadBatch(arrowBatch, f64, nil, nil)
					res.AmountSum = sumFloats(res.AmountSum, f64[:n])
					res.Rows += int64(n)
				case *pqfile.BooleanColumnChunkReader:
					_, n, err = r.ReadBatch(arrowBatch, bools, nil, nil)
					res.Flags += countTrue(bools[:n])
				default:
					return res, fmt.Errorf("column %q: unexpected reader %T", name, cr)
				}
				if err != nil {
					return res, err
				}
				if n == 0 {
					break
				}
			}
			if err := cr.Err(); err != nil {
				return res, err
			}
			cr.Close()
		}
	}
	return res, nil
}

// Count reads the ts column of the row groups whose statistics allow a
// match (pqarrow has no predicate pushdown) and counts.
func (a *arrowLib) Count(path string, cutoff int64) (int64, error) {
	pf, fr, err := openArrow(path)
	if err != nil {
		return 0, err
	}
	defer pf.Close()
	var rgs []int
	for i := 0; i < pf.NumRowGroups(); i++ {
		cc, err := pf.MetaData().RowGroup(i).ColumnChunk(0)
		if err != nil {
			return 0, err
		}
		st, err := cc.Statistics()
		if err == nil && st != nil && st.HasMinMax() {
			if s, ok := st.(*metadata.Int64Statistics); ok && s.Max() < cutoff {
				continue
			}
		}
		rgs = append(rgs, i)
	}
	if len(rgs) == 0 {
		return 0, nil
	}
	tbl, err := fr.ReadRowGroups(context.Background(), []int{0}, rgs)
	if err != nil {
		return 0, err
	}
	defer tbl.Release()
	var n int64
	for _, ch := range tbl.Column(0).Data().Chunks() {
		for _, v := range ch.(*array.Timestamp).TimestampValues() {
			if int64(v) >= cutoff {
				n++
			}
		}
	}
	return n, nil
}
