package sqlplan

import (
	"fmt"
	"os"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
)

// Delta tables in transactions.
//
// The first write of a Delta table in a transaction stages a copy of the
// table as the transaction read it: a folder of the staging folder
// (tx-N/<seq>.delta) holding hard links of the table's files and of its
// log up to the version read. The transaction's INSERTs, DELETEs,
// UPDATEs, MERGEs and OPTIMIZEs then run on the copy with the usual
// Delta code — data files, deletion vectors, commits to the copy's log —
// and the transaction reads the copy's latest version (its own writes);
// the table itself is not touched.
//
// COMMIT turns the copy's commits into one commit of the table: the
// files live in the copy's last version and not in the version read are
// added, those live in the version read and not in the last are removed
// (with the protocol or metadata when they changed), read at the version
// the transaction read, so that Delta's own conflict rules apply: a
// commit of another writer meanwhile that removed a file this one
// removes, or changed the protocol or metadata, fails the COMMIT with
// ErrConflict; a transaction that only added files commits as a blind
// append. The copy's new files are moved into the table's folder first:
// unreferenced files are harmless in Delta (VACUUM removes them).
//
// The order keeps all or nothing as far as Delta allows. The commit
// record (the renames and exchanges of the other tables) is written
// before any Delta commit, with a 'C' step naming the first Delta table
// and a mark this transaction's commit of it carries. That Delta commit
// (a put-if-absent of the log's next entry) is then the commit point:
// when it fails (a conflict) the record is removed and nothing changed;
// once it is in the log, the rest is completed — by this COMMIT, or after
// a crash by recovery, which applies a record with a 'C' step only when
// the log holds the marked commit. Delta has no commit over several
// tables: the Delta tables after the first are committed one by one
// after it, and one that fails (a conflict) or a crash before it leaves
// the transaction committed without that table's changes; COMMIT says
// which table it lost.

// txDelta is the Delta side of a transaction's change of a table: the
// version it read, which COMMIT's commit is read at.
type txDelta struct {
	version int64
}

// deltaStageLocked returns the staged copy of the Delta table at path
// (named name) that the transaction writes, made from the version it
// read (snapshot root) the first time; t.mu is held.
func (t *Tx) deltaStageLocked(path, name, root string, version int64) (string, error) {
	if _, ch := t.changedLocked(path); ch != nil && ch.delta != nil {
		return ch.staged, nil
	}
	staged, err := t.stagedNameLocked(path, ".delta")
	if err != nil {
		return "", err
	}
	if err := dml.LinkDeltaCopy(root, staged, version); err != nil {
		os.RemoveAll(staged)
		return "", fmt.Errorf("carquet: staging the Delta table %q: %w", name, err)
	}
	view, err := t.e.openStaged(staged, path)
	if err != nil {
		os.RemoveAll(staged)
		return "", err
	}
	ch := t.changeLocked(path, name)
	ch.staged, ch.view, ch.delta = staged, view, &txDelta{version: version}
	return staged, nil
}

// deltaTarget is the target of a write of the Delta table at path
// (named name, read as snap) in the transaction: its staged copy, made
// the first time.
func (t *Tx) deltaTarget(path, name string, snap *delta.Snapshot) (*target, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return nil, errTxDone
	}
	root, err := t.deltaStageLocked(path, name, snap.Root, snap.Version)
	if err != nil {
		return nil, err
	}
	_, ch := t.changedLocked(path)
	if err := t.deltaViewLocked(path, ch); err != nil {
		return nil, err
	}
	tg, err := deltaTarget(name, root, ch.view.Snapshot())
	if err != nil {
		return nil, err
	}
	tg.staged = true
	return tg, nil
}

// deltaWriteLock takes the engine's write lock for a write of the Delta
// table tgt and returns its release. A transaction's staged copy takes
// none: only its transaction writes it, and the transaction's reads of
// other tables take the lock shared.
func (e *Engine) deltaWriteLock(tgt *target) func() {
	if tgt.staged {
		return func() {}
	}
	e.writeMu.Lock()
	return e.writeMu.Unlock
}

// openDeltaTarget opens the latest version of the Delta table tgt (a
// transaction's staged copy by its folder), the write lock held.
func (e *Engine) openDeltaTarget(tgt *target) (*scan.Table, error) {
	if tgt.staged {
		return e.acquire(tgt.path, nil, true)
	}
	tbl, _, err := e.openTableWriteHeld(tgt.name)
	return tbl, err
}

// deltaViewLocked makes ch.view, the transaction's view of the Delta
// table it staged, the copy's latest version, opened again when the log
// moved on; t.mu is held.
func (t *Tx) deltaViewLocked(path string, ch *txTable) error {
	latest, err := delta.Latest(ch.staged)
	if err != nil {
		return err
	}
	if ch.view != nil && ch.view.Snapshot() != nil && ch.view.Snapshot().Version == latest {
		return nil
	}
	view, err := t.e.openStaged(ch.staged, path)
	if err != nil {
		return err
	}
	if ch.view != nil {
		t.e.release(ch.view)
	}
	ch.view = view
	return nil
}

// deltaCommitsLocked moves the new files of the transaction's staged
// Delta tables into the tables' folders and returns the commits that
// publish them, in path order, each marked with mark; t.mu is held.
func (t *Tx) deltaCommitsLocked(paths []string, mark string) ([]dml.DeltaCommit, error) {
	var out []dml.DeltaCommit
	for _, p := range paths {
		ch := t.changed[p]
		if ch == nil || ch.delta == nil {
			continue
		}
		c, err := dml.NetDeltaCommit(p, ch.staged, ch.delta.version)
		if err != nil {
			return nil, fmt.Errorf("COMMIT: Delta table %q: %w", ch.name, err)
		}
		if c == nil {
			continue // no change
		}
		c.OperationParameters["carquetTransaction"] = mark
		if err := dml.MoveNewFiles(ch.staged, p); err != nil {
			return nil, fmt.Errorf("COMMIT: Delta table %q: %w", ch.name, err)
		}
		out = append(out, dml.DeltaCommit{Path: p, Name: ch.name, Commit: c})
	}
	return out, nil
}
