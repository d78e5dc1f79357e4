package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// ALTER TABLE t ADD [COLUMN] [IF NOT EXISTS] c type [DEFAULT e] [NOT
// NULL], DROP [COLUMN] [IF EXISTS] c, RENAME [COLUMN] c TO d, RENAME TO u,
// ALTER [COLUMN] c [SET DATA] TYPE type [USING e], ALTER [COLUMN] c
// SET DEFAULT e | DROP DEFAULT | SET NOT NULL | DROP NOT NULL, on a
// single-file table outside transactions. RENAME TO renames the file;
// the others write the table again (as UPDATE does, dml.go) with the new
// schema, its rows read through a SELECT of the new columns, and keep its
// options and constraints (renamed with the column; a column a key or a
// CHECK names cannot be dropped, nor one a CHECK names renamed).

// alterSpec is a parsed ALTER TABLE.
type alterSpec struct {
	action      string // add, drop, rename, rename_table, type, set_default, drop_default, set_not_null, drop_not_null
	tableText   string // the table as written, for the SELECT that reads it
	col, to     string
	typ         Type
	notNull     bool
	expr        string // DEFAULT or USING expression text
	ifExists    bool   // ALTER TABLE IF EXISTS
	ifColExists bool   // ADD ... IF NOT EXISTS / DROP ... IF EXISTS; CREATE INDEX IF NOT EXISTS
	// index is the index of CREATE INDEX or DROP INDEX (index.go;
	// action create_index or drop_index), nil for an ALTER TABLE.
	index *tableIndex
}

func (e *Engine) prepareAlter(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	r := stmtTokens{text, toks}
	word, fail := r.word, r.fail
	name := func(k int) (string, error) {
		if k >= len(toks) || toks[k].Kind == parse.Op || toks[k].Kind == parse.Number {
			return "", fail(k, "expected a name")
		}
		return toks[k].Name(), nil
	}
	if word(1) != "table" {
		err := fail(1, "ALTER %s is not supported", strings.ToUpper(word(1)))
		err.(*Error).Err = ErrUnsupported
		return nil, err
	}
	a := &alterSpec{}
	i := 2
	if word(i) == "if" && word(i+1) == "exists" {
		a.ifExists, i = true, i+2
	}
	table, err := name(i)
	if err != nil {
		return nil, err
	}
	s.table, a.tableText = table, toks[i].Text
	i++
	verb := word(i)
	i++
	switch verb {
	case "add":
		if word(i) == "column" {
			i++
		}
		if word(i) == "if" && word(i+1) == "not" && word(i+2) == "exists" {
			a.ifColExists, i = true, i+3
		}
		if word(i) == "constraint" || word(i) == "primary" || word(i) == "unique" || word(i) == "foreign" || word(i) == "check" {
			err := fail(i, "ALTER TABLE ADD of a constraint is not supported")
			err.(*Error).Err = ErrUnsupported
			return nil, err
		}
		if a.col, err = name(i); err != nil {
			return nil, err
		}
		spec := &createSpec{options: map[string]string{}}
		next, err := readColumnDef(text, toks, i, a.col, spec, e.userType)
		if err != nil {
			return nil, err
		}
		if spec.primary != nil || spec.unique != nil || spec.checks != nil || spec.foreign != nil {
			err := fail(i, "a column added by ALTER TABLE takes no key, CHECK or REFERENCES")
			err.(*Error).Err = ErrUnsupported
			return nil, err
		}
		a.action, a.typ, a.notNull, a.expr, i = "add", spec.cols[0].Type, spec.notNull[0], spec.defaults[a.col], next
	case "drop":
		if word(i) == "column" {
			i++
		}
		if word(i) == "if" && word(i+1) == "exists" {
			a.ifColExists, i = true, i+2
		}
		if a.col, err = name(i); err != nil {
			return nil, err
		}
		a.action, i = "drop", i+1
		if word(i) == "cascade" || word(i) == "restrict" {
			i++
		}
	case "rename":
		if word(i) == "to" {
			if a.to, err = name(i + 1); err != nil {
				return nil, err
			}
			a.action, i = "rename_table", i+2
			break
		}
		if word(i) == "column" {
			i++
		}
		if a.col, err = name(i); err != nil {
			return nil, err
		}
		if word(i+1) != "to" {
			return nil, fail(i+1, "expected RENAME [COLUMN] c TO d")
		}
		if a.to, err = name(i + 2); err != nil {
			return nil, err
		}
		a.action, i = "rename", i+3
	case "alter":
		if word(i) == "column" {
			i++
		}
		if a.col, err = name(i); err != nil {
			return nil, err
		}
		i++
		switch {
		case word(i) == "set" && word(i+1) == "data" && word(i+2) == "type", word(i) == "type":
			if word(i) == "set" {
				i += 2
			}
			t, next, err := plan.ReadNestedType(text, toks, i+1, e.userType)
			if err != nil {
				return nil, err
			}
			a.action, a.typ, i = "type", t, next
			if word(i) == "using" {
				a.expr, i = sourceText(text, toks, i+1, len(toks)), len(toks)
			}
		case word(i) == "set" && word(i+1) == "default":
			if i+2 >= len(toks) {
				return nil, fail(i+2, "SET DEFAULT needs a value")
			}
			a.action, a.expr, i = "set_default", sourceText(text, toks, i+2, len(toks)), len(toks)
		case word(i) == "drop" && word(i+1) == "default":
			a.action, i = "drop_default", i+2
		case word(i) == "set" && word(i+1) == "not" && word(i+2) == "null":
			a.action, i = "set_not_null", i+3
		case word(i) == "drop" && word(i+1) == "not" && word(i+2) == "null":
			a.action, i = "drop_not_null", i+3
		default:
			return nil, fail(i, "expected TYPE, SET DEFAULT, DROP DEFAULT, SET NOT NULL or DROP NOT NULL")
		}
	default:
		err := fail(i-1, "ALTER TABLE %s is not supported (ADD, DROP, RENAME and ALTER COLUMN are)", strings.ToUpper(verb))
		err.(*Error).Err = ErrUnsupported
		return nil, err
	}
	if i < len(toks) {
		return nil, fail(i, "unexpected %s", toks[i].Text)
	}
	s.kind, s.alter, s.Src = kindAlter, a, &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	return s, nil
}

