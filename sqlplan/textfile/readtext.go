package textfile

import (
	"context"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_text(path | glob) and read_blob: a row per file, with DuckDB's
// columns filename, content (VARCHAR, which must be UTF-8, or BLOB), size
// and last_modified. The files are read when the scan runs, a batch of
// them at a time, never at planning (DESCRIBE reads none). A pattern
// that names no file gives no row, as in DuckDB.

// readTextMaxFile bounds one file's content: a column's offsets are
// 32-bit.
const readTextMaxFile = 1 << 30

// The bounds of a batch of read_text: files, and bytes of content.
const (
	readTextBatchFiles = 64
	readTextBatchBytes = 64 << 20
)

// ReadText is the scan of read_text, or with blob of read_blob, over
// the files, and its columns.
func ReadText(files []File, blob bool) (Scan, []Column) {
	content := tString
	if blob {
		content = tBlob
	}
	cols := []Column{{Name: "filename", Type: tString, Nullable: true}, {Name: "content", Type: content, Nullable: true},
		{Name: "size", Type: tBigint, Nullable: true}, {Name: "last_modified", Type: tTimestampTZ, Nullable: true}}
	return &readTextScan{files: files, blob: blob}, cols
}

// readTextScan reads whole files as rows.
type readTextScan struct {
	files []File
	blob  bool
	next  int
}

func (n *readTextScan) Next(ctx context.Context) (*vec.Batch, error) {
	if n.next >= len(n.files) {
		return nil, io.EOF
	}
	content := tString
	if n.blob {
		content = tBlob
	}
	names, data := vec.NewBuilder(tString, readTextBatchFiles), vec.NewBuilder(content, readTextBatchFiles)
	sizes, times := vec.NewBuilder(tBigint, readTextBatchFiles), vec.NewBuilder(tTimestampTZ, readTextBatchFiles)
	rows := 0
	for n.next < len(n.files) && rows < readTextBatchFiles && len(data.C.Data) < readTextBatchBytes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f := n.files[n.next]
		n.next++
		st, err := os.Stat(f.Path)
		if err != nil {
			return nil, errorf("%s: %v", f.Name, err)
		}
		if st.Size() > readTextMaxFile {
			return nil, errorf("%s: %d bytes, more than the %d bytes read_text reads from one file", f.Name, st.Size(), readTextMaxFile)
		}
		body, err := readAtMost(f.Path, readTextMaxFile)
		if err != nil {
			return nil, errorf("%s: %v", f.Name, err)
		}
		if !n.blob && !utf8.Valid(body) {
			return nil, errorf("read_text: %s is not valid UTF-8; read_blob reads it as BLOB", f.Name)
		}
		names.Add(f.Name)
		data.C.Data = append(data.C.Data, body...)
		data.C.Off = append(data.C.Off, int32(len(data.C.Data)))
		pushed(data.C)
		sizes.Add(int64(len(body)))
		times.Add(st.ModTime().UnixMicro())
		rows++
	}
	return &vec.Batch{N: rows, Cols: []*vec.Col{names.C, data.C, sizes.C, times.C}}, nil
}

// readAtMost reads a file of at most limit bytes (the file may have
// grown since it was listed: what is past the limit is an error).
func readAtMost(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(body)) > limit {
		return nil, errorf("more than %d bytes", limit)
	}
	return body, err
}

func (n *readTextScan) Close() {}

// Label is the scan's line in EXPLAIN.
func (n *readTextScan) Label() string {
	what := "READ_TEXT"
	if n.blob {
		what = "READ_BLOB"
	}
	return fmt.Sprintf("%s (%d files)", what, len(n.files))
}
