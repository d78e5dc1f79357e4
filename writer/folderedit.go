package writer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/schema"
)

// A folder table has no manifest: its contents are whatever a listing of
// the folder finds. So a change that removes files and adds others
// (DELETE, UPDATE, compaction) cannot be published file by file without
// a reader listing the folder in between seeing both or neither. An edit
// instead builds the folder's next version beside it (".NAME.compact-…":
// hard links of the files kept, the new files written in it) and swaps
// the two folders in one step (renameat2 RENAME_EXCHANGE). Files added
// by an edit get names no file of the folder had before, so that a
// reader that listed the old folder and opens a removed name after the
// swap finds it missing (and lists again, see scan.Open) instead of
// reading other rows under the old name; a kept file is the same inode
// under both folders. The edit holds the folder's lock exclusive
// (LockFolder) from start to end, so no INSERT lands a file in the old
// folder meanwhile.
//
// A crash before the swap leaves the old folder whole and a copy that no
// reader lists (a dot name); one after it leaves the new folder and the
// old one under the dot name. The next edit of the folder removes both
// kinds of leftovers.

// FolderEdit is a change of a folder table's files, published in one step.
type FolderEdit struct {
	dir, next string
	unlock    func()          // nil for a staged edit
	removed   map[string]bool // slash-separated paths under dir
	// only, when not nil, are the Parquet files of dir that the next
	// version starts from (slash-separated): a staged edit's snapshot.
	only map[string]bool
	// staged says Commit leaves the next version where it is built, for
	// the caller to publish (StageFolder).
	staged   bool
	finished bool
}

// StagedMarkPrefix starts the names of the files a transaction's COMMIT
// puts in a staged folder version to tell, after a crash, whether it was
// exchanged with the table yet. No listing of a table reads dot names,
// and an edit carries none over.
const StagedMarkPrefix = ".carquet-staged-"

// StageFolder starts an edit of the folder table dir whose next version
// is built at next (made here, on dir's file system: it holds hard links)
// and stays there: Commit links the kept files and syncs the copy but
// swaps nothing; the caller publishes it later with ExchangeDirs (a
// transaction's COMMIT). It takes no lock: the files of a folder table
// are never changed in place, and the caller checks when it publishes
// that dir is still as it was. files, when not nil, are the Parquet files
// of dir (slash-separated) the version starts from, the caller's
// snapshot, which dir may no longer list alone.
func StageFolder(dir, next string, files []string) (*FolderEdit, error) {
	if err := os.Mkdir(next, 0o755); err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	e := &FolderEdit{dir: filepath.Clean(dir), next: next, removed: map[string]bool{}, staged: true}
	if files != nil {
		e.only = make(map[string]bool, len(files))
		for _, f := range files {
			e.only[filepath.ToSlash(f)] = true
		}
	}
	return e, nil
}

// Dir is the folder the edit starts from: the files it removes and
// rewrites are named relative to it.
func (e *FolderEdit) Dir() string { return e.dir }

// ExchangeDirs swaps the folders a and b in one step (renameat2
// RENAME_EXCHANGE) and syncs their parents.
func ExchangeDirs(a, b string) error {
	if err := exchangeDirs(a, b); err != nil {
		return fmt.Errorf("writer: exchange %s and %s: %w", a, b, err)
	}
	if err := syncDir(filepath.Dir(a)); err != nil {
		return err
	}
	return syncDir(filepath.Dir(b))
}

// editPrefix starts the name of a folder's next version (and, after the
// swap, of its old one) in the folder's parent.
func editPrefix(base string) string { return "." + base + ".compact-" }

// EditFolder starts an edit of the folder table dir: it takes the
// folder's lock exclusive (waiting for writers that hold it), removes
// what dead writers and edits left, and makes the empty copy new files
// go to. Commit publishes the edit, Abort drops it; either releases the
// lock.
func EditFolder(dir string) (*FolderEdit, error) {
	dir = filepath.Clean(dir)
	unlock, err := LockFolder(dir, true)
	if err != nil {
		return nil, err
	}
	if err := removeStaleTempsTree(dir); err != nil {
		unlock()
		return nil, err
	}
	parent, base := filepath.Split(dir)
	// Copies that an edit killed before it finished left (the new folder
	// before the swap, the old one after it): no edit of dir runs but
	// this one, which holds its lock.
	if old, _ := filepath.Glob(filepath.Join(parent, globEscape(editPrefix(base))+"*")); len(old) > 0 {
		for _, p := range old {
			os.RemoveAll(p)
		}
	}
	next := filepath.Join(parent, fmt.Sprintf("%s%d-%d", editPrefix(base), os.Getpid(), time.Now().UnixNano()))
	if err := os.Mkdir(next, 0o755); err != nil {
		unlock()
		return nil, fmt.Errorf("writer: %w", err)
	}
	return &FolderEdit{dir: dir, next: next, unlock: unlock, removed: map[string]bool{}}, nil
}

