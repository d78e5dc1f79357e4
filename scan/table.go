package scan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// Options configure how a table's files are opened.
type Options struct {
	// Mmap maps files into memory instead of reading them.
	Mmap bool
	// SkipChecksums turns off the page checks (CRC32, offset index) done
	// by default (see file.Options.SkipChecksums).
	SkipChecksums bool
	// Limits bound what the files' sizes and counts may make the reader
	// allocate (see file.Limits; zero fields take the defaults).
	Limits file.Limits
	// DeltaVersion, for a Delta table, reads the snapshot at that version
	// instead of the latest.
	DeltaVersion *int64
	// Root, when set, confines every file the table reads (the files a
	// folder or glob lists, a Delta table's data files and deletion
	// vectors) to its folder.
	Root *Root
	// Store holds the options of object stores (region, endpoint, ...;
	// see package objstore) for tables whose paths are URLs.
	Store map[string]string
	// Decryption gives the keys of files that use Parquet Modular
	// Encryption (see file.Options.Decryption).
	Decryption *file.Decryption
}

// Column is a top-level column of a table.
type Column struct {
	Name string
	// Field is the column's logical field (from the files' schema); nil for
	// a hive partition column.
	Field *schema.Field
	// Partition marks a column whose values come from `key=value` folder
	// names; PartitionType says how they are typed.
	Partition     bool
	PartitionType PartitionType
}

// PartitionType is the type inferred for a hive partition column: Int64
// when every value parses as an integer, else String.
type PartitionType uint8

const (
	PartitionString PartitionType = iota
	PartitionInt64
)

// FileRef is one file of a table.
type FileRef struct {
	Path string
	Size int64
	// ETag identifies a remote file's content (as listed).
	ETag string
	// Partition holds the file's hive partition values by column name:
	// int64 or string, per the column's PartitionType (nil for
	// __HIVE_DEFAULT_PARTITION__).
	Partition map[string]any
}

// Table is a set of Parquet files read as one table: a file, a folder
// (recursively, with hive partitions), or a glob.
type Table struct {
	Name    string
	Path    string
	Files   []FileRef
	Columns []Column
	opts    Options

	mu     sync.Mutex
	open   map[string]*file.File
	closed bool

	// delta is set for a Delta table (a folder with a _delta_log).
	delta *deltaState

	// base, for a table made by WithFile, is the table whose files come
	// first: they are read through it (its open files, its snapshot).
	base *Table
}

// ErrNoFiles is returned for a folder or glob without Parquet files.
var ErrNoFiles = errors.New("no Parquet files")

// Open makes a table of the file, folder or glob at path. A folder with
// a _delta_log is a Delta table: its files, schema and partition values
// come from the log (see package delta).
func Open(path string, opts Options) (*Table, error) {
	if objstore.IsURL(path) {
		opts.Store = objstore.WithOptions(path, opts.Store) // its files' URLs carry none
	}
	if isDeltaRoot(path, opts.Store) {
		if objstore.IsURL(path) {
			u, _, _ := strings.Cut(path, "?")
			return openDelta(strings.TrimSuffix(u, "/"), opts)
		}
		return openDelta(path, opts)
	}
	if opts.DeltaVersion != nil {
		return nil, fmt.Errorf("%s: a version applies to Delta tables only", path)
	}
	// A folder edit (writer.FolderEdit) swaps the folder for its next
	// version: a listing of the old one whose files are opened after the
	// swap misses the files the edit removed (never finds others under
	// their names), and is then made again.
	for range 100 {
		t, err := openListed(path, opts)
		if !errors.Is(err, fs.ErrNotExist) || objstore.IsURL(path) {
			return t, err
		}
		if _, serr := os.Stat(path); serr != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%s: the folder keeps changing while it is listed", path)
}

// openListed lists the files of a table that is not a Delta table and
// opens them.
func openListed(path string, opts Options) (*Table, error) {
	refs, root, err := listTable(path, opts)
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrNoFiles)
	}
	for _, r := range refs {
		if err := opts.Root.Check(r.Path, false); err != nil {
			return nil, err
		}
	}
	t := &Table{Name: tableName(path), Path: path, opts: opts, open: map[string]*file.File{}}
	partCols := map[string]bool{}
	var partOrder []string
	for _, ref := range refs {
		if root != "" {
			ref.Partition = map[string]any{}
			var rel string
			if objstore.IsURL(ref.Path) {
				rel = relDir(root, ref.Path)
			} else {
				rel, _ = filepath.Rel(root, filepath.Dir(ref.Path))
			}
			for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
				if k, v, ok := strings.Cut(part, "="); ok && k != "" {
					// Values are percent-encoded as DuckDB's PARTITION_BY
					// writes them ("a%2Fb" for "a/b").
					if dec, err := url.PathUnescape(v); err == nil {
						v = dec
					}
					ref.Partition[k] = v
					if !partCols[k] {
						partCols[k] = true
						partOrder = append(partOrder, k)
					}
				}
			}
		}
		t.Files = append(t.Files, ref)
	}
	if err := t.openAll(); err != nil {
		t.Close()
		return nil, err
	}
	if err := t.buildColumns(partOrder); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// openAll opens the footers of a remote table's files in parallel (16
