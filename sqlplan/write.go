package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

// deltaProperties are the table properties CREATE TABLE ... USING delta
// takes in TBLPROPERTIES, and the values each allows ("" for any): those
// this writer honours.
var deltaProperties = map[string][]string{
	"delta.columnMapping.mode":           {"none", "name", "id"},
	"delta.appendOnly":                   {"true", "false"},
	"delta.checkpointInterval":           nil, // checked: a positive integer
	"delta.deletedFileRetentionDuration": nil, // "interval <n> <unit>", read by VACUUM
}

// readProperties reads TBLPROPERTIES ('key' = 'value', ...), the list
// starting at toks[i], and returns where it ends.
func readProperties(text string, toks []parse.Token, i int, spec *createSpec) (int, error) {
	if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
		return i, errAt(text, parse.TokPos(text, toks, i), "expected ( after TBLPROPERTIES")
	}
	end := parse.ClosingParen(toks, i)
	if end < 0 {
		return i, errAt(text, parse.TokPos(text, toks, i), "unmatched ( after TBLPROPERTIES")
	}
	if spec.properties == nil {
		spec.properties = map[string]string{}
	}
	for _, item := range parse.SplitList(toks[i+1 : end]) {
		if len(item) != 3 || item[0].Kind != parse.String || item[1].Kind != parse.Op || item[1].Text != "=" || item[2].Kind == parse.Op {
			return i, errAt(text, parse.TokPos(text, toks, i), "TBLPROPERTIES takes 'key' = 'value', ...")
		}
		k, v := item[0].Unquoted(), item[2].Unquoted()
		if item[2].Kind == parse.Ident || item[2].Kind == parse.Number {
			v = item[2].Text
		}
		var key string
		for name := range deltaProperties {
			if strings.EqualFold(name, k) {
				key = name
			}
		}
		if key == "" {
			return i, &Error{Msg: fmt.Sprintf("the table property %q is not supported", k), Offset: item[0].Pos, Err: ErrUnsupported}
		}
		if allowed := deltaProperties[key]; allowed != nil && !slices.Contains(allowed, strings.ToLower(v)) {
			return i, errAt(text, item[2].Pos, "table property %s takes %s, not %q", key, strings.Join(allowed, " or "), v)
		}
		if allowed := deltaProperties[key]; allowed != nil {
			v = strings.ToLower(v)
		}
		if n, err := strconv.Atoi(v); key == "delta.checkpointInterval" && (err != nil || n <= 0) {
			return i, errAt(text, item[2].Pos, "table property %s takes a positive number of commits, not %q", key, v)
		}
		spec.properties[key] = v
	}
	return end + 1, nil
}

// readPartitionBy reads the column list of PARTITIONED BY (a, b, ...),
// which starts at toks[i], and returns where it ends.
func readPartitionBy(text string, toks []parse.Token, i int, spec *createSpec) (int, error) {
	if len(spec.partitionBy) > 0 {
		return i, errAt(text, parse.TokPos(text, toks, i-2), "PARTITIONED BY is given twice")
	}
	if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
		return i, errAt(text, parse.TokPos(text, toks, i), "expected ( after PARTITIONED BY")
	}
	end := parse.ClosingParen(toks, i)
	if end < 0 {
		return i, errAt(text, parse.TokPos(text, toks, i), "unmatched ( after PARTITIONED BY")
	}
	for _, item := range parse.SplitList(toks[i+1 : end]) {
		if len(item) != 1 || item[0].Kind != parse.Ident && item[0].Kind != parse.Quoted && item[0].Kind != parse.DQuoted {
			return i, errAt(text, parse.TokPos(text, toks, i), "PARTITIONED BY takes a list of column names")
		}
		spec.partitionBy = append(spec.partitionBy, item[0].Name())
	}
	if len(spec.partitionBy) == 0 {
		return i, errAt(text, parse.TokPos(text, toks, i), "PARTITIONED BY takes a list of column names")
	}
	return end + 1, nil
}

