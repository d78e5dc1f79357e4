package sqlplan

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/writer"
)

// Folder tables in transactions.
//
// A statement that changes a folder table's files (DELETE, UPDATE and
// MERGE, an INSERT into a hive-partitioned table, OPTIMIZE, rows
// inserted before such a statement) builds, as outside transactions, the
// folder's next version as a writer.FolderEdit — but a staged one: a
// folder of the transaction's staging folder (tx-N/<seq>.d) holding hard
// links of the files it keeps and the files it writes, built from the
// table as the transaction sees it (its snapshot, or the version it
// staged before). The transaction reads that folder in the table's place
// from then on; the table's folder is not touched before COMMIT.
//
// COMMIT takes the folder's lock exclusive (no INSERT of another
// connection may land a file in the folder it replaces), checks that the
// folder is still as the transaction first read it (else ErrConflict,
// nothing changed), puts a mark file in the staged folder (synced), and
// records an exchange 'X' of the two folders in its commit record. The
// exchange (renameat2 RENAME_EXCHANGE, dml.ExchangeOp) publishes the version in one step
// and moves the old one into the staging folder, which goes with it. The
// mark says whether it was made: before, it is in the staged folder;
// after, in the table's, whence the exchange removes it. Recovery after
// a crash exchanges only while the mark is in the staged folder, so an
// exchange is made once, whole or not at all. A reader never lists the
// mark: dot names are no table's files.

// folderEdit starts the edit of the folder table at path (named name) by
// a statement of the transaction: its next version staged, from the table
// as the transaction sees it with the rows it inserted folded in. finish
// makes the transaction read the version from then on.
func (t *Tx) folderEdit(path, name string) (*writer.FolderEdit, func() error, error) {
	if err := t.settle(path, name); err != nil {
		return nil, nil, err
	}
	return t.stageFolder(path, name)
}

// stageFolder is folderEdit without the settling of inserted rows.
func (t *Tx) stageFolder(path, name string) (*writer.FolderEdit, func() error, error) {
	base, _, err := t.openBase(name)
	if err != nil {
		return nil, nil, err
	}
	defer t.e.release(base)
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return nil, nil, errTxDone
	}
	src, files := path, []string{}
	if _, ch := t.changedLocked(path); ch != nil && ch.dir && ch.staged != "" {
		src, files = ch.staged, nil // the transaction's own version: all of it
	} else {
		// The snapshot's files, which the folder may no longer list alone.
		for _, ref := range base.Files {
			rel, err := filepath.Rel(path, ref.Path)
			if err != nil || !filepath.IsLocal(rel) {
				t.mu.Unlock()
				return nil, nil, fmt.Errorf("carquet: table %q: the file %s is outside its folder", name, ref.Path)
			}
			files = append(files, rel)
		}
	}
	next, err := t.stagedNameLocked(path, ".d")
	t.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	edit, err := writer.StageFolder(src, next, files)
	if err != nil {
		return nil, nil, err
	}
	finish := func() error {
		if err := edit.Commit(); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return &Error{Msg: fmt.Sprintf("table %q was changed by another connection since this transaction first read it (%v)", name, err), Offset: -1, Err: ErrConflict}
			}
			return err
		}
		return t.adoptStaged(path, name, next, true)
	}
	return edit, finish, nil
}

// startFolderEdit starts the edit of the folder table tgt that a
// statement makes: in transaction tx (nil: none) its staged next version,
// else a writer.FolderEdit of the folder itself under the engine's write
// lock and the folder's. finish publishes (or stages) it; done, deferred,
// drops what finish did not publish and lets the locks go.
func (e *Engine) startFolderEdit(tx *Tx, tgt *target) (edit *writer.FolderEdit, finish func() error, done func(), err error) {
	if tx != nil {
		edit, finish, err := tx.folderEdit(tgt.path, tgt.name)
		if err != nil {
			return nil, nil, nil, err
		}
		return edit, finish, edit.Abort, nil
	}
	e.writeMu.Lock()
	edit, err = writer.EditFolder(tgt.path)
	if err != nil {
		e.writeMu.Unlock()
		return nil, nil, nil, err
	}
	e.forget(tgt.path) // read the files listed now that the lock is held
	done = func() {
		edit.Abort()
		e.forget(tgt.path)
		e.writeMu.Unlock()
	}
	return edit, edit.Commit, done, nil
}

// settleFolder folds the rows pw the transaction inserted into the folder
// table at path into a staged version of it, as one new file.
func (t *Tx) settleFolder(path, name string, pw *pendingWrite) error {
	opts, err := t.e.writeOptions(pw.opts)
	if err != nil {
		return err
	}
	edit, finish, err := t.stageFolder(path, name)
	if err != nil {
		return err
	}
	defer edit.Abort()
	w, err := edit.Create(dml.NewPartName(), pw.sch, opts...)
	if err != nil {
		return err
	}
	if err := dml.CopyWith(w, nil, pw.cols); err != nil {
		return errors.Join(err, w.Abort())
	}
	if err := w.Close(); err != nil {
		return err
	}
	return finish()
}