// alterTable runs an ALTER TABLE, or CREATE/DROP INDEX (index.go).
func (s *Stmt) alterTable(ctx context.Context, p *plan.Planner) (Result, error) {
	if s.alter.index != nil {
		return s.runIndex(ctx, p)
	}
	return s.rewriteAltered(ctx, p, s.table)
}

// rewriteAltered writes table again as s.alter changes it.
func (s *Stmt) rewriteAltered(ctx context.Context, p *plan.Planner, table string) (Result, error) {
	a := s.alter
	resolve := s.e.tablePath
	if stmtOf(p).tx != nil {
		resolve = stmtOf(p).tx.tablePath
	}
	if _, ok, err := resolve(table); err != nil {
		return Result{}, err
	} else if !ok && a.ifExists {
		return Result{}, nil
	}
	tgt, err := s.e.insertTarget(table, stmtOf(p).tx)
	if err != nil {
		return Result{}, err
	}
	if tgt.folder {
		return Result{}, unsupported(s.verb() + " of a table that is a folder of files")
	}
	if stmtOf(p).tx != nil {
		// The table's rows the transaction inserted are part of what the
		// ALTER reads and writes (to a staged file, below).
		if err := stmtOf(p).tx.settle(tgt.path, tgt.name); err != nil {
			return Result{}, err
		}
	}
	if a.action == "rename_table" {
		if stmtOf(p).tx != nil {
			return Result{}, s.renameInTx(stmtOf(p).tx, tgt, a.to)
		}
		return Result{}, s.renameTable(tgt.path, a.to)
	}
	k := fieldIndex(tgt.fields, a.col)
	switch {
	case a.index != nil:
		if a.action == "create_index" {
			if err := checkIndexColumns(a, tgt); err != nil {
				return Result{}, err
			}
		}
	case a.action == "add" && k >= 0:
		if a.ifColExists {
			return Result{}, nil
		}
		return Result{}, errorf("column %q already exists", tgt.fields[k].Name)
	case a.action != "add" && k < 0:
		if a.action == "drop" && a.ifColExists {
			return Result{}, nil
		}
		e := errorf("table %q has no column %q%s", table, a.col, suggest(a.col, fieldNames(tgt.fields)))
		e.Err = ErrNoColumn
		return Result{}, e
	case a.action == "rename" && fieldIndex(tgt.fields, a.to) >= 0 && !strings.EqualFold(a.to, a.col):
		return Result{}, errorf("column %q already exists", a.to)
	}
	if k >= 0 {
		a.col = tgt.fields[k].Name
	}
	opts, err := alteredOptions(tgt.opts, a)
	if err != nil {
		return Result{}, err
	}
	// The new columns, and the SELECT items that compute them.
	var fields []writer.Field
	var items []string
	// The columns' names and SQL types, for the column-types entry.
	var names []string
	var types []Type
	for i, f := range tgt.fields {
		item := parse.QuoteIdent(f.Name)
		wf := *f
		if i != k || a.action != "drop" {
			names, types = append(names, f.Name), append(types, plan.TypeOfField(f))
			if i == k && a.action == "rename" {
				names[len(names)-1] = a.to
			}
			if i == k && a.action == "type" {
				types[len(types)-1] = a.typ
			}
		}
		if i == k {
			switch a.action {
			case "drop":
				continue
			case "rename":
				wf.Name = a.to
			case "set_not_null":
				wf.Nullable = false
			case "drop_not_null":
				if slices.Contains(constraintsOf(tgt.opts).primary, f.Name) {
					return Result{}, errorf("column %q is part of the primary key: it stays NOT NULL", f.Name)
				}
				wf.Nullable = true
			case "type":
				nf, err := fieldOf(f.Name, a.typ, !f.Nullable)
				if err != nil {
					return Result{}, err
				}
				fields = append(fields, nf)
				src := item
				if a.expr != "" {
					src = "(" + a.expr + ")"
				}
				items = append(items, "CAST("+src+" AS "+a.typ.SQLName()+")")
				continue
			}
		}
		w, err := writerFieldOf(&wf)
		if err != nil {
			return Result{}, err
		}
		fields, items = append(fields, w), append(items, item)
	}
	if a.action == "add" {
		nf, err := fieldOf(a.col, a.typ, a.notNull)
		if err != nil {
			return Result{}, err
		}
		value := "NULL"
		if a.expr != "" {
			value = "(" + a.expr + ")"
		}
		fields, items = append(fields, nf), append(items, "CAST("+value+" AS "+a.typ.SQLName()+")")
		names, types = append(names, a.col), append(types, a.typ)
	}
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		return Result{}, err
	}
	from := a.tableText
	if from == "" { // DROP INDEX: the table the index was found on
		from = parse.QuoteIdent(table)
	}
	query := "SELECT " + strings.Join(items, ", ") + " FROM " + from
	wopts, err := s.e.writeOptions(opts)
	if err != nil {
		return Result{}, err
	}
	if len(opts) > 0 {
		wopts = append(wopts, writer.WithKeyValue(optionsKey, encodeOptions(opts)))
	}
	for _, kv := range tgt.kv {
		if kv.Key != schema.ColumnTypesKey {
			wopts = append(wopts, writer.WithKeyValue(kv.Key, kv.Value.Value))
		}
	}
	if v := columnTypesKV(names, types, false); v != "" {
		wopts = append(wopts, writer.WithKeyValue(schema.ColumnTypesKey, v))
	}
	st, err := s.e.prepare(query)
	if err != nil {
		return Result{}, err
	}
	if err := remoteRewrite(tgt.path, "ALTER TABLE"); err != nil {
		return Result{}, err
	}
	write := func(fill func(w *writer.Writer) error) error {
		s.e.writeMu.Lock()
		defer s.e.writeMu.Unlock()
		defer s.e.forget(tgt.path)
		return writer.Rewrite(tgt.path, sch, fill, wopts...)
	}
	if tx := stmtOf(p).tx; tx != nil {
		write = func(fill func(w *writer.Writer) error) error {
			return tx.stage(tgt.path, tgt.name, sch, fill, wopts)
		}
	}
	return Result{}, write(func(w *writer.Writer) error {
		s.e.forget(tgt.path) // read what is committed now that the locks are held
		rp := p.Child(st.Src)
		holdWrite(rp)
		defer rp.ReleaseAll()
		sp, err := st.Plan(rp)
		if err != nil {
			return err
		}
		b, err := sp.DrainAll(ctx)
		if err != nil {
			return err
		}
		if b.N == 0 {
			return nil
		}
		lfields := w.Fields()
		types := make([]Type, len(lfields))
		cols := make([]*Col, len(lfields))
		for j, f := range lfields {
			types[j] = plan.TypeOfField(f)
			if cols[j], err = plan.CastCol(b.Cols[j], types[j]); err != nil {
				return errorf("column %q: %v", f.Name, err)
			}
			if !f.Nullable && cols[j].Null != nil {
				for i := 0; i < b.N; i++ {
					if cols[j].Null[i] {
						return errorf("column %q would hold a NULL (row %d) and is NOT NULL", f.Name, i+1)
					}
				}
			}
		}
		con := constraintsOf(opts)
		if err := checkConstraintRows(rp, con, lfields, types, cols, b.N); err != nil {
			return err
		}
		if _, err := checkKeys(rp, ctx, con, "", lfields, cols, b.N, false); err != nil {
			return err
		}
		vecs := make([]*vector.Vector, len(lfields))
		for j, f := range lfields {
			if vecs[j], err = plan.ToVector(cols[j], f); err != nil {
				return errorf("column %q: %v", f.Name, err)
			}
		}
		return w.WriteBatch(vecs)
	})
}

