package sqlplan

import (
	"errors"
	"os"
	"sync"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

// Transactions: a Tx reads each table as it first read it (overlays of its
// own writes, snapshots), buffers INSERTs and applies them at Commit.

// Tx collects the rows a transaction inserts until Commit, stages the
// tables it changes otherwise (txstage.go), and keeps the snapshot its
// queries read: each table as the transaction's first query of it found
// it, whatever is committed meanwhile, or as the transaction staged it,
// plus the rows the transaction itself has inserted (overlayOf). Commit
// and Rollback release the snapshot.
type Tx struct {
	e        *Engine
	readOnly bool
	mu       sync.Mutex
	pending  map[string]*pendingWrite
	order    []string
	targets  map[string]*target
	snap     map[string]*scan.Table // by table path
	// overlays are, by table path, the snapshot with the transaction's
	// pending rows (see overlayOf).
	overlays map[string]*overlay
	done     bool
	// changed are the tables the transaction rewrote, created or
	// dropped, by path; stamps the stamps of the tables as it first saw
	// them ("" when they did not exist), which COMMIT checks.
	changed map[string]*txTable
	stamps  map[string]string
	// staging is the folder of its staged files (nil until the first).
	staging *dml.Stage
	// views are the CREATE and DROP VIEWs the transaction ran, applied
	// to the engine's views at COMMIT.
	views []*Stmt
	// after is the work COMMIT does last (txmaint.go).
	after []txAfter
	// id is txid_current()'s, given when first asked (funcs_session.go).
	id uint64
}

// overlay is a table as the transaction sees it: its snapshot followed by
// a temporary file of the rows the transaction inserted into it.
type overlay struct {
	table   *scan.Table
	tmp     string
	base    *scan.Table
	batches int // the pending batches the file holds
}

// overlayOf returns, retained for the caller, the table at path with the
// rows the transaction has inserted into it and not committed (its
// queries read their own writes), or nil when it has none. The rows are
// written to a temporary Parquet file, again when more are inserted; the
// snapshot's files are read as the snapshot reads them. t.mu is held.
func (t *Tx) overlayOf(path string, base *scan.Table) (*scan.Table, error) {
	pw := t.pending[path]
	if pw == nil {
		return nil, nil
	}
	if err := pw.flushRows(); err != nil {
		return nil, err
	}
	if len(pw.cols) == 0 {
		return nil, nil
	}
	if ov := t.overlays[path]; ov != nil {
		if ov.base == base && ov.batches == len(pw.cols) {
			t.e.retain(ov.table)
			return ov.table, nil
		}
		t.dropOverlay(path)
	}
	f, err := os.CreateTemp("", "carquet-tx-*.parquet")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	f.Close()
	table, err := t.writeOverlay(tmp, pw, base)
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	t.e.adopt(table) // the transaction's reference
	if t.overlays == nil {
		t.overlays = map[string]*overlay{}
	}
	t.overlays[path] = &overlay{table: table, tmp: tmp, base: base, batches: len(pw.cols)}
	t.e.retain(table)
	return table, nil
}

// writeOverlay writes the pending rows pw to the file tmp and returns
// base followed by it.
func (t *Tx) writeOverlay(tmp string, pw *pendingWrite, base *scan.Table) (*scan.Table, error) {
	opts, err := t.e.writeOptions(pw.opts)
	if err != nil {
		return nil, err
	}
	w, err := writer.Create(tmp, pw.sch, opts...)
	if err != nil {
		return nil, err
	}
	for _, b := range pw.cols {
		if err := w.WriteBatch(b); err != nil {
			return nil, errors.Join(err, w.Abort())
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return base.WithFile(tmp)
}

// dropOverlay releases the transaction's view of the table at path and
// removes its file (queries still reading it keep their open file).
// t.mu is held.
func (t *Tx) dropOverlay(path string) {
	ov := t.overlays[path]
	if ov == nil {
		return
	}
	delete(t.overlays, path)
	os.Remove(ov.tmp)
	t.e.release(ov.table)
}

// releaseSnapshot drops the snapshot's tables and the views of the
// pending rows; t.mu is held.
func (t *Tx) releaseSnapshot() {
	for path := range t.overlays {
		t.dropOverlay(path)
	}
	for _, tbl := range t.snap {
		t.e.release(tbl)
	}
	t.snap = nil
}

type pendingWrite struct {
	sch    *schema.Schema
	fields []*schema.Field
	folder bool
	opts   map[string]string
	cols   [][]*vector.Vector
	// rows gathers, one builder per field, the rows of INSERTs of one row
	// of parameters (insertPending) until they go to cols as one batch.
	rows  []*plan.ColBuilder
	nrows int
}

// pendingFor returns the transaction's pending rows of the table tgt;
// t.mu is held.
func (t *Tx) pendingFor(tgt *target) *pendingWrite {
	pw, ok := t.pending[tgt.path]
	if !ok {
		pw = &pendingWrite{sch: tgt.sch, fields: tgt.fields, folder: tgt.folder}
		t.pending[tgt.path] = pw
		t.order = append(t.order, tgt.path)
	}
	pw.opts = tgt.opts
	return pw
}

// flushRows moves the gathered rows to cols, keeping their order with
// the batches of other INSERTs.
func (pw *pendingWrite) flushRows() error {
	if pw.nrows == 0 {
		return nil
	}
	vecs := make([]*vector.Vector, len(pw.fields))
	for k, f := range pw.fields {
		v, err := plan.ToVector(pw.rows[k].C, f)
		if err != nil {
			return errorf("column %q: %v", f.Name, err)
		}
		vecs[k] = v
	}
	pw.cols = append(pw.cols, vecs)
	pw.rows, pw.nrows = nil, 0
	return nil
}

// pendingRow reports whether an INSERT in a transaction is one row of
// parameters into a table without constraints or defaults (a prepared
// INSERT run once per row), which insertPending adds to the pending rows
// without planning, and returns the row.
func (s *Stmt) pendingRow(ins *sqlparser.Insert, tx *Tx, tgt *target, target []int) (sqlparser.ValTuple, bool) {
	if tx == nil || tgt.parts > 0 || tgt.delta != nil || s.defaultValues || s.byName || s.replaceConflicts || s.ignoreConflicts || s.upsert != nil || s.returning != nil {
		return nil, false
	}
	rows, ok := ins.Rows.(sqlparser.Values)
	if !ok || len(rows) != 1 || len(rows[0]) != len(target) {
		return nil, false
	}
	for k := range tgt.opts {
		if isConstraintKey(k) {
			return nil, false
		}
	}
	for _, ve := range rows[0] {
		if v, ok := ve.(*sqlparser.SQLVal); !ok || v.Type != sqlparser.ValArg {
			return nil, false
		}
	}
	return rows[0], true
}

// insertPending adds one row of parameters to the transaction's pending
// rows of the table: cast to the columns' types, into column builders.
func (s *Stmt) insertPending(p *plan.Planner, tx *Tx, tgt *target, target []int, types []Type, row sqlparser.ValTuple) (Result, error) {
	fields := tgt.fields
	vals := make([]any, len(fields))
	for j, ve := range row {
		k := target[j]
		e, err := p.Param(string(ve.(*sqlparser.SQLVal).Val))
		if err != nil {
			return Result{}, err
		}
		kc := e.(*plan.ConstExpr)
		if vals[k], err = plan.CastScalar(kc.V, kc.T, types[k]); err != nil {
			return Result{}, errorf("row 1, column %q: %v", fields[k].Name, err)
		}
	}
	for k, f := range fields {
		if vals[k] == nil && !f.Nullable {
			return Result{}, errorf("NULL in NOT NULL column %q (row 1)", f.Name)
		}
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return Result{}, errors.New("the transaction is already finished")
	}
	pw := tx.pendingFor(tgt)
	if pw.rows == nil {
		pw.rows = make([]*plan.ColBuilder, len(fields))
		for k := range fields {
			pw.rows[k] = plan.NewBuilder(types[k], 1024)
		}
	}
	for k, v := range vals {
		pw.rows[k].Add(v)
	}
	pw.nrows++
	return Result{RowsAffected: 1}, nil
}

// Begin starts a transaction.
func (e *Engine) Begin(readOnly bool) *Tx {
	return &Tx{e: e, readOnly: readOnly, pending: map[string]*pendingWrite{}}
}

// Commit publishes the transaction: its rows and staged tables, all or
// none (txstage.go). A transaction that only inserted into one table
// appends to it in place.
func (t *Tx) Commit() error {
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return errTxDone
	}
	settle := map[string]string{} // path -> name
	for p, ch := range t.changed {
		if t.pending[p] != nil && ch.staged != "" {
			settle[p] = ch.name
		}
	}
	views := t.views
	t.mu.Unlock()
	// Rows inserted into a table after the transaction rewrote it go
	// into its staged file; views created or dropped meanwhile by others
	// fail the COMMIT before anything is written.
	for p, name := range settle {
		if err := t.settle(p, name); err != nil {
			t.Rollback()
			return err
		}
	}
	if err := t.e.checkViews(views); err != nil {
		t.Rollback()
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return errTxDone
	}
	t.done = true
	var err error
	// In an object store only a folder takes an append (a new object);
	// a one-object table's rows replace the object (txremote.go).
	if len(t.changed) == 0 && len(t.order) <= 1 && !t.oneObjectInsertLocked() {
		err = t.commitAppends()
	} else {
		err = t.publishLocked()
		t.discardLocked()
	}
	if err != nil {
		return err
	}
	if err := t.applyViewsLocked(); err != nil {
		return err
	}
	return t.runAfterLocked()
}

// commitAppends writes the rows of a transaction that only inserted into
// one table: one atomic append (or one new file of a folder table).
func (t *Tx) commitAppends() error {
	// The snapshot goes first: its open files would keep the appends from
	// merging the tables' last small row groups.
	t.releaseSnapshot()
	for _, path := range t.order {
		pw := t.pending[path]
		if err := pw.flushRows(); err != nil {
			return err
		}
		if len(pw.cols) > 1 {
			// One batch per table: the writer's per-call work is paid once.
			merged := make([]*vector.Vector, len(pw.cols[0]))
			for k := range merged {
				merged[k] = &vector.Vector{}
				for _, b := range pw.cols {
					vector.AppendVector(merged[k], b[k])
				}
			}
			pw.cols = [][]*vector.Vector{merged}
		}
		if err := t.e.writeRows(path, pw.sch, pw.folder, pw.opts, pw.cols); err != nil {
			return err
		}
	}
	return nil
}

// Rollback discards the transaction's rows and staged tables: the
// tables' files were never touched.
func (t *Tx) Rollback() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done = true
	t.pending = nil
	t.after = nil
	t.releaseSnapshot()
	t.discardLocked()
	return nil
}
