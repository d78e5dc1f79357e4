package sqlplan

import (
	"context"
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"sort"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

// Table constraints, as CREATE TABLE declares them and DuckDB enforces
// them: PRIMARY KEY (its columns are NOT NULL and no two rows share a
// key), UNIQUE (likewise, rows with a NULL in the key aside), CHECK (expr)
// (no row makes it false) and DEFAULT expr (the value of a column an
// INSERT leaves out). They are kept with the table's options in the
// file's footer (keys primary_key, unique, default.<column>,
// check.<n>), so that every later INSERT and UPDATE checks them; an
// INSERT reads the key columns of the table to check its keys. FOREIGN
// KEY and REFERENCES are checked on the referencing side (INSERT, UPDATE),
// not when the referenced rows change. INSERT OR IGNORE and INSERT ... ON
// CONFLICT DO NOTHING skip the rows whose key is taken; INSERT OR REPLACE
// replaces them and ON CONFLICT [(key)] DO UPDATE SET ... [WHERE ...]
// updates them (one key constraint, or the one named), rewriting the
// file (conflictRewrite).

var tableConstraintWords = map[string]bool{"primary": true, "unique": true, "constraint": true, "foreign": true, "check": true}

var columnConstraintWords = map[string]bool{"primary": true, "unique": true, "default": true, "references": true, "check": true, "constraint": true}

// isConstraintKey tells the option keys that hold constraints.
func isConstraintKey(k string) bool {
	return k == "primary_key" || k == "unique" || strings.HasPrefix(k, "default.") || strings.HasPrefix(k, "check.") || strings.HasPrefix(k, "foreign.")
}

// parenTokens returns the tokens inside the parentheses opening at
// toks[i] and the index after the closing one.
func parenTokens(text string, toks []parse.Token, i int) ([]parse.Token, int, error) {
	if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
		return nil, i, errAt(text, parse.TokPos(text, toks, i), "expected (")
	}
	k := parse.ClosingParen(toks, i)
	if k < 0 {
		return nil, i, errAt(text, toks[i].Pos, "unterminated (")
	}
	return toks[i+1 : k], k + 1, nil
}

// sourceText is the SQL text the tokens toks[a:b] were read from.
func sourceText(text string, toks []parse.Token, a, b int) string {
	if a >= b {
		return ""
	}
	end := len(text)
	if b < len(toks) {
		end = toks[b].Pos
	}
	return strings.TrimSpace(text[toks[a].Pos:end])
}

// columnList reads (a, b, ...) at toks[i].
func columnList(text string, toks []parse.Token, i int) ([]string, int, error) {
	in, next, err := parenTokens(text, toks, i)
	if err != nil {
		return nil, i, err
	}
	var cols []string
	for _, item := range parse.SplitList(in) {
		if len(item) != 1 || item[0].Kind == parse.Op || item[0].Kind == parse.Number || item[0].Kind == parse.String {
			return nil, i, errAt(text, toks[i].Pos, "expected a list of column names")
		}
		cols = append(cols, item[0].Name())
	}
	if len(cols) == 0 {
		return nil, i, errAt(text, toks[i].Pos, "expected a list of column names")
	}
	return cols, next, nil
}

// foreignKey is a FOREIGN KEY: its columns, the table they reference and
// the columns there (none: that table's primary key).
type foreignKey struct {
	cols    []string
	table   string
	refCols []string
}

// readReferences reads REFERENCES table [(cols)] [ON DELETE|UPDATE
// action ...] from toks[i] (at REFERENCES) into fk.
func readReferences(text string, toks []parse.Token, i int, fk *foreignKey) (int, error) {
	i++
	if i >= len(toks) || toks[i].Kind == parse.Op {
		return i, errAt(text, parse.TokPos(text, toks, i), "REFERENCES needs a table")
	}
	fk.table = toks[i].Name()
	i++
	if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
		cols, next, err := columnList(text, toks, i)
		if err != nil {
			return i, err
		}
		fk.refCols, i = cols, next
	}
	for i+1 < len(toks) && toks[i].Is("on") && (toks[i+1].Is("delete") || toks[i+1].Is("update")) {
		e := errAt(text, toks[i].Pos, "ON %s actions of a foreign key are not supported", strings.ToUpper(toks[i+1].Text))
		e.Err = ErrUnsupported
		return i, e
	}
	return i, nil
}

