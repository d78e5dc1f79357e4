package bench

import (
	"context"
	"errors"
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
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	if err != nil {
		pf.Close()
		return nil, nil, err
	}
	return pf, fr, nil
}

func (a *arrowLib) read(path string, cols []int) (Result, error) {
	pf, fr, err := openArrow(path)
	if err != nil {
		return Result{}, err
	}
	defer pf.Close()
	rgs := make([]int, pf.NumRowGroups())
	for i := range rgs {
		rgs[i] = i
	}
	tbl, err := fr.ReadRowGroups(context.Background(), cols, rgs)
	if err != nil {
		return Result{}, err
	}
	defer tbl.Release()
	res := Result{Rows: tbl.NumRows()}
	for i := 0; i < int(tbl.NumCols()); i++ {
		if tbl.Column(i).Name() != "amount" {
			continue
		}
		for _, ch := range tbl.Column(i).Data().Chunks() {
			for _, v := range ch.(*array.Float64).Float64Values() {
				res.AmountSum += v
			}
		}
	}
	return res, nil
}

func (a *arrowLib) Read(path string) (Result, error) { return a.read(path, []int{0, 1, 2, 3, 4}) }

func (a *arrowLib) Column(path string) (Result, error) { return a.read(path, []int{3}) }

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
