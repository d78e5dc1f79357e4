package sqlplan

import (
	"path/filepath"
	"strings"

	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// Temporary tables in transactions.
//
// CREATE TEMP TABLE in a transaction stages the table like any other
// (Tx.stage), but beside the files of the engine's temporary folder
// (stagedPathLocked), which may be on another file system than the
// root: COMMIT's rename into <temp>/<name>.parquet stays atomic. The
// staged file's name starts with a dot, so no listing and no lookup of
// another connection finds it before then. The transaction's own
// statements find the table by its name at once (resolveLocked), and
// ROLLBACK removes the staged file with the rest.
//
// A temporary table the transaction dropped is gone for its statements
// only: the name then means the table of the root that the temporary one
// hid, if there is one, matched in its exact case.

// tempChangeLocked finds the transaction's change of the temporary table
// name (any case): its path, "" when it has none; t.mu is held.
func (t *Tx) tempChangeLocked(name string) (string, *txTable) {
	if parse.IsPathName(name) {
		return "", nil
	}
	for p, ch := range t.changed {
		if strings.EqualFold(strings.TrimSuffix(filepath.Base(p), ".parquet"), name) && t.e.isTempPath(p) {
			return p, ch
		}
	}
	return "", nil
}

// resolveLocked is Engine.tablePath as the transaction's temporary
// tables change it; t.mu is held.
func (t *Tx) resolveLocked(name string) (string, bool, error) {
	if p, ch := t.tempChangeLocked(name); ch != nil {
		if ch.staged != "" {
			return p, true, nil
		}
		return t.e.rootTablePath(name)
	}
	return t.e.tablePath(name)
}

// openCommittedLocked opens, as the engine sees it now, the table name
// means to the transaction, which has not read or changed it yet; t.mu
// is held.
func (t *Tx) openCommittedLocked(name string) (*scan.Table, string, error) {
	if _, ch := t.tempChangeLocked(name); ch != nil && ch.staged == "" {
		return t.e.openRootTable(name)
	}
	return t.e.openTable(name)
}

// tempTable is Engine.tempTable as the transaction sees the temporary
// tables: path is that of a temporary table the transaction created or
// dropped even when exists is false, so that a CREATE of the name again
// replaces its change.
func (t *Tx) tempTable(name string) (path string, exists bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ch := t.tempChangeLocked(name); ch != nil {
		return p, ch.staged != ""
	}
	return t.e.tempTable(name)
}
