package dml

import (
	"context"
	"fmt"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/carquet-go/carquet/writer"
)

// OPTIMIZE of a Delta table compacts its small data files: those with
// fewer rows than a row group of the table or smaller than
// deltaSmallFile bytes. Their live rows (deletion vectors applied), file
// after file in the table's order, are written to one new data file per
// partition (files of different partitions are never compacted
// together), and one commit removes the old files and adds the new ones,
// all with dataChange false, operation "OPTIMIZE".
// The new file comes last in the table's order: the rows keep their order
// when the small files are the last ones (as INSERTs leave them), and a
// large file among them ends up before the compacted rows. A single small
// file is rewritten only when it has a deletion vector (its deleted rows
// are dropped). Concurrent appends do not conflict with the commit; a
// concurrent DELETE or UPDATE of a file it removes does (see
// delta.Commit). Versions before it still read the old files until VACUUM
// deletes them.

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

// DeltaCompaction is an OPTIMIZE of a Delta table's data files. The
// caller holds the table's write lock.
type DeltaCompaction struct {
	// Root is the table's folder, Table its latest version, open.
	Root  string
	Table *scan.Table
	// Layout, Options and Store say how the new data files are written
	// (WriteDeltaFile).
	Layout  *DeltaLayout
	Options []writer.Option
	Store   map[string]string
	// Name is the table's, in messages.
	Name string
	// RowGroupRows is a row group of the table: a file with fewer rows
	// is small.
	RowGroupRows int64
	// Read reads the rows of a data file (read alone), all of them, and
	// closes it.
	Read func(ft *scan.Table) (*vec.Batch, error)
	// Vectors casts rows, the table's columns, to the vectors of its data
	// files (nil for no rows).
	Vectors func([]*vec.Col) ([]*vector.Vector, error)
}

// smallGroups returns the small files by partition: a partition's are
// compacted together.
func (c *DeltaCompaction) smallGroups(fail func(error) error) ([]*smallFiles, error) {
	tbl := c.Table
	var groups []*smallFiles
	byKey := map[string]*smallFiles{}
	for i := range tbl.Files {
		a := tbl.DeltaAdd(i)
		st, err := a.Stats()
		if err != nil {
			return nil, fail(err)
		}
		if a.Size < deltaSmallFile || st != nil && st.NumRecords >= 0 && st.NumRecords < c.RowGroupRows {
			pv := make([]*string, len(c.Layout.PartitionKeys()))
			for j, k := range c.Layout.PartitionKeys() {
				if v := a.PartitionValues[k]; v != nil && *v != "" { // "" is null too
					pv[j] = v
				}
			}
			g := PartitionGroup(byKey, &groups, pv, func() *smallFiles { return &smallFiles{values: pv} })
			g.files = append(g.files, i)
			g.withDV = g.withDV || a.DeletionVector != nil
		}
	}
	return groups, nil
}

// Run compacts the small files in one commit and returns how many rows
// it wrote; fail wraps the errors of reading and writing files.
func (c *DeltaCompaction) Run(ctx context.Context, fail func(error) error) (int64, error) {
	tbl, snap := c.Table, c.Table.Snapshot()
	groups, err := c.smallGroups(fail)
	if err != nil {
		return 0, err
	}
	commit := &delta.Commit{
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
		add, u, err := WriteDeltaFile(ctx, c.Root, c.Layout, g.values, c.Options, c.Store, func(put func([]*vector.Vector) error) error {
			for _, i := range g.files {
				if err := ctx.Err(); err != nil {
					return err
				}
				a := tbl.DeltaAdd(i)
				ft, err := tbl.DeltaFile(i)
				if err != nil {
					return err
				}
				b, err := c.Read(ft)
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
					b = exec.TakeBatch(b, keep)
				}
				vecs, err := c.Vectors(b.Cols)
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
				commit.Removes = append(commit.Removes, rm)
			}
			return nil
		})
		if err != nil {
			undo()
			return 0, fail(err)
		}
		if n == 0 {
			u() // every row was deleted: the files only leave
			continue
		}
		add.DataChange = false
		commit.Adds, undos, written = append(commit.Adds, add), append(undos, u), written+n
	}
	if len(commit.Removes) == 0 {
		return 0, nil
	}
	if _, err := commit.Write(c.Root, delta.CommitOptions{Store: c.Store}); err != nil {
		undo()
		return 0, fmt.Errorf("OPTIMIZE %q (read at Delta version %d): %w", c.Name, snap.Version, err)
	}
	return written, nil
}