// requests at a time), before buildColumns reads them one by one.
func (t *Table) openAll() error {
	if len(t.Files) < 2 || !objstore.IsURL(t.Files[0].Path) {
		return nil
	}
	sem := make(chan struct{}, 16)
	errs := make([]error, len(t.Files))
	var wg sync.WaitGroup
	for i := range t.Files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			_, errs[i] = t.File(i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func tableName(path string) string {
	if objstore.IsURL(path) {
		path, _, _ = strings.Cut(path, "?")
	}
	base := filepath.Base(strings.TrimRight(path, "/"))
	return strings.TrimSuffix(base, ".parquet")
}

// listTable lists a table's files with their sizes: by key in an object
// store, else by the file system.
func listTable(path string, opts Options) ([]FileRef, string, error) {
	if objstore.IsURL(path) {
		return listRemote(context.Background(), path, opts)
	}
	paths, root, err := listFiles(path)
	if err != nil {
		return nil, "", err
	}
	refs := make([]FileRef, 0, len(paths))
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, "", err
		}
		refs = append(refs, FileRef{Path: p, Size: st.Size()})
	}
	return refs, root, nil
}

// listFiles returns the Parquet files a path names and, for a folder, the
// folder (the root of hive partition names).
func listFiles(path string) ([]string, string, error) {
	if strings.ContainsAny(path, "*?[") {
		m, err := filepath.Glob(path)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		var out []string
		for _, p := range m {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				out = append(out, p)
			}
		}
		sort.Strings(out)
		return out, "", nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, "", err
	}
	if !st.IsDir() {
		return []string{path}, "", nil
	}
	for range 100 {
		out, err := walkFolder(path)
		// A folder swapped while it was walked (writer.FolderEdit) may
		// have been read partly before and partly after: walk it again.
		now, serr := os.Stat(path)
		if serr != nil {
			return nil, "", serr
		}
		if os.SameFile(st, now) {
			return out, path, err
		}
		st = now
	}
	return nil, "", fmt.Errorf("%s: the folder keeps changing while it is listed", path)
}

