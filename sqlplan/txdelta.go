package sqlplan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/writer"
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
	if err := linkDeltaCopy(root, staged, version); err != nil {
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

// linkDeltaCopy makes to a copy of the Delta table at root as of
// version: hard links of its files, of its log those of versions up to
// version (commits, checkpoints, compactions).
func linkDeltaCopy(root, to string, version int64) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if filepath.Dir(rel) == delta.LogDir && !logUpTo(d.Name(), version) {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		return os.Link(p, filepath.Join(to, rel))
	})
}

// logUpTo reports whether the log file name belongs to a version up to
// version: its name starts with the (first) version it holds.
func logUpTo(name string, version int64) bool {
	digits := name
	if i := strings.IndexByte(name, '.'); i >= 0 {
		digits = name[:i]
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	return err == nil && v <= version
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

// deltaCommit is a Delta table's commit at COMMIT.
type deltaCommit struct {
	path, name string
	c          *delta.Commit
}

// deltaCommitsLocked moves the new files of the transaction's staged
// Delta tables into the tables' folders and returns the commits that
// publish them, in path order, each marked with mark; t.mu is held.
func (t *Tx) deltaCommitsLocked(paths []string, mark string) ([]deltaCommit, error) {
	var out []deltaCommit
	for _, p := range paths {
		ch := t.changed[p]
		if ch == nil || ch.delta == nil {
			continue
		}
		c, err := deltaNetCommit(p, ch.staged, ch.delta.version)
		if err != nil {
			return nil, fmt.Errorf("COMMIT: Delta table %q: %w", ch.name, err)
		}
		if c == nil {
			continue // no change
		}
		c.OperationParameters["carquetTransaction"] = mark
		if err := moveNewFiles(ch.staged, p); err != nil {
			return nil, fmt.Errorf("COMMIT: Delta table %q: %w", ch.name, err)
		}
		out = append(out, deltaCommit{path: p, name: ch.name, c: c})
	}
	return out, nil
}

// deltaNetCommit is the commit that takes the Delta table at root from
// version to what its staged copy's latest version holds (nil when they
// hold the same).
func deltaNetCommit(root, staged string, version int64) (*delta.Commit, error) {
	from, err := delta.Open(root, version)
	if err != nil {
		return nil, err
	}
	to, err := delta.Open(staged, -1)
	if err != nil {
		return nil, err
	}
	key := func(a *delta.AddFile) string {
		if a.DeletionVector == nil {
			return a.URI
		}
		return a.URI + "\x00" + a.DeletionVector.UniqueID()
	}
	was := map[string]bool{}
	for _, a := range from.Files {
		was[key(a)] = true
	}
	is := map[string]bool{}
	c := &delta.Commit{ReadVersion: version, Operation: "WRITE", OperationParameters: map[string]string{},
		CheckpointInterval: delta.CheckpointInterval(to.Metadata.Configuration)}
	for _, a := range to.Files {
		is[key(a)] = true
		if !was[key(a)] {
			c.Adds = append(c.Adds, delta.Add{Path: a.URI, PartitionValues: a.PartitionValues, Size: a.Size, ModificationTime: a.ModificationTime,
				DataChange: true, Stats: a.StatsJSON, DeletionVector: a.DeletionVector})
		}
	}
	for _, a := range from.Files {
		if !is[key(a)] {
			c.Removes = append(c.Removes, delta.RemoveOf(a))
		}
	}
	if !reflect.DeepEqual(from.Protocol, to.Protocol) {
		c.Protocol = &to.Protocol
	}
	if !reflect.DeepEqual(from.Metadata, to.Metadata) {
		c.Metadata = &to.Metadata
	}
	if len(c.Adds) == 0 && len(c.Removes) == 0 && c.Protocol == nil && c.Metadata == nil {
		return nil, nil
	}
	c.BlindAppend = len(c.Removes) == 0 && c.Protocol == nil && c.Metadata == nil
	return c, nil
}

// moveNewFiles moves the files of the staged copy that the table's
// folder root lacks (the transaction's data files and deletion vectors)
// into it, under the same names; the log stays.
func moveNewFiles(staged, root string) error {
	return filepath.WalkDir(staged, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(staged, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == delta.LogDir {
				return filepath.SkipDir
			}
			return nil
		}
		to := filepath.Join(root, rel)
		if _, err := os.Lstat(to); err == nil {
			return nil // a link of the table's own file
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o777); err != nil {
			return err
		}
		if err := os.Rename(p, to); err != nil {
			return err
		}
		return writer.SyncDir(filepath.Dir(to))
	})
}

// commitMark names a COMMIT in its Delta commits (the 'C' step's dst).
func commitMark(stageDir string) string {
	return fmt.Sprintf("%s-%d-%d", filepath.Base(stageDir), os.Getpid(), time.Now().UnixNano())
}

// deltaCommitted reports whether the Delta table at root holds a commit
// after version marked with mark: the commit point of a COMMIT whose
// record has a 'C' step.
func deltaCommitted(root string, version int64, mark string) (bool, error) {
	latest, err := delta.Latest(root)
	if err != nil {
		return false, err
	}
	for v := version + 1; v <= latest; v++ {
		data, err := os.ReadFile(filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.json", v)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // compacted away: marked commits are recent, see below
		}
		if err != nil {
			return false, err
		}
		if bytes.Contains(data, []byte(strconv.Quote(mark))) {
			return true, nil
		}
	}
	return false, nil
}

// commitDeltasLocked writes the Delta commits of a COMMIT whose record
// is written: the first is its commit point (an error before it: nothing
// is committed); one after it that fails is reported with the tables
// left out.
func commitDeltas(e *Engine, commits []deltaCommit) (committed bool, err error) {
	for i, dc := range commits {
		_, err := dc.c.Write(dc.path, delta.CommitOptions{Store: e.opts.Store})
		e.forget(dc.path)
		if err == nil {
			continue
		}
		if errors.Is(err, delta.ErrConflict) {
			err = &Error{Msg: fmt.Sprintf("COMMIT: Delta table %q was changed by another writer in a way this transaction conflicts with: %v", dc.name, err), Offset: -1, Err: ErrConflict}
		}
		if i == 0 {
			return false, err
		}
		var lost []string
		for _, l := range commits[i:] {
			lost = append(lost, strconv.Quote(l.name))
		}
		return true, fmt.Errorf("carquet: COMMIT is committed but for the Delta tables %s (Delta has no commit over several tables): %w", strings.Join(lost, ", "), err)
	}
	return true, nil
}