// namesColumn reports whether expr, the text of a CHECK constraint, names
// the column col: a bare or quoted name equal to it in any case, which is
// not a function's name. A string, or a quoted name that only contains
// col, does not name it; text that does not lex counts as naming it, so
// that a change it may depend on is refused.
func namesColumn(expr, col string) bool {
	toks, err := parse.Lex(expr)
	if err != nil {
		return true
	}
	toks = parse.Significant(toks)
	for i, t := range toks {
		if t.Kind != parse.Ident && t.Kind != parse.Quoted && t.Kind != parse.DQuoted || !strings.EqualFold(t.Unquoted(), col) {
			continue
		}
		call := t.Kind == parse.Ident && i+1 < len(toks) && toks[i+1].Kind == parse.Op && toks[i+1].Text == "("
		if !call {
			return true
		}
	}
	return false
}

// alteredOptions returns the table's options after a: the constraints
// follow a renamed column; a dropped one may not be in any.
func alteredOptions(old map[string]string, a *alterSpec) (map[string]string, error) {
	opts := map[string]string{}
	for k, v := range old {
		opts[k] = v
	}
	if a.index != nil {
		return indexOptions(opts, a), nil
	}
	if ix, ok := indexNaming(old, a.col); ok {
		// As DuckDB: the index depends on its columns.
		switch a.action {
		case "drop":
			return nil, errorf("Cannot drop column %q: index %s depends on it", a.col, ix.name)
		case "rename":
			return nil, errorf("Cannot rename column %q: index %s depends on it", a.col, ix.name)
		case "type":
			return nil, errorf("Cannot change the type of column %q: index %s depends on it", a.col, ix.name)
		}
	}
	con := constraintsOf(old)
	named := func() bool {
		if slices.Contains(con.primary, a.col) {
			return true
		}
		for _, u := range con.unique {
			if slices.Contains(u, a.col) {
				return true
			}
		}
		for _, fk := range con.foreign {
			if slices.Contains(fk.cols, a.col) {
				return true
			}
		}
		return false
	}
	checkNames := func() bool {
		for _, c := range con.checks {
			if namesColumn(c, a.col) {
				return true
			}
		}
		return false
	}
	switch a.action {
	case "add", "set_default":
		if a.expr != "" {
			opts["default."+a.col] = a.expr
		}
	case "drop_default":
		delete(opts, "default."+a.col)
	case "drop":
		if named() || checkNames() {
			return nil, errorf("column %q is named by a key or CHECK constraint: it cannot be dropped", a.col)
		}
		delete(opts, "default."+a.col)
	case "rename":
		if checkNames() {
			return nil, errorf("column %q is named by a CHECK constraint: it cannot be renamed", a.col)
		}
		rename := func(list string, sep string) string {
			parts := strings.Split(list, sep)
			for i, p := range parts {
				if p == a.col {
					parts[i] = a.to
				}
			}
			return strings.Join(parts, sep)
		}
		if v, ok := opts["primary_key"]; ok {
			opts["primary_key"] = rename(v, ",")
		}
		if v, ok := opts["unique"]; ok {
			groups := strings.Split(v, ";")
			for i, g := range groups {
				groups[i] = rename(g, ",")
			}
			opts["unique"] = strings.Join(groups, ";")
		}
		for key, v := range opts {
			if strings.HasPrefix(key, "foreign.") {
				parts := strings.SplitN(v, ">", 2)
				opts[key] = rename(parts[0], ",") + ">" + parts[1]
			}
		}
		if v, ok := opts["default."+a.col]; ok {
			delete(opts, "default."+a.col)
			opts["default."+a.to] = v
		}
	}
	return opts, nil
}

