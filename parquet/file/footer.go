package file

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/journal"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/thrift"
)

var (
	magic          = []byte("PAR1")
	magicEncrypted = []byte("PARE")
)

// DefaultTailRead is how much of a file's end Open reads at first, in the
// hope that it holds the whole footer (a larger one takes a second read,
// of its exact size). Small, because the buffer is allocated afresh at
// every open and stays with the File: with 64 KiB, the faults at the
// first touch of its pages made that one read a quarter of the CPU of a
// filtered count of the events table (scan.BenchmarkFilteredCount), whose
// footer is 1.3 KB; a second read costs one more system call. Page
// indexes are read on their own (Chunk.OffsetIndex), not from this tail.
const DefaultTailRead = 8 << 10

// MaxFooterSize is the default bound on the footer length a file may
// claim (Limits.MaxFooterSize).
const MaxFooterSize = 1 << 30

// Defaults of Limits. The page sizes default to the largest a page header
// can state (an i32): valid files hold pages of more than 1 GiB
// (parquet-testing's large_string_map.brotli.parquet), and a hostile claim
// costs little anyway, because decompression buffers grow only as far as
// the compressed data really expands. Set lower limits to bound the memory
// one page may take.
const (
	DefaultMaxPageSize       = math.MaxInt32
	DefaultMaxDictionarySize = math.MaxInt32
	DefaultMaxColumns        = 1 << 20
	DefaultMaxBatchValues    = 1 << 27
	DefaultMaxBatchBytes     = 2 << 30
)

