package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/writer"
)

// Transactions over a database in an object store.
//
// A statement that would change a table's objects — DELETE, UPDATE or
// MERGE of a one-object table, CREATE TABLE [AS], DROP TABLE, INSERT
// into a one-object table or into several tables — changes nothing in
// the store before COMMIT. The new contents of a table are staged as a
// local file in a folder of this machine (its stage, in the engine's
// folder of temporary tables), which the transaction reads in the
// table's place (its own writes); a dropped table is only marked; the
// rows INSERTs add wait in memory, as for local tables. ROLLBACK removes
// the folder: no request reached the store.
//
// COMMIT, under the engine's write lock:
//
//  1. Lists each table it changed, from the store (no cached listing),
//     and compares the objects (keys, sizes, ETags) with those the
//     transaction first saw: another writer's change of any of them is
//     ErrConflict, and nothing is published. Rows a one-object table
//     only took are staged now, after the object as listed.
//  2. Publishes, table by table: a staged one-object table by a PUT
//     that replaces the object only if it still has the ETag just
//     listed (If-Match), or only if there is none (If-None-Match) for a
//     new one; a new folder table, and a folder's inserted rows, as a
//     new object of the folder, created only if the name is free; a
//     dropped table by deleting the objects listed in step 1. The
//     conditional replacements go first, the DELETEs last (rank).
//
// Atomicity is the store's: one PUT or one DELETE of one object is
// atomic, and S3 checks a PUT's condition and makes it in one step, so
// a table of one object changes whole or not at all, and never over a
// rival's write made since the check (a failed condition is ErrConflict
// too). Several objects are not published atomically, and there is no
// commit record: a COMMIT that fails (or a process that dies) between
// two of its requests leaves the tables published before as committed
// and the rest as they were; the error names which. A dropped folder's
// objects go one by one, so a reader during the DELETEs may see some of
// them, and an object a rival added to it after the check stays.

// localStageLocked makes the transaction's staging folder in the
// engine's local folder of temporary tables (which its statements may
// read and write): an object store has no rename to publish a staged
// object with, so staged files stay on this machine and go up by PUT at
// COMMIT; t.mu is held.
func (t *Tx) localStageLocked() (*dml.Stage, error) {
	temp, err := t.e.tempDir()
	if err != nil {
		return nil, err
	}
	return dml.NewLocalStage(temp)
}

// pathStamp is the stamp of the table at path, local or remote.
func (e *Engine) pathStamp(path string) string {
	if objstore.IsURL(path) {
		return e.remoteStamp(path)
	}
	return stampOf(path)
}

// remoteStep is what COMMIT does to one table of an object store.
type remoteStep struct {
	path, name string
	st         objstore.Store
	// objects are the table's objects as listed at COMMIT (step 1).
	objects []objstore.Entry
	ch      *txTable
	pw      *pendingWrite
	// staged is the local file whose contents become the table's:
	// ch.staged, or the object listed followed by the rows inserted into
	// a one-object table (stageRemoteInserts).
	staged string
}

// publishRemoteLocked commits a transaction over an object store (see
// above); t.mu is held.
func (t *Tx) publishRemoteLocked(paths []string) error {
	e := t.e
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	defer func() {
		for _, p := range paths {
			e.forget(p)
		}
	}()
	ctx := context.Background()
	steps := make([]remoteStep, 0, len(paths))
	for _, p := range paths {
		step, err := t.checkRemoteLocked(ctx, p)
		if err != nil {
			return err
		}
		steps = append(steps, step)
	}
	// The conditional PUTs, which a rival can still make fail, go first,
	// so that a conflict found then mostly leaves nothing published.
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].rank() < steps[j].rank() })
	var done []string
	for _, s := range steps {
		if err := t.publishRemoteStep(ctx, s); err != nil {
			return publishedError(done, s.name, err)
		}
		done = append(done, s.name)
	}
	return nil
}

// rank orders the steps of a COMMIT: the replacement or creation of a
// named object (conditional) first, then new objects of folders (their
// names are fresh), then tables that are only dropped.
func (s remoteStep) rank() int {
	switch {
	case s.staged != "" && strings.HasSuffix(s.path, ".parquet"):
		return 0
	case s.ch == nil || s.ch.staged != "":
		return 1
	}
	return 2
}

// checkRemoteLocked lists the table at path from the store and checks
// it against the transaction's first sight of it (a table that only took
// INSERTs is not checked: its rows go in a new object of its own); t.mu
// is held.
func (t *Tx) checkRemoteLocked(ctx context.Context, path string) (remoteStep, error) {
	step := remoteStep{path: path, ch: t.changed[path], pw: t.pending[path]}
	step.name = strings.TrimSuffix(path[strings.LastIndexByte(path, '/')+1:], ".parquet")
	if step.ch != nil {
		step.name = step.ch.name
	}
	st, loc, err := objstore.Resolve(ctx, path, t.e.opts.Store)
	if err != nil {
		return step, err
	}
	step.st = st
	ents, err := objstore.ListNow(ctx, st, loc.Key)
	if err != nil {
		return step, fmt.Errorf("COMMIT: table %q: %w", step.name, err)
	}
	folder := strings.TrimSuffix(loc.Key, "/") + "/"
	for _, ent := range ents {
		if ent.Key == loc.Key || strings.HasPrefix(ent.Key, folder) {
			step.objects = append(step.objects, ent)
		}
	}
	if step.ch == nil {
		if err := step.pw.flushRows(); err != nil {
			return step, err
		}
		if !step.pw.folder {
			return step, t.stageRemoteInsertsLocked(ctx, &step)
		}
		return step, nil
	}
	if entriesStamp(step.objects) != t.stamps[path] {
		return step, remoteConflict(step.name, nil)
	}
	step.staged = step.ch.staged
	return step, nil
}

