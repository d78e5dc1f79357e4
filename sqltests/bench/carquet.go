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
// same rows.
type Result struct {
	Rows      int64
	AmountSum float64
}

// Lib is one contender.
type Lib interface {
	Name() string
	// Write writes the events to path with the codec.
	Write(codec, path string) error
	// Read decodes every column of every row.
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

func (c *carquetLib) read(path string, cols []string) (Result, error) {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{Columns: cols})
	if err != nil {
		return Result{}, err
	}
	ai := len(r.Fields()) - 1
	for i, fl := range r.Fields() {
		if fl.Name == "amount" {
			ai = i
		}
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
		for _, a := range b.Columns[ai].Float64s[:b.NumRows] {
			res.AmountSum += a
		}
	}
}

func (c *carquetLib) Read(path string) (Result, error) { return c.read(path, nil) }

func (c *carquetLib) Column(path string) (Result, error) { return c.read(path, []string{"amount"}) }

func (c *carquetLib) Count(path string, cutoff int64) (int64, error) {
	t, err := scan.Open(path, scan.Options{})
	if err != nil {
		return 0, err
	}
	defer t.Close()
	s, err := t.Scan(context.Background(), scan.Request{Columns: []string{"ts"}, Threads: 1,
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
