package bench

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/writer"
)

// Result is what a read returns, to check that every library read the
// same rows and did the same work. Every contender computes the same
// figures with the same meaning: the one-column read fills Rows and
// AmountSum; the full read fills every field, so that every value of every
// column is decoded and looked at (DuckDB would otherwise skip the columns
// its query does not use).
type Result struct {
	Rows      int64
	AmountSum float64
	TSSum     int64 // sum of ts in microseconds, wrapping at 64 bits
	UserSum   int64 // sum of user_id
	CatBytes  int64 // sum of the byte lengths of category
	Flags     int64 // rows whose flag is true
}

// Lib is one contender.
type Lib interface {
	Name() string
	// Write writes the events to path with the codec.
	Write(codec, path string) error
	// Read decodes every column of every row and computes every field of
	// Result.
	Read(path string) (Result, error)
	// Column decodes only amount.
	Column(path string) (Result, error)
	// Count counts the rows with ts >= cutoff (microseconds), using what
	// pruning the library offers.
	Count(path string, cutoff int64) (int64, error)
	Close() error
}

type carquetLib struct {
	ev   *Events
	sch  *schema.Schema
	cols []*vector.Vector
}

// NewCarquet prepares carquet's in-memory columns (vectors) of the events.
func NewCarquet(ev *Events) (Lib, error) {
	sch, err := writer.NewSchema(
		writer.Timestamp("ts", writer.Micros, true).Required(),
		writer.Int32("user_id").Required(),
		writer.String("category").Required(),
		writer.Double("amount").Required(),
		writer.Bool("flag").Required(),
	)
	if err != nil {
		return nil, err
	}
	n := ev.N
	cat := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: make([]int32, 1, n+1)}
	for _, c := range ev.Category {
		cat.Data = append(cat.Data, Categories[c]...)
		cat.Offsets = append(cat.Offsets, int32(len(cat.Data)))
	}
	cols := []*vector.Vector{
		{Kind: vector.Int64, Len: n, Int64s: ev.TS},
		{Kind: vector.Int32, Len: n, Int32s: ev.UserID},
		cat,
		{Kind: vector.Float64, Len: n, Float64s: ev.Amount},
		{Kind: vector.Bool, Len: n, Bools: ev.Flag},
	}
	return &carquetLib{ev: ev, sch: sch, cols: cols}, nil
}

func (c *carquetLib) Name() string { return "carquet" }
func (c *carquetLib) Close() error { return nil }

var carquetCodecs = map[string]format.CompressionCodec{
	"none": format.Uncompressed, "snappy": format.Snappy, "zstd": format.Zstd, "gzip": format.Gzip, "lz4_raw": format.LZ4Raw,
}

func (c *carquetLib) Write(codec, path string) error {
	opts := []writer.Option{writer.WithCompression(carquetCodecs[codec]), writer.WithRowGroupRows(RowGroupRows),
		writer.WithDictionary(true), writer.WithStatistics(true)}
	if codec == "zstd" {
		opts = append(opts, writer.WithCompressionLevel(3))
	}
	// Like the peers, write straight to an os.File and leave flushing to
	// the disk to the kernel: writer.Create would also fsync the file and
	// its folder (it replaces path atomically and durably), which costs
	// more than encoding the table and which none of the peers does.
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := writer.New(f, c.sch, opts...)
	if err != nil {
		f.Close()
		return err
	}
	if err := w.WriteBatch(c.cols); err != nil {
		w.Abort()
		f.Close()
		return err
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// CarquetMmap makes carquet's reads (Read, Column, Count) go through a
// memory mapping of the file instead of plain reads (carquet-bench -mmap).
var CarquetMmap bool

// Read decodes every column with file.Reader (one goroutine, batches of
// the default size, mmap as CarquetMmap says), category as dictionary
// codes (ReaderOptions.Codes, its fastest form; plain pages come back as
// bytes).
func (c *carquetLib) Read(path string) (Result, error) { return readCarquet(path, CarquetMmap) }

// readCarquet is Read with or without mmap (BenchmarkMmapRead compares
// the two).
func readCarquet(path string, mmap bool) (Result, error) {
	f, err := file.OpenFile(path, file.Options{}, mmap)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{Codes: []string{"category"}})
	if err != nil {
		return Result{}, err
	}
	idx := map[string]int{}
	for i, fl := range r.Fields() {
		idx[fl.Name] = i
	}
	ti, ui, ci, ai, fi := idx["ts"], idx["user_id"], idx["category"], idx["amount"], idx["flag"]
	var res Result
	var dict *vector.Vector
	var dictLens []int64
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
		n := b.NumRows
		res.Rows += int64(n)
		res.TSSum = sumInts(res.TSSum, b.Columns[ti].Int64s[:n])
		res.UserSum = sumInts(res.UserSum, b.Columns[ui].Int32s[:n])
		if cat := b.Columns[ci]; cat.Dict != nil {
			if cat.Dict != dict {
				dict = cat.Dict
				dictLens = dictLens[:0]
				for i := 0; i < dict.Len; i++ {
					dictLens = append(dictLens, int64(dict.Offsets[i+1]-dict.Offsets[i]))
				}
			}
			for _, k := range cat.Codes[:n] {
				res.CatBytes += dictLens[k]
			}
		} else {
			off := cat.Offsets[:n+1]
			for i := 0; i < n; i++ {
				res.CatBytes += int64(off[i+1] - off[i])
			}
		}
		res.AmountSum = sumFloats(res.AmountSum, b.Columns[ai].Float64s[:n])
		res.Flags += countTrue(b.Columns[fi].Bools[:n])
	}
}

// Column decodes only amount with file.Reader.
func (c *carquetLib) Column(path string) (Result, error) {
	f, err := file.OpenFile(path, file.Options{}, CarquetMmap)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{Columns: []string{"amount"}})
	if err != nil {
		return Result{}, err
	}
	var res Result
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
		res.Rows += int64(b.NumRows)
		res.AmountSum = sumFloats(res.AmountSum, b.Columns[0].Float64s[:b.NumRows])
	}
}

// Count counts the rows with scan (row group and page pruning), asking
// for no column (Columns: []string{}, how COUNT(*) scans): the filter's
// column is decoded and compared, and no value is returned, as the peers
// count without returning values.
func (c *carquetLib) Count(path string, cutoff int64) (int64, error) {
	t, err := scan.Open(path, scan.Options{Mmap: CarquetMmap})
	if err != nil {
		return 0, err
	}
	defer t.Close()
	s, err := t.Scan(context.Background(), scan.Request{Columns: []string{}, Threads: 1,
		Filter: scan.Compare{Column: "ts", Op: scan.Ge, Value: time.UnixMicro(cutoff).UTC()}})
	if err != nil {
		return 0, err
	}
	defer s.Close()
	var n int64
	for {
		b, err := s.Next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n += int64(b.NumRows)
	}
}
