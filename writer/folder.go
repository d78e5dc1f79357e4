package writer

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
)

// Folder tables are folders of Parquet files, read in the order of their
// names. Their writers add files (written under a temporary name, then
// put in place); CompactFolder replaces small files by one. Writers take
// the folder's lock (LockFolder) shared while they put a file in place,
// CompactFolder takes it exclusive, so that no file lands in a folder
// being replaced.

// LockFolder takes the lock of the folder dir, shared or exclusive,
// waiting for it; unlock releases it. A folder replaced while this waits
// (by CompactFolder) is locked anew under its path.
func LockFolder(dir string, exclusive bool) (unlock func(), err error) {
	for range 100 {
		d, err := os.Open(dir)
		if err != nil {
			return nil, fmt.Errorf("writer: %w", err)
		}
		if err := lockDir(d, exclusive); err != nil {
			d.Close()
			return nil, fmt.Errorf("writer: lock %s: %w", dir, err)
		}
		held, err1 := d.Stat()
		now, err2 := os.Stat(dir)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() {
				unlockFile(d)
				d.Close()
			}, nil
		}
		unlockFile(d)
		d.Close()
		if err2 != nil {
			return nil, fmt.Errorf("writer: %w", err2)
		}
	}
	return nil, fmt.Errorf("writer: %s keeps being replaced", dir)
}

// TryLockFolder takes the lock of the folder dir exclusive if no one
// holds it: ok is false (and unlock nil) when someone does.
func TryLockFolder(dir string) (unlock func(), ok bool, err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, false, fmt.Errorf("writer: %w", err)
	}
	if ok, err := tryLockFile(d); err != nil || !ok {
		d.Close()
		return nil, false, err
	}
	return func() {
		unlockFile(d)
		d.Close()
	}, true, nil
}

// CompactFolder replaces each run of two or more consecutive small files
// (fewer rows than the row group size of opts) of the folder table dir by
// one file with their rows, in order, named so that it sorts where the
// run was. The folder is swapped whole for a copy (hard links of the
// files kept, the new files) in one step: readers that list it see the
// old files or the new, never a mix (see FolderEdit). The
// folder must hold no subfolders. It returns the number of rows
// rewritten, 0 when there was nothing to merge.
func CompactFolder(dir string, opts ...Option) (int64, error) {
	edit, err := EditFolder(dir)
	if err != nil {
		return 0, err
	}
	defer edit.Abort()
	rows, err := edit.Compact(opts...)
	if err != nil || rows == 0 {
		return 0, err
	}
	return rows, edit.Commit()
}

// Compact makes in the edit's version of its folder the merges
// CompactFolder makes (the folder as the edit starts from it: a staged
// edit's snapshot); the caller commits the edit. It returns the number
// of rows rewritten, 0 when there was nothing to merge.
func (e *FolderEdit) Compact(opts ...Option) (int64, error) {
	names, small, err := folderFiles(e.dir, e.only, opts)
	if err != nil {
		return 0, err
	}
	var runs [][]string
	for i := 0; i < len(names); {
		j := i
		for j < len(names) && small[j] {
			j++
		}
		if j-i >= 2 {
			runs = append(runs, names[i:j])
		}
		i = max(j, i+1)
	}
	var rows int64
	for _, run := range runs {
		// The merged file sorts where the run was, under a new name.
		name := strings.TrimSuffix(run[0], ".parquet") + fmt.Sprintf("-compacted-%d.parquet", time.Now().UnixNano())
		n, err := concatFiles(e, name, e.dir, run, opts)
		if err != nil {
			return 0, err
		}
		for _, old := range run {
			e.Remove(old)
		}
		rows += n
	}
	return rows, nil
}

// SmallFiles counts the files of the folder table dir that have fewer
// rows than the row group size of opts: those CompactFolder merges when
// two are next to each other.
func SmallFiles(dir string, opts ...Option) (int, error) {
	_, small, err := folderFiles(dir, nil, opts)
	n := 0
	for _, s := range small {
		if s {
			n++
		}
	}
	return n, err
}

// folderFiles lists the folder table dir: the names of the files the
// table reads, in order, and which of those are small (fewer rows than
// the row group size of opts). A folder with subfolders is an error:
// CompactFolder does not compact partitioned tables. only, when not nil,
// keeps the names it holds (a staged edit's snapshot).
func folderFiles(dir string, only map[string]bool, opts []Option) (names []string, small []bool, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("writer: %w", err)
	}
	cfg := defaultConfig()
	for _, o := range opts {
		o(cfg)
	}
	for _, e := range ents {
		if e.IsDir() {
			return nil, nil, fmt.Errorf("writer: compact %s: a folder with subfolders (%s) is not compacted", dir, e.Name())
		}
		if isTableFile(e.Name()) && (only == nil || only[e.Name()]) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	small = make([]bool, len(names))
	for i, name := range names {
		f, err := file.OpenFile(filepath.Join(dir, name), file.Options{}, false)
		if err != nil {
			return nil, nil, err
		}
		small[i] = f.NumRows() < cfg.rowGroupRows
		f.Close()
	}
	return names, small, nil
}

// isTableFile reports whether a folder table reads the file name.
func isTableFile(name string) bool {
	return strings.HasSuffix(name, ".parquet") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// concatFiles writes the rows of the files names of dir, in order, to a
// new file name of the edit, keeping the first file's key-value metadata.
func concatFiles(edit *FolderEdit, name, dir string, names []string, opts []Option) (int64, error) {
	first, err := file.OpenFile(filepath.Join(dir, names[0]), file.Options{}, false)
	if err != nil {
		return 0, err
	}
	sch := first.Schema
	var kv []Option
	for _, e := range first.Meta.KeyValueMetadata {
		if e.Value.Set {
			kv = append(kv, WithKeyValue(e.Key, e.Value.Value))
		}
	}
	first.Close()
	w, err := edit.Create(name, sch, append(kv, opts...)...)
	if err != nil {
		return 0, err
	}
	for _, name := range names {
		if err := copyFile(w, filepath.Join(dir, name)); err != nil {
			return 0, abortWith(w, err)
		}
	}
	n := w.NumRows()
	return n, w.Close()
}

// copyFile writes every row of the file at path to w.
func copyFile(w *Writer, path string) error {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := sameSchema(w.sch, f.Schema); err != nil {
		return fmt.Errorf("writer: %s: %w", path, err)
	}
	return copyRows(w, f)
}

// copyRows writes every row of f to w, in order.
func copyRows(w *Writer, f *file.File) error {
	return readInto(w, f, file.ReaderOptions{})
}

// copyRowGroupRows writes the rows of row group rg of f to w.
func copyRowGroupRows(w *Writer, f *file.File, rg int) error {
	return readInto(w, f, file.ReaderOptions{RowGroups: []int{rg}})
}

// readInto writes the rows f's reader returns with opts to w.
func readInto(w *Writer, f *file.File, opts file.ReaderOptions) error {
	r, err := f.NewReader(opts)
	if err != nil {
		return err
	}
	for {
		b, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := w.WriteBatch(b.Columns); err != nil {
			return err
		}
	}
}

func abortWith(w *Writer, err error) error {
	w.Abort()
	return err
}

// globEscape quotes the glob characters of a name.
func globEscape(name string) string {
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