// readColumnConstraint reads one constraint of column col at toks[i];
// pk reports PRIMARY KEY (the column is then NOT NULL).
func readColumnConstraint(text string, toks []parse.Token, i int, col string, spec *createSpec) (next int, pk bool, err error) {
	switch {
	case toks[i].Is("constraint"):
		if i+1 >= len(toks) || toks[i+1].Kind == parse.Op {
			return i, false, errAt(text, toks[i].Pos, "CONSTRAINT needs a name")
		}
		return i + 2, false, nil
	case toks[i].Is("primary"):
		if i+1 >= len(toks) || !toks[i+1].Is("key") {
			return i, false, errAt(text, toks[i].Pos, "expected PRIMARY KEY")
		}
		if spec.primary != nil {
			return i, false, errAt(text, toks[i].Pos, "a table has one PRIMARY KEY")
		}
		spec.primary = []string{col}
		return i + 2, true, nil
	case toks[i].Is("unique"):
		spec.unique = append(spec.unique, []string{col})
		return i + 1, false, nil
	case toks[i].Is("references"):
		fk := foreignKey{cols: []string{col}}
		next, err := readReferences(text, toks, i, &fk)
		spec.foreign = append(spec.foreign, fk)
		return next, false, err
	case toks[i].Is("check"):
		in, next, err := parenTokens(text, toks, i+1)
		if err != nil {
			return i, false, err
		}
		if len(in) == 0 {
			return i, false, errAt(text, toks[i].Pos, "CHECK needs a condition")
		}
		spec.checks = append(spec.checks, sourceText(text, toks, i+2, next-1))
		return next, false, nil
	case toks[i].Is("default"):
		// The expression runs to a ',' or ')' at its level, or to the
		// next constraint.
		start, depth, k := i+1, 0, i+1
		for ; k < len(toks); k++ {
			t := toks[k]
			if t.Kind == parse.Op && (t.Text == "(" || t.Text == "[") {
				depth++
			} else if t.Kind == parse.Op && (t.Text == ")" || t.Text == "]") {
				if depth == 0 {
					break
				}
				depth--
			} else if depth == 0 && (t.Kind == parse.Op && t.Text == "," || k > start && t.Kind == parse.Ident &&
				(columnConstraintWords[strings.ToLower(t.Text)] || t.Is("not") && k+1 < len(toks) && toks[k+1].Is("null"))) {
				break
			}
		}
		if k == start {
			return i, false, errAt(text, toks[i].Pos, "DEFAULT needs a value")
		}
		if spec.defaults == nil {
			spec.defaults = map[string]string{}
		}
		spec.defaults[col] = sourceText(text, toks, start, k)
		return k, false, nil
	}
	return i, false, errAt(text, toks[i].Pos, "unexpected %s", toks[i].Text)
}

// readTableConstraint reads a table constraint at toks[i] (PRIMARY KEY
// (...), UNIQUE (...), CHECK (...), FOREIGN KEY (...) REFERENCES ...,
// each after an optional CONSTRAINT name).
func readTableConstraint(text string, toks []parse.Token, i int, spec *createSpec) (int, error) {
	if toks[i].Is("constraint") {
		if i+2 >= len(toks) || toks[i+1].Kind == parse.Op {
			return i, errAt(text, toks[i].Pos, "CONSTRAINT needs a name and a constraint")
		}
		i += 2
	}
	switch {
	case toks[i].Is("primary") && i+1 < len(toks) && toks[i+1].Is("key"):
		if spec.primary != nil {
			return i, errAt(text, toks[i].Pos, "a table has one PRIMARY KEY")
		}
		cols, next, err := columnList(text, toks, i+2)
		if err != nil {
			return i, err
		}
		spec.primary = cols
		return next, nil
	case toks[i].Is("unique"):
		cols, next, err := columnList(text, toks, i+1)
		if err != nil {
			return i, err
		}
		spec.unique = append(spec.unique, cols)
		return next, nil
	case toks[i].Is("check"):
		next, _, err := readColumnConstraint(text, toks, i, "", spec)
		return next, err
	case toks[i].Is("foreign") && i+1 < len(toks) && toks[i+1].Is("key"):
		cols, next, err := columnList(text, toks, i+2)
		if err != nil {
			return i, err
		}
		if next >= len(toks) || !toks[next].Is("references") {
			return i, errAt(text, parse.TokPos(text, toks, next), "expected REFERENCES")
		}
		fk := foreignKey{cols: cols}
		next, err = readReferences(text, toks, next, &fk)
		spec.foreign = append(spec.foreign, fk)
		return next, err
	}
	return i, errAt(text, toks[i].Pos, "expected PRIMARY KEY, UNIQUE, CHECK or FOREIGN KEY")
}

