package sqlplan

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// Delta writes: CREATE TABLE ... USING delta [PARTITIONED BY (cols)]
// makes a table folder whose first commit holds its protocol and metadata
// (and, for AS SELECT, its first data files); INSERT writes new data
// files (one per partition, see deltaLayout) and commits add actions for
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
	l, err := newDeltaLayout(snap.Schema, snap.Metadata.PartitionColumns)
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
	return &target{path: path, sch: l.sch, fields: l.fields, folder: true, opts: opts, delta: snap, layout: l, name: name}, nil
}

// deltaLayout is how the rows of a Delta table, as vectors in the
// table's columns and types, become data files: split by the values of
// the partition columns, which the files do not hold, the other columns
// under their physical names (column mapping).
type deltaLayout struct {
	dtype  *delta.Type
	sch    *schema.Schema  // the table's columns, in the types Delta readers expect
	fields []*schema.Field // sch's logical fields
	fsch   *schema.Schema  // the data files' schema (delta.FileType)
	ftype  *delta.Type
	data   []int // the table's columns the data files hold
	part   []int // the partition columns, in the metadata's order
	// pkeys are the partition columns' keys in partitionValues (their
	// physical names).
	pkeys []string
}

func newDeltaLayout(dt *delta.Type, partitionColumns []string) (*deltaLayout, error) {
	sch, err := dt.ParquetSchema()
	if err != nil {
		return nil, err
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		return nil, err
	}
	l := &deltaLayout{dtype: dt, sch: sch, fields: fields, ftype: delta.FileType(dt, partitionColumns)}
	if l.fsch, err = l.ftype.ParquetSchema(); err != nil {
		return nil, err
	}
	for _, pc := range partitionColumns {
		k := slices.IndexFunc(dt.Fields, func(f *delta.Field) bool { return strings.EqualFold(f.Name, pc) })
		if k < 0 {
			return nil, fmt.Errorf("partition column %q is not in the schema", pc)
		}
		if err := delta.CheckPartitionType(pc, dt.Fields[k].Type); err != nil {
			return nil, err
		}
		l.part, l.pkeys = append(l.part, k), append(l.pkeys, dt.Fields[k].PhysicalName)
	}
	for k := range dt.Fields {
		if !slices.Contains(l.part, k) {
			l.data = append(l.data, k)
		}
	}
	if len(l.data) == 0 {
		return nil, fmt.Errorf("every column is a partition column: the data files would hold none")
	}
	return l, nil
}

// dataVectors are the vectors of the columns the data files hold.
func (l *deltaLayout) dataVectors(vecs []*vector.Vector) []*vector.Vector {
	if len(l.part) == 0 {
		return vecs
	}
	out := make([]*vector.Vector, len(l.data))
	for i, k := range l.data {
		out[i] = vecs[k]
	}
	return out
}

// partitionOf returns the serialized partition values of row i.
func (l *deltaLayout) partitionOf(vecs []*vector.Vector, i int) ([]*string, error) {
	pv := make([]*string, len(l.part))
	for j, k := range l.part {
		var err error
		if pv[j], err = delta.PartitionValue(l.dtype.Fields[k].Type, value.Get(l.fields[k], vecs[k], i)); err != nil {
			return nil, fmt.Errorf("column %q: %w", l.fields[k].Name, err)
		}
	}
	return pv, nil
}

// deltaPart is the rows of one partition.
type deltaPart struct {
	values  []*string
	batches [][]*vector.Vector
	rows    []int32 // of the batch being split
}