// addPending adds rows to the transaction's pending rows of the table,
// written at COMMIT.
func (tx *Tx) addPending(tgt *target, vecs []*vector.Vector) error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return errors.New("the transaction is already finished")
	}
	pw := tx.pendingFor(tgt)
	if err := pw.flushRows(); err != nil {
		return err
	}
	pw.cols = append(pw.cols, vecs)
	return nil
}

// target is what an INSERT needs to know about its table.
type target struct {
	path   string
	sch    *schema.Schema
	fields []*schema.Field
	folder bool
	opts   map[string]string
	// kv is the footer's other key-value metadata, which a rewrite keeps.
	kv []format.KeyValue
	// delta is the snapshot of a Delta table an INSERT appends to.
	delta  *delta.Snapshot
	layout *dml.DeltaLayout
	name   string
	// parts counts the hive partition columns at the end of fields (not
	// in sch): an INSERT routes rows to k=v folders (hive.go).
	parts int
	// staged says path is a transaction's staged copy of the Delta table
	// (txdelta.go).
	staged bool
}

// insertTarget resolves the table of an INSERT; a transaction keeps it
// for its later INSERTs into the same table.
func (e *Engine) insertTarget(name string, tx *Tx) (*target, error) {
	return e.targetOf(name, tx, false)
}

// targetOf is insertTarget for INSERT, which (outside transactions) may
// append to a Delta table: withDelta.
func (e *Engine) targetOf(name string, tx *Tx, withDelta bool) (*target, error) {
	if tx != nil {
		tx.mu.Lock()
		tg, ok := tx.targets[name]
		tx.mu.Unlock()
		if ok {
			return tg, nil
		}
	}
	if strings.ContainsAny(name, "*?[") {
		return nil, errorf("cannot INSERT into a glob")
	}
	open := e.openTable
	var before fileState
	keepable := false
	if tx != nil {
		open = tx.openBase
	} else {
		if tg := e.keptTargetOf(name); tg != nil {
			return tg, nil
		}
		if p, ok, err := e.tablePath(name); err == nil && ok && !objstore.IsURL(p) {
			before, keepable = statTable(p)
		}
	}
	t, path, err := open(name)
	if err != nil {
		return nil, err
	}
	defer e.release(t)
	// INSERT, DELETE, UPDATE and ALTER write the table through this target.
	if err := e.writable(path); err != nil {
		return nil, err
	}
	if snap := t.Snapshot(); snap != nil {
		if !withDelta {
			return nil, unsupported("writing Delta tables")
		}
		if tx != nil {
			return tx.deltaTarget(path, name, snap) // txdelta.go
		}
		return deltaTarget(name, path, snap)
	}
	var parts []scan.Column // hive partition columns, after the files' columns
	for _, c := range t.Columns {
		if c.Partition {
			parts = append(parts, c)
		}
	}
	folder := !strings.HasSuffix(path, ".parquet")
	if !objstore.IsURL(path) && (tx == nil || !tx.hasStaged(path)) {
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		folder = st.IsDir()
	}
	f0, err := t.File(0)
	if err != nil {
		return nil, err
	}
	fields, err := f0.Schema.LogicalFields()
	if err != nil {
		return nil, err
	}
	if fields, err = dml.WithPartitionFields(fields, parts); err != nil {
		return nil, err
	}
	tg := &target{path: path, sch: f0.Schema, fields: fields, folder: folder, opts: decodeOptions(f0), kv: otherKV(f0), name: name, parts: len(parts)}
	if keepable && !folder && len(t.Files) == 1 {
		e.keepTarget(name, tg, before, f0.Schema.Elements, f0.Meta.KeyValueMetadata)
	}
	if tx != nil {
		tx.mu.Lock()
		if tx.targets == nil {
			tx.targets = map[string]*target{}
		}
		tx.targets[name] = tg
		tx.mu.Unlock()
	}
	return tg, nil
}

