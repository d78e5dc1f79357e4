package sqlplan

import (
	"context"
	"fmt"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// OPTIMIZE and VACUUM in transactions.
//
// OPTIMIZE of a one-file table compacts the table as the transaction
// sees it (the rows it inserted folded in) into a staged file, which
// COMMIT publishes as it does a DELETE's; ROLLBACK drops it. OPTIMIZE of
// a folder table merges its runs of small files in a staged version of
// the folder (txfolder.go). Like every
// rewrite in a transaction, it makes COMMIT fail when another connection
// changed the table meanwhile.
//
// VACUUM changes no table's rows: it deletes the files no Delta version
// within the retention needs. In a transaction it is checked at once
// and counts the files it would delete now (as VACUUM ... DRY RUN does);
// the files are deleted at COMMIT, once the transaction's tables are
// published, and never after ROLLBACK. VACUUM ... DRY RUN deletes
// nothing and runs at once.

// optimizeInTx runs OPTIMIZE in transaction tx.
func (s *Stmt) optimizeInTx(ctx context.Context, p *plan.Planner, tx *Tx) (Result, error) {
	tg, err := s.e.targetOf(s.table, tx, true)
	if err != nil {
		return Result{}, err
	}
	switch {
	case tg.delta != nil:
		return s.optimizeDeltaFiles(ctx, p, tg) // on the staged copy (txdelta.go)
	case objstore.IsURL(tg.path):
		return Result{}, remoteRewrite(tg.path, "OPTIMIZE")
	case tg.folder:
		return s.optimizeFolderInTx(tx, tg)
	}
	if err := tx.settle(tg.path, tg.name); err != nil {
		return Result{}, err
	}
	base, _, err := tx.openBase(s.table)
	if err != nil {
		return Result{}, err
	}
	defer s.e.release(base)
	if len(base.Files) != 1 {
		return Result{}, unsupported(fmt.Sprintf("OPTIMIZE of %q, a folder of files, inside a transaction", s.table))
	}
	f, err := base.File(0)
	if err != nil {
		return Result{}, err
	}
	opts, err := s.e.copyOptions(f)
	if err != nil {
		return Result{}, err
	}
	merge, keep, err := writer.CompactOptions(f, opts...)
	if err != nil {
		return Result{}, err
	}
	if !merge {
		return Result{}, nil // full row groups already: nothing to stage
	}
	var rows int64
	fill := func(w *writer.Writer) error {
		if err := w.CopyCompacted(f); err != nil {
			return err
		}
		rows = w.NumRows()
		return nil
	}
	if err := tx.stage(tg.path, tg.name, f.Schema, fill, append(keep, opts...)); err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: rows}, nil
}

// optimizeFolderInTx runs OPTIMIZE of the folder table tg in transaction
// tx: the runs of small files merged in a staged version of the folder
// (txfolder.go), as the transaction sees it.
func (s *Stmt) optimizeFolderInTx(tx *Tx, tg *target) (Result, error) {
	opts, err := s.e.writeOptions(tg.opts)
	if err != nil {
		return Result{}, err
	}
	edit, finish, err := tx.folderEdit(tg.path, tg.name)
	if err != nil {
		return Result{}, err
	}
	defer edit.Abort()
	rows, err := edit.Compact(opts...)
	if err != nil || rows == 0 {
		return Result{}, err // nothing merged: nothing staged
	}
	return Result{RowsAffected: rows}, finish()
}

// vacuumInTx runs VACUUM in transaction tx: DRY RUN at once, the
// deletion at COMMIT.
func (s *Stmt) vacuumInTx(tx *Tx) (Result, error) {
	if s.vacuum.dryRun {
		return s.vacuumTable()
	}
	dry := *s
	spec := *s.vacuum
	spec.dryRun = true
	dry.vacuum = &spec
	res, err := dry.vacuumTable() // checks the table and the retention too
	if err != nil {
		return res, err
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return Result{}, errTxDone
	}
	tx.after = append(tx.after, txAfter{what: "VACUUM " + s.table, run: func() error {
		_, err := s.vacuumTable()
		return err
	}})
	return res, nil
}

// txAfter is work a COMMIT does once the transaction's tables and views
// are published (VACUUM): what names it in errors.
type txAfter struct {
	what string
	run  func() error
}

// runAfterLocked runs the work the transaction left for after its
// COMMIT; t.mu is held.
func (t *Tx) runAfterLocked() error {
	after := t.after
	t.after = nil
	for _, a := range after {
		if err := a.run(); err != nil {
			return fmt.Errorf("carquet: COMMIT: the transaction is committed, but %s failed: %w", a.what, err)
		}
	}
	return nil
}