// stageRemoteInsertsLocked stages the rows the transaction only inserted
// into a one-object table: a local copy of the object as just listed
// (its row groups copied as stored) followed by them, which replaces the
// object if it still has that ETag. Rows inserted do not conflict: they
// go into the table as it is now, as for local tables; t.mu is held.
func (t *Tx) stageRemoteInsertsLocked(ctx context.Context, s *remoteStep) error {
	pw := s.pw
	if len(pw.cols) == 0 {
		return nil
	}
	if len(s.objects) != 1 {
		return remoteConflict(s.name, nil) // dropped, or made a folder, meanwhile
	}
	ent := s.objects[0]
	obj := objstore.Open(ctx, s.st, s.path, ent)
	defer obj.Close()
	src, err := file.Open(obj, ent.Size, file.Options{Limits: t.e.opts.Limits, Decryption: t.e.opts.Decryption})
	if err != nil {
		return fmt.Errorf("COMMIT: table %s: %w", s.path, err)
	}
	opts, err := t.e.copyOptions(src)
	if err != nil {
		return err
	}
	staged, err := t.stagedPathLocked(s.path)
	if err != nil {
		return err
	}
	if err := dml.WriteFile(staged, pw.sch, opts, func(w *writer.Writer) error { return dml.CopyWith(w, src, pw.cols) }); err != nil {
		return err
	}
	s.staged = staged
	return nil
}

// remoteConflict is the error of a table another writer changed since
// the transaction read it; published names what COMMIT published before
// it found out (nil: nothing).
func remoteConflict(name string, published []string) error {
	msg := fmt.Sprintf("COMMIT: table %q was changed by another writer since this transaction first read it", name)
	if len(published) == 0 {
		msg += "; nothing was committed"
	} else {
		msg += fmt.Sprintf("; tables %q were committed before it, the others were not", published)
	}
	return &Error{Msg: msg, Offset: -1, Err: ErrConflict}
}

// publishedError describes a COMMIT that failed on the table name after
// publishing the tables done: no commit record ties them together.
func publishedError(done []string, name string, err error) error {
	// A failed condition: the object changed, or a new table's name was
	// taken, since the check.
	if errors.Is(err, objstore.ErrChanged) || errors.Is(err, fs.ErrExist) {
		return remoteConflict(name, done)
	}
	if len(done) == 0 {
		return fmt.Errorf("COMMIT: table %q: %w; nothing was committed", name, err)
	}
	return fmt.Errorf("COMMIT: table %q: %w; tables %q were committed before it, the others were not (an object store has no atomic COMMIT of several objects)", name, err, done)
}

// publishRemoteStep publishes the transaction's change of one table.
func (t *Tx) publishRemoteStep(ctx context.Context, s remoteStep) error {
	e := t.e
	loc, err := objstore.Parse(s.path)
	if err != nil {
		return err
	}
	if s.staged != "" {
		if err := t.putStaged(ctx, s, loc.Key); err != nil {
			return err
		}
	}
	if s.ch == nil {
		if !s.pw.folder || len(s.pw.cols) == 0 {
			return nil // staged above, or no rows
		}
		opts, err := e.writeOptions(s.pw.opts)
		if err != nil {
			return err
		}
		return e.writeRemoteBatches(s.path, s.pw.sch, opts, s.pw.cols)
	}
	if s.ch.drop && !(s.staged != "" && strings.HasSuffix(loc.Key, ".parquet")) {
		// The objects listed at the check go, after the table's new
		// object (if any) is there; a one-object table's was replaced.
		for _, ent := range s.objects {
			if err := s.st.Delete(ctx, ent.Key); err != nil {
				return err
			}
		}
	}
	return nil
}

// putStaged uploads the staged file of a table: in place of the object
// of a one-object table, conditionally on the ETag listed at the check,
// or as the first object of a new folder table.
func (t *Tx) putStaged(ctx context.Context, s remoteStep, key string) error {
	f, err := os.Open(s.staged)
	if err != nil {
		return err
	}
	defer f.Close()
	var up objstore.Upload
	switch {
	case !strings.HasSuffix(key, ".parquet"):
		key = strings.TrimSuffix(key, "/") + "/" + remoteObjectName()
		up, err = s.st.Create(ctx, key, true)
	case len(s.objects) == 1 && s.objects[0].Key == key:
		up, err = objstore.CreateIfMatch(ctx, s.st, key, s.objects[0].ETag)
	default:
		up, err = s.st.Create(ctx, key, true)
	}
	if err != nil {
		return err
	}
	if _, err := io.Copy(up, f); err != nil {
		return errors.Join(err, up.Abort())
	}
	return up.Commit()
}

// oneObjectInsertLocked reports whether the transaction inserted into a
// one-object table of an object store; t.mu is held.
func (t *Tx) oneObjectInsertLocked() bool {
	for p, pw := range t.pending {
		if objstore.IsURL(p) && !pw.folder {
			return true
		}
	}
	return false
}
