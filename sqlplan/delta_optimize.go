package sqlplan

import (
	"context"
	"fmt"
	"strconv"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

// OPTIMIZE of a Delta table compacts its small data files: those with
// fewer rows than a row group of the table (its row_group_rows option,
// else the engine's) or smaller than deltaSmallFile bytes. Their live
// rows (deletion vectors applied), file after file in the table's order,
// are written to one new data file per partition (files of different
// partitions are never compacted together), and one commit removes the
// old files and adds the new ones, all with dataChange false, operation
// "OPTIMIZE".
// The new file comes last in the table's order: the rows keep their order
// when the small files are the last ones (as INSERTs leave them), and a
// large file among them ends up before the compacted rows. A single small
// file is rewritten only when it has a deletion vector (its deleted rows
// are dropped). Concurrent appends do not conflict with the commit; a
// concurrent DELETE or UPDATE of a file it removes does (see
// delta.Commit). Versions before it still read the old files until VACUUM
// deletes them.

//
// Then OPTIMIZE compacts the log: the commits after the newest checkpoint
// are reconciled into one <x>.<y>.compacted.json (delta.CompactLog),
// which readers replay in their place. Like a checkpoint it is best
// effort: a table whose log it cannot compact (an action it does not
// know) is optimized without it.

// smallFiles are the small files of one partition (all of them in a
// table without partitions).
type smallFiles struct {
	values []*string // the partition values
	files  []int
	withDV bool
}

// deltaSmallFile is the size under which OPTIMIZE rewrites a Delta data
// file whatever its row count.
const deltaSmallFile = 32 << 20

// optimizeDelta runs OPTIMIZE of the Delta table tgt, its data files then
// its log; RowsAffected is the number of rows written to the new file.
func (s *Stmt) optimizeDelta(ctx context.Context, p *planner, tgt *target) (Result, error) {
	res, err := s.optimizeDeltaFiles(ctx, p, tgt)
	if err == nil {
		delta.CompactLog(tgt.path, s.e.opts.Store) // best effort: see above
	}
	return res, err
}

// optimizeDeltaFiles compacts the small data files of the Delta table tgt.
func (s *Stmt) optimizeDeltaFiles(ctx context.Context, p *planner, tgt *target) (Result, error) {
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
	// The small files, by partition: a partition's are compacted together.
	var groups []*smallFiles
	byKey := map[string]*smallFiles{}
	for i := range tbl.Files {
		a := tbl.DeltaAdd(i)
		st, err := a.Stats()
		if err != nil {
			return Result{}, fail(err)
		}
		if a.Size < deltaSmallFile || st != nil && st.NumRecords >= 0 && st.NumRecords < rgRows {
			pv := make([]*string, len(tgt.layout.PartitionKeys()))
			for j, k := range tgt.layout.PartitionKeys() {
				if v := a.PartitionValues[k]; v != nil && *v != "" { // "" is null too
					pv[j] = v
				}
			}
			g := dml.PartitionGroup(byKey, &groups, pv, func() *smallFiles { return &smallFiles{values: pv} })
			g.files = append(g.files, i)
			g.withDV = g.withDV || a.DeletionVector != nil
		}
	}
	sel := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}},
		From: sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(deltaFileMarker)}}}}
	read := func(ft *scan.Table) (*Batch, error) {
		defer ft.Close()
		return p.readDeltaFile(ctx, ft, sel)
	}
	c := &delta.Commit{
		Operation:           "OPTIMIZE",
		OperationParameters: map[string]string{"predicate": "[]", "zOrderBy": "[]", "auto": "false"},
		ReadVersion:         snap.Version,
		CheckpointInterval:  delta.CheckpointInterval(snap.Metadata.Configuration),
	}
	var written int64
	var undos []func()
	undo := func() {
		for _, u := range undos {
			u()
		}
	}
	for _, g := range groups {
		if len(g.files) < 2 && !(len(g.files) == 1 && g.withDV) {
			continue
		}
		n := int64(0)
		add, u, err := dml.WriteDeltaFile(ctx, tgt.path, tgt.layout, g.values, opts, e.opts.Store, func(put func([]*vector.Vector) error) error {
			for _, i := range g.files {
				if err := ctx.Err(); err != nil {
					return err
				}
				a := tbl.DeltaAdd(i)
				ft, err := tbl.DeltaFile(i)
				if err != nil {
					return err
				}
				b, err := read(ft)
				if err != nil {
					return fmt.Errorf("file %s: %w", a.URI, err)
				}
				bm, err := snap.Deletions(a)
				if err != nil {
					return err
				}
				if !bm.IsEmpty() {
					keep := make([]int32, 0, b.N)
					for r := 0; r < b.N; r++ {
						if !bm.Contains(uint64(r)) {
							keep = append(keep, int32(r))
						}
					}
					b = kernels.TakeBatch(b, keep)
				}
				vecs, err := deltaVectors(tgt, b.Cols)
				if err != nil {
					return fmt.Errorf("file %s: %w", a.URI, err)
				}
				if vecs != nil {
					if err := put(vecs); err != nil {
						return err
					}
					n += int64(b.N)
				}
				rm := delta.RemoveOf(a)
				rm.DataChange = false
				c.Removes = append(c.Removes, rm)
			}
			return nil
		})
		if err != nil {
			undo()
			return Result{}, fail(err)
		}
		if n == 0 {
			u() // every row was deleted: the files only leave
			continue
		}
		add.DataChange = false
		c.Adds, undos, written = append(c.Adds, add), append(undos, u), written+n
	}
	if len(c.Removes) == 0 {
		return Result{}, nil
	}
	if _, err := c.Write(tgt.path, delta.CommitOptions{Store: e.opts.Store}); err != nil {
		undo()
		return Result{}, fmt.Errorf("OPTIMIZE %q (read at Delta version %d): %w", tgt.name, snap.Version, err)
	}
	return Result{RowsAffected: written}, nil
}
