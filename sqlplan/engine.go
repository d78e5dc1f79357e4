package sqlplan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// Options configure an Engine.
type Options struct {
	// Threads bounds the row groups decoded at once (0: GOMAXPROCS).
	Threads int
	// ReadOnly refuses every statement that writes.
	ReadOnly bool
	// Mmap and SkipChecksums are passed to the scan: pages are checked
	// (CRC32, offset index) unless SkipChecksums is set.
	Mmap          bool
	SkipChecksums bool
	// Compression is the codec of files and row groups written
	// (none, snappy, gzip, zstd, lz4_raw, brotli); "" means snappy.
	Compression string
	// RowGroupRows bounds the rows per row group written (0: the writer's default).
	RowGroupRows int64
	// Now returns the time now() and current_date see (time.Now if nil).
	Now func() time.Time
	// DeltaVersion reads Delta tables at that version instead of the
	// latest (a table name's @vN suffix still wins).
	DeltaVersion *int64
	// Limits bound what the files' sizes and counts may make the reader
	// allocate (zero fields take the defaults).
	Limits Limits
	// MemoryLimit is the default of the memory_limit setting in bytes:
	// what the operators of one query that hold rows (hash tables, sorts,
	// windows) may hold together before the query fails (memory.go). 0
	// takes Limits.MaxScanMemory if set, else no limit.
	MemoryLimit uint64
	// ExternalRead lets statements read files outside the root (paths and
	// globs that resolve elsewhere); writes and deletions stay confined.
	ExternalRead bool
	// SQL bounds the statements Prepare accepts (zero fields take the
	// defaults).
	SQL SQLLimits
	// Store holds object store options (region, endpoint, ...; see
	// package objstore) for a root or paths that are URLs.
	Store map[string]string
	// Decryption gives the keys of files that use Parquet Modular
	// Encryption; nil reads only plaintext files and the plaintext
	// columns of files with a plaintext footer. With a FooterKey, files
	// written by statements are encrypted (Engine.encryption).
	Decryption *Decryption
}

// Decryption is parquet/file's decryption configuration (see
// file.Decryption).
type Decryption = file.Decryption

// Limits are parquet/file's reader limits (see file.Limits).
type Limits = file.Limits

// Engine runs SQL over the Parquet files below one root: a folder (every
// *.parquet file is a table named by its base name, every sub-folder
// holding Parquet files a table named by the folder) or one file. An
// Engine is safe for concurrent use.
type Engine struct {
	root string // folder holding the tables
	// confine is root as a scan.Root: every path a statement names
	// resolves inside it (tablePath) or the statement is refused.
	confine *scan.Root
	single  string // the one file's table name when the root is a file
	file    string
	opts    Options
	mu      sync.Mutex
	tables  map[string]*tableEntry
	byTable map[*scan.Table]*tableEntry
	stmts   map[string]*Stmt // parsed statements by text
	// views are the views CREATE VIEW made, by lower-case name: their
	// queries' tokens; those of the folder's catalog (catalogfile.go) and
	// the engine's temporary ones.
	views, tempViews map[string]*view
	// macros are the macros CREATE MACRO made (macros.go), kept and
	// temporary.
	macros map[macroKey]*macro
	// types are the types CREATE TYPE made, by lower-case name
	// (enumtypes.go).
	types map[string]*userType
	// catalogStamp is the catalog file's size and time when the engine
	// last read or wrote it.
	catalogStamp string
	// catalog is the catalog file's path (catalogfile.go), "" for an
	// engine over one file or an object store.
	catalog string
	// writeMu serializes this engine's writes; opening a table takes it
	// for reading so that no footer is read while an append is half done.
	writeMu sync.RWMutex
	// groups joins concurrent INSERTs into one table (dml.InsertGroups).
	groups dml.InsertGroups
	// targets keeps the targets of statements that write single-file
	// tables (targetcache.go).
	targets targetCache
	// viewsGen counts the changes of the views (rebind.go).
	viewsGen uint64
	// seqs are the sequences (sequence.go), by lower-case name.
	seqs map[string]*sequence
	// setMu guards global, the settings a plain SET or SET GLOBAL
	// changes (settings.go); defaults are those before any SET, sess0 the
	// session of statements run without one.
	setMu    sync.Mutex
	global   plan.Settings
	defaults plan.Settings
	sess0    *Session
	// openSessions counts the sessions made and not closed, sess0 among
	// them (duckdb_connection_count(), systables.go).
	openSessions atomic.Int64
	// temp is the folder of the temporary tables (CREATE TEMP TABLE),
	// made with the first one and removed by Close; their names come
	// before the root's.
	temp string
	// attached are the folders ATTACH attached, by lower-case name
	// (attach.go).
	attached map[string]string
}

