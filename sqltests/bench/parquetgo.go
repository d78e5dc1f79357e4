package bench

import (
	"errors"
	"io"
	"os"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	pqgzip "github.com/parquet-go/parquet-go/compress/gzip"
	pqlz4 "github.com/parquet-go/parquet-go/compress/lz4"
	pqsnappy "github.com/parquet-go/parquet-go/compress/snappy"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
)

// pgEvent is parquet-go's row type for the events. Only category is
// dictionary-encoded: parquet-go has no per-column fallback from a
// dictionary that grows too large, so a dictionary on ts or amount would
// hold a million entries.
type pgEvent struct {
	TS       int64   `parquet:"ts,timestamp(microsecond)"`
	UserID   int32   `parquet:"user_id"`
	Category string  `parquet:"category,dict"`
	Amount   float64 `parquet:"amount"`
	Flag     bool    `parquet:"flag"`
}

type parquetGoLib struct {
	ev   *Events
	rows []pgEvent
}

// NewParquetGo prepares parquet-go's in-memory form of the events: a
// slice of row structs (its writer takes rows).
func NewParquetGo(ev *Events) (Lib, error) {
	rows := make([]pgEvent, ev.N)
	for i := range rows {
		rows[i] = pgEvent{ev.TS[i], ev.UserID[i], Categories[ev.Category[i]], ev.Amount[i], ev.Flag[i]}
	}
	return &parquetGoLib{ev: ev, rows: rows}, nil
}

func (p *parquetGoLib) Name() string { return "parquet-go" }
func (p *parquetGoLib) Close() error { return nil }

func parquetGoCodec(c string) compress.Codec {
	switch c {
	case "snappy":
		return &pqsnappy.Codec{}
	case "zstd":
		return &pqzstd.Codec{Level: pqzstd.SpeedDefault} // klauspost's SpeedDefault is zstd level 3
	case "gzip":
		return &pqgzip.Codec{Level: pqgzip.DefaultCompression} // the zero Level is gzip.NoCompression
	case "lz4_raw":
		return &pqlz4.Codec{}
	}
	return &pq.Uncompressed
}

func (p *parquetGoLib) Write(codec, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := pq.NewGenericWriter[pgEvent](f, pq.Compression(parquetGoCodec(codec)), pq.MaxRowsPerRowGroup(RowGroupRows))
	for i := 0; i < len(p.rows); i += 8192 {
		if _, err := w.Write(p.rows[i:min(i+8192, len(p.rows))]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func openParquetGo(path string) (*os.File, *pq.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	pf, err := pq.OpenFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, pf, nil
}

// Read decodes every row into a reused []pgEvent of 8192 rows through
// GenericReader, parquet-go's typed read path.
func (p *parquetGoLib) Read(path string) (Result, error) {
	f, pf, err := openParquetGo(path)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	r := pq.NewGenericReader[pgEvent](pf)
	defer r.Close()
	buf := make([]pgEvent, 8192)
	var res Result
	for {
		n, err := r.Read(buf)
		for _, e := range buf[:n] {
			res.AmountSum += e.Amount
		}
		res.Rows += int64(n)
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
	}
}

func columnIndex(pf *pq.File, name string) int {
	for i, c := range pf.Schema().Columns() {
		if len(c) == 1 && c[0] == name {
			return i
		}
	}
	return -1
}

// Column decodes the amount column page by page with DoubleReader.
func (p *parquetGoLib) Column(path string) (Result, error) {
	f, pf, err := openParquetGo(path)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	ci := columnIndex(pf, "amount")
	buf := make([]float64, 8192)
	var res Result
	for _, rg := range pf.RowGroups() {
		pages := rg.ColumnChunks()[ci].Pages()
		for {
			page, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pages.Close()
				return res, err
			}
			vr := page.Values().(pq.DoubleReader)
			for {
				n, err := vr.ReadDoubles(buf)
				for _, v := range buf[:n] {
					res.AmountSum += v
				}
				res.Rows += int64(n)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					pages.Close()
					return res, err
				}
			}
			pq.Release(page)
		}
		pages.Close()
	}
	return res, nil
}

// Count skips, per row group, the pages of ts whose column-index maximum
// is below the cutoff (ts is sorted: it seeks to the first page that may
// match), then decodes the rest with Int64Reader and counts.
func (p *parquetGoLib) Count(path string, cutoff int64) (int64, error) {
	f, pf, err := openParquetGo(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	ci := columnIndex(pf, "ts")
	buf := make([]int64, 8192)
	var n int64
	for _, rg := range pf.RowGroups() {
		cc := rg.ColumnChunks()[ci]
		pages := cc.Pages()
		if cidx, err := cc.ColumnIndex(); err == nil && cidx != nil {
			if oidx, err := cc.OffsetIndex(); err == nil && oidx != nil {
				first := cidx.NumPages()
				for i := 0; i < cidx.NumPages(); i++ {
					if cidx.MaxValue(i).Int64() >= cutoff {
						first = i
						break
					}
				}
				if first == cidx.NumPages() {
					pages.Close()
					continue
				}
				if err := pages.SeekToRow(oidx.FirstRowIndex(first)); err != nil {
					pages.Close()
					return n, err
				}
			}
		}
		for {
			page, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pages.Close()
				return n, err
			}
			vr := page.Values().(pq.Int64Reader)
			for {
				k, err := vr.ReadInt64s(buf)
				for _, v := range buf[:k] {
					if v >= cutoff {
						n++
					}
				}
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					pages.Close()
					return n, err
				}
			}
			pq.Release(page)
		}
		pages.Close()
	}
	return n, nil
}