// Exec runs a statement that does not return rows; in a transaction
// (tx non-nil) INSERTs wait for Commit.
func (s *Stmt) Exec(ctx context.Context, args []Arg, tx *Tx) (Result, error) {
	return s.exec(ctx, args, tx, nil)
}

func (s *Stmt) exec(ctx context.Context, args []Arg, tx *Tx, sess *Session) (_ Result, err error) {
	defer recoverInternal(&err)
	switch s.kind {
	case kindSession:
		return Result{}, s.execSession(tx, sess)
	case kindExecute:
		st, stArgs, err := s.executeTarget(ctx, args, tx, sess)
		if err != nil {
			return Result{}, err
		}
		return st.exec(ctx, stArgs, tx, sess)
	}
	if st, err := s.rebound(ctx, tx); err != nil || st != s {
		if err != nil {
			return Result{}, err
		}
		return st.exec(ctx, args, tx, sess)
	}
	if s.kind == kindSet {
		if s.set.variable != "" {
			return Result{}, s.e.execVariable(ctx, s.set, args, tx, sess)
		}
		return Result{}, s.e.execSet(s.set, sess)
	}
	switch s.kind {
	case kindInsert, kindCreate, kindCreateAs, kindDrop, kindDelete, kindUpdate, kindCopy, kindAlter, kindOptimize, kindVacuum, kindMerge, kindExport:
		if s.e.opts.ReadOnly {
			return Result{}, &Error{Msg: ErrReadOnly.Error() + ": " + s.verb() + " refused", Offset: -1, Err: ErrReadOnly}
		}
		if tx != nil && tx.readOnly {
			return Result{}, errorf("%s in a read-only transaction", s.verb())
		}
	}
	set := s.e.settingsFor(sess)
	ctx = plan.WithQueryMemory(ctx, set.MemLimit) // memory.go
	p := &plan.Planner{Cat: &stmtCatalog{e: s.e, tx: tx, sess: sess}, Src: s.Src, Args: args, Ctx: ctx, Set: set}
	defer p.ReleaseAll()
	switch s.kind {
	case kindInsert:
		return s.insert(ctx, p, tx)
	case kindCreate, kindCreateAs, kindCopy:
		if s.jsonCopy != nil {
			return s.copyToJSON(ctx, p) // jsoncopy.go
		}
		if s.csvOut != nil {
			return s.copyCSV(ctx, args, tx, sess) // csvcopy.go
		}
		if tx != nil && s.create != nil && s.create.delta {
			return Result{}, unsupported(s.verb() + " ... USING delta inside a transaction")
		}
		return s.createTable(ctx, p)
	case kindDrop:
		return s.dropTable(tx)
	case kindDelete, kindUpdate:
		if s.kind == kindDelete {
			return s.deleteRows(ctx, p)
		}
		return s.updateRows(ctx, p)
	case kindMerge:
		return s.mergeRows(ctx, p)
	case kindExport:
		return s.execExport(ctx, p, tx, sess) // export.go
	case kindAttach:
		return Result{}, s.e.execAttach(s.attach) // attach.go
	case kindSequence:
		return s.e.execSequence(s)
	case kindOptimize:
		if tx != nil {
			return s.optimizeInTx(ctx, p, tx) // txmaint.go
		}
		return s.optimize(ctx, p)
	case kindVacuum:
		if tx != nil {
			return s.vacuumInTx(tx)
		}
		return s.vacuumTable()
	case kindAlter:
		return s.alterTable(ctx, p)
	case kindCreateView, kindDropView:
		if tx != nil {
			return Result{}, tx.addView(s)
		}
		return s.e.execView(s)
	case kindMacro, kindDropMacro:
		if err := s.checkMacroBody(ctx); err != nil {
			return Result{}, err
		}
		return s.e.execMacro(s)
	case kindType:
		return s.e.execType(s)
	}
	return Result{}, errorf("the statement returns rows (use Query)")
}

// ChangesRows reports whether the statement changes rows and counts them
// (INSERT, UPDATE, DELETE, COPY, CREATE TABLE AS, MERGE).
func (s *Stmt) ChangesRows() bool {
	switch s.kind {
	case kindInsert, kindUpdate, kindDelete, kindCopy, kindCreateAs, kindMerge:
		return true
	}
	return false
}

