package dml

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
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/writer"
)

// Delta tables in transactions: the first write of a Delta table stages
// a copy of it as the transaction read it (LinkDeltaCopy), the
// transaction's statements commit to the copy's log, and COMMIT turns
// the copy's commits into one commit of the table (NetDeltaCommit), its
// new files moved into the table's folder first (MoveNewFiles). The first
// Delta commit of a COMMIT, marked (CommitMark, DeltaStep), is its commit
// point: recovery applies a record with a Delta step only when the log
// holds the marked commit.

// ErrConflict is returned by a COMMIT that found a table the transaction
// changed changed by another connection meanwhile (sqlplan.ErrConflict).
var ErrConflict = errors.New("write-write conflict")

// LinkDeltaCopy makes to a copy of the Delta table at root as of
// version: hard links of its files, of its log those of versions up to
// version (commits, checkpoints, compactions).
func LinkDeltaCopy(root, to string, version int64) error {
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

// DeltaCommit is a Delta table's commit at COMMIT: the table at Path,
// named Name in messages.
type DeltaCommit struct {
	Path, Name string
	Commit     *delta.Commit
}

// NetDeltaCommit is the commit that takes the Delta table at root from
// version to what its staged copy's latest version holds (nil when they
// hold the same).
func NetDeltaCommit(root, staged string, version int64) (*delta.Commit, error) {
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

// MoveNewFiles moves the files of the staged copy that the table's
// folder root lacks (the transaction's data files and deletion vectors)
// into it, under the same names; the log stays.
func MoveNewFiles(staged, root string) error {
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

// CommitMark names a COMMIT, whose staging folder is stageDir, in its
// Delta commits.
func CommitMark(stageDir string) string {
	return fmt.Sprintf("%s-%d-%d", filepath.Base(stageDir), os.Getpid(), time.Now().UnixNano())
}

// DeltaStep is the record's step that names c, marked with mark, as the
// COMMIT's commit point.
func DeltaStep(c DeltaCommit, mark string) Op {
	return Op{Kind: OpDeltaCommit, Src: c.Path, Dst: mark + "@" + strconv.FormatInt(c.Commit.ReadVersion, 10)}
}

// deltaCommitted reports whether the Delta table at root holds a commit
// after version marked with mark: the commit point of a COMMIT whose
// record has a Delta step.
func deltaCommitted(root string, version int64, mark string) (bool, error) {
	latest, err := delta.Latest(root)
	if err != nil {
		return false, err
	}
	for v := version + 1; v <= latest; v++ {
		data, err := os.ReadFile(filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.json", v)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // compacted away: marked commits are recent
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

// CommitDeltas writes the Delta commits of a COMMIT whose record is
// written: the first is its commit point (an error before it: nothing
// is committed); one after it that fails is reported with the tables
// left out. forget is called with each table's path once its commit is
// tried.
func CommitDeltas(commits []DeltaCommit, opts delta.CommitOptions, forget func(path string)) (committed bool, err error) {
	for i, dc := range commits {
		_, err := dc.Commit.Write(dc.Path, opts)
		forget(dc.Path)
		if err == nil {
			continue
		}
		if errors.Is(err, delta.ErrConflict) {
			err = &parse.Error{Msg: fmt.Sprintf("COMMIT: Delta table %q was changed by another writer in a way this transaction conflicts with: %v", dc.Name, err), Offset: -1, Err: ErrConflict}
		}
		if i == 0 {
			return false, err
		}
		var lost []string
		for _, l := range commits[i:] {
			lost = append(lost, strconv.Quote(l.Name))
		}
		return true, fmt.Errorf("carquet: COMMIT is committed but for the Delta tables %s (Delta has no commit over several tables): %w", strings.Join(lost, ", "), err)
	}
	return true, nil
}