// settleConstraints checks the columns the constraints name, makes the
// primary key's columns NOT NULL and records the constraints in the
// table's options.
func (spec *createSpec) settleConstraints() error {
	canonical := func(name string) (string, int, error) {
		for i, c := range spec.cols {
			if strings.EqualFold(c.Name, name) {
				return c.Name, i, nil
			}
		}
		return "", -1, errorf("the constraint names column %q, which the table does not have", name)
	}
	keyText := func(cols []string) (string, error) {
		seen := map[string]bool{}
		for i, c := range cols {
			name, _, err := canonical(c)
			if err != nil {
				return "", err
			}
			if seen[name] {
				return "", errorf("column %q is twice in a key", name)
			}
			seen[name], cols[i] = true, name
		}
		return strings.Join(cols, ","), nil
	}
	if spec.primary != nil {
		text, err := keyText(spec.primary)
		if err != nil {
			return err
		}
		for _, c := range spec.primary {
			_, i, _ := canonical(c)
			spec.notNull[i] = true
		}
		spec.options["primary_key"] = text
	}
	var uniques []string
	for _, u := range spec.unique {
		text, err := keyText(u)
		if err != nil {
			return err
		}
		uniques = append(uniques, text)
	}
	if len(uniques) > 0 {
		spec.options["unique"] = strings.Join(uniques, ";")
	}
	for col, expr := range spec.defaults {
		spec.options["default."+col] = expr
	}
	for i, c := range spec.checks {
		spec.options["check."+strconv.Itoa(i+1)] = c
	}
	for i, fk := range spec.foreign {
		cols, err := keyText(fk.cols)
		if err != nil {
			return err
		}
		if len(fk.refCols) > 0 && len(fk.refCols) != len(fk.cols) {
			return errorf("the foreign key (%s) has %d columns and references %d", cols, len(fk.cols), len(fk.refCols))
		}
		spec.options["foreign."+strconv.Itoa(i+1)] = cols + ">" + fk.table + ">" + strings.Join(fk.refCols, ",")
	}
	return nil
}

// constraints are a table's constraints, read back from its options.
type constraints struct {
	primary  []string
	unique   [][]string
	defaults map[string]string
	checks   []string
	foreign  []foreignKey
}

// hasKeys reports whether there are keys to check: PRIMARY KEY, UNIQUE
// or FOREIGN KEY.
func (c *constraints) hasKeys() bool {
	return c.primary != nil || c.unique != nil || len(c.foreign) > 0
}

func constraintsOf(opts map[string]string) *constraints {
	c := &constraints{defaults: map[string]string{}}
	if v := opts["primary_key"]; v != "" {
		c.primary = strings.Split(v, ",")
	}
	if v := opts["unique"]; v != "" {
		for _, u := range strings.Split(v, ";") {
			c.unique = append(c.unique, strings.Split(u, ","))
		}
	}
	for _, ix := range indexesOf(opts) {
		if ix.unique { // a UNIQUE index is a uniqueness rule (index.go)
			c.unique = append(c.unique, ix.cols)
		}
	}
	var checkKeys, foreignKeys []string
	for k, v := range opts {
		if col, ok := strings.CutPrefix(k, "default."); ok {
			c.defaults[col] = v
		}
		if strings.HasPrefix(k, "check.") {
			checkKeys = append(checkKeys, k)
		}
		if strings.HasPrefix(k, "foreign.") {
			foreignKeys = append(foreignKeys, k)
		}
	}
	sort.Strings(checkKeys)
	for _, k := range checkKeys {
		c.checks = append(c.checks, opts[k])
	}
	sort.Strings(foreignKeys)
	for _, k := range foreignKeys {
		parts := strings.Split(opts[k], ">")
		if len(parts) != 3 {
			continue
		}
		fk := foreignKey{cols: strings.Split(parts[0], ","), table: parts[1]}
		if parts[2] != "" {
			fk.refCols = strings.Split(parts[2], ",")
		}
		c.foreign = append(c.foreign, fk)
	}
	return c
}