// Creates reports whether the statement is a CREATE of a table, view or
// macro that changes no rows.
func (s *Stmt) Creates() bool {
	return s.kind == kindCreate || s.kind == kindCreateView || s.kind == kindMacro
}

func (s *Stmt) verb() string {
	switch s.kind {
	case kindInsert:
		return "INSERT"
	case kindCreate, kindCreateAs:
		return "CREATE TABLE"
	case kindDrop:
		return "DROP TABLE"
	case kindCopy:
		return "COPY"
	case kindDelete:
		return "DELETE"
	case kindUpdate:
		return "UPDATE"
	case kindAlter:
		switch {
		case s.alter != nil && s.alter.action == "create_index":
			return "CREATE INDEX"
		case s.alter != nil && s.alter.action == "drop_index":
			return "DROP INDEX"
		}
		return "ALTER TABLE"
	case kindOptimize:
		return "OPTIMIZE"
	case kindVacuum:
		return "VACUUM"
	case kindMerge:
		return "MERGE"
	}
	return "statement"
}

func (s *Stmt) insert(ctx context.Context, p *plan.Planner, tx *Tx) (Result, error) {
	ins := s.AST.(*sqlparser.Insert)
	if sel, ok := ins.Rows.(sqlparser.SelectStatement); ok {
		// INSERT ... SELECT plans its query: plan a copy (see parse.CloneAST);
		// VALUES rows are only read.
		c := *ins
		c.Rows = parse.CloneAST(sel)
		ins = &c
	}
	name := ins.Table.Name.String()
	if q := ins.Table.Qualifier.String(); q != "" {
		name = q + "." + name
	}
	tgt, err := s.e.targetOf(name, tx, true)
	if err != nil {
		return Result{}, s.Src.Locate(plan.AsError(err), ins.Table.Name.String())
	}
	path, sch, fields, folder := tgt.path, tgt.sch, tgt.fields, tgt.folder
	// Target columns.
	target := make([]int, 0, len(fields)) // field index of each given column
	if len(ins.Columns) == 0 {
		for i := range fields {
			target = append(target, i)
		}
	} else {
		seen := map[int]bool{}
		for _, c := range ins.Columns {
			k := -1
			var names []string
			for i, f := range fields {
				names = append(names, f.Name)
				if strings.EqualFold(f.Name, c.String()) {
					k = i
				}
			}
			if k < 0 {
				e := errorf("table %q has no column %q%s", name, c.String(), suggest(c.String(), names))
				e.Err = ErrNoColumn
				return Result{}, s.Src.Locate(e, c.String())
			}
			if seen[k] {
				return Result{}, s.Src.Locate(errorf("column %q is given twice", c.String()), c.String())
			}
			seen[k] = true
			target = append(target, k)
		}
	}
	types := make([]Type, len(fields))
	for i, f := range fields {
		types[i] = plan.TypeOfField(f)
	}
	if row, ok := s.pendingRow(ins, tx, tgt, target); ok {
		return s.insertPending(p, tx, tgt, target, types, row)
	}
	// Source rows, cast to the target columns' types.
	con := constraintsOf(tgt.opts)
	data := make([]*Col, len(fields))
	var n int
	switch rows := ins.Rows.(type) {
	case sqlparser.Values:
		if s.defaultValues {
			n = 1 // every column its DEFAULT (fillDefaults) or NULL
			break
		}
		n = len(rows)
		builders := make([]*plan.ColBuilder, len(fields))
		for _, k := range target {
			builders[k] = plan.NewBuilder(types[k], n)
		}
		one := &Batch{N: 1}
		for r, row := range rows {
			if len(row) != len(target) {
				return Result{}, errorf("row %d has %d values for %d columns", r+1, len(row), len(target))
			}
			for j, ve := range row {
				k := target[j]
				if _, isDefault := ve.(*sqlparser.Default); isDefault {
					v, err := defaultValue(p, con, fields[k], types[k])
					if err != nil {
						return Result{}, err
					}
					builders[k].Add(v)
					continue
				}
				e, err := p.BindExpr(ve, &plan.Scope{}, nil)
				if err != nil {
					return Result{}, err
				}
				var v any
				var vt Type
				if kc, ok := plan.IsConst(e); ok {
					v, vt = kc.V, kc.T
				} else {
					c, err := e.Eval(one)
					if err != nil {
						return Result{}, err
					}
					v, vt = c.Get(0), c.T
				}
				cv, err := plan.CastScalar(v, vt, types[k])
				if err != nil {
					return Result{}, errorf("row %d, column %q: %v", r+1, fields[k].Name, err)
				}
				builders[k].Add(cv)
			}
		}
		for _, k := range target {
			data[k] = builders[k].C
		}
	case *sqlparser.Select, *sqlparser.Union, *sqlparser.ParenSelect:
		sp, err := p.PlanSelect(rows.(sqlparser.SelectStatement), nil)
		if err != nil {
			return Result{}, err
		}
		traceRead(ctx, sp, "") // EXPLAIN ANALYZE (explain_dml.go)
		if s.byName {
			// The SELECT's columns go to the table's columns of their names.
			if len(ins.Columns) > 0 {
				sp.Root.Close()
				return Result{}, errorf("INSERT BY NAME takes no column list")
			}
			target = target[:0]
			seen := map[int]bool{}
			for _, c := range sp.Cols {
				k := fieldIndex(fields, c.Name)
				if k < 0 {
					sp.Root.Close()
					e := errorf("table %q has no column %q%s", name, c.Name, suggest(c.Name, fieldNames(fields)))
					e.Err = ErrNoColumn
					return Result{}, e
				}
				if seen[k] {
					sp.Root.Close()
					return Result{}, errorf("column %q is given twice", c.Name)
				}
				seen[k] = true
				target = append(target, k)
			}
		}
		if len(sp.Cols) != len(target) {
			sp.Root.Close()
			return Result{}, errorf("the SELECT returns %d columns for %d target columns", len(sp.Cols), len(target))
		}
		b, err := sp.DrainAll(ctx)
		if err != nil {
			return Result{}, err
		}
		n = b.N
		for j, k := range target {
			c, err := plan.CastCol(b.Cols[j], types[k])
			if err != nil {
				return Result{}, errorf("column %q: %v", fields[k].Name, err)
			}
			data[k] = c
		}
	default:
		return Result{}, unsupported("this INSERT form")
	}
	if err := fillDefaults(p, con, fields, types, data, n); err != nil {
		return Result{}, err
	}
	for k := range data {
		if data[k] == nil {
			data[k] = plan.NullCol(types[k], n)
		}
		if !fields[k].Nullable && data[k].Null != nil {
			for i := 0; i < n; i++ {
				if data[k].Null[i] {
					return Result{}, errorf("NULL in NOT NULL column %q (row %d)", fields[k].Name, i+1)
				}
			}
		}
	}
	if err := checkConstraintRows(p, con, fields, types, data, n); err != nil {
		return Result{}, err
	}
	if (s.replaceConflicts || s.upsert != nil) && (con.primary != nil || con.unique != nil) {
		return s.conflictRewrite(ctx, p, tgt, name, con, data, n, s.upsert)
	}
	if s.upsert != nil {
		return Result{}, errorf("ON CONFLICT DO UPDATE: table %q has no PRIMARY KEY or UNIQUE constraint", name)
	}
	keep, err := checkKeys(p, ctx, con, name, fields, data, n, s.ignoreConflicts)
	if err != nil {
		return Result{}, err
	}
	if keep != nil {
		for k := range data {
			data[k] = data[k].Take(keep)
		}
		n = len(keep)
	}
	if err := checkForeign(p, ctx, con, fields, data, n); err != nil {
		return Result{}, err
	}
	// RETURNING's rows are these, as written (dml_returning.go).
	if err := returnedOf(ctx).add("", data, allRows(n)); err != nil {
		return Result{}, err
	}
	if n == 0 {
		return Result{}, nil
	}
	if tgt.parts > 0 {
		return Result{RowsAffected: int64(n)}, s.e.insertHive(tx, tgt, data, n) // hive.go
	}
	vecs := make([]*vector.Vector, len(fields))
	for k, f := range fields {
		v, err := plan.ToVector(data[k], f)
		if err != nil {
			return Result{}, errorf("column %q: %v", f.Name, err)
		}
		vecs[k] = v
	}
	if tx != nil && tgt.delta == nil {
		return Result{RowsAffected: int64(n)}, tx.addPending(tgt, vecs)
	}
	if tgt.delta != nil { // in a transaction, its staged copy (txdelta.go)
		_, isValues := ins.Rows.(sqlparser.Values)
		if err := s.e.appendDelta(tgt, [][]*vector.Vector{vecs}, isValues); err != nil {
			return Result{}, err
		}
		return Result{RowsAffected: int64(n)}, nil
	}
	tableOpts := tgt.opts
	if err := s.e.writeRowsGrouped(path, sch, folder, tableOpts, [][]*vector.Vector{vecs}); err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: int64(n)}, nil
}

