package dml

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/carquet-go/carquet/writer"
)

// StageDirName is the root's folder of staging folders: each live
// transaction that changes tables has one (tx-N) under it, which no
// table name, listing or glob of the root reaches.
const StageDirName = ".carquet_tx"

// LockTable takes the lock of the table at path that keeps its other
// writers out until a COMMIT is done: a file's append lock, a folder's
// shared lock (which COMPACT/OPTIMIZE takes exclusive), or exclusive (a
// folder COMMIT replaces whole); none for a table that does not exist
// yet.
func LockTable(path string, exclusive bool) (func(), error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return func() {}, nil
	case err != nil:
		return nil, err
	case st.IsDir():
		return writer.LockFolder(path, exclusive)
	}
	return writer.LockFile(path)
}

// Recover completes the COMMITs that crashed after their commit point
// and removes the staging folders of dead transactions under parent (the
// root's StageDirName), whose lock the caller holds exclusive. A staging
// folder no one holds locked is a dead transaction's; with a record, its
// COMMIT passed the commit point (for a record with a Delta step, when
// the table's log holds the marked commit) and is completed. forget is
// called with each path a completed COMMIT changed, so that the caller
// drops what it cached of them.
func Recover(parent string, forget func(path string)) error {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	for _, d := range ents {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join(parent, d.Name())
		unlock, ok, err := writer.TryLockFolder(dir)
		if err != nil || !ok {
			continue // a live transaction's, or gone
		}
		b, err := os.ReadFile(filepath.Join(dir, RecordFile))
		if err == nil {
			rec, ok := ParseRecord(b)
			if ok {
				ok, err = rec.Decided()
				if err != nil {
					unlock()
					return fmt.Errorf("carquet: completing a crashed COMMIT (%s): %w", dir, err)
				}
			}
			if ok {
				if err := rec.Apply(); err != nil {
					unlock()
					return err
				}
				for _, op := range rec {
					forget(op.Src)
					forget(op.Dst)
				}
			}
		}
		err = os.RemoveAll(dir)
		unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

// A folder table's next version, staged by a transaction, is published
// by exchanging it with the table's folder, once: a mark file in the
// staged folder (ExchangeOp) says the exchange is not made yet, and the
// exchange carries it into the table's folder, whence it is removed
// (sqlplan's txfolder.go has the whole design).

// stagedMark names the mark file of the staged folder version src.
func stagedMark(src string) string {
	return writer.StagedMarkPrefix + filepath.Base(filepath.Dir(src)) + "-" + filepath.Base(src)
}

// ExchangeOp returns the step that publishes the staged folder version
// src as the folder table at path, its mark put (durably) in src first.
func ExchangeOp(src, path string) (Op, error) {
	mark := filepath.Join(src, stagedMark(src))
	f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE, 0o666)
	if err != nil {
		return Op{}, err
	}
	if err := f.Close(); err != nil {
		return Op{}, err
	}
	if err := writer.SyncDir(src); err != nil {
		return Op{}, err
	}
	return Op{Kind: OpExchange, Src: src, Dst: path}, nil
}

// exchangeOnce swaps the staged folder version src with the folder table
// dst unless that was done, and removes the mark; it may run again after
// a crash at any point.
func exchangeOnce(src, dst string) error {
	mark := stagedMark(src)
	_, err := os.Lstat(filepath.Join(src, mark))
	switch {
	case err == nil:
		if err := writer.ExchangeDirs(src, dst); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	// Exchanged: the mark came along into the table's folder.
	err = os.Remove(filepath.Join(dst, mark))
	switch {
	case err == nil:
		return writer.SyncDir(dst)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return err
}