// exprOf parses the expression text of a constraint, to be bound by a
// planner of the returned source.
func (e *Engine) exprOf(text string) (sqlparser.Expr, *plan.Source, error) {
	st, err := e.prepare("SELECT " + text)
	if err != nil {
		return nil, nil, errorf("the constraint expression %q: %v", text, err)
	}
	sel, ok := st.AST.(*sqlparser.Select)
	if !ok || len(sel.SelectExprs) != 1 {
		return nil, nil, errorf("the constraint expression %q is not one expression", text)
	}
	ae, ok := sel.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, nil, errorf("the constraint expression %q is not one expression", text)
	}
	return ae.Expr, st.Src, nil
}

// bindStored binds a constraint's stored expression text in sc (as a
// condition with asBool); a binding error is reported under label.
func bindStored(p *plan.Planner, text string, sc *plan.Scope, asBool bool, label string) (plan.Expr, error) {
	e, src, err := stmtOf(p).StoredExpr(text)
	if err != nil {
		return nil, err
	}
	cp := p.Child(src)
	defer cp.ReleaseAll()
	var bound plan.Expr
	if asBool {
		bound, err = cp.BindBool(e, sc, nil)
	} else {
		bound, err = cp.BindExpr(e, sc, nil)
	}
	if err != nil {
		return nil, errorf("%s: %v", label, err)
	}
	return bound, nil
}

// rowsScope is a scope whose one relation is the rows being written: the
// table's columns, column k in slot k of their batch.
func rowsScope(fields []*schema.Field, types []Type) *plan.Scope {
	rel := &plan.Relation{Alias: "new"}
	for k, f := range fields {
		rel.Cols = append(rel.Cols, &plan.ScopeCol{Rel: rel, Name: f.Name, T: types[k], Slot: &plan.Slot{Idx: k}})
	}
	return &plan.Scope{Rels: []*plan.Relation{rel}}
}

// fillDefaults sets the columns an INSERT leaves out (data[k] nil) that
// have a DEFAULT to its value.
func fillDefaults(p *plan.Planner, con *constraints, fields []*schema.Field, types []Type, data []*Col, n int) error {
	for k, f := range fields {
		if _, ok := con.defaults[f.Name]; !ok || data[k] != nil {
			continue
		}
		// Evaluated over the n rows, so that a volatile DEFAULT (a
		// sequence's nextval, random()) gives each row its own value.
		c, err := defaultCol(p, con, f, types[k], n)
		if err != nil {
			return err
		}
		data[k] = c
	}
	return nil
}

// defaultCol is the DEFAULT of column f, of type t, for n rows.
func defaultCol(p *plan.Planner, con *constraints, f *schema.Field, t Type, n int) (*Col, error) {
	bound, err := bindStored(p, con.defaults[f.Name], &plan.Scope{}, false, fmt.Sprintf("DEFAULT of column %q", f.Name))
	if err != nil {
		return nil, err
	}
	c, err := bound.Eval(&Batch{N: n})
	if err == nil {
		c, err = plan.CastCol(c, t)
	}
	if err != nil {
		return nil, errorf("DEFAULT of column %q: %v", f.Name, err)
	}
	return c, nil
}

// defaultValue is the DEFAULT of column f, of type t (NULL without one).
func defaultValue(p *plan.Planner, con *constraints, f *schema.Field, t Type) (any, error) {
	text, ok := con.defaults[f.Name]
	if !ok {
		return nil, nil
	}
	bound, err := bindStored(p, text, &plan.Scope{}, false, fmt.Sprintf("DEFAULT of column %q", f.Name))
	if err != nil {
		return nil, err
	}
	c, err := bound.Eval(&Batch{N: 1})
	if err != nil {
		return nil, errorf("DEFAULT of column %q: %v", f.Name, err)
	}
	v := c.Get(0)
	if v != nil {
		if v, err = plan.CastScalar(v, c.T, t); err != nil {
			return nil, errorf("DEFAULT of column %q: %v", f.Name, err)
		}
	}
	return v, nil
}