// split groups the rows of the batches by their partition values, the
// partitions in the order their first rows come. A row's values are
// serialized only when its raw values (rawKey) were not seen before.
func (l *deltaLayout) split(batches [][]*vector.Vector) ([]*deltaPart, error) {
	if len(l.part) == 0 {
		return []*deltaPart{{batches: batches}}, nil
	}
	var parts []*deltaPart
	byKey := map[string]*deltaPart{} // by serialized values
	byRaw := map[string]*deltaPart{} // by raw values
	var buf []byte
	for _, vecs := range batches {
		if len(vecs) == 0 || vecs[0].Len == 0 {
			continue
		}
		var order []*deltaPart
		for i := 0; i < vecs[0].Len; i++ {
			var p *deltaPart
			raw := false
			if buf, raw = l.rawKey(buf[:0], vecs, i); raw {
				p = byRaw[string(buf)]
			}
			if p == nil {
				pv, err := l.partitionOf(vecs, i)
				if err != nil {
					return nil, err
				}
				p = partitionGroup(byKey, &parts, pv, func() *deltaPart { return &deltaPart{values: pv} })
				if raw {
					byRaw[string(buf)] = p
				}
			}
			if len(p.rows) == 0 {
				order = append(order, p)
			}
			p.rows = append(p.rows, int32(i))
		}
		for _, p := range order {
			if len(order) == 1 {
				p.batches = append(p.batches, vecs) // the whole batch: no copy
			} else {
				taken := make([]*vector.Vector, len(vecs))
				for k, v := range vecs {
					taken[k] = &vector.Vector{}
					vector.Take(taken[k], v, p.rows)
				}
				p.batches = append(p.batches, taken)
			}
			p.rows = p.rows[:0]
		}
	}
	return parts, nil
}

// rawKey appends the raw values of row i's partition columns to buf, in
// a form that tells different values apart; ok is false for a vector
// form it does not know (the values are then serialized every row).
func (l *deltaLayout) rawKey(buf []byte, vecs []*vector.Vector, i int) ([]byte, bool) {
	for _, k := range l.part {
		v := vecs[k]
		if v.IsNull(i) {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1)
		switch v.Kind {
		case vector.Bool:
			if v.Bools[i] {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		case vector.Int32:
			buf = binary.LittleEndian.AppendUint32(buf, uint32(v.Int32s[i]))
		case vector.Int64:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(v.Int64s[i]))
		case vector.Float32:
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v.Float32s[i]))
		case vector.Float64:
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v.Float64s[i]))
		case vector.ByteArray, vector.FixedLenByteArray:
			if v.Dict != nil {
				return buf, false
			}
			b := v.Bytes(i)
			buf = binary.AppendUvarint(buf, uint64(len(b)))
			buf = append(buf, b...)
		default:
			return buf, false
		}
	}
	return buf, true
}

// partitionGroup returns the group of the partition values pv in byKey,
// made by make and appended to list the first time pv comes.
func partitionGroup[T any](byKey map[string]*T, list *[]*T, pv []*string, make func() *T) *T {
	key := partitionKey(pv)
	g := byKey[key]
	if g == nil {
		g = make()
		byKey[key] = g
		*list = append(*list, g)
	}
	return g
}

// partitionKey tells partition value tuples apart (nil from "").
func partitionKey(pv []*string) string {
	var b strings.Builder
	for _, v := range pv {
		if v == nil {
			b.WriteString("\x00n")
			continue
		}
		b.WriteString("\x00v")
		b.WriteString(strings.ReplaceAll(*v, "\x00", "\x00\x00"))
	}
	return b.String()
}

