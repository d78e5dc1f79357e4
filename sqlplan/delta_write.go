package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// Delta writes: CREATE TABLE ... USING delta [PARTITIONED BY (cols)]
// makes a table folder whose first commit holds its protocol and metadata
// (and, for AS SELECT, its first data files); INSERT writes new data
// files (one per partition, see dml.DeltaLayout) and commits add actions for
// them (package delta does the commit, with retries against concurrent
// writers). DELETE and UPDATE write deletion vectors (delta_dml.go), as
// MERGE does (merge_exec.go); OPTIMIZE compacts the small data files of
// each partition (delta_optimize.go); VACUUM deletes the files no version
// within the retention needs (vacuum.go); DROP TABLE removes the table
// whole (create.go); in a transaction the statements run on a private
// copy and COMMIT makes one commit of them (txdelta.go). CREATE OR
// REPLACE is refused on Delta tables.

// optionPrefix marks the table options (compression, row_group_rows...)
// kept in a Delta table's configuration for its later INSERTs.
const optionPrefix = "carquet."

// deltaTarget is the target of an INSERT into a Delta table: the data
// files are written in the schema the log gives the table.
func deltaTarget(name, path string, snap *delta.Snapshot) (*target, error) {
	if err := snap.CheckAppendable(); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("writing the Delta table %q: %v", name, err), Offset: -1, Err: ErrUnsupported}
	}
	l, err := dml.NewDeltaLayout(snap.Schema, snap.Metadata.PartitionColumns)
	if err != nil {
		return nil, fmt.Errorf("table %q (Delta version %d): %w", name, snap.Version, err)
	}
	opts := map[string]string{}
	for k, v := range snap.Metadata.Configuration {
		if o, ok := strings.CutPrefix(k, optionPrefix); ok {
			if _, known := tableOptions[o]; known {
				opts[o] = v
			}
		}
	}
	return &target{path: path, sch: l.Schema(), fields: l.Fields(), folder: true, opts: opts, delta: snap, layout: l, name: name}, nil
}

// appendDelta writes the rows as new data files of a Delta table (one
// per partition) and commits them. blind: the rows do not come from a
// query (which may have read the table).
func (e *Engine) appendDelta(tgt *target, batches [][]*vector.Vector, blind bool) error {
	opts, err := e.writeOptions(tgt.opts)
	if err != nil {
		return err
	}
	defer e.deltaWriteLock(tgt)() // txdelta.go
	defer e.forget(tgt.path)
	adds, undo, err := dml.WriteDeltaRows(context.Background(), tgt.path, tgt.layout, opts, e.opts.Store, batches)
	if err != nil {
		return fmt.Errorf("INSERT into %q: %w", tgt.name, err)
	}
	c := &delta.Commit{
		Adds:                adds,
		Operation:           "WRITE",
		OperationParameters: map[string]string{"mode": "Append", "partitionBy": dml.PartitionBy(tgt.delta.Metadata.PartitionColumns)},
		ReadVersion:         tgt.delta.Version,
		BlindAppend:         blind,
		CheckpointInterval:  delta.CheckpointInterval(tgt.delta.Metadata.Configuration),
	}
	if _, err := c.Write(tgt.path, delta.CommitOptions{Store: e.opts.Store}); err != nil {
		undo()
		return fmt.Errorf("INSERT into %q (read at Delta version %d): %w", tgt.name, tgt.delta.Version, err)
	}
	return nil
}