// Limits bound what sizes and counts read from a file may make a reader
// allocate or accept. Every size is also checked against the file's own
// size (a page cannot be larger than the file holding it) before anything
// is allocated; the limits add a bound of the caller's choosing on top, for
// claims the file's size cannot refute (a compressed page claiming a huge
// uncompressed size). A file over a limit gives an error that is
// errors.Is(err, ErrLimit). Zero fields take the defaults.
type Limits struct {
	// MaxPageSize bounds the compressed and the uncompressed size of a
	// data page (default DefaultMaxPageSize).
	MaxPageSize int
	// MaxDictionarySize bounds the compressed and the uncompressed size of
	// a dictionary page (default DefaultMaxDictionarySize).
	MaxDictionarySize int
	// MaxFooterSize bounds the footer length (default MaxFooterSize).
	MaxFooterSize int
	// MaxColumns bounds the number of leaf columns of the schema (default
	// DefaultMaxColumns).
	MaxColumns int
	// MaxBatchValues bounds the values (level entries, nulls included) of
	// one column in one batch (default DefaultMaxBatchValues). Batches are
	// cut by rows, and a row of a nested column can hold any number of
	// values — billions in a few bytes of RLE levels: this bounds the
	// memory such a row takes to materialise.
	MaxBatchValues int
	// MaxMetadataMemory bounds the memory the footer's lists may take
	// decoded (row groups, column chunks, schema elements, ...). The
	// default is 64 MiB plus 16 times the footer's length: far above what
	// real footers take, far below the hundredfold a footer of empty
	// structs would make the reader allocate.
	MaxMetadataMemory int64
	// MaxBatchBytes bounds the bytes of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
	// values of one column in one batch (default DefaultMaxBatchBytes).
	// Dictionary encoding lets a few bits per row name an entry of
	// megabytes: this bounds what such rows take to materialise.
	MaxBatchBytes int64
	// MaxScanMemory bounds the memory one scan of a table (package scan)
	// holds for the row groups it decodes at once: their column chunks as
	// read and their batches' share of the decoded size. Row groups wait
	// for earlier ones to finish rather than go over it; one row group
	// that alone needs more fails the scan with ErrLimit. Zero means no
	// bound beyond the other limits.
	MaxScanMemory int64
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

func (l Limits) pageSize() int       { return orDefault(l.MaxPageSize, DefaultMaxPageSize) }
func (l Limits) dictionarySize() int { return orDefault(l.MaxDictionarySize, DefaultMaxDictionarySize) }
func (l Limits) footerSize() int     { return orDefault(l.MaxFooterSize, MaxFooterSize) }
func (l Limits) columns() int        { return orDefault(l.MaxColumns, DefaultMaxColumns) }
func (l Limits) batchValues() int    { return orDefault(l.MaxBatchValues, DefaultMaxBatchValues) }

func (l Limits) batchBytes() int64 {
	if l.MaxBatchBytes > 0 {
		return l.MaxBatchBytes
	}
	return DefaultMaxBatchBytes
}

// MetadataMemory is the bound on the decoded metadata of a footer of
// footerLen bytes: MaxMetadataMemory, or by default 64 MiB plus 16 times
// the footer's size.
func (l Limits) MetadataMemory(footerLen int) int64 {
	if l.MaxMetadataMemory > 0 {
		return l.MaxMetadataMemory
	}
	return 64<<20 + 16*int64(footerLen)
}

// Options configure how a file is opened and read.
type Options struct {
	// Name is used in error messages (a path, usually).
	Name string
	// SkipChecksums turns off the integrity checks every page gets by
	// default: the CRC32 of each page that carries one, and the cross-check
	// of each data page's header (offset, size, row count) against the
	// chunk's offset index where the file has one. A damaged page then
	// gives ErrChecksum (or ErrCorrupt) naming the file, row group, column
	// and page offset instead of wrong values. Skipping saves the CRC pass
	// over every page and one small read per column chunk.
	SkipChecksums bool
	// TailRead is the size of the first read of the file's end; 0 means
	// DefaultTailRead.
	TailRead int
	// NoHeadCheck skips the check of the magic at the file's start: for a
	// remote file it would cost a request of its own. The end's magic,
	// the footer and every page read are checked all the same.
	NoHeadCheck bool
	// LazyColumns builds each column chunk's metadata structs only when it
	// is first asked for (File.ColumnChunk): from the footer in O(1)
	// through the footer index when the file has one; else from compact
	// records into which the whole footer is decoded at open (a third of
	// the memory of the structs, not scanned by the garbage collector;
	// see docs/footer-index.md). For wide files of which a query reads a
	// few columns. Meta.RowGroups[i].Columns is then nil: use ColumnChunk.
	LazyColumns bool
	// Limits bound what the file's sizes and counts may make the reader
	// allocate.
	Limits
	// Decryption gives the keys of files that use Parquet Modular
	// Encryption; nil opens only files with a plaintext footer, and reads
	// only their plaintext columns.
	Decryption *Decryption
}

// File is an open Parquet file.
type File struct {
	name   string
	r      io.ReaderAt
	size   int64
	opts   Options
	closer io.Closer
	// mapped holds the whole file when it is memory-mapped.
	mapped []byte

	// Meta is the decoded footer; Schema its schema tree.
	Meta   *format.FileMetaData
	Schema *schema.Schema
	// footer is the raw Thrift bytes of Meta, which Meta's binary fields alias.
	footer []byte
	// footerStart is the file offset of the footer; shortChunks is set for
	// writers whose chunk sizes may be too small (see ByteRange);
	// nullsUnknown for writers whose v2 page headers may say -1 nulls (see
	// ColumnReader.checkNulls).
	footerStart  int64
	shortChunks  bool
	nullsUnknown bool
	// With LazyColumns: the footer index (nil without one), or else each
	// row group's column chunks in compact records; and the column chunks
	// built so far, per row group.
	index  *format.FooterIndex
	chunks []*format.Chunks
	lazy   []lazyRowGroup
	// indexesAhead reads the page index region ahead once (ReadRange).
	indexesAhead sync.Once
	// crypt is the decryption state of an encrypted file, nil for others;
	// footerEncrypted says its footer was ("PARE").
	crypt           *fileCrypto
	footerEncrypted bool
}

type lazyRowGroup struct {
	once sync.Once
	cols []format.ColumnChunk
	err  error
	mu   sync.Mutex
	one  map[int]*format.ColumnChunk
}

// Open reads the footer of the Parquet file held by r (size bytes long).
func Open(r io.ReaderAt, size int64, opts Options) (*File, error) {
	f := &File{name: opts.Name, r: r, size: size, opts: opts}
	if err := f.readFooter(); err != nil {
		return nil, err
	}
	return f, nil
}

// OpenOwned is Open for a reader the File owns: Close closes c too (on
// an error, c is closed before OpenOwned returns).
func OpenOwned(r io.ReaderAt, c io.Closer, size int64, opts Options) (*File, error) {
	f, err := Open(r, size, opts)
	if err != nil {
		c.Close()
		return nil, err
	}
	f.closer = c
	return f, nil
}

// OpenFile opens the Parquet file at path. With mmap the file is mapped
// into memory (where the platform allows), which makes reads copy-free.
// The mapping outlives Close for a few seconds (acquireMapping): a fresh
// mapping faults at the first touch of each page, which costs more than
// the copy it saves, so mmap pays when the same file is read again.
//
// The file is read as committed (parquet/journal): an append in progress,
// or one that crashed and was never recovered, is invisible. While the
// File is open it holds the readers' lock shared, so that no append
// overwrites the row groups it may still read.
func OpenFile(path string, opts Options, mmap bool) (*File, error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if opts.Name == "" {
		opts.Name = path
	}
	// A file system without locks leaves the lock untaken; appends there
	// cannot take it exclusive either.
	_ = journal.ShareReaders(osf)
	for range 100 {
		f, err := openView(path, osf, opts, mmap)
		if f != nil || err != nil {
			return f, err
		}
	}
	_ = journal.UnshareReaders(osf) // a kept mapping may still hold it
	osf.Close()
	return nil, fmt.Errorf("%s: appends keep changing the file while it opens", path)
}

// openView opens the committed view of osf. It returns nil and no error
// when an append overwrote the footer while it was read: the caller tries
// again. On an error osf is closed.
func openView(path string, osf *os.File, opts Options, mmap bool) (*File, error) {
	view, err := journal.Committed(path, osf)
	if err != nil {
		osf.Close()
		return nil, err
	}
	var r io.ReaderAt = view.R
	var mapped []byte
	var unmapped func() error // gives the mapping back
	var closer io.Closer = osf
	if mmap && view.Size > 0 && !view.Journaled {
		if m, release, err := acquireMapping(osf, view.Size); err == nil {
			mapped = m
			r = bytesReaderAt(m)
			unmapped = release
			closer = closerFunc(func() error {
				// The kept mapping would hold the readers' lock,
				// and with it an append's merge of row groups, for
				// as long as it stays idle.
				_ = journal.UnshareReaders(osf)
				err := release()
				if cerr := osf.Close(); err == nil {
					err = cerr
				}
				return err
			})
		}
	}
	f, err := Open(r, view.Size, opts)
	if !view.Journaled {
		// An append may have begun after the view was taken and
		// overwritten the footer as it was read.
		if same, cerr := journal.Unchanged(path, osf, view); cerr != nil || !same {
			if f != nil {
				f.closer = nil
			}
			if cerr != nil {
				_ = journal.UnshareReaders(osf)
			}
			if unmapped != nil {
				unmapped()
			}
			if cerr != nil {
				osf.Close()
			}
			return nil, cerr
		}
	}
	if err != nil {
		closer.Close()
		return nil, err
	}
	f.closer = closer
	f.mapped = mapped
	return f, nil
}

// Close releases the file (and its mapping) if Open or OpenFile owns it.
func (f *File) Close() error {
	if f.closer != nil {
		c := f.closer
		f.closer = nil
		return c.Close()
	}
	return nil
}

// Name is the name used in error messages.
func (f *File) Name() string { return f.name }

// ReaderAt is what the file is read from.
func (f *File) ReaderAt() io.ReaderAt { return f.r }

// Size is the file's length in bytes.
func (f *File) Size() int64 { return f.size }

// FooterBytes is the raw Thrift encoding of the footer.
func (f *File) FooterBytes() []byte { return f.footer }

// NumRows is the number of rows in the file: the sum of its row groups'
// counts. Some writers leave FileMetaData.num_rows at 0
// (repeated_no_annotation.parquet), so the row groups are the authority.
func (f *File) NumRows() int64 {
	var n int64
	for i := range f.Meta.RowGroups {
		n += f.Meta.RowGroups[i].NumRows
	}
	return n
}

// NumRowGroups is the number of row groups.
func (f *File) NumRowGroups() int { return len(f.Meta.RowGroups) }

// KeyValue returns the value of a footer key-value metadata entry.
func (f *File) KeyValue(key string) (string, bool) {
	for _, kv := range f.Meta.KeyValueMetadata {
		if kv.Key == key {
			return kv.Value.Value, true
		}
	}
	return "", false
}

// CreatedBy is the footer's created_by string.
func (f *File) CreatedBy() string { return f.Meta.CreatedBy.Value }

func (f *File) readFooter() error {
	if f.size < 12 {
		return f.errorf(-1, "", -1, "%w: too short for a Parquet file", ErrNotParquet)
	}
	tail := int64(f.opts.TailRead)
	if tail <= 0 {
		tail = DefaultTailRead
	}
	if tail > f.size {
		tail = f.size
	}
	buf := make([]byte, tail)
	if _, err := f.r.ReadAt(buf, f.size-tail); err != nil && err != io.EOF {
		return f.wrap(-1, "", f.size-tail, err)
	}
	end := buf[len(buf)-4:]
	switch string(end) {
	case string(magic):
	case string(magicEncrypted):
		if f.opts.Decryption == nil {
			return f.wrap(-1, "", f.size-4, fmt.Errorf("%w: the footer is encrypted (magic PARE): give its key (Options.Decryption)", ErrEncrypted))
		}
		f.footerEncrypted = true
	default:
		return f.errorf(-1, "", -1, "%w: the file does not end with PAR1", ErrNotParquet)
	}
	n := int64(binary.LittleEndian.Uint32(buf[len(buf)-8:]))
	if n <= 0 || n > f.size-12 {
		return f.errorf(-1, "", f.size-8, "%w: footer length %d does not fit a file of %d bytes", ErrCorrupt, n, f.size)
	}
	if n > int64(f.opts.footerSize()) {
		return f.errorf(-1, "", f.size-8, "footer length %d is %w (MaxFooterSize %d)", n, ErrLimit, f.opts.footerSize())
	}
	start := f.size - 8 - n
	var footer []byte
	if n <= tail-8 {
		footer = buf[int64(len(buf))-8-n : len(buf)-8]
	} else {
		// The footer is larger than the first read: one more read for it.
		footer = make([]byte, n)
		if _, err := f.r.ReadAt(footer, start); err != nil && err != io.EOF {
			return f.wrap(-1, "", start, err)
		}
	}
	if !f.opts.NoHeadCheck {
		head := make([]byte, 4)
		if _, err := f.r.ReadAt(head, 0); err != nil && err != io.EOF {
			return f.wrap(-1, "", 0, err)
		}
		if string(head) != string(end) {
			return f.errorf(-1, "", 0, "%w: the file does not start with %s", ErrNotParquet, end)
		}
	}
	if f.footerEncrypted {
		var err error
		if footer, err = f.decryptFooter(footer, start); err != nil {
			return err
		}
	}
	meta := new(format.FileMetaData)
	// The footer bytes stay with the File and are never written, so the
	// metadata's strings may share them. With LazyColumns, a footer index
	// leaves the column chunks undecoded until asked for, one by one;
	// without one they are decoded in full, into compact records from
	// which each ColumnChunk is built when asked for.
	var index *format.FooterIndex
	if f.opts.LazyColumns {
		index, _ = format.ParseFooterIndex(footer)
	}
	lazy := f.opts.LazyColumns && !f.footerEncrypted
	var err error
	var used int
	if lazy && index == nil {
		f.chunks, used, err = format.UnmarshalCompact(footer, meta, f.opts.MetadataMemory(len(footer)))
	} else {
		used, err = format.UnmarshalFooter(footer, meta, lazy, f.opts.MetadataMemory(len(footer)))
	}
	if err == nil && meta.EncryptionAlgorithm != nil && !f.footerEncrypted {
		// A plaintext footer with encrypted columns: decoded again in
		// full, so that the columns' encrypted metadata can replace theirs.
		if lazy {
			lazy, index, f.chunks = false, nil, nil
			*meta = format.FileMetaData{}
			used, err = format.UnmarshalFooter(footer, meta, false, f.opts.MetadataMemory(len(footer)))
		}
		if err == nil {
			if f.crypt, err = f.newFileCrypto(meta.EncryptionAlgorithm, meta.FooterSigningKeyMetadata, false); err != nil {
				return err
			}
			if err = f.verifyFooter(footer, used, start); err != nil {
				return err
			}
		}
	}
	if errors.Is(err, ErrLimit) {
		return f.errorf(-1, "", start, "footer: %w", err)
	}
	if err != nil {
		return f.errorf(-1, "", start, "%w: footer: %w", ErrCorrupt, err)
	}
	if lazy {
		f.lazy = make([]lazyRowGroup, len(meta.RowGroups))
		if index != nil {
			if rgs, _ := index.Size(); rgs == len(meta.RowGroups) {
				f.index = index
			}
		}
	}
	f.footer = footer
	f.Meta = meta
	f.footerStart = start
	f.shortChunks = shortChunksWriter(meta.CreatedBy.Value)
	f.nullsUnknown = parquetMRBefore(meta.CreatedBy.Value, 1, 18, 0)
	// A plaintext footer with encrypted columns (EncryptionAlgorithm set)
	// opens: its schema is readable, and reading an encrypted column
	// without its key reports it by name.
	sch, err := schema.FromElements(meta.Schema)
	if err != nil {
		return f.errorf(-1, "", start, "%w: %w", ErrCorrupt, err)
	}
	if len(sch.Leaves) > f.opts.columns() {
		return f.errorf(-1, "", start, "%d columns is %w (MaxColumns %d)", len(sch.Leaves), ErrLimit, f.opts.columns())
	}
	f.Schema = sch
	if v, ok := f.KeyValue(schema.ColumnTypesKey); ok {
		sch.ApplySQLTypes(v)
	}
	if f.crypt != nil {
		for i := range meta.RowGroups {
			if n := len(meta.RowGroups[i].Columns); n != len(sch.Leaves) {
				return f.errorf(i, "", -1, "%w: row group has %d column chunks, the schema has %d columns", ErrCorrupt, n, len(sch.Leaves))
			}
		}
		if err := f.setupColumns(); err != nil {
			return err
		}
	}
	return f.checkRowGroups(start)
}

// checkRowGroups validates what later reads rely on: each row group has one
// chunk per leaf column, with metadata, within the file.
func (f *File) checkRowGroups(footerStart int64) error {
	leaves := len(f.Schema.Leaves)
	for i := range f.Meta.RowGroups {
		rg := &f.Meta.RowGroups[i]
		if rg.Columns == nil && rg.ColumnsRaw != nil {
			if rg.NumRows < 0 {
				return f.errorf(i, "", -1, "%w: negative row count %d", ErrCorrupt, rg.NumRows)
			}
			if c := f.compact(i); c != nil && c.Len() != leaves {
				return f.errorf(i, "", -1, "%w: row group has %d column chunks, the schema has %d columns", ErrCorrupt, c.Len(), leaves)
			}
			continue // lazy: each chunk checked when built
		}
		if len(rg.Columns) != leaves {
			return f.errorf(i, "", -1, "%w: row group has %d column chunks, the schema has %d columns", ErrCorrupt, len(rg.Columns), leaves)
		}
		if rg.NumRows < 0 {
			return f.errorf(i, "", -1, "%w: negative row count %d", ErrCorrupt, rg.NumRows)
		}
		for c := range rg.Columns {
			if err := f.checkColumnChunk(i, c, &rg.Columns[c]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (f *File) checkColumnChunk(rg, col int, cc *format.ColumnChunk) error {
	md := cc.MetaData
	if cc.CryptoMetadata != nil || cc.EncryptedColumnMetadata != nil {
		if md == nil || f.crypt == nil {
			return nil // reported when the column is read
		}
	}
	path := f.Schema.Leaves[col].PathString()
	if md == nil {
		return f.errorf(rg, path, -1, "%w: column chunk has no metadata", ErrCorrupt)
	}
	if md.TotalCompressedSize < 0 || md.DataPageOffset < 0 {
		return f.errorf(rg, path, -1, "%w: negative offset or size in column metadata", ErrCorrupt)
	}
	return nil
}

// HasFooterIndex reports whether a lazily opened file found a footer
// index, so that each column chunk's metadata is found in O(1).
func (f *File) HasFooterIndex() bool { return f.index != nil }

// ColumnChunk returns the metadata of leaf column col in row group rg,
// decoding it first when the file was opened with LazyColumns. Safe for
// concurrent use.
func (f *File) ColumnChunk(rg, col int) (*format.ColumnChunk, error) {
	if rg < 0 || rg >= len(f.Meta.RowGroups) {
		return nil, f.errorf(-1, "", -1, "row group %d out of range [0, %d)", rg, len(f.Meta.RowGroups))
	}
	if col < 0 || col >= len(f.Schema.Leaves) {
		return nil, f.errorf(rg, "", -1, "column %d out of range [0, %d)", col, len(f.Schema.Leaves))
	}
	g := &f.Meta.RowGroups[rg]
	if g.Columns != nil || g.ColumnsRaw == nil {
		if col >= len(g.Columns) {
			return nil, f.errorf(rg, "", -1, "%w: row group has %d column chunks", ErrCorrupt, len(g.Columns))
		}
		return &g.Columns[col], nil
	}
	lz := &f.lazy[rg]
	if c := f.compact(rg); c != nil {
		return lz.build(col, func(cc *format.ColumnChunk) error {
			c.ColumnChunk(col, cc)
			return f.checkColumnChunk(rg, col, cc)
		})
	}
	if f.index != nil {
		return lz.build(col, func(cc *format.ColumnChunk) error {
			if err := f.index.ColumnChunk(rg, col, cc); err != nil {
				return f.errorf(rg, f.Schema.Leaves[col].PathString(), -1, "%w: %w", ErrCorrupt, err)
			}
			return f.checkColumnChunk(rg, col, cc)
		})
	}
	lz.once.Do(func() {
		r := thrift.NewReader(g.ColumnsRaw)
		r.AliasStrings = true
		r.MaxAlloc = f.opts.MetadataMemory(len(f.footer))
		var tmp format.RowGroup
		// The raw bytes are the list: its header, then the structs.
		et, n, err := r.ListHeader()
		if err == nil && et != thrift.Struct && n > 0 {
			err = fmt.Errorf("column chunks: list of %v", et)
		}
		if err == nil && n != len(f.Schema.Leaves) {
			err = fmt.Errorf("row group has %d column chunks, the schema has %d columns", n, len(f.Schema.Leaves))
		}
		if err == nil {
			tmp.Columns = make([]format.ColumnChunk, n)
			for i := range tmp.Columns {
				if err = tmp.Columns[i].Decode(r); err != nil {
					break
				}
			}
		}
		if err == nil {
			for i := range tmp.Columns {
				if err = f.checkColumnChunk(rg, i, &tmp.Columns[i]); err != nil {
					break
				}
			}
		}
		lz.cols, lz.err = tmp.Columns, err
	})
	if errors.Is(lz.err, ErrLimit) {
		return nil, f.errorf(rg, "", -1, "column chunks: %w", lz.err)
	}
	if lz.err != nil {
		return nil, f.errorf(rg, "", -1, "%w: %w", ErrCorrupt, lz.err)
	}
	return &lz.cols[col], nil
}

// compact returns the compact records of row group rg's column chunks,
// nil where the file has none.
func (f *File) compact(rg int) *format.Chunks {
	if rg < len(f.chunks) {
		return f.chunks[rg]
	}
	return nil
}

// build returns column chunk col of the row group, built by fill the
// first time it is asked for.
func (lz *lazyRowGroup) build(col int, fill func(*format.ColumnChunk) error) (*format.ColumnChunk, error) {
	lz.mu.Lock()
	defer lz.mu.Unlock()
	if cc, ok := lz.one[col]; ok {
		return cc, nil
	}
	cc := new(format.ColumnChunk)
	if err := fill(cc); err != nil {
		return nil, err
	}
	if lz.one == nil {
		lz.one = map[int]*format.ColumnChunk{}
	}
	lz.one[col] = cc
	return cc, nil
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

type closerFunc func() error

func (c closerFunc) Close() error { return c() }
