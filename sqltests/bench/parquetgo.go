package bench

import (
	"errors"
	"io"
	mathbits "math/bits"
	"os"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	pqgzip "github.com/parquet-go/parquet-go/compress/gzip"
	pqlz4 "github.com/parquet-go/parquet-go/compress/lz4"
	pqsnappy "github.com/parquet-go/parquet-go/compress/snappy"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding"
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

// eachPage calls fn on every page of column ci of every row group, in
// order: parquet-go's page API (File.RowGroups, ColumnChunk.Pages,
// Pages.ReadPage); fn reads the decoded values through Page.Data, typed
// slices of the page's buffers, with no copy and no Value boxing.
func eachPage(pf *pq.File, ci int, fn func(pq.Page)) error {
	for _, rg := range pf.RowGroups() {
		pages := rg.ColumnChunks()[ci].Pages()
		for {
			page, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pages.Close()
				return err
			}
			fn(page)
			pq.Release(page)
		}
		if err := pages.Close(); err != nil {
			return err
		}
	}
	return nil
}

// pgValues gives a page's values of one physical type as a slice: the
// page's own decoded buffer (Page.Data), or for a dictionary-encoded page
// its indexes looked up in the dictionary's values (a writer may encode
// the first pages of a numeric column with a dictionary, then fall back).
type pgValues[T any] struct {
	get  func(*encoding.Values) []T
	dict pq.Dictionary
	vals []T
	buf  []T
}

// data is pg.Data() (its methods take a pointer).
func data(pg pq.Page) *encoding.Values {
	v := pg.Data()
	return &v
}

func (c *pgValues[T]) of(pg pq.Page) []T {
	d := pg.Dictionary()
	if d == nil {
		return c.get(data(pg))
	}
	if d != c.dict {
		c.dict, c.vals = d, c.get(data(d.Page()))
	}
	c.buf = c.buf[:0]
	for _, k := range data(pg).Int32() {
		c.buf = append(c.buf, c.vals[k])
	}
	return c.buf
}

// Read decodes every column chunk page by page (eachPage), column after
// column; category's dictionary-encoded pages give their dictionary
// indexes, looked up in the byte lengths of the dictionary's values.
func (p *parquetGoLib) Read(path string) (Result, error) {
	f, pf, err := openParquetGo(path)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	var res Result
	ts := pgValues[int64]{get: (*encoding.Values).Int64}
	if err := eachPage(pf, columnIndex(pf, "ts"), func(pg pq.Page) {
		res.TSSum = sumInts(res.TSSum, ts.of(pg))
	}); err != nil {
		return res, err
	}
	users := pgValues[int32]{get: (*encoding.Values).Int32}
	if err := eachPage(pf, columnIndex(pf, "user_id"), func(pg pq.Page) {
		res.UserSum = sumInts(res.UserSum, users.of(pg))
	}); err != nil {
		return res, err
	}
	var dict pq.Dictionary
	var dictLens []int64
	if err := eachPage(pf, columnIndex(pf, "category"), func(pg pq.Page) {
		if d := pg.Dictionary(); d != nil {
			if d != dict {
				dict = d
				_, off := data(d.Page()).ByteArray()
				dictLens = dictLens[:0]
				for i := 0; i+1 < len(off); i++ {
					dictLens = append(dictLens, int64(off[i+1]-off[i]))
				}
			}
			for _, k := range data(pg).Int32() {
				res.CatBytes += dictLens[k]
			}
			return
		}
		_, off := data(pg).ByteArray()
		for i := 0; i+1 < len(off); i++ {
			res.CatBytes += int64(off[i+1] - off[i])
		}
	}); err != nil {
		return res, err
	}
	amounts := pgValues[float64]{get: (*encoding.Values).Double}
	if err := eachPage(pf, columnIndex(pf, "amount"), func(pg pq.Page) {
		vs := amounts.of(pg)
		res.AmountSum = sumFloats(res.AmountSum, vs)
		res.Rows += int64(len(vs))
	}); err != nil {
		return res, err
	}
	err = eachPage(pf, columnIndex(pf, "flag"), func(pg pq.Page) {
		if d := pg.Dictionary(); d != nil { // no writer here does this
			for _, k := range data(pg).Int32() {
				if d.Index(k).Boolean() {
					res.Flags++
				}
			}
			return
		}
		bits := data(pg).Boolean() // bit-packed, LSB first
		n := int(pg.NumValues())
		for _, b := range bits[:n/8] {
			res.Flags += int64(mathbits.OnesCount8(b))
		}
		if r := n % 8; r != 0 {
			res.Flags += int64(mathbits.OnesCount8(bits[n/8] & (1<<r - 1)))
		}
	})
	return res, err
}

func columnIndex(pf *pq.File, name string) int {
	for i, c := range pf.Schema().Columns() {
		if len(c) == 1 && c[0] == name {
			return i
		}
	}
	return -1
}

// Column decodes the amount column page by page (eachPage, Page.Data).
func (p *parquetGoLib) Column(path string) (Result, error) {
	f, pf, err := openParquetGo(path)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	var res Result
	amounts := pgValues[float64]{get: (*encoding.Values).Double}
	err = eachPage(pf, columnIndex(pf, "amount"), func(pg pq.Page) {
		vs := amounts.of(pg)
		res.AmountSum = sumFloats(res.AmountSum, vs)
		res.Rows += int64(len(vs))
	})
	return res, err
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
	ts := pgValues[int64]{get: (*encoding.Values).Int64}
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
			for _, v := range ts.of(page) {
				if v >= cutoff {
					n++
				}
			}
			pq.Release(page)
		}
		pages.Close()
	}
	return n, nil
}