// writeRowsGrouped is writeRows for an INSERT outside a transaction: the
// rows of INSERTs into one local table that arrive while an append runs
// go together in the next append, one fsync for all (dml.InsertGroups).
func (e *Engine) writeRowsGrouped(path string, sch *schema.Schema, folder bool, tableOpts map[string]string, batches [][]*vector.Vector) error {
	if objstore.IsURL(path) {
		return e.writeRows(path, sch, folder, tableOpts, batches)
	}
	rows := dml.Rows{Schema: sch, Folder: folder, Options: tableOpts, Batches: batches}
	return e.groups.Append(path, rows, func(path string, r dml.Rows) error {
		return e.writeRows(path, r.Schema, r.Folder, r.Options, r.Batches)
	})
}

// writeRows appends batches to a table atomically: a single-file table
// through the writer's crash-safe append, a folder table as a new file.
// Then, when the table has the auto_optimize option, it compacts the
// table if the append left too many small row groups or files.
func (e *Engine) writeRows(path string, sch *schema.Schema, folder bool, tableOpts map[string]string, batches [][]*vector.Vector) error {
	meta, err := e.appendRows(path, sch, folder, tableOpts, batches)
	if err != nil {
		return err
	}
	return e.autoOptimize(path, folder, tableOpts, meta) // optimize.go
}