// renameTable renames the table file at path to the table name to, in
// the same folder.
func (s *Stmt) renameTable(path, to string) error {
	dest, err := s.renameDest(path, to)
	if err != nil {
		return err
	}
	s.e.writeMu.Lock()
	defer s.e.writeMu.Unlock()
	defer s.e.forget(path)
	if _, exists, err := s.e.tablePath(to); err != nil {
		return err
	} else if exists {
		return errorf("table %q already exists", to)
	}
	if err := remoteRewrite(path, "ALTER TABLE RENAME"); err != nil {
		return err
	}
	// A link, then the old name removed: unlike a rename, the link fails
	// when a table of the new name appeared meanwhile (another process).
	if err := os.Link(path, dest); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errorf("table %q already exists", to)
		}
		return fmt.Errorf("renaming %s: %w", path, err)
	}
	if err := os.Remove(path); err != nil {
		os.Remove(dest)
		return fmt.Errorf("renaming %s: %w", path, err)
	}
	return nil
}

// renameDest is the path ALTER TABLE ... RENAME TO gives the table file
// at path, checked.
func (s *Stmt) renameDest(path, to string) (string, error) {
	if s.e.file != "" {
		return "", errorf("cannot rename a table: the database is the single file %s", s.e.file)
	}
	if parse.IsPathName(to) || strings.ContainsAny(to, `/\`) {
		return "", errorf("ALTER TABLE RENAME TO takes a plain table name, not %q", to)
	}
	dest := filepath.Join(filepath.Dir(path), to+".parquet")
	if err := s.e.writable(path); err != nil {
		return "", err
	}
	return dest, s.e.writable(dest)
}

// renameInTx renames the table tgt to the name to inside transaction tx:
// a copy of the table as the transaction sees it is staged under the new
// name and the old one dropped, both at COMMIT.
func (s *Stmt) renameInTx(tx *Tx, tgt *target, to string) error {
	dest, err := s.renameDest(tgt.path, to)
	if err != nil {
		return err
	}
	if _, exists, err := tx.tablePath(to); err != nil {
		return err
	} else if exists {
		return errorf("table %q already exists", to)
	}
	if err := tx.stageCopy(dest, to, tgt.name, tgt.sch, nil); err != nil {
		return err
	}
	return tx.drop(tgt.path, tgt.name)
}
