package writer

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/carquet-go/carquet/parquet/encryption"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// ErrClosed is returned by calls on a Writer after Close or Abort.
var ErrClosed = errors.New("writer: closed")

var magic = []byte("PAR1")

// sliceRows is how many rows go to every column before the row group size
// is checked again.
const sliceRows = 16384

// countingWriter buffers writes to the sink and counts the file offset.
type countingWriter struct {
	bw  *bufio.Writer
	off int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.bw.Write(p)
	c.off += int64(n)
	return n, err
}

// Writer writes one Parquet file: rows go to column writers that cut,
// encode and compress pages; full row groups are written out in schema
// order; Close writes the bloom filters, the page indexes and the footer.
//
// A Writer is not safe for concurrent use. After an error from a write,
// the Writer is unusable: Close returns the error (and a file sink is
// removed).
type Writer struct {
	out      *countingWriter
	finalize func(commit bool) error
	undone   string // what a failed Close says the roll back left
	// wrote is the footer a successful Close wrote (before any
	// encryption of its column metadata), for Written.
	wrote *format.FileMetaData
	// appended is, after an append committed, the file and its journal
	// as it left them, for Committed.
	appended [2]os.FileInfo
	sch      *schema.Schema
	fields   []*schema.Field
	paths    []leafPath
	cfg      *config
	cols     []*columnWriter
	shred    shredder
	leaves   []leafData
	sorting  []format.SortingColumn

	prev *format.FileMetaData // the footer of the file appended to
	// begin, when set, places out before the first bytes are written (an
	// append decides then where it writes); atClose tells it whether the
	// append is ending. carried counts rows it read from the file and
	// writes again. minEnd is a length the file must exceed, and oldEnd
	// one it must not have (caches of other processes know a file changed
	// by its length and time).
	begin   func(atClose bool) error
	closing bool
	carried int64
	minEnd  int64
	oldEnd  int64

	rowGroups []format.RowGroup
	pending   []pendingChunk
	rgRows    int64
	numRows   int64
	keyValues []format.KeyValue

	rowBuf      []*builder // WriteRows gathers rows here
	pendingRows int

	err    error
	closed bool
	// enc encrypts the file; nil for a plaintext one.
	enc *fileEncryptor
}

// pendingChunk keeps what a column chunk adds after the row groups.
type pendingChunk struct {
	rg, col int
	res     chunkResult
}

// New returns a Writer of a file with schema sch to w. The bytes go to w
// in order, through a buffer; nothing is written after Close.
func New(w io.Writer, sch *schema.Schema, opts ...Option) (*Writer, error) {
	wr, err := newWriter(w, sch, opts)
	if err != nil {
		return nil, err
	}
	m := magic
	if wr.enc != nil && !wr.enc.cfg.PlaintextFooter {
		m = magicEncrypted
	}
	if _, err := wr.out.Write(m); err != nil {
		return nil, err
	}
	return wr, nil
}

// NewCommitted is New for a sink that must be finished: Close calls
// finish(true) after the footer is written (an upload is completed, a
// file put in place), Abort or a failed Close calls finish(false).
func NewCommitted(w io.Writer, sch *schema.Schema, finish func(commit bool) error, opts ...Option) (*Writer, error) {
	wr, err := New(w, sch, opts...)
	if err != nil {
		return nil, err
	}
	wr.finalize = finish
	return wr, nil
}

// Upload is a sink that must be finished, as an object store's upload
// (objstore.Upload): nothing is visible before Commit.
type Upload interface {
	io.Writer
	Commit() error
	Abort() error
}

// NewUpload is New for an upload: Close commits it, Abort or a failed
// Close aborts it (as does a failure of NewUpload itself).
func NewUpload(up Upload, sch *schema.Schema, opts ...Option) (*Writer, error) {
	w, err := NewCommitted(up, sch, func(commit bool) error {
		if commit {
			return up.Commit()
		}
		return up.Abort()
	}, opts...)
	if err != nil {
		up.Abort()
		return nil, err
	}
	return w, nil
}

