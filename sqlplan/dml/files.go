package dml

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// Table files: naming a folder table's new files, writing a file whole,
// appending to a table, checking and dropping folder tables.

var fileSeq struct {
	sync.Mutex
	n int
}

// NextFileSeq numbers the new files of folder tables within the process.
func NextFileSeq() int {
	fileSeq.Lock()
	defer fileSeq.Unlock()
	fileSeq.n++
	return fileSeq.n
}

// OpenTableWriter starts an atomic append to a local table: to a
// single-file table through the writer's crash-safe append, to a folder
// table as a new file.
func OpenTableWriter(path string, sch *schema.Schema, folder bool, opts []writer.Option) (*writer.Writer, error) {
	if !folder {
		return writer.Append(path, sch, opts...)
	}
	// Temporary files of writers killed before they finished are
	// garbage: no reader looks at them.
	writer.RemoveStaleTemps(path)
	return writer.Create(filepath.Join(path, NewPartName()), sch, opts...)
}

// NewPartName names a new file of a folder table: names sort in the order
// files are added.
func NewPartName() string {
	return fmt.Sprintf("part-%d-%d-%d.parquet", time.Now().UnixNano(), os.Getpid(), NextFileSeq())
}

// WriteFile writes the file at path (through a temporary one) as fill
// writes it.
func WriteFile(path string, sch *schema.Schema, opts []writer.Option, fill func(*writer.Writer) error) error {
	w, err := writer.Create(path, sch, opts...)
	if err != nil {
		return err
	}
	if err := fill(w); err != nil {
		return errors.Join(err, w.Abort())
	}
	return w.Close()
}

// CopyWith writes the row groups of src (if any) as stored, then batches.
func CopyWith(w *writer.Writer, src *file.File, batches [][]*vector.Vector) error {
	for rg := 0; src != nil && rg < src.NumRowGroups(); rg++ {
		if err := w.CopyRowGroup(src, rg); err != nil {
			return err
		}
	}
	for _, b := range batches {
		if err := w.WriteBatch(b); err != nil {
			return err
		}
	}
	return nil
}

// rewriteMark separates a rewritten file's original name from what makes
// the new name unique: "part-1.parquet" becomes "part-1.rw-<time>-….parquet"
// (and stays "part-1.rw-…" when rewritten again), which sorts right after
// the name it replaces, so the table's rows keep their order.
const rewriteMark = ".rw-"

// RewrittenName names the file that replaces the folder's file rel
// (slash-separated): a name the folder never held.
func RewrittenName(rel string) string {
	dir, base := path.Split(rel)
	stem := strings.TrimSuffix(base, ".parquet")
	if i := strings.Index(stem, rewriteMark); i >= 0 {
		stem = stem[:i]
	}
	return fmt.Sprintf("%s%s%s%d-%d-%d.parquet", dir, stem, rewriteMark, time.Now().UnixNano(), os.Getpid(), NextFileSeq())
}

// DropFolder removes a folder table (or Delta table) in one step as
// readers and the catalog see it: the folder is renamed to a hidden name
// beside it (".NAME.dropped-…", which no listing of tables or files
// reads) and removed from there. Folders that a DROP killed before it
// finished left under such names go too.
func DropFolder(dir string) error {
	parent, base := filepath.Split(filepath.Clean(dir))
	prefix := "." + base + ".dropped-"
	gone := filepath.Join(parent, fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), time.Now().UnixNano()))
	if err := os.Rename(dir, gone); err != nil {
		return err
	}
	if d, err := os.Open(parent); err == nil {
		d.Sync() // the rename is the drop: make it durable before the removal
		d.Close()
	}
	ents, _ := os.ReadDir(parent)
	for _, d := range ents {
		if strings.HasPrefix(d.Name(), prefix) {
			os.RemoveAll(filepath.Join(parent, d.Name()))
		}
	}
	return nil
}

// TableFolder checks that dir is a folder table: not the database's
// root, holding Parquet files (and what writers leave beside them) in
// folders of any depth, and nothing else — no other files, no links.
func TableFolder(dir, root string) error {
	if sameDir(dir, root) {
		return errors.New("the database folder itself is not a table")
	}
	found := false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file", p)
		case strings.HasSuffix(name, ".parquet"):
			found = true
			if ok, err := IsParquetFile(p); err != nil {
				return err
			} else if !ok {
				return fmt.Errorf("%s is not a Parquet file", p)
			}
			return nil
		case strings.HasSuffix(name, writer.JournalSuffix) || writer.IsTempName(name) || name == "_SUCCESS" || strings.HasSuffix(name, ".crc"),
			strings.HasPrefix(name, writer.StagedMarkPrefix): // a COMMIT's mark, until it removes it (ExchangeOp)
			return nil // what writers leave beside their files
		}
		return fmt.Errorf("%s is not a Parquet file", p)
	})
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%s holds no Parquet file", dir)
	}
	return nil
}

// IsParquetFile reports whether the file at p starts with a Parquet magic.
func IsParquetFile(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var head [4]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false, nil
	}
	return string(head[:]) == "PAR1" || string(head[:]) == "PARE", nil
}

// sameDir reports whether two paths name one folder.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