type tableEntry struct {
	t     *scan.Table
	stamp string
	refs  int
	stale bool
}

// Open returns an Engine over path.
func Open(path string, opts Options) (*Engine, error) {
	if opts.Threads <= 0 {
		opts.Threads = runtime.GOMAXPROCS(0)
	}
	e := &Engine{opts: opts, tables: map[string]*tableEntry{}, byTable: map[*scan.Table]*tableEntry{}, stmts: map[string]*Stmt{}}
	e.defaults = defaultSettings(opts)
	e.global = e.defaults
	e.sess0 = e.NewSession()
	if objstore.IsURL(path) {
		if err := e.openRemote(path); err != nil {
			return nil, err
		}
		var err error
		if e.confine, err = scan.NewRoot(e.root, opts.ExternalRead); err != nil {
			return nil, fmt.Errorf("carquet: %w", err)
		}
		return e, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("carquet: %w", err)
	}
	if st.IsDir() && !delta.IsTable(path) {
		e.root = path
	} else if st.IsDir() {
		// A Delta table is one table, named by its folder.
		e.root = filepath.Dir(filepath.Clean(path))
		e.file = path
		e.single = filepath.Base(filepath.Clean(path))
	} else {
		e.root = filepath.Dir(path)
		e.file = path
		e.single = strings.TrimSuffix(filepath.Base(path), ".parquet")
	}
	if e.confine, err = scan.NewRoot(e.root, opts.ExternalRead); err != nil {
		return nil, fmt.Errorf("carquet: %w", err)
	}
	if e.file == "" {
		e.catalog = filepath.Join(e.root, catalogFile)
		if err := e.loadCatalogLocked(); err != nil {
			return nil, err
		}
	}
	if err := e.recoverCommits(); err != nil {
		return nil, err
	}
	return e, nil
}

// Close closes the files the engine holds open.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, te := range e.tables {
		te.stale = true
		if te.refs == 0 {
			te.t.Close()
			delete(e.byTable, te.t)
		}
		delete(e.tables, k)
	}
	if e.temp != "" {
		os.RemoveAll(e.temp)
		e.temp = ""
	}
	return nil
}

// tempDir returns the folder of the temporary tables, made if need be.
func (e *Engine) tempDir() (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.temp == "" {
		d, err := os.MkdirTemp("", "carquet-temp-*")
		if err != nil {
			return "", err
		}
		if err := e.confine.Allow(d); err != nil {
			os.RemoveAll(d)
			return "", err
		}
		e.temp = d
	}
	return e.temp, nil
}

