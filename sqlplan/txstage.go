package sqlplan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/writer"
)

// Transactions that change tables.
//
// A transaction's INSERTs wait in memory (pendingWrite). Every other
// change of a table — DELETE, UPDATE, ALTER TABLE, CREATE TABLE [AS],
// DROP TABLE, INSERT ... ON CONFLICT — writes the table's new contents
// at once, with the statement's usual code, but to a staged file: a file
// of the transaction's staging folder <root>/.carquet_tx/tx-N/, which no
// table name, listing or glob of the root reaches. From then on the
// transaction reads the staged file in place of the table (its own
// writes); other connections read the table's files, which nothing
// changes before COMMIT. ROLLBACK removes the staging folder: the tables'
// files are left byte for byte as they were.
//
// COMMIT publishes the staged files under a commit record:
//
//  1. It takes the engine's write lock, the root's commit lock (the
//     folder .carquet_tx, exclusive: one COMMIT at a time in any process)
//     and the append lock of each table file it changes, in path order.
//  2. Write-write conflicts: each table the transaction rewrote, created
//     or dropped must still be as the transaction first saw it (its
//     stamp: files, sizes, times). Otherwise COMMIT fails and changes
//     nothing. Tables that only took INSERTs do not conflict: their rows
//     are added to the table as it is now.
//  3. It stages the rest: the rows of a folder table as a new file of it,
//     those of a one-file table as a copy of its current file (row
//     groups copied as stored) followed by the rows. A transaction that
//     only INSERTs into one table skips all this and appends in place,
//     which is atomic by itself (Tx.commitAppends).
//  4. It writes the commit record (the renames that publish the staged
//     files, the tables to move away), syncs it and renames it into place
//     as tx-N/commit: the commit point.
//  5. It makes the renames, syncing their folders, then removes the
//     record and the staging folder.
//
// A crash before step 4 leaves a staging folder without a record: the
// next COMMIT, or the next engine opened on the root, removes it, and
// the tables were never touched. A crash after it leaves the record:
// they make the renames not yet made (a staged file that is gone was
// renamed already), so that a COMMIT happens whole or not at all. A live
// transaction holds its staging folder's lock (flock), so that recovery
// never takes it for a dead one's. Readers of another connection see
// each table change in one step (a rename); while a COMMIT makes its
// renames, they may see some of its tables new and others old. Folder
// tables are staged as next versions of their folders (txfolder.go),
// Delta tables as copies whose commits become one Delta commit
// (txdelta.go, which also says how that orders with the record). Tables
// of an object store are staged in a local folder and published by
// conditional PUTs, with no commit record (txremote.go), and an engine
// opened read-only completes no crashed COMMIT. Temporary
// tables are staged beside their files (txtemp.go); OPTIMIZE stages a
// compacted file, and VACUUM waits for COMMIT (txmaint.go).
//
// CREATE and DROP VIEW in a transaction are kept in it (Tx.views): its
// statements are prepared with them (Engine.PrepareTx), and COMMIT
// applies them to the engine's views and catalog file once the tables
// are published.

// txTable is a table the transaction changed other than by INSERTs.
type txTable struct {
	name string // as the statement named it, for messages
	// drop says the table's files go at COMMIT (DROP TABLE, perhaps
	// followed by a CREATE of the name).
	drop bool
	// staged is the file of the table as the transaction leaves it, ""
	// when it dropped the table; view is it open, the transaction's
	// reference (Path is the table's path, so that scans restricted to
	// the table's row groups find it).
	staged string
	view   *scan.Table
	// dir says staged is a folder: a folder table's next version,
	// published by exchanging it with the table's folder (txfolder.go).
	dir bool
	// delta, when not nil, says staged is a copy of a Delta table that
	// COMMIT turns into one Delta commit (txdelta.go).
	delta *txDelta
}

// errTxDone is the error of a statement on a finished transaction.
var errTxDone = errors.New("the transaction is already finished")

