package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// Delta writes: CREATE TABLE ... USING delta makes a table folder whose
// first commit holds its protocol and metadata (and, for AS SELECT, its
// first data file); INSERT writes a new data file and commits an add
// action for it (package delta does the commit, with retries against
// concurrent writers). DELETE and UPDATE write deletion vectors
// (delta_dml.go); OPTIMIZE compacts the small data files
// (delta_optimize.go); VACUUM deletes the files no version within the
// retention needs (vacuum.go); MERGE, DROP and CREATE OR REPLACE are
// refused on Delta tables.

// optionPrefix marks the table options (compression, row_group_rows...)
// kept in a Delta table's configuration for its later INSERTs.
const optionPrefix = "carquet."

// deltaTarget is the target of an INSERT into a Delta table: the data
// files are written in the schema the log gives the table.
func deltaTarget(name, path string, snap *delta.Snapshot) (*target, error) {
	if err := snap.CheckAppendable(); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("writing the Delta table %q: %v", name, err), Offset: -1, Err: ErrUnsupported}
	}
	sch, err := snap.Schema.ParquetSchema()
	if err != nil {
		return nil, fmt.Errorf("table %q (Delta version %d): %w", name, snap.Version, err)
	}
	fields, err := sch.LogicalFields()
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
	return &target{path: path, sch: sch, fields: fields, folder: true, opts: opts, delta: snap, dtype: snap.Schema, name: name}, nil
}

// appendDelta writes the rows as one new data file of a Delta table and
// commits it. blind: the rows do not come from a query (which may have
// read the table).
func (e *Engine) appendDelta(tgt *target, batches [][]*vector.Vector, blind bool) error {
	opts, err := e.writeOptions(tgt.opts)
	if err != nil {
		return err
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	defer e.forget(tgt.path)
	add, undo, err := e.writeDeltaFile(context.Background(), tgt.path, tgt.sch, tgt.dtype, opts, func(w *writer.Writer) error {
		for _, b := range batches {
			if err := w.WriteBatch(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("INSERT into %q: %w", tgt.name, err)
	}
	c := &delta.Commit{
		Adds:                []delta.Add{add},
		Operation:           "WRITE",
		OperationParameters: map[string]string{"mode": "Append", "partitionBy": "[]"},
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

// writeDeltaFile writes a new data file of the Delta table at root
// (part-<uuid>.parquet, under a temporary name until it is whole) and
// returns its add action, and undo, which removes the file.
func (e *Engine) writeDeltaFile(ctx context.Context, root string, sch *schema.Schema, dt *delta.Type, opts []writer.Option, fill func(*writer.Writer) error) (delta.Add, func(), error) {
	name := "part-" + delta.NewTableID() + ".parquet"
	var w *writer.Writer
	var undo func()
	if objstore.IsURL(root) {
		url := objstore.Join(root, name)
		up, err := objstore.CreateURL(ctx, url, e.opts.Store, true)
		if err != nil {
			return delta.Add{}, nil, err
		}
		if w, err = writer.NewUpload(up, sch, opts...); err != nil {
			return delta.Add{}, nil, err
		}
		undo = func() {
			if st, loc, err := objstore.Resolve(ctx, url, e.opts.Store); err == nil {
				st.Delete(ctx, loc.Key)
			}
		}
	} else {
		p := filepath.Join(root, name)
		var err error
		if w, err = writer.CreateNew(p, sch, opts...); err != nil {
			return delta.Add{}, nil, err
		}
		undo = func() { os.Remove(p) }
	}
	if err := fill(w); err != nil {
		if aerr := w.Abort(); aerr != nil {
			return delta.Add{}, nil, errors.Join(err, aerr)
		}
		return delta.Add{}, nil, err
	}
	if err := w.Close(); err != nil {
		return delta.Add{}, nil, err
	}
	meta, size := w.Written()
	stats, err := delta.FileStats(meta, sch, dt)
	if err != nil {
		undo()
		return delta.Add{}, nil, err
	}
	add := delta.Add{Path: delta.EncodePath(name), Size: size, ModificationTime: time.Now().UnixMilli(), DataChange: true, Stats: stats}
	return add, undo, nil
}

// createDelta runs CREATE TABLE ... USING delta: a folder with the first
// commit of the table (protocol, metadata and, for AS SELECT, the data
// file of the query's rows).
func (s *Stmt) createDelta(ctx context.Context, p *planner) (Result, error) {
	spec := s.create
	switch {
	case s.temp:
		return Result{}, unsupported("a temporary Delta table")
	case s.replace:
		return Result{}, unsupported("CREATE OR REPLACE of a Delta table")
	case isPathName(s.table) && strings.HasSuffix(strings.ToLower(s.table), ".parquet"):
		return Result{}, errorf("cannot create the Delta table %q: a Delta table is a folder, not a .parquet file", s.table)
	case s.e.file != "" && !isPathName(s.table):
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
	// The data files take the types Delta readers expect (Spark's).
	sch, err := dt.ParquetSchema()
	if err != nil {
		return Result{}, err
	}
	lfields, err := sch.LogicalFields()
	if err != nil {
		return Result{}, err
	}
	schemaString, err := dt.SchemaString()
	if err != nil {
		return Result{}, err
	}
	conf := map[string]string{}
	for k, v := range spec.options {
		conf[optionPrefix+k] = v
	}
	opts, err := s.e.writeOptions(spec.options)
	if err != nil {
		return Result{}, err
	}
	var vecs []*vector.Vector
	if n > 0 {
		for k, f := range lfields {
			c, err := castCol(data[k], typeOfField(f))
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
			v, err := toVector(c, f)
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
			// Only empty folders go: another CREATE may have filled them.
			os.Remove(filepath.Join(path, delta.LogDir))
			os.Remove(path)
		}
	}
	now := time.Now().UnixMilli()
	c := &delta.Commit{
		Protocol:    delta.NewProtocol(dt),
		Metadata:    &delta.Metadata{ID: delta.NewTableID(), SchemaString: schemaString, PartitionColumns: []string{}, Configuration: conf, CreatedTime: &now},
		Operation:   "CREATE TABLE",
		ReadVersion: -1,
		BlindAppend: true,
		OperationParameters: map[string]string{
			"isManaged": "false", "partitionBy": "[]", "properties": "{}",
		},
	}
	undo := func() {}
	if s.kind == kindCreateAs {
		c.Operation = "CREATE TABLE AS SELECT"
	}
	if n > 0 {
		add, u, err := s.e.writeDeltaFile(ctx, path, sch, dt, opts, func(w *writer.Writer) error { return w.WriteBatch(vecs) })
		if err != nil {
			cleanup()
			return Result{}, fmt.Errorf("CREATE TABLE %s: %w", s.table, err)
		}
		c.Adds, undo = []delta.Add{add}, u
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