// tempTable returns the file of temporary table name (any case), if
// there is one.
func (e *Engine) tempTable(name string) (string, bool) {
	e.mu.Lock()
	dir := e.temp
	e.mu.Unlock()
	if dir == "" {
		return "", false
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	for _, d := range ents {
		if t, ok := strings.CutSuffix(d.Name(), ".parquet"); ok && !d.IsDir() && strings.EqualFold(t, name) {
			return filepath.Join(dir, d.Name()), true
		}
	}
	return "", false
}

// Root is the folder the engine's table names are relative to.
func (e *Engine) Root() string { return e.root }

func (e *Engine) now() time.Time {
	if e.opts.Now != nil {
		return e.opts.Now().UTC()
	}
	return time.Now().UTC()
}

// tablePath resolves a table name to the path of its file or folder.
// exists is false (with the path a new table would get) when no table
// has that name. It is the one place where names become paths: a name
// that is a path (quoted, a glob, a .parquet file) must resolve inside
// the root, or the statement is refused before any I/O (reads outside
// only with Options.ExternalRead).
func (e *Engine) tablePath(name string) (string, bool, error) {
	return e.lookupTable(name, true)
}

// rootTablePath is tablePath blind to the temporary tables, for a
// transaction that dropped the temporary table that hid a table of the
// root. Its names match in their exact case only.
func (e *Engine) rootTablePath(name string) (string, bool, error) {
	return e.lookupTable(name, false)
}

func (e *Engine) lookupTable(name string, withTemp bool) (string, bool, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return "", false, errorf("table name %q holds a NUL byte", name)
	}
	if parse.IsPathName(name) {
		p, err := e.confine.Join(name, false)
		if err != nil {
			return "", false, &Error{Msg: err.Error(), Offset: -1, Err: err}
		}
		if objstore.IsURL(p) {
			ok, err := e.remoteExists(p)
			return p, ok, err
		}
		if strings.ContainsAny(name, "*?[") {
			m, _ := filepath.Glob(p)
			return p, len(m) > 0, nil
		}
		_, err = os.Stat(p)
		return p, err == nil, nil
	}
	if name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", false, errorf("%q is not a table name", name)
	}
	if p, exists, ok, err := e.qualifiedPath(name); ok && (exists || err != nil || !e.plainExists(name)) {
		return p, exists, err // db.table (attach.go)
	}
	if p, ok := e.tempTable(name); ok && withTemp {
		return p, true, nil
	}
	if e.remote() {
		return e.remoteTablePath(name)
	}
	if e.file != "" && strings.EqualFold(name, e.single) {
		return e.file, true, nil
	}
	f := filepath.Join(e.root, name+".parquet")
	if _, err := os.Stat(f); err == nil {
		return f, true, e.confine.Check(f, false)
	}
	d := filepath.Join(e.root, name)
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d, true, e.confine.Check(d, false)
	}
	// Case-insensitive match (of the temporary tables' names too, which
	// tempTable matches whatever their case: no name leads back here).
	for _, t := range e.TableNames() {
		if !withTemp {
			break
		}
		if t != name && strings.EqualFold(t, name) {
			return e.tablePath(t)
		}
	}
	return f, false, e.confine.Check(f, false)
}

// writable refuses a write to a path outside the root: reads may reach
// out (Options.ExternalRead), writes and deletions never do. Every
// statement that writes or removes a table's files checks its path here.
func (e *Engine) writable(path string) error {
	if err := e.confine.Check(path, true); err != nil {
		return &Error{Msg: err.Error(), Offset: -1, Err: err}
	}
	return nil
}

// TableNames lists the tables of the root and the temporary tables,
// sorted.
func (e *Engine) TableNames() []string {
	var out []string
	e.mu.Lock()
	dir := e.temp
	e.mu.Unlock()
	if dir != "" {
		ents, _ := os.ReadDir(dir)
		for _, d := range ents {
			if t, ok := strings.CutSuffix(d.Name(), ".parquet"); ok && !d.IsDir() && !strings.HasPrefix(t, ".") {
				out = append(out, t)
			}
		}
	}
	if e.remote() {
		out = append(out, e.remoteNames()...)
		sort.Strings(out)
		return slices.Compact(out)
	}
	if e.file != "" {
		out = append(out, e.single)
		sort.Strings(out)
		return slices.Compact(out)
	}
	out = append(out, folderTableNames(e.root)...)
	sort.Strings(out)
	return slices.Compact(out)
}