// checkConstraintRows enforces the CHECK constraints on the rows data.
func checkConstraintRows(p *plan.Planner, con *constraints, fields []*schema.Field, types []Type, data []*Col, n int) error {
	if len(con.checks) == 0 || n == 0 {
		return nil
	}
	sc := rowsScope(fields, types)
	b := &Batch{N: n, Cols: data}
	for _, text := range con.checks {
		bound, err := bindStored(p, text, sc, true, "CHECK ("+text+")")
		if err != nil {
			return err
		}
		c, err := bound.Eval(b)
		if err != nil {
			return errorf("CHECK (%s): %v", text, err)
		}
		for i := 0; i < n; i++ {
			if !c.IsNull(i) && !c.B[i] {
				return errorf("CHECK constraint failed: %s (row %d)", text, i+1)
			}
		}
	}
	return nil
}

// checkKeys enforces PRIMARY KEY and UNIQUE on the rows data, against
// the rows table already holds when table is not "" (read through the
// planner: in a transaction, its own rows too). With ignore, the rows
// whose key is taken are left out instead: keep lists the rows kept (nil
// when all are).
func checkKeys(p *plan.Planner, ctx context.Context, con *constraints, table string, fields []*schema.Field, data []*Col, n int, ignore bool) (keep []int32, err error) {
	type key struct {
		cols    []int
		primary bool
	}
	var keys []key
	index := func(names []string) ([]int, error) {
		var out []int
		for _, name := range names {
			k := -1
			for i, f := range fields {
				if f.Name == name {
					k = i
				}
			}
			if k < 0 {
				return nil, errorf("the key column %q is not in the table", name)
			}
			out = append(out, k)
		}
		return out, nil
	}
	if con.primary != nil {
		cols, err := index(con.primary)
		if err != nil {
			return nil, err
		}
		keys = append(keys, key{cols, true})
	}
	for _, u := range con.unique {
		cols, err := index(u)
		if err != nil {
			return nil, err
		}
		keys = append(keys, key{cols, false})
	}
	if len(keys) == 0 || n == 0 {
		return nil, nil
	}
	dropped := make([]bool, n)
	var buf []byte
	encode := func(cols []*Col, i int) (string, bool) {
		buf = buf[:0]
		for _, c := range cols {
			if c.IsNull(i) {
				return "", false
			}
			buf = vec.AppendKey(buf, c, i)
		}
		return string(buf), true
	}
	for _, k := range keys {
		taken := map[string]bool{}
		if table != "" {
			names := make([]string, len(k.cols))
			for j, c := range k.cols {
				names[j] = fields[c].Name
			}
			old, err := keyColumns(p, ctx, table, names)
			if err != nil {
				return nil, err
			}
			for i := 0; i < old.N; i++ {
				if s, ok := encode(old.Cols, i); ok {
					taken[s] = true
				}
			}
		}
		cols := make([]*Col, len(k.cols))
		for j, c := range k.cols {
			cols[j] = data[c]
		}
		for i := 0; i < n; i++ {
			if dropped[i] {
				continue
			}
			s, ok := encode(cols, i)
			if !ok {
				continue
			}
			if !taken[s] {
				taken[s] = true
				continue
			}
			if ignore {
				dropped[i] = true
				continue
			}
			kind := "unique"
			if k.primary {
				kind = "primary key"
			}
			return nil, errorf("duplicate key %q violates %s constraint (row %d)", keyText(fields, k.cols, cols, i), kind, i+1)
		}
	}
	for i, d := range dropped {
		if !d {
			keep = append(keep, int32(i))
		}
	}
	if len(keep) == n {
		return nil, nil
	}
	if keep == nil {
		keep = []int32{}
	}
	return keep, nil
}

// keyText writes a key as DuckDB's message does: "a: 1, b: x".
func keyText(fields []*schema.Field, idx []int, cols []*Col, i int) string {
	parts := make([]string, len(idx))
	for j, k := range idx {
		parts[j] = fields[k].Name + ": " + plan.FormatScalar(cols[j].T, cols[j].Get(i))
	}
	return strings.Join(parts, ", ")
}