func newWriter(w io.Writer, sch *schema.Schema, opts []Option) (*Writer, error) {
	if sch == nil || sch.Root == nil {
		return nil, fmt.Errorf("writer: no schema")
	}
	cfg := defaultConfig()
	for _, o := range opts {
		o(cfg)
	}
	if cfg.pageVersion != 1 && cfg.pageVersion != 2 {
		return nil, fmt.Errorf("writer: data page version %d is not 1 or 2", cfg.pageVersion)
	}
	if cfg.rowGroupRows <= 0 || cfg.rowGroupBytes <= 0 {
		return nil, fmt.Errorf("writer: row group limits must be positive")
	}
	if cfg.truncate < 0 {
		return nil, fmt.Errorf("writer: negative statistics truncation length")
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	paths, err := buildLeafPaths(fields, len(sch.Leaves))
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	wr := &Writer{
		out: &countingWriter{bw: bufio.NewWriterSize(w, 1<<16)},
		sch: sch, fields: fields, paths: paths, cfg: cfg,
		leaves: make([]leafData, len(sch.Leaves)),
	}
	for _, o := range cfg.overrides {
		if !pathExists(sch, o.path) {
			return nil, fmt.Errorf("writer: an option names column %q, which the schema does not have", o.path)
		}
	}
	ciphers := map[string]*encryption.Cipher{}
	if cfg.encryption != nil {
		if wr.enc, err = newFileEncryptor(cfg.encryption); err != nil {
			return nil, fmt.Errorf("writer: encryption: %w", err)
		}
		for path := range cfg.encryption.ColumnKeys {
			if sch.Column(path) == nil && !cfg.encryption.SharedColumnKeys {
				return nil, fmt.Errorf("writer: encryption: a key is given for column %q, which is not a leaf column of the schema", path)
			}
		}
	}
	for _, leaf := range sch.Leaves {
		cc, err := cfg.resolve(leaf)
		if err != nil {
			return nil, fmt.Errorf("writer: %w", err)
		}
		cw, err := newColumnWriter(leaf, cc, cfg)
		if err != nil {
			return nil, fmt.Errorf("writer: %w", err)
		}
		if wr.enc != nil {
			if cw.enc, err = wr.enc.column(leaf.PathString(), leaf.Column, ciphers); err != nil {
				return nil, fmt.Errorf("writer: encryption: %w", err)
			}
		}
		wr.cols = append(wr.cols, cw)
	}
	for _, s := range cfg.sorting {
		n := sch.Column(s.Path)
		if n == nil {
			return nil, fmt.Errorf("writer: sorting column %q is not a column of the schema", s.Path)
		}
		wr.sorting = append(wr.sorting, format.SortingColumn{ColumnIdx: int32(n.Column), Descending: s.Descending, NullsFirst: s.NullsFirst})
	}
	wr.keyValues = append(wr.keyValues, cfg.keyValues...)
	return wr, nil
}

func pathExists(s *schema.Schema, path string) bool {
	for _, l := range s.Leaves {
		p := l.PathString()
		if p == path || len(p) > len(path) && p[:len(path)] == path && p[len(path)] == '.' {
			return true
		}
	}
	return false
}

// Schema is the schema of the file being written.
func (w *Writer) Schema() *schema.Schema { return w.sch }

// Fields are the logical fields that WriteBatch takes vectors for, one per
// top-level field.
func (w *Writer) Fields() []*schema.Field { return w.fields }

// NumRows is the number of rows written so far (by an append: the new
// rows, not those of the file's last row groups it writes again).
func (w *Writer) NumRows() int64 { return w.numRows + w.rgRows + int64(w.pendingRows) - w.carried }

// WriteBatch writes the rows of a columnar batch: one vector per top-level
// field, in schema order, all of the same length, in the layout of
// parquet/vector (as parquet/file's reader returns it). A batch that does
// not fit the schema is an error and writes nothing.
func (w *Writer) WriteBatch(cols []*vector.Vector) error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	if len(cols) != len(w.fields) {
		return fmt.Errorf("writer: %d vectors for %d top-level fields", len(cols), len(w.fields))
	}
	rows := -1
	for i, v := range cols {
		if v == nil {
			return fmt.Errorf("writer: field %s: nil vector", w.fields[i].Name)
		}
		if rows >= 0 && v.Len != rows {
			return fmt.Errorf("writer: field %s has %d rows, field %s has %d", w.fields[i].Name, v.Len, w.fields[0].Name, rows)
		}
		rows = v.Len
	}
	if rows <= 0 {
		return nil
	}
	for i := range w.paths {
		p := &w.paths[i]
		if err := w.shred.shred(p, cols[p.top], rows, &w.leaves[i]); err != nil {
			return fmt.Errorf("writer: %w", err)
		}
	}
	done := 0
	for done < rows {
		n := int(min(int64(rows-done), w.cfg.rowGroupRows-w.rgRows, sliceRows))
		for i, c := range w.cols {
			if err := c.write(&w.leaves[i], n); err != nil {
				w.err = fmt.Errorf("writer: %w", err)
				return w.err
			}
		}
		w.rgRows += int64(n)
		done += n
		if w.rgRows >= w.cfg.rowGroupRows || w.bufferedBytes() >= w.cfg.rowGroupBytes {
			if err := w.flushRowGroup(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Writer) bufferedBytes() int64 {
	var n int64
	for _, c := range w.cols {
		n += c.bufferedBytes()
	}
	return n
}

// Flush ends the current row group, writing it out.
func (w *Writer) Flush() error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	if err := w.flushRows(); err != nil {
		return err
	}
	return w.flushRowGroup()
}

func (w *Writer) flushRowGroup() error {
	if w.rgRows == 0 {
		return nil
	}
	if err := w.place(); err != nil {
		return err
	}
	idx := len(w.rowGroups)
	ordinal := idx + w.prevRowGroups()
	rg := format.RowGroup{NumRows: w.rgRows, FileOffset: format.Some(w.out.off)}
	if ordinal <= 32767 {
		rg.Ordinal = format.Some(int16(ordinal))
	} else if w.enc != nil {
		w.err = fmt.Errorf("writer: an encrypted file holds at most 32768 row groups")
		return w.err
	}
	var compressed int64
	for i, c := range w.cols {
		res, err := c.finish(w.out, w.out.off)
		if err != nil {
			w.err = fmt.Errorf("writer: row group %d: %w", idx, err)
			return w.err
		}
		rg.Columns = append(rg.Columns, res.cc)
		rg.TotalByteSize += res.cc.MetaData.TotalUncompressedSize
		compressed += res.cc.MetaData.TotalCompressedSize
		if res.ci != nil || res.oi != nil || res.bloom != nil {
			w.pending = append(w.pending, pendingChunk{rg: idx, col: i, res: res})
		}
	}
	rg.TotalCompressedSize = format.Some(compressed)
	rg.SortingColumns = w.sorting
	w.rowGroups = append(w.rowGroups, rg)
	if err := w.writeBlooms(); err != nil {
		w.err = fmt.Errorf("writer: row group %d: bloom filters: %w", idx, err)
		return w.err
	}
	for _, c := range w.cols {
		if c.enc != nil {
			c.enc.rg = ordinal + 1 // the pages written from now on
		}
	}
	w.numRows += w.rgRows
	w.rgRows = 0
	return nil
}

// SetKeyValue adds or replaces a footer key-value metadata entry.
func (w *Writer) SetKeyValue(key, value string) {
	for i := range w.keyValues {
		if w.keyValues[i].Key == key {
			w.keyValues[i].Value = format.Some(value)
			return
		}
	}
	w.keyValues = append(w.keyValues, format.KeyValue{Key: key, Value: format.Some(value)})
}

// place runs begin once, before the first bytes are written.
func (w *Writer) place() error {
	if w.begin == nil {
		return nil
	}
	b := w.begin
	w.begin = nil
	if err := b(w.closing); err != nil {
		w.err = err
		return err
	}
	return nil
}

// Close writes the last row group, the bloom filters, the page indexes and
// the footer, and finishes the sink (a file is synced and renamed into
// place).
func (w *Writer) Close() error {
	if w.closed {
		return ErrClosed
	}
	err := w.err
	if err == nil {
		err = w.flushRows()
	}
	if err == nil && w.begin != nil && w.NumRows() == 0 && len(w.keyValues) == 0 {
		// An append of no rows and no metadata writes nothing.
		w.closed = true
		return w.finalize(true)
	}
	w.closing = true
	if err == nil {
		err = w.flushRowGroup()
	}
	if err == nil {
		err = w.place()
	}
	if err == nil {
		if err = w.writeTail(); err != nil {
			err = fmt.Errorf("writer: footer and page indexes: %w", err)
		}
	}
	if err == nil {
		if err = w.out.bw.Flush(); err != nil {
			err = fmt.Errorf("writer: %w", err)
		}
	}
	w.closed = true
	if w.finalize != nil {
		// A failed roll back is reported with the error that caused it.
		if ferr := w.finalize(err == nil); err == nil {
			err = ferr
		} else if ferr != nil {
			err = errors.Join(err, ferr)
		} else if w.undone != "" {
			err = fmt.Errorf("%w (%s)", err, w.undone)
		}
	}
	if err != nil {
		w.wrote = nil
	}
	return err
}

// Written returns, after a successful Close, the footer the file holds
// (row groups with their column statistics) and the file's length; nil
// and 0 before. Callers that record a file elsewhere (a Delta add action)
// take its statistics from here without reading the file back.
func (w *Writer) Written() (*format.FileMetaData, int64) {
	if !w.closed || w.wrote == nil {
		return nil, 0
	}
	return w.wrote, w.out.off
}

// Committed returns, after an append's successful Close, the file and
// its journal as the append left them, read while it still held the
// file's lock, so that no other writer's change is among them: a caller
// that keeps what it read of the file (its schema, its options) knows by
// them that the file has not changed since but for its own append. The
// journal is nil when there is none; both are nil for other writers,
// before, and when they could not be read.
func (w *Writer) Committed() (file, journal os.FileInfo) {
	if !w.closed || w.wrote == nil {
		return nil, nil
	}
	return w.appended[0], w.appended[1]
}

// Abort discards the file: a file sink's temporary file is removed. The
// bytes already given to an io.Writer stay there.
func (w *Writer) Abort() error {
	if w.closed {
		return ErrClosed
	}
	w.closed = true
	if w.finalize != nil {
		return w.finalize(false)
	}
	return nil
}

// writeBlooms writes the bloom filters of the row groups written so far,
// right after them: a filter can be as large as its chunk's pages, and a
// file of many row groups would otherwise hold them all until Close.
func (w *Writer) writeBlooms() error {
	for i := range w.pending {
		p := &w.pending[i]
		if p.res.bloom == nil {
			continue
		}
		md := w.rowGroups[p.rg].Columns[p.col].MetaData
		bloom := p.res.bloom
		if ce := w.encryptorOf(*p); ce != nil {
			var err error
			hdr, bits := bloom[:p.res.bloomHeader], bloom[p.res.bloomHeader:]
			if bloom, err = ce.seal(nil, hdr, encryption.BloomFilterHeader, -1); err != nil {
				return err
			}
			if bloom, err = ce.seal(bloom, bits, encryption.BloomFilterBitset, -1); err != nil {
				return err
			}
		}
		md.BloomFilterOffset = format.Some(w.out.off)
		md.BloomFilterLength = format.Some(int32(len(bloom)))
		if _, err := w.out.Write(bloom); err != nil {
			return err
		}
		p.res.bloom = nil
	}
	return nil
}

// writeTail writes everything after the last row group.
func (w *Writer) writeTail() error {
	if err := w.writeBlooms(); err != nil {
		return err
	}
	var buf []byte
	for _, p := range w.pending {
		if p.res.ci == nil {
			continue
		}
		buf = format.Marshal(buf[:0], p.res.ci)
		if ce := w.encryptorOf(p); ce != nil {
			var err error
			if buf, err = ce.seal(nil, buf, encryption.ColumnIndex, -1); err != nil {
				return err
			}
		}
		cc := &w.rowGroups[p.rg].Columns[p.col]
		cc.ColumnIndexOffset = format.Some(w.out.off)
		cc.ColumnIndexLength = format.Some(int32(len(buf)))
		if _, err := w.out.Write(buf); err != nil {
			return err
		}
	}
	for _, p := range w.pending {
		if p.res.oi == nil {
			continue
		}
		buf = format.Marshal(buf[:0], p.res.oi)
		if ce := w.encryptorOf(p); ce != nil {
			var err error
			if buf, err = ce.seal(nil, buf, encryption.OffsetIndex, -1); err != nil {
				return err
			}
		}
		cc := &w.rowGroups[p.rg].Columns[p.col]
		cc.OffsetIndexOffset = format.Some(w.out.off)
		cc.OffsetIndexLength = format.Some(int32(len(buf)))
		if _, err := w.out.Write(buf); err != nil {
			return err
		}
	}
	w.pending = nil
	meta, err := w.footer()
	if err != nil {
		return err
	}
	w.wrote = meta
	if w.enc != nil {
		if err := w.encryptFooterColumns(meta); err != nil {
			return err
		}
		if buf, err = w.enc.appendFooter(buf[:0], meta); err != nil {
			return err
		}
		_, err = w.out.Write(buf)
		return err
	}
	buf = format.Marshal(buf[:0], meta)
	if w.cfg.footerIndex && meta.Extension == nil {
		// The footer index lets readers find one column chunk's metadata
		// in O(1) (parquet/format.FooterIndex); others skip it.
		indexed, err := format.AddFooterIndex(buf)
		if err != nil {
			return err
		}
		buf = indexed
	}
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(buf)))
	buf = append(buf, magic...)
	pad := w.minEnd - (w.out.off + int64(len(buf)))
	if w.out.off+int64(len(buf)) == w.oldEnd {
		pad = 1
	}
	if pad > 0 {
		// Bytes no footer refers to, before the footer.
		if _, err := w.out.Write(make([]byte, pad)); err != nil {
			return err
		}
	}
	_, err = w.out.Write(buf)
	return err
}

