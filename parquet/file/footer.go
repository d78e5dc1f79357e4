package file

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

var (
	magic          = []byte("PAR1")
	magicEncrypted = []byte("PARE")
)

// DefaultTailRead is how much of a file's end Open reads at first, in the
// hope that it holds the whole footer (it almost always does).
const DefaultTailRead = 64 << 10

// MaxFooterSize bounds the footer length a file may claim.
const MaxFooterSize = 1 << 30

// Options configure how a file is opened and read.
type Options struct {
	// Name is used in error messages (a path, usually).
	Name string
	// VerifyChecksums checks the CRC32 of every page that carries one.
	VerifyChecksums bool
	// TailRead is the size of the first read of the file's end; 0 means
	// DefaultTailRead.
	TailRead int
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
}

// Open reads the footer of the Parquet file held by r (size bytes long).
func Open(r io.ReaderAt, size int64, opts Options) (*File, error) {
	f := &File{name: opts.Name, r: r, size: size, opts: opts}
	if err := f.readFooter(); err != nil {
		return nil, err
	}
	return f, nil
}

// OpenFile opens the Parquet file at path. With mmap the file is mapped
// into memory (where the platform allows), which makes reads copy-free.
func OpenFile(path string, opts Options, mmap bool) (*File, error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := osf.Stat()
	if err != nil {
		osf.Close()
		return nil, err
	}
	if opts.Name == "" {
		opts.Name = path
	}
	var r io.ReaderAt = osf
	var mapped []byte
	var closer io.Closer = osf
	if mmap && st.Size() > 0 {
		if m, err := mmapFile(osf, st.Size()); err == nil {
			mapped = m
			r = bytesReaderAt(m)
			closer = closerFunc(func() error {
				err := munmap(m)
				if cerr := osf.Close(); err == nil {
					err = cerr
				}
				return err
			})
		}
	}
	f, err := Open(r, st.Size(), opts)
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
		return f.errorf(-1, "", -1, "%w: %d bytes is too short for a Parquet file", ErrNotParquet, f.size)
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
		return f.wrap(-1, "", f.size-4, fmt.Errorf("%w (footer magic PARE)", ErrEncrypted))
	default:
		return f.errorf(-1, "", f.size-4, "%w: the file does not end with PAR1 (found %q)", ErrNotParquet, end)
	}
	n := int64(binary.LittleEndian.Uint32(buf[len(buf)-8:]))
	if n <= 0 || n > f.size-12 || n > MaxFooterSize {
		return f.errorf(-1, "", f.size-8, "%w: footer length %d does not fit a file of %d bytes", ErrCorrupt, n, f.size)
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
	head := make([]byte, 4)
	if _, err := f.r.ReadAt(head, 0); err != nil && err != io.EOF {
		return f.wrap(-1, "", 0, err)
	}
	if string(head) != string(magic) {
		return f.errorf(-1, "", 0, "%w: the file does not start with PAR1 (found %q)", ErrNotParquet, head)
	}
	meta := new(format.FileMetaData)
	// The footer bytes stay with the File and are never written, so the
	// metadata's strings may share them.
	if _, err := format.UnmarshalAliased(footer, meta); err != nil {
		return f.errorf(-1, "", start, "%w: footer: %w", ErrCorrupt, err)
	}
	f.footer = footer
	f.Meta = meta
	// A plaintext footer with encrypted columns (EncryptionAlgorithm set)
	// opens: its schema is readable, and reading an encrypted column
	// reports it by name.
	sch, err := schema.FromElements(meta.Schema)
	if err != nil {
		return f.errorf(-1, "", start, "%w", err)
	}
	f.Schema = sch
	return f.checkRowGroups(start)
}

// checkRowGroups validates what later reads rely on: each row group has one
// chunk per leaf column, with metadata, within the file.
func (f *File) checkRowGroups(footerStart int64) error {
	leaves := len(f.Schema.Leaves)
	for i := range f.Meta.RowGroups {
		rg := &f.Meta.RowGroups[i]
		if len(rg.Columns) != leaves {
			return f.errorf(i, "", -1, "%w: row group has %d column chunks, the schema has %d columns", ErrCorrupt, len(rg.Columns), leaves)
		}
		if rg.NumRows < 0 {
			return f.errorf(i, "", -1, "%w: negative row count %d", ErrCorrupt, rg.NumRows)
		}
		for c := range rg.Columns {
			cc := &rg.Columns[c]
			path := f.Schema.Leaves[c].PathString()
			if cc.CryptoMetadata != nil || cc.EncryptedColumnMetadata != nil {
				continue // reported when the column is read
			}
			md := cc.MetaData
			if md == nil {
				return f.errorf(i, path, -1, "%w: column chunk has no metadata", ErrCorrupt)
			}
			if md.TotalCompressedSize < 0 || md.DataPageOffset < 0 {
				return f.errorf(i, path, -1, "%w: negative offset or size in column metadata", ErrCorrupt)
			}
		}
	}
	return nil
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
