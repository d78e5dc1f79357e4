package sqlplan

import (
	"errors"
	"sync"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/writer"
)

// Appender loads rows into one table in bulk, without SQL per row: rows
// of Go values or whole column vectors go straight to the table's writer,
// which writes full row groups as they fill; Close commits them all at
// once (a crash-safe append to a single-file table, a new file of a folder
// table), Abort drops them. Readers see none of the rows before Close.
//
// While an Appender is open, other writes to its table (from any process)
// that need the file's lock (INSERT into a one-file table, UPDATE, DELETE,
// ALTER, OPTIMIZE) wait for it; INSERTs into a folder table do not.
type Appender struct {
	e      *Engine
	path   string
	folder bool
	opts   map[string]string // the table's options
	fields []*schema.Field
	mu     sync.Mutex
	w      *writer.Writer
	unlock func() // the folder's lock, for a folder table
}

// ErrAppenderClosed is returned by an Appender's methods after Close or
// Abort.
var ErrAppenderClosed = errors.New("the appender is closed")

// NewAppender opens an Appender of the table name. Tables with primary
// keys, unique, check or foreign key constraints, or column defaults are
// refused (their rows need INSERT's checks), as are Delta, partitioned and
// object-store tables.
func (e *Engine) NewAppender(name string) (*Appender, error) {
	if e.opts.ReadOnly {
		return nil, errorf("cannot append to %q: the database is read-only", name)
	}
	tg, err := e.insertTarget(name, nil)
	if err != nil {
		return nil, err
	}
	if objstore.IsURL(tg.path) {
		return nil, unsupported("an Appender of an object-store table")
	}
	for k := range tg.opts {
		if isConstraintKey(k) {
			return nil, unsupported("an Appender of a table with constraints or defaults (use INSERT)")
		}
	}
	opts, err := e.writeOptions(tg.opts)
	if err != nil {
		return nil, err
	}
	// Files the cache holds open for no statement go, so that the append
	// may merge the file's last small row groups. The engine's write lock
	// is not held: an Appender lives long, and the file's (or folder's)
	// own lock orders it with other writers, in this process or others.
	e.forget(tg.path)
	unlock := func() {}
	if tg.folder {
		// OPTIMIZE swaps the folder for a compacted copy under its lock.
		if unlock, err = writer.LockFolder(tg.path, false); err != nil {
			return nil, err
		}
	}
	w, err := dml.OpenTableWriter(tg.path, tg.sch, tg.folder, opts)
	if err != nil {
		unlock()
		return nil, err
	}
	return &Appender{e: e, path: tg.path, folder: tg.folder, opts: tg.opts, fields: tg.fields, w: w, unlock: unlock}, nil
}

// Fields are the table's top-level fields, in the order AppendRow takes
// their values and AppendColumns their vectors.
func (a *Appender) Fields() []*schema.Field { return a.fields }

// AppendRow adds one row: a Go value per column, of the kinds
// writer.WriteRows takes (nil for NULL; int64 and the other integers;
// float64; string or []byte; bool; time.Time for DATE and TIMESTAMP;
// value.Decimal, or a decimal string, for DECIMAL; []any for lists;
// map[string]any for structs). A row that does not fit is an error and
// adds nothing; the rows before it stay.
func (a *Appender) AppendRow(values ...any) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return ErrAppenderClosed
	}
	return a.w.WriteRow(values...)
}

// AppendColumns adds a batch of rows as column vectors, one per field, in
// parquet/vector's layout (as parquet/file's reader returns them).
func (a *Appender) AppendColumns(cols []*vector.Vector) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return ErrAppenderClosed
	}
	return a.w.WriteBatch(cols)
}

// Rows is the number of rows appended so far.
func (a *Appender) Rows() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return 0
	}
	return a.w.NumRows()
}

// Close commits the rows: all of them are in the table when it returns
// nil, none of them when it returns an error — except an error of the
// table's auto_optimize, run after the commit, which says so.
func (a *Appender) Close() error {
	w, err := a.take()
	if err != nil {
		return err
	}
	if err := a.commit(w); err != nil {
		return err
	}
	meta, _ := w.Written()
	return a.e.autoOptimize(a.path, a.folder, a.opts, meta) // optimize.go
}

// commit closes w, the table's locks held.
func (a *Appender) commit(w *writer.Writer) error {
	defer a.unlock()
	a.e.forget(a.path)
	defer a.e.forget(a.path)
	return w.Close()
}

// Abort drops the rows appended; the table is as it was.
func (a *Appender) Abort() error {
	w, err := a.take()
	if err != nil {
		return err
	}
	defer a.unlock()
	return w.Abort()
}

// take ends the Appender's use of its writer, returning it.
func (a *Appender) take() (*writer.Writer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.w == nil {
		return nil, ErrAppenderClosed
	}
	w := a.w
	a.w = nil
	return w, nil
}