// keyColumns reads the columns named cols of table.
func keyColumns(p *plan.Planner, ctx context.Context, table string, cols []string) (*Batch, error) {
	sel := &sqlparser.Select{From: sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(table)}}}}
	for _, name := range cols {
		sel.SelectExprs = append(sel.SelectExprs, &sqlparser.AliasedExpr{Expr: &sqlparser.ColName{Name: sqlparser.NewColIdent(name)}})
	}
	cp := p.Child(p.Src)
	defer cp.ReleaseAll()
	sp, err := cp.PlanSelect(sel, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the table's keys: %w", err)
	}
	traceRead(ctx, sp, "KEY CHECK reads "+table) // EXPLAIN ANALYZE (explain_dml.go)
	return sp.DrainAll(ctx)
}

// checkForeign enforces the FOREIGN KEYs on the rows data: each key
// without NULLs must be a key of the table it references (read through
// the planner). Deleting or changing the referenced rows is not checked.
func checkForeign(p *plan.Planner, ctx context.Context, con *constraints, fields []*schema.Field, data []*Col, n int) error {
	for _, fk := range con.foreign {
		cols := make([]*Col, len(fk.cols))
		for j, name := range fk.cols {
			for k, f := range fields {
				if f.Name == name {
					cols[j] = data[k]
				}
			}
			if cols[j] == nil {
				return errorf("the foreign key column %q is not in the table", name)
			}
		}
		refCols := fk.refCols
		if len(refCols) == 0 {
			ref, err := stmtOf(p).e.insertTarget(fk.table, nil)
			if err != nil {
				return errorf("the table %q the foreign key references: %v", fk.table, err)
			}
			refCols = constraintsOf(ref.opts).primary
			if len(refCols) != len(fk.cols) {
				return errorf("the table %q the foreign key references has no primary key of %d columns", fk.table, len(fk.cols))
			}
		}
		ref, err := keyColumns(p, ctx, fk.table, refCols)
		if err != nil {
			return err
		}
		var buf []byte
		encode := func(cs []*Col, i int) (string, bool) {
			buf = buf[:0]
			for j, c := range cs {
				if c.IsNull(i) {
					return "", false
				}
				v, err := plan.CastScalar(c.Get(i), c.T, cols[j].T)
				if err != nil {
					return "", false
				}
				buf = fmt.Appendf(buf, "%v\x00", v)
			}
			return string(buf), true
		}
		present := map[string]bool{}
		for i := 0; i < ref.N; i++ {
			if s, ok := encode(ref.Cols, i); ok {
				present[s] = true
			}
		}
		for i := 0; i < n; i++ {
			if s, ok := encode(cols, i); ok && !present[s] {
				// Named as DuckDB names it: by the referenced columns.
				parts := make([]string, len(cols))
				for j, c := range cols {
					parts[j] = refCols[j] + ": " + plan.FormatScalar(c.T, c.Get(i))
				}
				return errorf("violates foreign key constraint because key %q does not exist in the referenced table %s (row %d)", strings.Join(parts, ", "), fk.table, i+1)
			}
		}
	}
	return nil
}

// upsertSpec is ON CONFLICT [(cols)] DO UPDATE SET c = e, ... [WHERE
// cond]: the expressions' texts, excluded.x written as the column
// __excluded_x of the rows being merged.
type upsertSpec struct {
	target []string // the conflict target's columns, nil when not given
	cols   []string
	exprs  []string
	where  string
}

const excludedPrefix = "__excluded_"

