package dml

import (
	"context"
	"fmt"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/carquet-go/carquet/writer"
)

// DeltaFileEdit is what a statement does to one data file of a Delta
// table: the positions of the rows it removes (deleted, or updated),
// ascending, and the table's columns of the rows it writes in their
// place (nil for none).
type DeltaFileEdit struct {
	Rows    int64 // the file's physical rows
	Gone    []int32
	NewRows []*vec.Col
	// All: every row of the file goes (Gone is not listed), and the file
	// with it.
	All bool
}

// DeltaEdit is a change of a Delta table's rows in one commit (DELETE,
// UPDATE, MERGE): the rows removed join the files' deletion vectors, the
// new rows go to new data files. The caller holds the table's write lock.
type DeltaEdit struct {
	// Root is the table's folder, Table its latest version, open.
	Root  string
	Table *scan.Table
	// Layout, Options and Store say how new data files are written
	// (WriteDeltaRows).
	Layout  *DeltaLayout
	Options []writer.Option
	Store   map[string]string
	// Verb, Name and Predicate name the statement, the table and the
	// WHERE, in messages and in the commit.
	Verb, Name, Predicate string
	// Edit says, for each data file (read alone as ft, bm its deletion
	// vector), which rows go and which rows come in their place.
	Edit func(ft *scan.Table, bm *dv.Bitmap) (DeltaFileEdit, error)
	// Added, when not nil, gives once every file is seen the rows the
	// statement adds (MERGE's inserts).
	Added func() ([]*vec.Col, error)
	// Vectors casts rows, the table's columns, to the vectors of its data
	// files (nil for no rows).
	Vectors func([]*vec.Col) ([]*vector.Vector, error)
}

// Commit makes the edit: nothing is committed when nothing changes, and
// what it wrote is removed when the commit fails.
func (d *DeltaEdit) Commit(ctx context.Context) error {
	tbl, verb := d.Table, d.Verb
	snap := tbl.Snapshot()
	fail := func(err error) error {
		return fmt.Errorf("%s %q (Delta version %d): %w", verb, d.Name, snap.Version, err)
	}
	if err := snap.CheckDeletable(); err != nil {
		return &parse.Error{Msg: fmt.Sprintf("%s %q: %v", verb, d.Name, err), Offset: -1, Err: errs.ErrUnsupported}
	}

	files, whole, newRows, err := d.edits(ctx, fail)
	if err != nil {
		return err
	}
	if len(files) == 0 && len(whole) == 0 && len(newRows) == 0 {
		return nil
	}
	// A file none of whose rows are left is removed, not given a vector.
	var bms []*dv.Bitmap
	var kept []changedFile
	gone := whole
	for _, f := range files {
		if int64(f.bm.Cardinality()) >= f.rows {
			gone = append(gone, f.add)
			continue
		}
		bms, kept = append(bms, f.bm), append(kept, f)
	}
	files = kept
	undoDV := func() {}
	var descs []dv.Descriptor
	if len(bms) > 0 {
		var err error
		if descs, undoDV, err = delta.WriteDeletionVectors(snap.Root, bms); err != nil {
			return fail(err)
		}
	}
	now := time.Now().UnixMilli()
	c := &delta.Commit{
		Protocol:    delta.WithDeletionVectors(snap.Protocol),
		Operation:   verb,
		ReadVersion: snap.Version,
		// The interval as the table sets it.
		CheckpointInterval: delta.CheckpointInterval(snap.Metadata.Configuration),
		OperationParameters: map[string]string{
			"predicate": fmt.Sprintf("[%q]", d.Predicate),
		},
	}
	for _, a := range gone {
		c.Removes = append(c.Removes, delta.RemoveOf(a))
	}
	for k, f := range files {
		stats, err := delta.WideStats(f.add.StatsJSON, f.rows)
		if err != nil {
			undoDV()
			return fail(fmt.Errorf("file %s: %w", f.add.URI, err))
		}
		d := descs[k]
		c.Removes = append(c.Removes, delta.RemoveOf(f.add))
		c.Adds = append(c.Adds, delta.Add{Path: f.add.URI, PartitionValues: f.add.PartitionValues, Size: f.add.Size, ModificationTime: now,
			DataChange: true, Stats: stats, DeletionVector: &d})
	}
	undoData := func() {}
	if len(newRows) > 0 {
		var batches [][]*vector.Vector
		for _, cols := range newRows {
			vecs, err := d.Vectors(cols)
			if err != nil {
				undoDV()
				return err
			}
			if vecs != nil {
				batches = append(batches, vecs)
			}
		}
		adds, undo, err := WriteDeltaRows(ctx, d.Root, d.Layout, d.Options, d.Store, batches)
		if err != nil {
			undoDV()
			return fail(err)
		}
		c.Adds, undoData = append(c.Adds, adds...), undo
	}
	if _, err := c.Write(d.Root, delta.CommitOptions{Store: d.Store}); err != nil {
		undoDV()
		undoData()
		return fmt.Errorf("%s %q (read at Delta version %d): %w", verb, d.Name, snap.Version, err)
	}
	return nil
}

// changedFile is a data file some of whose rows a DeltaEdit removes:
// bm is its deletion vector with them.
type changedFile struct {
	add  *delta.AddFile
	bm   *dv.Bitmap
	rows int64 // the file's physical rows
}

// edits runs Edit over the data files and Added: the files some of whose
// rows go, those all of whose rows go (whole), and the rows written, per
// file, then those added.
func (d *DeltaEdit) edits(ctx context.Context, fail func(error) error) (files []changedFile, whole []*delta.AddFile, newRows [][]*vec.Col, err error) {
	tbl, snap := d.Table, d.Table.Snapshot()
	for i := range tbl.Files {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		ft, err := tbl.DeltaFile(i)
		if err != nil {
			return nil, nil, nil, fail(err)
		}
		add := tbl.DeltaAdd(i)
		bm, err := snap.Deletions(add)
		if err != nil {
			ft.Close()
			return nil, nil, nil, fail(err)
		}
		ed, err := d.Edit(ft, bm)
		ft.Close()
		if err != nil {
			return nil, nil, nil, err
		}
		if ed.All {
			whole = append(whole, add)
			continue
		}
		if len(ed.Gone) == 0 {
			continue
		}
		for _, r := range ed.Gone {
			bm.Add(uint64(r))
		}
		files = append(files, changedFile{add: add, bm: bm, rows: ed.Rows})
		if ed.NewRows != nil {
			newRows = append(newRows, ed.NewRows)
		}
	}
	if d.Added != nil {
		cols, err := d.Added()
		if err != nil {
			return nil, nil, nil, err
		}
		if cols != nil {
			newRows = append(newRows, cols)
		}
	}
	return files, whole, newRows, nil
}