// folderTableNames lists the tables of a root folder (the engine's or an
// attached one): its Parquet files and its folders of them.
func folderTableNames(root string) []string {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range ents {
		name := d.Name()
		if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		if d.IsDir() {
			if dir := filepath.Join(root, name); delta.IsTable(dir) || hasParquet(dir) && !isExport(dir) {
				out = append(out, name)
			}
		} else if strings.HasSuffix(name, ".parquet") {
			out = append(out, strings.TrimSuffix(name, ".parquet"))
		}
	}
	return out
}

func hasParquet(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".parquet") && !strings.HasPrefix(d.Name(), ".") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// stamp describes the files of a path so that a changed table is reopened.
//
// A file's append journal is part of its stamp: an append commits by
// clearing the journal in place, after its last byte is written, so the
// commit itself changes neither the file's size nor its modification
// time, only the journal's modification time.
func stampOf(path string) string {
	var b strings.Builder
	add := func(p string, st os.FileInfo) {
		fmt.Fprintf(&b, "%s:%d:%d;", p, st.Size(), st.ModTime().UnixNano())
	}
	addWithJournal := func(p string, st os.FileInfo) {
		add(p, st)
		if jst, err := os.Stat(p + writer.JournalSuffix); err == nil {
			add(p+writer.JournalSuffix, jst)
		}
	}
	if strings.ContainsAny(filepath.Base(path), "*?[") {
		m, _ := filepath.Glob(path)
		for _, p := range m {
			if st, err := os.Stat(p); err == nil {
				addWithJournal(p, st)
			}
		}
		return b.String()
	}
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if !st.IsDir() {
		addWithJournal(path, st)
		return b.String()
	}
	if delta.IsTable(path) {
		// A Delta table changes by its log: new commits and checkpoints.
		log := filepath.Join(path, delta.LogDir)
		ents, _ := os.ReadDir(log)
		for _, d := range ents {
			if st, err := d.Info(); err == nil && !d.IsDir() {
				add(filepath.Join(log, d.Name()), st)
			}
		}
		return b.String()
	}
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err // the table's listing fails there too: walk no further
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".parquet") || strings.HasSuffix(p, ".parquet"+writer.JournalSuffix)) {
			if st, err := d.Info(); err == nil {
				add(p, st)
			}
		}
		return nil
	})
	return b.String()
}

// acquire opens (or reuses) the table at path (a Delta table at version,
// the latest when nil); release must follow.
func (e *Engine) acquire(path string, version *int64, writeHeld bool) (*scan.Table, error) {
	if !writeHeld {
		e.writeMu.RLock()
		defer e.writeMu.RUnlock()
	}
	var stamp string
	if objstore.IsURL(path) {
		stamp = e.remoteStamp(path)
	} else {
		stamp = stampOf(path)
	}
	key := path
	if version != nil {
		key = fmt.Sprintf("%s@v%d", path, *version)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if te, ok := e.tables[key]; ok {
		if te.stamp == stamp {
			te.refs++
			return te.t, nil
		}
		te.stale = true
		if te.refs == 0 {
			te.t.Close()
			delete(e.byTable, te.t)
		}
		delete(e.tables, key)
	}
	t, err := scan.Open(path, e.scanOptions(version))
	if err != nil {
		return nil, err
	}
	te := &tableEntry{t: t, stamp: stamp, refs: 1}
	e.tables[key] = te
	e.byTable[t] = te
	return t, nil
}

// scanOptions are the options the engine's tables are opened with (a
// Delta table at version, the latest when nil).
func (e *Engine) scanOptions(version *int64) scan.Options {
	return scan.Options{Mmap: e.opts.Mmap, SkipChecksums: e.opts.SkipChecksums, DeltaVersion: version, Limits: e.opts.Limits, Root: e.confine, Store: e.opts.Store, Decryption: e.opts.Decryption}
}

// retain takes another reference to a table acquire returned.
func (e *Engine) retain(t *scan.Table) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if te, ok := e.byTable[t]; ok {
		te.refs++
	}
}