// readUpsert reads the conflict target at toks[at] (after ON CONFLICT) and
// the SET list from toks[set] to the end.
func readUpsert(text string, toks []parse.Token, at, set int) (*upsertSpec, error) {
	up := &upsertSpec{}
	if toks[at].Kind == parse.Op && toks[at].Text == "(" {
		cols, _, err := columnList(text, toks, at)
		if err != nil {
			return nil, err
		}
		up.target = cols
	}
	// excluded.x is the column __excluded_x.
	var body []parse.Token
	for k := set; k < len(toks); k++ {
		if toks[k].Is("excluded") && k+2 < len(toks) && toks[k+1].Kind == parse.Op && toks[k+1].Text == "." {
			body = append(body, parse.Token{Kind: parse.DQuoted, Text: `"` + excludedPrefix + toks[k+2].Name() + `"`, Pos: toks[k].Pos})
			k += 2
			continue
		}
		body = append(body, toks[k])
	}
	end := len(body)
	for k, t := range body {
		if t.Is("where") && parenDepth(body[:k]) == 0 {
			up.where, end = tokensText(body[k+1:]), k
			break
		}
	}
	for _, item := range parse.SplitList(body[:end]) {
		if len(item) < 3 || item[1].Kind != parse.Op || item[1].Text != "=" {
			return nil, errAt(text, parse.TokPos(text, toks, set), "DO UPDATE SET takes column = value items")
		}
		up.cols = append(up.cols, item[0].Name())
		up.exprs = append(up.exprs, tokensText(item[2:]))
	}
	if len(up.cols) == 0 {
		return nil, errAt(text, parse.TokPos(text, toks, set), "DO UPDATE SET takes column = value items")
	}
	return up, nil
}

// parenDepth is the parenthesis depth after toks.
func parenDepth(toks []parse.Token) int {
	d := 0
	for _, t := range toks {
		if t.Kind == parse.Op && (t.Text == "(" || t.Text == "[") {
			d++
		} else if t.Kind == parse.Op && (t.Text == ")" || t.Text == "]") {
			d--
		}
	}
	return d
}

// tokensText writes tokens back as SQL text, a space between them.
func tokensText(toks []parse.Token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.Text
	}
	return strings.Join(parts, " ")
}

// conflictRewrite runs INSERT OR REPLACE and INSERT ... ON CONFLICT DO
// UPDATE of the rows data into the table of tgt, in one rewrite of its
// file (as DELETE, dml.go), which checks the constraints on the result: a
// table row whose key (of the conflict target, or the table's one key
// constraint) a new row has is replaced by it (OR REPLACE) or updated by
// up's SET list (DO UPDATE, where its WHERE holds); the other new rows
// are added.
func (s *Stmt) conflictRewrite(ctx context.Context, p *plan.Planner, tgt *target, name string, con *constraints, data []*Col, n int, up *upsertSpec) (Result, error) {
	if tgt.folder {
		return Result{}, unsupported("INSERT OR REPLACE or ON CONFLICT DO UPDATE into a table that is a folder of files")
	}
	var groups [][]string
	for _, g := range append([][]string{con.primary}, con.unique...) {
		if g != nil {
			groups = append(groups, g)
		}
	}
	if up != nil && up.target != nil {
		var match []string
		for _, g := range groups {
			if len(g) == len(up.target) {
				same := true
				for i := range g {
					same = same && strings.EqualFold(g[i], up.target[i])
				}
				if same {
					match = g
				}
			}
		}
		if match == nil {
			return Result{}, errorf("the ON CONFLICT target (%s) is not a PRIMARY KEY or UNIQUE constraint", strings.Join(up.target, ", "))
		}
		groups = [][]string{match}
	}
	if len(groups) != 1 {
		// Which key a row conflicts by would be ambiguous (as DuckDB says).
		return Result{}, errorf("the table has several UNIQUE/PRIMARY KEY constraints: name the conflict target, ON CONFLICT (columns)")
	}
	var idx []int
	for _, nm := range groups[0] {
		idx = append(idx, fieldIndex(tgt.fields, nm))
	}
	var buf []byte
	key := func(cols []*Col, i int) (string, bool) {
		buf = buf[:0]
		for _, k := range idx {
			if k < 0 || cols[k].IsNull(i) {
				return "", false
			}
			buf = vec.AppendKey(buf, cols[k], i)
		}
		return string(buf), true
	}
	incoming := map[string]int32{}
	for i := 0; i < n; i++ {
		if k, ok := key(data, i); ok {
			if _, twice := incoming[k]; twice {
				return Result{}, errorf("duplicate key %q in the rows inserted", keyText(tgt.fields, idx, data, i))
			}
			incoming[k] = int32(i)
		}
	}
	te := &sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(name)}}
	err := s.rewriteTable(ctx, p, tgt, te, sqlparser.SelectExprs{&sqlparser.StarExpr{}}, nil, func(b *Batch, _ []bool) ([]*Col, error) {
		old := make([]*Col, len(tgt.fields))
		for k, f := range tgt.fields {
			c, err := plan.CastCol(b.Cols[k], plan.TypeOfField(f))
			if err != nil {
				return nil, err
			}
			old[k] = c
		}
		var keep, hitOld, hitNew []int32
		used := make([]bool, n)
		for i := 0; i < b.N; i++ {
			if k, ok := key(old, i); ok {
				if j, found := incoming[k]; found {
					used[j] = true
					if up != nil {
						hitOld, hitNew = append(hitOld, int32(i)), append(hitNew, j)
					}
					continue
				}
			}
			keep = append(keep, int32(i))
		}
		var rest []int32 // the new rows added as they are
		for j := 0; j < n; j++ {
			if up == nil || !used[j] {
				rest = append(rest, int32(j))
			}
		}
		var updated []*Col
		var applied []bool
		if len(hitOld) > 0 {
			var err error
			if updated, applied, err = upsertRows(p, up, tgt.fields, old, hitOld, data, hitNew, name); err != nil {
				return nil, err
			}
		}
		if err := returnUpserted(ctx, data, used, updated, applied, hitNew); err != nil {
			return nil, err
		}
		out := make([]*Col, len(tgt.fields))
		for k := range tgt.fields {
			out[k] = old[k].Take(keep)
			if updated != nil {
				plan.AppendCol(out[k], updated[k])
			}
			plan.AppendCol(out[k], data[k].Take(rest))
		}
		return out, nil
	}, nil)
	if err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: int64(n)}, nil
}

