package dml

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/carquet-go/carquet/writer"
)

// Stage is a transaction's staging folder: its staged files, folder
// versions and Delta copies live there until COMMIT publishes them or
// ROLLBACK removes them. A local one is locked while the transaction
// lives, so that Recover never takes it for a dead transaction's.
type Stage struct {
	dir    string
	unlock func()
	seq    int // numbers the entries
}

// NewStage makes and locks a new staging folder under parent (the
// root's StageDirName).
func NewStage(parent string) (*Stage, error) {
	var last error
	for range 10 {
		if err := os.MkdirAll(parent, 0o777); err != nil {
			return nil, err
		}
		dir, err := os.MkdirTemp(parent, "tx-")
		if err != nil {
			return nil, err
		}
		// A recovery that found the folder before it was locked removed
		// it as a dead transaction's: then make another.
		unlock, err := writer.LockFolder(dir, true)
		if err != nil {
			last = err
			continue
		}
		return &Stage{dir: dir, unlock: unlock}, nil
	}
	return nil, fmt.Errorf("carquet: cannot keep a staging folder in %s: %w", parent, last)
}

// NewLocalStage makes a staging folder in the local folder temp, for the
// tables of an object store, whose COMMIT keeps no record: no lock.
func NewLocalStage(temp string) (*Stage, error) {
	// A dot-name: no temporary table's file.
	dir, err := os.MkdirTemp(temp, ".tx-")
	if err != nil {
		return nil, err
	}
	return &Stage{dir: dir, unlock: func() {}}, nil
}

// Dir is the staging folder.
func (s *Stage) Dir() string { return s.dir }

// Name names a new entry of the folder, ending in suffix.
func (s *Stage) Name(suffix string) string {
	s.seq++
	return filepath.Join(s.dir, strconv.Itoa(s.seq)+suffix)
}

// Discard removes the folder and what it holds, then lets it go.
func (s *Stage) Discard() {
	os.RemoveAll(s.dir)
	s.unlock()
}

// Unlock lets the folder go without removing it, as a process that dies
// leaves it; Recover then takes it for a dead transaction's.
func (s *Stage) Unlock() { s.unlock() }