// adopt counts a table the engine did not open (a transaction's view of
// its pending rows) with one reference, its owner's: it is closed when
// the last reference is released.
func (e *Engine) adopt(t *scan.Table) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.byTable[t] = &tableEntry{t: t, refs: 1, stale: true}
}

func (e *Engine) release(t *scan.Table) {
	e.mu.Lock()
	defer e.mu.Unlock()
	te, ok := e.byTable[t]
	if !ok {
		return
	}
	te.refs--
	if te.stale && te.refs == 0 {
		t.Close()
		delete(e.byTable, t)
	}
}

// forget drops a cached table after a write.
func (e *Engine) forget(path string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for key, te := range e.tables {
		if key != path && !strings.HasPrefix(key, path+"@v") {
			continue
		}
		te.stale = true
		if te.refs == 0 {
			te.t.Close()
			delete(e.byTable, te.t)
		}
		delete(e.tables, key)
	}
}

// splitVersion separates a Delta version suffix from a table name:
// "events@v12" is version 12 of table events.
func splitVersion(name string) (string, *int64, error) {
	i := strings.LastIndex(name, "@v")
	if i <= 0 {
		return name, nil, nil
	}
	v, err := strconv.ParseInt(name[i+2:], 10, 64)
	if err != nil || v < 0 {
		if strings.Trim(name[i+2:], "0123456789") == "" && name[i+2:] != "" {
			return "", nil, errorf("table %q: version %s is out of range", name, name[i+2:])
		}
		return name, nil, nil // not a version suffix: part of the name
	}
	return name[:i], &v, nil
}

// openTable resolves and opens a table by name, with a suggestion when
// there is no such table.
func (e *Engine) openTable(name string) (*scan.Table, string, error) {
	return e.openTableHeld(name, false)
}

// openTableWriteHeld is openTable for a caller that holds the write lock.
func (e *Engine) openTableWriteHeld(name string) (*scan.Table, string, error) {
	return e.openTableHeld(name, true)
}

func (e *Engine) openTableHeld(name string, writeHeld bool) (*scan.Table, string, error) {
	return e.openTableIn(name, writeHeld, true)
}

// openRootTable is openTable blind to the temporary tables (see
// rootTablePath).
func (e *Engine) openRootTable(name string) (*scan.Table, string, error) {
	return e.openTableIn(name, false, false)
}

func (e *Engine) openTableIn(name string, writeHeld, withTemp bool) (*scan.Table, string, error) {
	base, version, err := splitVersion(name)
	if err != nil {
		return nil, "", err
	}
	if version != nil {
		if _, ok, _ := e.lookupTable(name, withTemp); ok {
			version = nil // a table really named so
		} else {
			name = base
		}
	}
	path, ok, err := e.lookupTable(name, withTemp)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		msg := fmt.Sprintf("table %q does not exist", name)
		if !parse.IsPathName(name) {
			msg += suggest(name, e.TableNames())
		}
		return nil, path, &Error{Msg: msg, Offset: -1, Err: ErrNoTable}
	}
	if version == nil {
		version = e.opts.DeltaVersion
		if version != nil && !delta.IsTableWith(path, e.opts.Store) {
			version = nil // the option applies to Delta tables only
		}
	} else if !delta.IsTableWith(path, e.opts.Store) {
		return nil, path, errorf("table %q: a version (@v%d) applies to Delta tables only", name, *version)
	}
	t, err := e.acquire(path, version, writeHeld)
	if err != nil {
		if errors.Is(err, scan.ErrNoFiles) {
			return nil, path, &Error{Msg: fmt.Sprintf("table %q has no Parquet files", name), Offset: -1, Err: ErrNoTable}
		}
		return nil, path, err
	}
	return t, path, nil
}