// walkFolder lists the Parquet files of a folder table, in any subfolder
// that is not hidden, in the order of their paths.
func walkFolder(path string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != path && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".parquet") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// File opens (once) and returns the i-th file.
func (t *Table) File(i int) (*file.File, error) {
	if t.base != nil && i < len(t.base.Files) {
		return t.base.File(i)
	}
	ref := t.Files[i]
	t.mu.Lock()
	if f, ok := t.open[ref.Path]; ok {
		t.mu.Unlock()
		return f, nil
	}
	if objstore.IsURL(ref.Path) {
		// A request: made outside the lock, so that files open in
		// parallel (openAll); the first to finish is kept.
		t.mu.Unlock()
		f, err := t.openRemoteFile(ref)
		if err != nil {
			return nil, err
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if g, ok := t.open[ref.Path]; ok {
			f.Close()
			return g, nil
		}
		if t.closed {
			f.Close() // opened ahead for a scan that is over
			return nil, fmt.Errorf("%s: the table is closed", ref.Path)
		}
		t.open[ref.Path] = f
		return f, nil
	}
	defer t.mu.Unlock()
	// Column chunk metadata is decoded lazily: a query over a wide table
	// decodes only the chunks of the columns it reads.
	f, err := file.OpenFile(ref.Path, file.Options{SkipChecksums: t.opts.SkipChecksums, LazyColumns: true, Limits: t.opts.Limits, Decryption: t.opts.Decryption}, t.opts.Mmap)
	if err != nil {
		return nil, err
	}
	t.open[ref.Path] = f
	return f, nil
}

// WithFile returns the table of t's files followed by the Parquet file at
// path, whose columns must agree with t's (as a folder's files do): a
// transaction's view of a table with the rows it has not committed yet.
// t's files are read through t; closing the new table closes only the
// file it added. Tables with hive partition columns or a Delta log are
// refused.
func (t *Table) WithFile(path string) (*Table, error) {
	if t.delta != nil {
		return nil, fmt.Errorf("%s: a Delta table cannot take another file", t.Path)
	}
	for _, c := range t.Columns {
		if c.Partition {
			return nil, fmt.Errorf("%s: a table with partition columns cannot take another file", t.Path)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	u := &Table{Name: t.Name, Path: t.Path, Columns: t.Columns, opts: t.opts, open: map[string]*file.File{}, base: t}
	u.Files = append(append([]FileRef(nil), t.Files...), FileRef{Path: path, Size: st.Size()})
	return u, nil
}

// Close closes the table's open files.
func (t *Table) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	var first error
	for p, f := range t.open {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
		delete(t.open, p)
	}
	return first
}

// buildColumns derives the table's columns from the first file's schema
// and checks that every other file agrees (missing columns are allowed and
// read as NULL; a column of a different type is an error naming both files).
func (t *Table) buildColumns(partOrder []string) error {
	first, err := t.File(0)
	if err != nil {
		return err
	}
	fields, err := first.Schema.LogicalFields()
	if err != nil {
		return fmt.Errorf("%s: %w", first.Name(), err)
	}
	byName := map[string]int{}
	for _, f := range fields {
		byName[f.Name] = len(t.Columns)
		t.Columns = append(t.Columns, Column{Name: f.Name, Field: f})
	}
	for i := 1; i < len(t.Files); i++ {
		f, err := t.File(i)
		if err != nil {
			return err
		}
		other, err := f.Schema.LogicalFields()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name(), err)
		}
		for _, of := range other {
			j, ok := byName[of.Name]
			if !ok {
				byName[of.Name] = len(t.Columns)
				t.Columns = append(t.Columns, Column{Name: of.Name, Field: of})
				continue
			}
			if err := compatible(t.Columns[j].Field, of); err != nil {
				return fmt.Errorf("column %q: %s and %s differ (%w): %w", of.Name, first.Name(), f.Name(), file.ErrSchemaMismatch, err)
			}
			if widens(t.Columns[j].Field, of) {
				t.Columns[j].Field = of // the table reads INT32 files as INT64
			}
		}
	}
	for _, k := range partOrder {
		if _, dup := byName[k]; dup {
			continue // a column in the files wins over a folder name
		}
		typ := PartitionInt64
		for i := range t.Files {
			v, ok := t.Files[i].Partition[k]
			if !ok || v == "__HIVE_DEFAULT_PARTITION__" {
				continue
			}
			if _, err := strconv.ParseInt(v.(string), 10, 64); err != nil {
				typ = PartitionString
			}
		}
		for i := range t.Files {
			v, ok := t.Files[i].Partition[k]
			switch {
			case !ok || v == "__HIVE_DEFAULT_PARTITION__":
				t.Files[i].Partition[k] = nil
			case typ == PartitionInt64:
				n, _ := strconv.ParseInt(v.(string), 10, 64)
				t.Files[i].Partition[k] = n
			}
		}
		t.Columns = append(t.Columns, Column{Name: k, Partition: true, PartitionType: typ})
	}
	return nil
}

// compatible checks that two files' versions of a column can be read as
// one: same shape and physical type, or INT32 widening to INT64.
func compatible(a, b *schema.Field) error {
	if a.Kind != b.Kind {
		return fmt.Errorf("%s vs %s", a.Kind, b.Kind)
	}
	if a.Kind == schema.Primitive {
		pa, pb := a.Node.Physical, b.Node.Physical
		if pa != pb && !(pa == format.Int64 && pb == format.Int32) && !(pa == format.Int32 && pb == format.Int64) {
			return fmt.Errorf("%v vs %v", pa, pb)
		}
		return nil
	}
	if len(a.Children) != len(b.Children) {
		return fmt.Errorf("%d vs %d fields", len(a.Children), len(b.Children))
	}
	for i := range a.Children {
		if err := compatible(a.Children[i], b.Children[i]); err != nil {
			return fmt.Errorf("%s: %w", a.Children[i].Name, err)
		}
	}
	return nil
}

// widens reports whether primitive field b is an INT64 version of INT32 a.
func widens(a, b *schema.Field) bool {
	return a.Kind == schema.Primitive && b.Kind == schema.Primitive &&
		a.Node.Physical == format.Int32 && b.Node.Physical == format.Int64
}

// Column returns the column with the given name (case-insensitively if no
// exact match), or nil.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return &t.Columns[i]
		}
	}
	return nil
}

// NumRows is the number of rows in all files, from their footers (for a
// Delta table, from the add actions' statistics, less deleted rows).
func (t *Table) NumRows() (int64, error) {
	if t.delta != nil {
		return t.deltaNumRows()
	}
	var n int64
	for i := range t.Files {
		f, err := t.File(i)
		if err != nil {
			return 0, err
		}
		n += f.NumRows()
	}
	return n, nil
}