// noTableLocked is the error of a name with no table in the
// transaction; t.mu is held.
func (t *Tx) noTableLocked(name string) error {
	msg := fmt.Sprintf("table %q does not exist", name)
	if !parse.IsPathName(name) {
		msg += suggest(name, t.tableNamesLocked())
	}
	return &Error{Msg: msg, Offset: -1, Err: ErrNoTable}
}

// tableNames are the engine's table names as the transaction sees them
// (nil: none): those it created are there, those it dropped are not.
func (t *Tx) tableNames() []string {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tableNamesLocked()
}

func (t *Tx) tableNamesLocked() []string {
	names := t.e.TableNames()
	if len(t.changed) == 0 {
		return names
	}
	gone, made := map[string]bool{}, map[string]bool{}
	for p, ch := range t.changed {
		name := strings.TrimSuffix(filepath.Base(p), ".parquet")
		if ch.staged != "" {
			made[name] = true
		} else {
			gone[name] = true
		}
	}
	var out []string
	for _, n := range names {
		if !gone[n] && !made[n] {
			out = append(out, n)
		}
	}
	for n := range made {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// tablePath is Engine.tablePath as the transaction sees the tables: those
// it created exist, those it dropped do not.
func (t *Tx) tablePath(name string) (string, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	path, ok, err := t.resolveLocked(name)
	if err != nil {
		return path, ok, err
	}
	if p, ch := t.changedLocked(path); ch != nil {
		return p, ch.staged != "", nil
	}
	return path, ok, nil
}

// changedLocked finds the transaction's change of the table at path,
// case-insensitively for a table it created; t.mu is held.
func (t *Tx) changedLocked(path string) (string, *txTable) {
	if ch := t.changed[path]; ch != nil {
		return path, ch
	}
	for p, ch := range t.changed {
		if strings.EqualFold(p, path) {
			return p, ch
		}
	}
	return path, nil
}

// hasStaged reports whether the transaction wrote the table at path
// anew: a one-file table that exists, for now, as a staged file only.
func (t *Tx) hasStaged(path string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ch := t.changedLocked(path)
	return ch != nil && ch.staged != ""
}

// openTable opens a table as the transaction sees it, with the rows it
// inserted; the caller releases it (Engine.release) as it would one from
// Engine.openTable.
func (t *Tx) openTable(name string) (*scan.Table, string, error) {
	return t.open(name, true)
}

// openBase is openTable without the rows the transaction inserted and
// has not written yet (the table an INSERT's target describes).
func (t *Tx) openBase(name string) (*scan.Table, string, error) {
	return t.open(name, false)
}

// open reads a table in the transaction's snapshot: the staged file of a
// table it changed, else the table as its first query of it found it,
// whatever is committed meanwhile.
func (t *Tx) open(name string, withRows bool) (*scan.Table, string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if path, exists, err := t.resolveLocked(name); err == nil {
		if p, ch := t.changedLocked(path); ch != nil {
			if ch.delta != nil {
				if err := t.deltaViewLocked(p, ch); err != nil { // its own writes
					return nil, p, err
				}
			}
			if ch.view == nil {
				return nil, p, t.noTableLocked(name)
			}
			return t.readLocked(p, ch.view, withRows)
		}
		if tbl, ok := t.snap[path]; ok && exists {
			return t.readLocked(path, tbl, withRows)
		}
	}
	tbl, path, err := t.openCommittedLocked(name)
	if errors.Is(err, ErrNoTable) && !strings.Contains(err.Error(), "no Parquet files") {
		return nil, path, t.noTableLocked(name) // suggesting the names the transaction sees
	}
	if err != nil || t.done {
		return tbl, path, err
	}
	if t.snap == nil {
		t.snap = map[string]*scan.Table{}
	}
	t.snap[path] = tbl // the reference openTable took is the snapshot's
	t.seenLocked(path, t.e.tableStamp(tbl))
	return t.readLocked(path, tbl, withRows)
}

// readLocked returns base, or base with the rows the transaction inserted
// into the table at path (withRows), retained for the caller; t.mu is
// held.
func (t *Tx) readLocked(path string, base *scan.Table, withRows bool) (*scan.Table, string, error) {
	if withRows {
		if ov, err := t.overlayOf(path, base); ov != nil || err != nil {
			return ov, path, err
		}
	}
	t.e.retain(base)
	return base, path, nil
}

// seenLocked records the stamp of the table at path as the transaction
// first saw it, which COMMIT checks; t.mu is held.
func (t *Tx) seenLocked(path, stamp string) {
	if t.stamps == nil {
		t.stamps = map[string]string{}
	}
	if _, ok := t.stamps[path]; !ok {
		t.stamps[path] = stamp
	}
}

// changeLocked returns the transaction's change of the table at path,
// made if need be: the rows it inserted into the table are dropped (the
// caller settled them, or replaces the table) and so are the INSERT
// targets it described, whose schema may change; t.mu is held.
func (t *Tx) changeLocked(path, name string) *txTable {
	p, ch := t.changedLocked(path)
	if ch == nil {
		if t.changed == nil {
			t.changed = map[string]*txTable{}
		}
		ch = &txTable{name: name}
		t.changed[p] = ch
		t.seenLocked(p, t.e.pathStamp(p))
	}
	t.dropOverlay(p)
	if t.pending[p] != nil {
		delete(t.pending, p)
		t.order = deleteString(t.order, p)
	}
	clear(t.targets)
	if ch.view != nil {
		t.e.release(ch.view)
		ch.view = nil
	}
	if ch.staged != "" {
		if ch.delta != nil {
			t.e.forget(ch.staged)
		}
		os.RemoveAll(ch.staged)
		ch.staged, ch.dir, ch.delta = "", false, nil
	}
	return ch
}

func deleteString(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// stagedPathLocked names a new staged file for the table at path, in the
// same file system (a temporary table's beside it, every other one's in
// the staging folder, made and locked with its first file); t.mu is held.
func (t *Tx) stagedPathLocked(path string) (string, error) {
	if t.e.isTempPath(path) {
		return filepath.Join(filepath.Dir(path), fmt.Sprintf(".carquet-tx-%d-%d.parquet", os.Getpid(), dml.NextFileSeq())), nil
	}
	return t.stagedNameLocked(path, ".parquet")
}

// stagedNameLocked names a new entry of the staging folder (made and
// locked with its first entry) for the table at path, ending in suffix:
// a file, a folder table's next version, a Delta table's copy; t.mu is
// held.
func (t *Tx) stagedNameLocked(path, suffix string) (string, error) {
	if objstore.IsURL(path) && suffix != ".parquet" {
		// Only a table's new contents as one object are staged for an
		// object store (txremote.go), not a folder's next version or a
		// Delta table's copy.
		return "", unsupported("rewriting a folder or Delta table of an object store inside a transaction")
	}
	st, err := t.stageLocked()
	if err != nil {
		return "", err
	}
	return st.Name(suffix), nil
}

// stageLocked returns the transaction's staging folder, made (and
// locked) the first time; t.mu is held.
func (t *Tx) stageLocked() (*dml.Stage, error) {
	if t.staging != nil {
		return t.staging, nil
	}
	var err error
	if t.e.remote() {
		t.staging, err = t.localStageLocked() // txremote.go
	} else {
		t.staging, err = dml.NewStage(filepath.Join(t.e.root, dml.StageDirName))
	}
	return t.staging, err
}

// stage writes the table at path anew, as fill writes it (sch, opts), to
// a staged file that the transaction reads in the table's place from now
// on. fill reads the table through the transaction.
func (t *Tx) stage(path, name string, sch *schema.Schema, fill func(*writer.Writer) error, opts []writer.Option) error {
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return errTxDone
	}
	staged, err := t.stagedPathLocked(path)
	t.mu.Unlock()
	if err != nil {
		return err
	}
	if err := dml.WriteFile(staged, sch, opts, fill); err != nil {
		return err
	}
	return t.adoptStaged(path, name, staged, false)
}

// adoptStaged makes the staged file (or folder: dir) the table at path as
// the transaction reads it from now on.
func (t *Tx) adoptStaged(path, name, staged string, dir bool) error {
	view, err := t.e.openStaged(staged, path)
	if err != nil {
		os.RemoveAll(staged)
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		t.e.release(view)
		os.RemoveAll(staged)
		return errTxDone
	}
	ch := t.changeLocked(path, name)
	ch.staged, ch.view, ch.dir = staged, view, dir
	return nil
}

// drop drops the table at path in the transaction.
func (t *Tx) drop(path, name string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return errTxDone
	}
	ch := t.changeLocked(path, name)
	// A table the transaction created has no files to remove.
	ch.drop = ch.drop || t.stamps[path] != ""
	return nil
}

// settle folds the rows the transaction inserted into the one-file table
// at path into a staged file (the table as the transaction sees it, its
// row groups copied as stored, then the rows), so that a statement that
// rewrites the table reads one file, as outside transactions.
func (t *Tx) settle(path, name string) error {
	t.mu.Lock()
	pw := t.pending[path]
	var err error
	if pw != nil {
		err = pw.flushRows()
	}
	t.mu.Unlock()
	if pw == nil || err != nil || len(pw.cols) == 0 {
		return err
	}
	if pw.folder {
		return t.settleFolder(path, name, pw) // txfolder.go
	}
	return t.stageCopy(path, name, name, pw.sch, pw.cols)
}

// stageCopy stages, as the table dst (named dstName), a copy of the
// one-file table src as the transaction sees it (its row groups copied
// as stored) followed by batches.
func (t *Tx) stageCopy(dst, dstName, src string, sch *schema.Schema, batches [][]*vector.Vector) error {
	base, _, err := t.openBase(src)
	if err != nil {
		return err
	}
	defer t.e.release(base)
	if len(base.Files) != 1 {
		return unsupported(fmt.Sprintf("changing %q, a folder of files, inside a transaction after INSERTs into it", src))
	}
	f, err := base.File(0)
	if err != nil {
		return err
	}
	opts, err := t.e.copyOptions(f)
	if err != nil {
		return err
	}
	return t.stage(dst, dstName, sch, func(w *writer.Writer) error { return dml.CopyWith(w, f, batches) }, opts)
}

// copyOptions are the writer options of a copy of the file f: the
// engine's, the table's options and f's key-value metadata.
func (e *Engine) copyOptions(f *file.File) ([]writer.Option, error) {
	return e.rewriteOptions(decodeOptions(f), otherKV(f))
}

// otherKV is f's key-value metadata but the table's options.
func otherKV(f *file.File) []format.KeyValue {
	var out []format.KeyValue
	for _, kv := range f.Meta.KeyValueMetadata {
		if kv.Key != optionsKey {
			out = append(out, kv)
		}
	}
	return out
}

// rewriteOptions are the writer options of a table written anew with
// table options opts and key-value metadata kv.
func (e *Engine) rewriteOptions(opts map[string]string, kv []format.KeyValue) ([]writer.Option, error) {
	out, err := e.writeOptions(opts)
	if err != nil {
		return nil, err
	}
	if len(opts) > 0 {
		out = append(out, writer.WithKeyValue(optionsKey, encodeOptions(opts)))
	}
	for _, kv := range kv {
		out = append(out, writer.WithKeyValue(kv.Key, kv.Value.Value))
	}
	return out, nil
}

// openStaged opens a staged file as the table at path, adopted: its one
// reference is the transaction's.
func (e *Engine) openStaged(staged, path string) (*scan.Table, error) {
	t, err := scan.Open(staged, e.scanOptions(nil))
	if err != nil {
		return nil, err
	}
	t.Path, t.Name = path, strings.TrimSuffix(filepath.Base(path), ".parquet")
	e.adopt(t)
	return t, nil
}

// isTempPath reports whether path is in the folder of temporary tables.
func (e *Engine) isTempPath(path string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.temp != "" && filepath.Dir(path) == e.temp
}

// tableStamp is the stamp of the files of a table acquire opened.
func (e *Engine) tableStamp(t *scan.Table) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if te, ok := e.byTable[t]; ok {
		return te.stamp
	}
	return ""
}