// appendRows is writeRows but for the compaction; it returns the
// footer of a single-file table as the append left it.
func (e *Engine) appendRows(path string, sch *schema.Schema, folder bool, tableOpts map[string]string, batches [][]*vector.Vector) (*format.FileMetaData, error) {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	// Files the cache holds open for no statement go: an open file keeps
	// an append from merging the file's last small row groups.
	e.forget(path)
	defer e.forget(path)
	opts, err := e.writeOptions(tableOpts)
	if err != nil {
		return nil, err
	}
	if objstore.IsURL(path) {
		if !folder {
			return nil, remoteRewrite(path, "INSERT into a one-object table")
		}
		return nil, e.writeRemoteBatches(path, sch, opts, batches)
	}
	if folder {
		// OPTIMIZE swaps the folder for a compacted copy under its lock.
		unlock, err := writer.LockFolder(path, false)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	w, err := dml.OpenTableWriter(path, sch, folder, opts)
	if err != nil {
		return nil, err
	}
	for _, b := range batches {
		if err := w.WriteBatch(b); err != nil {
			if aerr := w.Abort(); aerr != nil {
				return nil, errors.Join(err, aerr)
			}
			return nil, fmt.Errorf("%w (nothing was written to %s)", err, path)
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	if folder {
		return nil, nil
	}
	e.appendedTo(path, w)
	meta, _ := w.Written()
	return meta, nil
}
