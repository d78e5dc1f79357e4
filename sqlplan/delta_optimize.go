package sqlplan

import (
	"context"
	"fmt"
	"strconv"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

// OPTIMIZE of a Delta table compacts its small data files (those with
// fewer rows than a row group of the table, its row_group_rows option
// else the engine's) into one new data file per partition, in one commit
// (dml.DeltaCompaction).
//
// Then OPTIMIZE compacts the log: the commits after the newest checkpoint
// are reconciled into one <x>.<y>.compacted.json (delta.CompactLog),
// which readers replay in their place. Like a checkpoint it is best
// effort: a table whose log it cannot compact (an action it does not
// know) is optimized without it.

// optimizeDelta runs OPTIMIZE of the Delta table tgt, its data files then
// its log; RowsAffected is the number of rows written to the new file.
func (s *Stmt) optimizeDelta(ctx context.Context, p *plan.Planner, tgt *target) (Result, error) {
	res, err := s.optimizeDeltaFiles(ctx, p, tgt)
	if err == nil {
		delta.CompactLog(tgt.path, s.e.opts.Store) // best effort: see above
	}
	return res, err
}

// optimizeDeltaFiles compacts the small data files of the Delta table tgt.
func (s *Stmt) optimizeDeltaFiles(ctx context.Context, p *plan.Planner, tgt *target) (Result, error) {
	opts, err := s.e.writeOptions(tgt.opts)
	if err != nil {
		return Result{}, err
	}
	rgRows := s.e.opts.RowGroupRows
	if v, ok := tgt.opts["row_group_rows"]; ok {
		rgRows, _ = strconv.ParseInt(v, 10, 64) // checked by writeOptions
	}
	if rgRows <= 0 {
		rgRows = writer.DefaultRowGroupRows
	}
	e := s.e
	defer e.deltaWriteLock(tgt)() // txdelta.go
	defer e.forget(tgt.path)
	e.forget(tgt.path) // read the latest version
	tbl, err := e.openDeltaTarget(tgt)
	if err != nil {
		return Result{}, err
	}
	defer e.release(tbl)
	snap := tbl.Snapshot()
	if snap == nil {
		return Result{}, errorf("OPTIMIZE %q: the table is no longer a Delta table", tgt.name)
	}
	fail := func(err error) error {
		return fmt.Errorf("OPTIMIZE %q (Delta version %d): %w", tgt.name, snap.Version, err)
	}
	if err := snap.CheckAppendable(); err != nil {
		return Result{}, &Error{Msg: fmt.Sprintf("OPTIMIZE %q: %v", tgt.name, err), Offset: -1, Err: ErrUnsupported}
	}
	tgt, err = deltaTarget(tgt.name, tgt.path, snap)
	if err != nil {
		return Result{}, err
	}
	sel := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}},
		From: sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(deltaFileMarker)}}}}
	c := &dml.DeltaCompaction{
		Root: tgt.path, Table: tbl, Layout: tgt.layout, Options: opts, Store: e.opts.Store,
		Name: tgt.name, RowGroupRows: rgRows,
		Read: func(ft *scan.Table) (*Batch, error) {
			defer ft.Close()
			return readDeltaFile(p, ctx, ft, sel)
		},
		Vectors: func(cols []*Col) ([]*vector.Vector, error) { return deltaVectors(tgt, cols) },
	}
	written, err := c.Run(ctx, fail)
	return Result{RowsAffected: written}, err
}