// writeDeltaRows writes the rows of the batches (the table's columns) as
// new data files of the Delta table at root, one per partition, and
// returns their add actions and undo, which removes the files.
func (e *Engine) writeDeltaRows(ctx context.Context, root string, l *deltaLayout, opts []writer.Option, batches [][]*vector.Vector) ([]delta.Add, func(), error) {
	parts, err := l.split(batches)
	if err != nil {
		return nil, nil, err
	}
	// The files are written a few at once: with many partitions the time
	// goes to creating and syncing files, not to the CPU.
	adds := make([]delta.Add, len(parts))
	undos := make([]func(), len(parts))
	errs := make([]error, len(parts))
	var failed atomic.Bool
	var wg sync.WaitGroup
	sem := make(chan struct{}, deltaFileWriters)
	for k, p := range parts {
		sem <- struct{}{}
		if failed.Load() {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			adds[k], undos[k], errs[k] = e.writeDeltaFile(ctx, root, l, p.values, opts, func(put func([]*vector.Vector) error) error {
				for _, b := range p.batches {
					if err := put(b); err != nil {
						return err
					}
				}
				return nil
			})
			if errs[k] != nil {
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	undo := func() {
		for _, u := range undos {
			if u != nil {
				u()
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			undo()
			return nil, nil, err
		}
	}
	return adds, undo, nil
}

// deltaFileWriters is how many data files of one statement are written
// at once.
const deltaFileWriters = 8

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
	adds, undo, err := e.writeDeltaRows(context.Background(), tgt.path, tgt.layout, opts, batches)
	if err != nil {
		return fmt.Errorf("INSERT into %q: %w", tgt.name, err)
	}
	c := &delta.Commit{
		Adds:                adds,
		Operation:           "WRITE",
		OperationParameters: map[string]string{"mode": "Append", "partitionBy": partitionBy(tgt.delta.Metadata.PartitionColumns)},
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

// partitionBy is the partition columns as commitInfo's operation
// parameters give them (a JSON list).
func partitionBy(cols []string) string {
	b, _ := json.Marshal(append([]string{}, cols...))
	return string(b)
}

// writeDeltaFile writes a new data file of the Delta table at root, in
// the folder of the partition values pv (part-<uuid>.parquet, under a
// temporary name until it is whole): fill gives put the rows, the
// table's columns, of which the file takes those it holds. It returns
// the file's add action, and undo, which removes the file.
func (e *Engine) writeDeltaFile(ctx context.Context, root string, l *deltaLayout, pv []*string, opts []writer.Option,
	fill func(put func([]*vector.Vector) error) error) (delta.Add, func(), error) {
	name := "part-" + delta.NewTableID() + ".parquet"
	if dir := delta.PartitionDir(l.pkeys, pv); dir != "" {
		name = dir + "/" + name
	}
	var w *writer.Writer
	var undo func()
	if objstore.IsURL(root) {
		url := objstore.Join(root, name)
		up, err := objstore.CreateURL(ctx, url, e.opts.Store, true)
		if err != nil {
			return delta.Add{}, nil, err
		}
		if w, err = writer.NewUpload(up, l.fsch, opts...); err != nil {
			return delta.Add{}, nil, err
		}
		undo = func() {
			if st, loc, err := objstore.Resolve(ctx, url, e.opts.Store); err == nil {
				st.Delete(ctx, loc.Key)
			}
		}
	} else {
		p := filepath.Join(root, filepath.FromSlash(name))
		// A partition's folder stays when its file is undone: a
		// concurrent writer may be about to put its own there.
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return delta.Add{}, nil, err
		}
		var err error
		if w, err = writer.CreateNew(p, l.fsch, opts...); err != nil {
			return delta.Add{}, nil, err
		}
		undo = func() { os.Remove(p) }
	}
	if err := fill(func(vecs []*vector.Vector) error { return w.WriteBatch(l.dataVectors(vecs)) }); err != nil {
		if aerr := w.Abort(); aerr != nil {
			err = errors.Join(err, aerr)
		}
		undo()
		return delta.Add{}, nil, err
	}
	if err := w.Close(); err != nil {
		undo()
		return delta.Add{}, nil, err
	}
	meta, size := w.Written()
	stats, err := delta.FileStats(meta, l.fsch, l.ftype)
	if err != nil {
		undo()
		return delta.Add{}, nil, err
	}
	add := delta.Add{Path: delta.EncodePath(name), Size: size, ModificationTime: time.Now().UnixMilli(), DataChange: true, Stats: stats}
	if len(l.pkeys) > 0 {
		add.PartitionValues = make(map[string]*string, len(l.pkeys))
		for i, k := range l.pkeys {
			add.PartitionValues[k] = pv[i]
		}
	}
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
	l, err := newDeltaLayout(dt, pcols)
	if err != nil {
		return Result{}, errorf("CREATE TABLE %s USING delta: %v", s.table, err)
	}
	lfields := l.fields
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
			"isManaged": "false", "partitionBy": partitionBy(pcols), "properties": "{}",
		},
	}
	undo := func() {}
	if s.kind == kindCreateAs {
		c.Operation = "CREATE TABLE AS SELECT"
	}
	if n > 0 {
		adds, u, err := s.e.writeDeltaRows(ctx, path, l, opts, [][]*vector.Vector{vecs})
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
