package sqlplan

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// VACUUM t [RETAIN n HOURS [FORCE]] [DRY RUN] deletes the files of the
// Delta table t that no version within the retention needs (see
// delta.Vacuum); RowsAffected is the number of files deleted (to delete,
// with DRY RUN). The retention is the table's
// delta.deletedFileRetentionDuration (a week by default); RETAIN n HOURS
// below it is refused unless FORCE follows, carquet's counterpart of
// Databricks' spark.databricks.delta.retentionDurationCheck.enabled =
// false: uncommitted files of concurrent writers, and the files of the
// versions older than the retention (time travel), may be deleted. Other
// tables are refused: a plain Parquet table keeps no unused files.

// vacuumSpec is what VACUUM's clauses ask.
type vacuumSpec struct {
	retain time.Duration // < 0: the table's
	force  bool
	dryRun bool
}

// prepareVacuum prepares VACUUM name [RETAIN n HOURS [FORCE]] [DRY RUN].
func (e *Engine) prepareVacuum(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	bad := func(i int, msg string) error {
		return errAt(text, parse.TokPos(text, toks, min(i, len(toks)-1)), "%s", msg)
	}
	if len(toks) < 2 || toks[1].Kind != parse.Ident && toks[1].Kind != parse.Quoted && toks[1].Kind != parse.DQuoted && toks[1].Kind != parse.String {
		return nil, bad(1, "VACUUM takes a table name")
	}
	spec := &vacuumSpec{retain: -1}
	i := 2
	if i < len(toks) && toks[i].Is("retain") {
		if i+2 >= len(toks) || toks[i+1].Kind != parse.Number || !toks[i+2].Is("hours") && !toks[i+2].Is("hour") {
			return nil, bad(i, "VACUUM ... RETAIN takes a number of hours: RETAIN n HOURS")
		}
		h, err := strconv.ParseFloat(toks[i+1].Text, 64)
		if err != nil || h < 0 || h*float64(time.Hour) > math.MaxInt64 {
			return nil, bad(i+1, fmt.Sprintf("RETAIN %s HOURS: not a number of hours", toks[i+1].Text))
		}
		spec.retain = time.Duration(h * float64(time.Hour))
		i += 3
		if i < len(toks) && toks[i].Is("force") {
			spec.force = true
			i++
		}
	}
	if i+1 < len(toks) && toks[i].Is("dry") && toks[i+1].Is("run") {
		spec.dryRun = true
		i += 2
	}
	if i < len(toks) {
		return nil, bad(i, "VACUUM takes a table name, then RETAIN n HOURS [FORCE] and DRY RUN")
	}
	s.kind = kindVacuum
	s.table = toks[1].Name()
	s.vacuum = spec
	return s, nil
}

// vacuumTable runs VACUUM.
func (s *Stmt) vacuumTable() (Result, error) {
	e := s.e
	t, path, err := e.openTable(s.table)
	if err != nil {
		return Result{}, err
	}
	snap := t.Snapshot()
	e.release(t)
	if snap == nil {
		return Result{}, unsupported(fmt.Sprintf("VACUUM of %q, which is not a Delta table (only Delta tables keep files they no longer use)", s.table))
	}
	if err := e.writable(path); err != nil {
		return Result{}, err
	}
	if v := s.vacuum; v.retain >= 0 && !v.force && v.retain < snap.Retention() {
		return Result{}, errorf("VACUUM %q (Delta version %d): RETAIN %v HOURS is shorter than the table's retention of %v hours (delta.deletedFileRetentionDuration): files that concurrent writers and time travel need may be deleted; add FORCE (RETAIN n HOURS FORCE) to proceed",
			s.table, snap.Version, v.retain.Hours(), snap.Retention().Hours())
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	defer e.forget(path)
	gone, err := delta.Vacuum(path, delta.VacuumOptions{Retain: s.vacuum.retain, Force: s.vacuum.force, DryRun: s.vacuum.dryRun, Store: e.opts.Store})
	if err != nil {
		return Result{RowsAffected: int64(len(gone))}, fmt.Errorf("VACUUM %q: %w", s.table, err)
	}
	return Result{RowsAffected: int64(len(gone))}, nil
}