// upsertRows computes the table rows oldRows of old updated by up's SET
// list, the rows newRows of data being their excluded rows, and which of
// them its WHERE let it update.
func upsertRows(p *plan.Planner, up *upsertSpec, fields []*schema.Field, old []*Col, oldRows []int32, data []*Col, newRows []int32, table string) ([]*Col, []bool, error) {
	m := len(fields)
	rel := &plan.Relation{Alias: table}
	batch := &Batch{N: len(oldRows)}
	for k, f := range fields {
		rel.Cols = append(rel.Cols, &plan.ScopeCol{Rel: rel, Name: f.Name, T: old[k].T, Slot: &plan.Slot{Idx: k}})
		batch.Cols = append(batch.Cols, old[k].Take(oldRows))
	}
	for k, f := range fields {
		rel.Cols = append(rel.Cols, &plan.ScopeCol{Rel: rel, Name: excludedPrefix + f.Name, T: data[k].T, Slot: &plan.Slot{Idx: m + k}})
		batch.Cols = append(batch.Cols, data[k].Take(newRows))
	}
	sc := &plan.Scope{Rels: []*plan.Relation{rel}}
	eval := func(text string, asBool bool) (*Col, error) {
		bound, err := bindStored(p, text, sc, asBool, "ON CONFLICT DO UPDATE")
		if err != nil {
			return nil, err
		}
		return bound.Eval(batch)
	}
	out := make([]*Col, m)
	copy(out, batch.Cols[:m])
	apply := make([]bool, batch.N)
	for i := range apply {
		apply[i] = true
	}
	if up.where != "" {
		c, err := eval(up.where, true)
		if err != nil {
			return nil, nil, err
		}
		for i := range apply {
			apply[i] = !c.IsNull(i) && c.B[i]
		}
	}
	for j, col := range up.cols {
		k := fieldIndex(fields, col)
		if k < 0 {
			return nil, nil, errorf("ON CONFLICT DO UPDATE SET: table %q has no column %q", table, col)
		}
		nv, err := eval(up.exprs[j], false)
		if err != nil {
			return nil, nil, err
		}
		if nv, err = plan.CastCol(nv, out[k].T); err != nil {
			return nil, nil, errorf("ON CONFLICT DO UPDATE SET %s: %v", col, err)
		}
		b := plan.NewBuilder(out[k].T, batch.N)
		for i := 0; i < batch.N; i++ {
			if apply[i] {
				b.Add(nv.Get(i))
			} else {
				b.Add(out[k].Get(i))
			}
		}
		out[k] = b.C
	}
	return out, apply, nil
}