// createDelta runs CREATE TABLE ... USING delta: a folder with the first
// commit of the table (protocol, metadata and, for AS SELECT, the data
// file of the query's rows).
func (s *Stmt) createDelta(ctx context.Context, p *plan.Planner) (Result, error) {
	spec := s.create
	switch {
	case s.temp:
		return Result{}, unsupported("a temporary Delta table")
	case s.replace:
		return Result{}, unsupported("CREATE OR REPLACE of a Delta table")
	case parse.IsPathName(s.table) && strings.HasSuffix(strings.ToLower(s.table), ".parquet"):
		return Result{}, errorf("cannot create the Delta table %q: a Delta table is a folder, not a .parquet file", s.table)
	case s.e.file != "" && !parse.IsPathName(s.table):
		return Result{}, errorf("cannot create table %q: the database is the single file %s", s.table, s.e.file)
	case len(spec.primary) > 0 || len(spec.unique) > 0 || len(spec.defaults) > 0 || len(spec.checks) > 0 || len(spec.foreign) > 0:
		return Result{}, unsupported(fmt.Sprintf("constraints on the Delta table %q (NOT NULL is the only one kept)", s.table))
	}
	path, exists, err := s.e.deltaPath(s.table)
	if err != nil {
		return Result{}, err
	}
	if err := s.e.writable(path); err != nil {
		return Result{}, err
	}
	if exists {
		if done, err := s.existing(path); done || err != nil {
			return Result{}, err
		}
	}
	fields, data, n, err := s.createColumns(ctx, p)
	if err != nil {
		return Result{}, err
	}
	sch0, err := writer.NewSchema(fields...)
	if err != nil {
		return Result{}, err
	}
	lf0, err := sch0.LogicalFields()
	if err != nil {
		return Result{}, err
	}
	dt, err := delta.TypeOf(lf0)
	if err != nil {
		return Result{}, errorf("CREATE TABLE %s USING delta: %v", s.table, err)
	}
	conf := map[string]string{}
	for k, v := range spec.options {
		conf[optionPrefix+k] = v
	}
	for k, v := range spec.properties {
		conf[k] = v
	}
	if m := conf["delta.columnMapping.mode"]; m == "name" || m == "id" {
		conf["delta.columnMapping.maxColumnId"] = strconv.Itoa(delta.MapColumns(dt))
	}
	// The data files take the types Delta readers expect (Spark's).
	var pcols []string
	for _, pc := range spec.partitionBy {
		k := slices.IndexFunc(dt.Fields, func(f *delta.Field) bool { return strings.EqualFold(f.Name, pc) })
		if k < 0 {
			return Result{}, errorf("CREATE TABLE %s USING delta: PARTITIONED BY names %q, which is not a column%s", s.table, pc, suggest(pc, fieldNames(lf0)))
		}
		if slices.Contains(pcols, dt.Fields[k].Name) {
			return Result{}, errorf("CREATE TABLE %s USING delta: PARTITIONED BY names %q twice", s.table, pc)
		}
		pcols = append(pcols, dt.Fields[k].Name)
	}
	l, err := dml.NewDeltaLayout(dt, pcols)
	if err != nil {
		return Result{}, errorf("CREATE TABLE %s USING delta: %v", s.table, err)
	}
	lfields := l.Fields()
	schemaString, err := dt.SchemaString()
	if err != nil {
		return Result{}, err
	}
	opts, err := s.e.writeOptions(spec.options)
	if err != nil {
		return Result{}, err
	}
	var vecs []*vector.Vector
	if n > 0 {
		for k, f := range lfields {
			c, err := plan.CastCol(data[k], plan.TypeOfField(f))
			if err != nil {
				return Result{}, errorf("column %q: %v", f.Name, err)
			}
			if !f.Nullable && c.Null != nil {
				for i := 0; i < n; i++ {
					if c.Null[i] {
						return Result{}, errorf("NULL in NOT NULL column %q (row %d)", f.Name, i+1)
					}
				}
			}
			v, err := plan.ToVector(c, f)
			if err != nil {
				return Result{}, errorf("column %q: %v", f.Name, err)
			}
			vecs = append(vecs, v)
		}
	}
	s.e.writeMu.Lock()
	defer s.e.writeMu.Unlock()
	defer s.e.forget(path)
	if path, exists, err = s.e.deltaPath(s.table); err != nil {
		return Result{}, err
	}
	if exists {
		if done, err := s.existing(path); done || err != nil {
			return Result{}, err
		}
	}
	if err := delta.CreateLog(path); err != nil {
		return Result{}, err
	}
	cleanup := func() {
		if !objstore.IsURL(path) && !exists {
			// Only empty folders go (the log's, partitions', the
			// table's), deepest first: another CREATE may have filled
			// them.
			var dirs []string
			filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					dirs = append(dirs, p)
				}
				return nil
			})
			for i := len(dirs) - 1; i >= 0; i-- {
				os.Remove(dirs[i])
			}
		}
	}
	now := time.Now().UnixMilli()
	c := &delta.Commit{
		Protocol:    delta.NewProtocol(dt, conf),
		Metadata:    &delta.Metadata{ID: delta.NewTableID(), SchemaString: schemaString, PartitionColumns: append([]string{}, pcols...), Configuration: conf, CreatedTime: &now},
		Operation:   "CREATE TABLE",
		ReadVersion: -1,
		BlindAppend: true,
		OperationParameters: map[string]string{
			"isManaged": "false", "partitionBy": dml.PartitionBy(pcols), "properties": "{}",
		},
	}
	undo := func() {}
	if s.kind == kindCreateAs {
		c.Operation = "CREATE TABLE AS SELECT"
	}
	if n > 0 {
		adds, u, err := dml.WriteDeltaRows(ctx, path, l, opts, s.e.opts.Store, [][]*vector.Vector{vecs})
		if err != nil {
			cleanup()
			return Result{}, fmt.Errorf("CREATE TABLE %s: %w", s.table, err)
		}
		c.Adds, undo = adds, u
	}
	if _, err := c.Write(path, delta.CommitOptions{Store: s.e.opts.Store}); err != nil {
		undo()
		if errors.Is(err, delta.ErrTableExists) {
			if s.ifMod {
				return Result{}, nil
			}
			return Result{}, errorf("table %q already exists (another writer created it first)", s.table)
		}
		cleanup()
		return Result{}, fmt.Errorf("CREATE TABLE %s (Delta version 0): %w", s.table, err)
	}
	return Result{RowsAffected: int64(n)}, nil
}

// deltaPath is where the Delta table of a CREATE goes: the table's folder
// (not name.parquet, where a plain table would go), and whether a table
// is there already.
func (e *Engine) deltaPath(name string) (string, bool, error) {
	path, exists, err := e.tablePath(name)
	if err != nil || exists {
		return path, exists, err
	}
	path = strings.TrimSuffix(path, ".parquet")
	if objstore.IsURL(path) {
		return path, delta.IsTableWith(path, e.opts.Store), nil
	}
	_, err = os.Stat(path)
	return path, err == nil, e.confine.Check(path, false)
}