// lockCommits takes the root's commit lock, and completes or removes
// what dead transactions left.
func (e *Engine) lockCommits() (unlock func(), err error) {
	parent := filepath.Join(e.root, dml.StageDirName)
	if err := os.MkdirAll(parent, 0o777); err != nil {
		return nil, err
	}
	unlock, err = writer.LockFolder(parent, true)
	if err != nil {
		return nil, err
	}
	if err := dml.Recover(parent, e.forget); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// recoverCommits completes the COMMITs that crashed after their commit
// point and removes the staging folders of dead transactions (Open).
func (e *Engine) recoverCommits() error {
	if e.remote() || e.opts.ReadOnly {
		return nil
	}
	if _, err := os.Stat(filepath.Join(e.root, dml.StageDirName)); err != nil {
		return nil
	}
	unlock, err := e.lockCommits()
	if err != nil {
		return fmt.Errorf("carquet: completing a crashed COMMIT: %w", err)
	}
	unlock()
	return nil
}

// publishLocked commits a transaction that changed tables other than by
// INSERTs, or more than one table (see the design above); t.mu is held.
func (t *Tx) publishLocked() (err error) {
	e := t.e
	paths := t.publishPathsLocked()
	if e.remote() {
		return t.publishRemoteLocked(paths) // txremote.go
	}
	st, err := t.stageLocked()
	if err != nil {
		return err
	}
	stageDir := st.Dir()
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	unlock, err := e.lockCommits()
	if err != nil {
		return err
	}
	defer unlock()
	defer func() {
		for _, p := range paths {
			e.forget(p)
		}
	}()
	for _, p := range paths {
		// A folder the transaction replaces takes no INSERT meanwhile.
		ch := t.changed[p]
		unlockTable, err := dml.LockTable(p, ch != nil && ch.dir)
		if err != nil {
			return err
		}
		defer unlockTable()
	}
	var rec dml.Record
	defer func() {
		if err != nil {
			for _, op := range rec {
				if op.Kind == dml.OpRename {
					os.Remove(op.Src) // staged, not published
				}
			}
		}
	}()
	for _, p := range paths {
		ops, err := t.commitOpsLocked(p)
		rec = append(rec, ops...)
		if err != nil {
			return err
		}
	}
	mark := dml.CommitMark(stageDir)
	deltas, err := t.deltaCommitsLocked(paths, mark) // txdelta.go
	if err != nil {
		return err
	}
	if len(deltas) > 0 {
		// The first Delta commit, marked, is the commit point.
		rec = append(rec, dml.DeltaStep(deltas[0], mark))
	}
	if len(rec) == 0 {
		return nil
	}
	if err := rec.Write(stageDir); err != nil {
		return err
	}
	var partial error
	if len(deltas) > 0 {
		committed, err := dml.CommitDeltas(deltas, delta.CommitOptions{Store: e.opts.Store}, e.forget)
		if !committed {
			os.Remove(filepath.Join(stageDir, dml.RecordFile))
			return err
		}
		partial = err
	}
	// Committed: what fails now is completed by the next COMMIT or the
	// next engine opened on the root.
	if err := rec.Apply(); err != nil {
		return fmt.Errorf("carquet: COMMIT is recorded but not yet applied (%w); the next COMMIT, or the next engine opened on %s, completes it", err, e.root)
	}
	if partial != nil {
		os.Remove(filepath.Join(stageDir, dml.RecordFile))
		return partial
	}
	for _, op := range rec {
		if op.Kind == dml.OpDrop && filepath.Dir(op.Dst) != stageDir {
			os.RemoveAll(op.Dst) // a temporary table's, moved away beside it
		}
	}
	return os.Remove(filepath.Join(stageDir, dml.RecordFile))
}

// publishPathsLocked releases the transaction's open files (its views
// and snapshots are read no more) and returns the paths of the tables
// COMMIT publishes, sorted; t.mu is held.
func (t *Tx) publishPathsLocked() []string {
	t.releaseSnapshot()
	for _, ch := range t.changed {
		if ch.view != nil {
			t.e.release(ch.view)
			ch.view = nil
		}
	}
	paths := make([]string, 0, len(t.changed)+len(t.pending))
	for p := range t.changed {
		paths = append(paths, p)
	}
	for p := range t.pending {
		if t.changed[p] == nil {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths
}

// commitOpsLocked checks the table at path for a conflict and returns
// the steps that publish the transaction's change of it; t.mu is held.
func (t *Tx) commitOpsLocked(path string) ([]dml.Op, error) {
	ch, pw := t.changed[path], t.pending[path]
	if ch != nil && ch.delta != nil {
		return nil, nil // a Delta commit, with Delta's conflict rules (txdelta.go)
	}
	if ch == nil {
		op, err := t.stageInsertsLocked(path, pw)
		if err != nil || op == nil {
			return nil, err
		}
		return []dml.Op{*op}, nil
	}
	was := t.stamps[path]
	if ch.staged == "" && was == "" {
		return nil, nil // created and dropped again
	}
	if stampOf(path) != was {
		return nil, &Error{Msg: fmt.Sprintf("COMMIT: table %q was changed by another connection since this transaction first read it; nothing was committed", ch.name), Offset: -1, Err: ErrConflict}
	}
	var ops []dml.Op
	if ch.drop {
		trash, err := t.stagedPathLocked(path)
		if err != nil {
			return nil, err
		}
		ops = append(ops, dml.Op{Kind: dml.OpDrop, Src: path, Dst: trash + ".dropped"})
	}
	switch {
	case ch.dir:
		op, err := dml.ExchangeOp(ch.staged, path)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	case ch.staged != "":
		ops = append(ops, dml.Op{Kind: dml.OpRename, Src: ch.staged, Dst: path})
	}
	return ops, nil
}

// stageInsertsLocked stages the rows a transaction only inserted into the
// table at path: a new file of a folder table, or a copy of the file as
// it is now (its lock held) followed by them; t.mu is held.
func (t *Tx) stageInsertsLocked(path string, pw *pendingWrite) (*dml.Op, error) {
	if err := pw.flushRows(); err != nil {
		return nil, err
	}
	if len(pw.cols) == 0 {
		return nil, nil
	}
	if delta.IsTable(path) {
		return nil, unsupported("writing a Delta table inside a transaction")
	}
	staged, err := t.stagedPathLocked(path)
	if err != nil {
		return nil, err
	}
	if pw.folder {
		opts, err := t.e.writeOptions(pw.opts)
		if err != nil {
			return nil, err
		}
		if err := dml.WriteFile(staged, pw.sch, opts, func(w *writer.Writer) error { return dml.CopyWith(w, nil, pw.cols) }); err != nil {
			return nil, err
		}
		return &dml.Op{Kind: dml.OpRename, Src: staged, Dst: filepath.Join(path, dml.NewPartName())}, nil
	}
	src, err := writer.OpenCommitted(path, file.Options{Limits: t.e.opts.Limits, Decryption: t.e.opts.Decryption})
	if err != nil {
		return nil, fmt.Errorf("COMMIT: table %s: %w", path, err)
	}
	defer src.Close()
	opts, err := t.e.copyOptions(src.File)
	if err != nil {
		return nil, err
	}
	if err := dml.WriteFile(staged, pw.sch, opts, func(w *writer.Writer) error { return dml.CopyWith(w, src.File, pw.cols) }); err != nil {
		return nil, err
	}
	return &dml.Op{Kind: dml.OpRename, Src: staged, Dst: path}, nil
}

// discardLocked removes what the transaction staged and lets its staging
// folder go; t.mu is held.
func (t *Tx) discardLocked() {
	for _, ch := range t.changed {
		if ch.view != nil {
			t.e.release(ch.view)
			ch.view = nil
		}
		if ch.staged != "" {
			if ch.delta != nil {
				t.e.forget(ch.staged) // the copy's versions its writes opened
			}
			os.RemoveAll(ch.staged)
		}
	}
	t.changed = nil
	if t.staging != nil {
		t.staging.Discard()
		t.staging = nil
	}
}

// TxControl tells whether text is a statement that starts or ends a
// transaction, as DuckDB spells them, and which: "begin" (BEGIN
// [TRANSACTION], START TRANSACTION), "commit" (COMMIT, END [TRANSACTION])
// or "rollback" (ROLLBACK, ABORT), "" for any other statement. The
// driver runs them on its connection's transaction.
func TxControl(text string) string {
	// The longest of them, with comments and spaces around, is short:
	// a long text (a query of megabytes) is not lexed here.
	if len(text) > 512 {
		return ""
	}
	all, err := parse.Lex(text)
	if err != nil {
		return ""
	}
	toks := parse.Significant(all)
	if n := len(toks); n > 0 && toks[n-1].Kind == parse.Op && toks[n-1].Text == ";" {
		toks = toks[:n-1]
	}
	words := make([]string, len(toks))
	for i, t := range toks {
		if t.Kind != parse.Ident {
			return ""
		}
		words[i] = strings.ToLower(t.Text)
	}
	switch strings.Join(words, " ") {
	case "begin", "begin transaction", "start transaction":
		return "begin"
	case "commit", "commit transaction", "end", "end transaction":
		return "commit"
	case "rollback", "rollback transaction", "abort":
		return "rollback"
	}
	return ""
}

// viewStmts are the CREATE and DROP VIEWs transaction t (nil: none) ran.
func (t *Tx) viewStmts() []*Stmt {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.views
}

// addView runs CREATE or DROP VIEW s in the transaction: checked against
// the views as the transaction sees them, seen by its later statements,
// applied to the engine's views (and the catalog file) at COMMIT.
func (t *Tx) addView(s *Stmt) error {
	ops := append(append([]*Stmt(nil), t.viewStmts()...), s)
	if err := t.e.checkViews(ops); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return errTxDone
	}
	t.views = ops
	return nil
}

// checkViews checks that the CREATE and DROP VIEWs ops apply to the
// views as they are now.
func (e *Engine) checkViews(ops []*Stmt) error {
	if err := e.refreshCatalog(); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, _, err := e.viewsIn(ops)
	return err
}

// applyViewsLocked applies the transaction's CREATE and DROP VIEWs to the
// engine, after its tables were committed; t.mu is held. The catalog
// file is written apart from the tables' commit record: a crash between
// the two keeps the tables' changes without the views'.
func (t *Tx) applyViewsLocked() error {
	for _, s := range t.views {
		if _, err := t.e.execView(s); err != nil {
			verb := "DROP VIEW"
			if s.kind == kindCreateView {
				verb = "CREATE VIEW"
			}
			return fmt.Errorf("carquet: COMMIT: the tables are committed, but not %s %s: %w", verb, s.table, err)
		}
	}
	return nil
}