func (w *Writer) footer() (*format.FileMetaData, error) {
	var rgs []format.RowGroup
	var kv []format.KeyValue
	if w.prev != nil {
		rgs = append(rgs, w.prev.RowGroups...)
		kv = append(kv, w.prev.KeyValueMetadata...)
	}
	rgs = append(rgs, w.rowGroups...)
	var total int64
	for i := range rgs {
		total += rgs[i].NumRows
	}
	meta := &format.FileMetaData{
		Version:   2,
		Schema:    w.sch.Elements,
		NumRows:   total,
		RowGroups: rgs,
		CreatedBy: format.Some(w.cfg.createdBy),
	}
	if w.prev != nil && w.prev.CreatedBy.Set && !w.cfg.createdBySet {
		// Readers work around known bugs of the writer named here (old
		// parquet-mr statistics, say): when appending, keep naming the
		// writer of the old row groups, so that they stay distrusted.
		meta.CreatedBy = w.prev.CreatedBy
	}
	for _, e := range w.keyValues {
		replaced := false
		for i := range kv {
			if kv[i].Key == e.Key {
				kv[i], replaced = e, true
			}
		}
		if !replaced {
			kv = append(kv, e)
		}
	}
	if w.cfg.arrowSchema && !hasKey(kv, arrowSchemaKey) {
		s, err := arrowSchemaValue(w.sch, w.fields)
		if err == nil {
			kv = append(kv, format.KeyValue{Key: arrowSchemaKey, Value: format.Some(s)})
		}
	}
	meta.KeyValueMetadata = kv
	// TYPE_ORDER for every column, also when appending to a file that
	// declared IEEE_754_TOTAL_ORDER: its readers' compatibility rules (NaN
	// bounds ignored, zeros of either sign) hold for the old statistics.
	for range w.sch.Leaves {
		meta.ColumnOrders = append(meta.ColumnOrders, format.ColumnOrder{TypeOrder: &format.TypeDefinedOrder{}})
	}
	return meta, nil
}

func hasKey(kv []format.KeyValue, key string) bool {
	for _, e := range kv {
		if e.Key == key {
			return true
		}
	}
	return false
}

// encryptorOf returns the encryptor of a pending chunk's column, set to
// its row group; nil for a plaintext column.
func (w *Writer) encryptorOf(p pendingChunk) *columnEncryptor {
	ce := w.cols[p.col].enc
	if ce != nil {
		ce.rg = int(w.rowGroups[p.rg].Ordinal.Value)
	}
	return ce
}

// encryptFooterColumns sets the crypto metadata of the encrypted columns'
// chunks, encrypting their metadata where they have keys of their own.
func (w *Writer) encryptFooterColumns(meta *format.FileMetaData) error {
	for i := range meta.RowGroups {
		rg := &meta.RowGroups[i]
		for col := range rg.Columns {
			if ce := w.cols[col].enc; ce != nil {
				if err := ce.encryptChunk(&rg.Columns[col], int(rg.Ordinal.Value), w.enc.cfg.PlaintextFooter); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