// removeStaleTempsTree is RemoveStaleTemps for dir and every folder in it.
func removeStaleTempsTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("writer: %w", err)
		}
		if d.IsDir() {
			RemoveStaleTemps(p)
		}
		return nil
	})
}

// Create starts a new file of the edit at rel (slash-separated, under the
// folder; its parent folders are made as needed). The name must be new
// to the folder (see above).
func (e *FolderEdit) Create(rel string, sch *schema.Schema, opts ...Option) (*Writer, error) {
	if e.finished {
		return nil, errors.New("writer: the folder edit is finished")
	}
	p := filepath.Join(e.next, filepath.FromSlash(rel))
	if _, err := os.Lstat(filepath.Join(e.dir, filepath.FromSlash(rel))); err == nil {
		return nil, fmt.Errorf("writer: %s: %w (an edit adds files under new names)", rel, fs.ErrExist)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	return CreateNew(p, sch, opts...)
}

// Remove drops the folder's file at rel (slash-separated) from the edit's
// version of the folder.
func (e *FolderEdit) Remove(rel string) { e.removed[filepath.ToSlash(rel)] = true }

// Commit publishes the edit: every file of the folder that was not
// removed is linked into the copy, the copy is synced and swapped with
// the folder, and the old version is removed.
func (e *FolderEdit) Commit() error {
	if e.finished {
		return errors.New("writer: the folder edit is finished")
	}
	e.finished = true
	if e.staged {
		err := e.linkKept()
		if err == nil {
			err = syncTree(e.next)
		}
		if err != nil {
			os.RemoveAll(e.next)
		}
		return err
	}
	defer e.unlock()
	defer os.RemoveAll(e.next) // the old folder, after the swap
	if err := e.linkKept(); err != nil {
		return err
	}
	if err := syncTree(e.next); err != nil {
		return err
	}
	if err := exchangeDirs(e.next, e.dir); err != nil {
		return fmt.Errorf("writer: edit %s: %w", e.dir, err)
	}
	return syncDir(filepath.Dir(e.dir))
}

// Abort drops the edit, leaving the folder as it was.
func (e *FolderEdit) Abort() {
	if e.finished {
		return
	}
	e.finished = true
	os.RemoveAll(e.next)
	if e.unlock != nil {
		e.unlock()
	}
}

// linkKept hard-links every file of the folder (at any depth) that the
// edit did not remove into the copy, making folders as needed: folders
// left without files are not carried over.
func (e *FolderEdit) linkKept() error {
	linked := map[string]bool{}
	err := filepath.WalkDir(e.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("writer: %w", err)
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(e.dir, p)
		if err != nil {
			return fmt.Errorf("writer: %w", err)
		}
		slash := filepath.ToSlash(rel)
		if e.removed[slash] || IsTempName(d.Name()) || strings.HasPrefix(d.Name(), StagedMarkPrefix) {
			return nil
		}
		if e.only != nil && strings.HasSuffix(d.Name(), ".parquet") && !e.only[slash] {
			return nil // not in the snapshot the edit starts from
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("writer: edit %s: %s is not a regular file", e.dir, p)
		}
		to := filepath.Join(e.next, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return fmt.Errorf("writer: %w", err)
		}
		if err := os.Link(p, to); err != nil {
			return fmt.Errorf("writer: edit %s: %w", e.dir, err)
		}
		linked[slash] = true
		return nil
	})
	if err != nil || e.only == nil {
		return err
	}
	// A file of the snapshot that the folder lost meanwhile (another
	// writer's edit) cannot be linked: the version would lack its rows.
	for f := range e.only {
		if !linked[f] && !e.removed[f] {
			return fmt.Errorf("writer: edit %s: %s: %w", e.dir, f, fs.ErrNotExist)
		}
	}
	return nil
}

// syncTree syncs every folder under dir, dir last: the links and new
// files' names are durable before the swap makes them the table.
func syncTree(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("writer: %w", err)
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := syncDir(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}
