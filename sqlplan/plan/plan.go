package plan

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Arg is a statement argument: positional (Ordinal from 1) or named.
type Arg struct {
	Name    string
	Ordinal int
	Value   any
}

// Column describes a result column.
type Column struct {
	Name string
	Type Type
	// Nullable is false only for columns known never to be NULL.
	Nullable bool
}

// Planner turns one statement into executable nodes.
type Planner struct {
	// Cat is the engine as the statement sees it (plancatalog.go).
	Cat      Catalog
	Src      *Source
	Args     []Arg
	Ctx      context.Context
	acquired []*scan.Table
	depth    int
	Scans    []*kernels.Scan
	win      *winCtx // window functions of the SELECT being bound
	// OnLogical, when set (by tests), sees each SELECT's and UNION's
	// logical tree after binding ("bind") and after the rules
	// ("optimize").
	OnLogical func(stage string, q *LQuery)
	// fromRefs are the column names the SELECT whose FROM is being
	// planned refers to (nil: unknown), for pruneDerived.
	fromRefs *colRefs
	// Recursive CTEs: results computed, work tables of the rounds being
	// computed, and those being computed (recursive.go).
	recDone, recWork map[int]*recTable
	recActive        map[int]bool
	// binds counts the expressions bound, to check ctx every so many.
	binds int
	// shared holds the statement's derived tables computed once
	// (shared.go); child planners share it.
	shared *sharedDerived
	// restrict holds the restrictions of the grouped subquery this
	// planner runs (reduce.go).
	restrict map[*sqlparser.Select][]keyRestriction
	// Set are the settings the statement runs with, read once when it
	// starts (settings.go).
	Set Settings
	// OnlyPath, onlyFile and onlyRowGroups restrict this planner's scans
	// of the table at onlyPath to some row groups of one of its files (a
	// DELETE or UPDATE reads only those its WHERE may match; dml.go,
	// folderdml.go). Not passed to subqueries, which read the whole table.
	OnlyPath      string
	OnlyFile      int
	OnlyRowGroups []int
	// Files are tables the FROM of this planner's query names by marker
	// (a Delta data file read alone by DELETE or UPDATE: delta_dml.go);
	// child planners do not see them.
	Files map[string]*scan.Table
}

// ctxErr is the error of the statement's context once it is done: the
// planner checks it between query blocks and every 1024 expressions
// bound, so that a deadline stops the planning of a large statement.
func (p *Planner) ctxErr() error {
	if p.Ctx == nil {
		return nil
	}
	return p.Ctx.Err()
}

// Child is a planner for a part of the statement with a source of its
// own (a subquery, a CTE, a set operation's part): the same engine,
// arguments, context, transaction and locks.
func (p *Planner) Child(src *Source) *Planner {
	return &Planner{Cat: p.Cat, Src: src, Args: p.Args, Ctx: p.Ctx, shared: p.shared, Set: p.Set}
}

func (p *Planner) ReleaseAll() {
	for _, t := range p.acquired {
		p.Cat.ReleaseTable(t)
	}
	p.acquired = nil
}

// SelectPlan is a planned query.
type SelectPlan struct {
	Root Node
	Cols []Column
	// Tree is the logical tree root was lowered from (nil for plans
	// made otherwise), shown under the relations that read the plan.
	Tree LNode
}

// DrainAll runs the plan to the end into one batch of its columns' types,
// and closes it.
func (sp *SelectPlan) DrainAll(ctx context.Context) (*Batch, error) {
	defer sp.Root.Close()
	types := make([]Type, len(sp.Cols))
	for i, c := range sp.Cols {
		types[i] = c.Type
	}
	return Drain(ctx, sp.Root, types)
}

func (p *Planner) PlanSelect(stmt sqlparser.SelectStatement, outer *Scope) (*SelectPlan, error) {
	leave, err := p.enterQuery()
	defer leave()
	if err != nil {
		return nil, err
	}
	switch s := stmt.(type) {
	case *sqlparser.Select:
		return p.planCore(s, outer)
	case *sqlparser.ParenSelect:
		return p.PlanSelect(s.Select, outer)
	case *sqlparser.Union:
		return p.planUnion(s, outer)
	}
	return nil, unsupported(fmt.Sprintf("%T", stmt))
}

// enterQuery counts one more level of nested queries being planned (leave
// counts it back), refusing too deep a nesting or a canceled statement.
func (p *Planner) enterQuery() (leave func(), err error) {
	p.depth++
	leave = func() { p.depth-- }
	if p.depth > 32 {
		return leave, errorf("subqueries nested too deeply")
	}
	return leave, p.ctxErr()
}

// outputIndex matches an ORDER BY item with an output column: by
// position, or by name. -1 when it is neither.
func (p *Planner) outputIndex(e sqlparser.Expr, cols []Column, exprs []sqlparser.SelectExpr) (int, error) {
	if v, ok := e.(*sqlparser.SQLVal); ok && v.Type == sqlparser.IntVal {
		n, _ := strconv.Atoi(string(v.Val))
		if n < 1 || n > len(cols) {
			return -1, errorf("ORDER BY position %d is not in the select list (1..%d)", n, len(cols))
		}
		return n - 1, nil
	}
	if c, ok := e.(*sqlparser.ColName); ok && c.Qualifier.IsEmpty() {
		name := c.Name.String()
		found := -1
		for i, col := range cols {
			if col.Name == name || strings.EqualFold(col.Name, name) {
				if len(exprs) == len(cols) {
					// Only aliases (or plain columns) count as output names.
					if ae, ok := exprs[i].(*sqlparser.AliasedExpr); ok && ae.As.IsEmpty() {
						if _, isCol := ae.Expr.(*sqlparser.ColName); !isCol {
							continue
						}
					}
				}
				if found < 0 {
					found = i
				}
			}
		}
		return found, nil
	}
	return -1, nil
}

// limitValues evaluates a LIMIT clause: the rows to keep counting those
// skipped (-1: all), the rows to skip, and the share of LIMIT p% (a
// percentage; negative: none, and then the limit is -1).
func (p *Planner) limitValues(l *sqlparser.Limit) (int64, int64, float64, error) {
	if l == nil {
		return -1, 0, -1, nil
	}
	constant := func(e sqlparser.Expr) (*ConstExpr, error) {
		x, err := p.BindExpr(e, &Scope{}, nil)
		if err != nil {
			return nil, err
		}
		k, ok := IsConst(x)
		if !ok {
			return nil, errorf("LIMIT and OFFSET must be constants")
		}
		return k, nil
	}
	eval := func(e sqlparser.Expr) (int64, error) {
		if e == nil {
			return 0, nil
		}
		k, err := constant(e)
		if err != nil {
			return 0, err
		}
		if k.V == nil {
			return 0, errorf("LIMIT and OFFSET must be constants")
		}
		v, err := CastScalar(k.V, k.T, TInt)
		if err != nil {
			return 0, AsError(err)
		}
		n := v.(int64)
		if n < 0 {
			return 0, errorf("LIMIT and OFFSET must not be negative")
		}
		return n, nil
	}
	off, err := eval(l.Offset)
	if err != nil {
		return 0, 0, -1, err
	}
	if l.Rowcount == nil {
		return -1, off, -1, nil
	}
	if f, ok := l.Rowcount.(*sqlparser.FuncExpr); ok && f.Name.EqualString(parse.LimitPercentMarker) && len(f.Exprs) == 1 {
		pct, err := p.limitPercent(f.Exprs[0], constant)
		return -1, off, pct, err
	}
	n, err := eval(l.Rowcount)
	if err != nil {
		return 0, 0, -1, err
	}
	return n + off, off, -1, nil
}

// limitPercent evaluates the share of LIMIT p%: NULL keeps every row, as
// in DuckDB, and a share outside 0..100 is an error.
func (p *Planner) limitPercent(arg sqlparser.SelectExpr, constant func(sqlparser.Expr) (*ConstExpr, error)) (float64, error) {
	ae, ok := arg.(*sqlparser.AliasedExpr)
	if !ok {
		return -1, errorf("LIMIT %% takes a number")
	}
	k, err := constant(ae.Expr)
	if err != nil {
		return -1, err
	}
	if k.V == nil {
		return 100, nil
	}
	v, err := CastScalar(k.V, k.T, tFloat)
	if err != nil {
		return -1, AsError(err)
	}
	pct := v.(float64)
	if !(pct >= 0 && pct <= 100) {
		return -1, errorf("Limit percent out of range, should be between 0%% and 100%%")
	}
	return pct, nil
}

// joinStep is one relation of a FROM clause and how it joins the ones
// before it.
type joinStep struct {
	rel  *Relation
	left bool // LEFT JOIN (or FULL): keeps the rows before it that found no partner
	// full: FULL OUTER JOIN, or a RIGHT JOIN after other joins (full
	// without left): keeps the rows of rel that found no partner, and the
	// relations before it are null-extended.
	full  bool
	on    sqlparser.Expr
	using []string
	// swapped marks the left table of a RIGHT JOIN, planned after the
	// right one (a RIGHT JOIN b is b LEFT JOIN a).
	swapped bool
	// asof: ASOF JOIN (on holds its condition); positional: POSITIONAL
	// JOIN (asof.go).
	asof, positional bool
	// item is the position in the FROM list of the item the relation
	// belongs to, which SELECT * follows when the items are planned in
	// another order (see fromClause).
	item int
}

func (p *Planner) fromClause(from sqlparser.TableExprs, outer *Scope) ([]joinStep, error) {
	var steps []joinStep
	for k, te := range from {
		s, err := p.tableExpr(te, outer, steps)
		if err != nil {
			return nil, err
		}
		for i := range s {
			s[i].item = k
		}
		if k > 0 && slices.ContainsFunc(s, func(st joinStep) bool { return st.full }) {
			// A comma binds looser than JOIN: a, b FULL JOIN c is a times
			// (b FULL JOIN c), whose unmatched rows of c meet every row of
			// a. Planned in a line, the FULL JOIN would null-extend a too;
			// so the item goes first and the items before it are cross
			// joined to it (the same rows, in another order).
			if slices.ContainsFunc(steps, func(st joinStep) bool { return st.full || len(st.using) > 0 }) {
				return nil, unsupported("a FULL or RIGHT JOIN in a FROM list after an item holding a FULL JOIN or a JOIN ... USING (write the items as derived tables)")
			}
			steps = append(s, steps...)
			continue
		}
		steps = append(steps, s...)
	}
	return steps, nil
}

// tableExpr plans a FROM item; before are the steps of the items before
// it, which a derived table may name (a lateral one).
func (p *Planner) tableExpr(te sqlparser.TableExpr, outer *Scope, before []joinStep) ([]joinStep, error) {
	switch x := te.(type) {
	case *sqlparser.AliasedTableExpr:
		rel, err := p.relationOf(x, outer)
		if sub, ok := x.Expr.(*sqlparser.Subquery); ok && err != nil && len(before) > 0 {
			if lat, latErr := p.lateralRelation(sub, x.As.String(), before, outer); latErr == nil {
				rel, err = lat, nil
			}
		}
		if err != nil {
			return nil, err
		}
		if rel == nil {
			return nil, nil // DUAL
		}
		return []joinStep{{rel: rel}}, nil
	case *sqlparser.ParenTableExpr:
		var steps []joinStep
		for _, t := range x.Exprs {
			s, err := p.tableExpr(t, outer, append(before[:len(before):len(before)], steps...))
			if err != nil {
				return nil, err
			}
			steps = append(steps, s...)
		}
		return steps, nil
	case *sqlparser.JoinTableExpr:
		left, err := p.tableExpr(x.LeftExpr, outer, before)
		if err != nil {
			return nil, err
		}
		right, err := p.tableExpr(x.RightExpr, outer, append(before[:len(before):len(before)], left...))
		if err != nil {
			return nil, err
		}
		if len(right) != 1 {
			return nil, unsupported("a parenthesized join on the right of a JOIN")
		}
		step := right[0]
		// NATURAL joins are joins USING the columns both sides have.
		if base, ok := map[string]string{sqlparser.NaturalJoinStr: sqlparser.JoinStr, sqlparser.NaturalLeftJoinStr: sqlparser.LeftJoinStr,
			sqlparser.NaturalRightJoinStr: sqlparser.RightJoinStr}[x.Join]; ok {
			x.Join = base
			x.Condition = sqlparser.JoinCondition{}
			for _, lc := range naturalColumns(left, step.rel) {
				x.Condition.Using = append(x.Condition.Using, sqlparser.NewColIdent(lc))
			}
			if len(x.Condition.Using) == 0 {
				return nil, errorf("no columns to join on in NATURAL JOIN %s (use CROSS JOIN for a cross product)", step.rel.Alias)
			}
		}
		switch x.Join {
		case sqlparser.JoinStr:
		case sqlparser.StraightJoinStr: // FULL [OUTER] JOIN (see rewrite)
			step.left, step.full = true, true
		case sqlparser.LeftJoinStr:
			step.left = true
		case sqlparser.RightJoinStr:
			if len(left) == 1 {
				// a RIGHT JOIN b is b LEFT JOIN a.
				l := left[0]
				step.left = false
				l.left, l.swapped = true, true
				l.on, l.using = x.Condition.On, identNames(x.Condition.Using)
				return []joinStep{step, l}, nil
			}
			step.full = true
		default:
			return nil, unsupported(strings.ToUpper(x.Join))
		}
		step.on = x.Condition.On
		step.using = identNames(x.Condition.Using)
		asofKind := func(name, marker string) bool {
			switch name {
			case marker:
			case strings.TrimSuffix(marker, "__") + "_right__":
				step.full = true // ASOF RIGHT JOIN
			case strings.TrimSuffix(marker, "__") + "_full__":
				step.left, step.full = true, true
			default:
				return false
			}
			step.asof = true
			return true
		}
		if f, ok := step.on.(*sqlparser.FuncExpr); ok && (asofKind(f.Name.Lowered(), asofMarker) || f.Name.Lowered() == positionalMarker) {
			// ASOF JOIN ... ON, POSITIONAL JOIN (see asofJoins)
			step.on = nil
			if f.Name.Lowered() == positionalMarker {
				step.positional = true
			} else if ae, ok := oneArg(f); ok {
				step.on = ae
			} else {
				return nil, errorf("ASOF JOIN takes one ON condition")
			}
		}
		if f, ok := step.on.(*sqlparser.FuncExpr); ok && f.Name.Lowered() == parse.NaturalMarker {
			// NATURAL FULL JOIN (see rewrite)
			step.on, step.using = nil, naturalColumns(left, step.rel)
			if len(step.using) == 0 {
				return nil, errorf("no columns to join on in NATURAL JOIN %s (use CROSS JOIN for a cross product)", step.rel.Alias)
			}
		}
		if f, ok := step.on.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == parse.UsingMarker || asofKind(f.Name.Lowered(), asofUsingMarker)) {
			// FULL JOIN ... USING (see rewrite)
			step.on, step.using = nil, nil
			for _, a := range f.Exprs {
				var c *sqlparser.ColName
				if ae, ok := a.(*sqlparser.AliasedExpr); ok {
					c, _ = ae.Expr.(*sqlparser.ColName)
				}
				if c == nil || !c.Qualifier.IsEmpty() {
					return nil, errorf("USING takes column names")
				}
				step.using = append(step.using, c.Name.String())
			}
		}
		return append(left, step), nil
	}
	return nil, unsupported(fmt.Sprintf("the FROM item %s", sqlparser.String(te)))
}

// naturalColumns lists the top-level columns of right that a relation of
// left also has (any case), in right's order.
func naturalColumns(left []joinStep, right *Relation) []string {
	var out []string
	for _, rc := range right.Cols {
		if strings.Contains(rc.Name, ".") && right.table != nil {
			continue
		}
		found := false
		for _, st := range left {
			for _, lc := range st.rel.Cols {
				found = found || strings.EqualFold(lc.Name, rc.Name) && !(strings.Contains(lc.Name, ".") && st.rel.table != nil)
			}
		}
		if found {
			out = append(out, rc.Name)
		}
	}
	return out
}

// oneArg is the one argument of a marker call.
func oneArg(f *sqlparser.FuncExpr) (sqlparser.Expr, bool) {
	if len(f.Exprs) != 1 {
		return nil, false
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, false
	}
	return ae.Expr, true
}

func identNames(cols sqlparser.Columns) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.String())
	}
	return out
}

// relationOf opens a table or plans a derived table.
func (p *Planner) relationOf(x *sqlparser.AliasedTableExpr, outer *Scope) (*Relation, error) {
	alias := x.As.String()
	switch t := x.Expr.(type) {
	case sqlparser.TableName:
		name := t.Name.String()
		if q := t.Qualifier.String(); q != "" {
			name = q + "." + name
		}
		if strings.EqualFold(name, "dual") && alias == "" {
			return nil, nil
		}
		if strings.HasPrefix(name, parse.SeriesMarker+":") {
			return seriesRelation(name, alias)
		}
		if strings.HasPrefix(name, recMarker+":") || strings.HasPrefix(name, workMarker+":") {
			return p.markerRelation(name, alias)
		}
		if strings.HasPrefix(name, parse.SetOpMarker+":") {
			return p.setOpRelation(name, alias)
		}
		if rel, ok, err := p.Cat.Relation(p, name, alias); ok {
			return rel, err
		}
		tbl, path := p.Files[name], ""
		if tbl != nil {
			path = tbl.Path
		} else {
			var err error
			if tbl, path, err = p.Cat.OpenTable(name); err != nil {
				return nil, p.Src.Locate(AsError(err), t.Name.String())
			}
			p.acquired = append(p.acquired, tbl)
		}
		if alias == "" {
			alias = name
			if parse.IsPathName(name) {
				alias = tbl.Name
			} else if t.Qualifier.String() != "" {
				alias = t.Name.String() // db.t goes by t, as in DuckDB
			}
		}
		rel := &Relation{Alias: alias, table: tbl, path: path}
		for _, c := range tbl.Columns {
			var typ Type
			if c.Partition && c.Field == nil {
				typ = Type{Kind: KString}
				if c.PartitionType == scan.PartitionInt64 {
					typ = Type{Kind: KInt}
				}
			} else {
				typ = TypeOfField(c.Field)
				if parse.IsPathName(name) {
					// A file read by its path has its Parquet types, as
					// DuckDB reads it: the column-types entry names the
					// types of a table.
					typ.Coarse, typ.Bit = 0, false
				}
			}
			rel.Cols = append(rel.Cols, &ScopeCol{Rel: rel, Name: c.Name, T: typ, Slot: &Slot{}})
		}
		return rel, nil
	case *sqlparser.Subquery:
		if alias == "" {
			alias = "subquery"
		}
		if rel, ok, err := p.sharedRelation(t, alias); ok || err != nil {
			return rel, err
		}
		pruneDerived(t.Select, p.fromRefs)
		// A derived table does not see the other FROM items, but inside a
		// subquery it sees the enclosing queries (a correlation). It
		// stays logical for its parent's rules (select_derived.go).
		q, err := p.bindQuery(t.Select, outer)
		if err != nil {
			return nil, err
		}
		return DerivedRelation(alias, q.cols, &Relation{Sub: &SelectPlan{Cols: q.cols, Tree: q.Root}, lq: q})
	}
	return nil, unsupported("the table expression " + sqlparser.String(x))
}

// DerivedRelation completes rel, a derived table of columns cols, under
// alias; an alias carrying a column list (a CTE's, or t(a, b)) renames the
// columns.
func DerivedRelation(alias string, cols []Column, rel *Relation) (*Relation, error) {
	if names, ok := strings.CutPrefix(alias, parse.ColsMarker+"\x1f"); ok {
		list := strings.Split(names, "\x1f")
		if len(list) > len(cols) {
			return nil, errorf("the column list names %d columns, the query returns %d", len(list), len(cols))
		}
		for i, n := range list {
			cols[i].Name = n
		}
		alias = "subquery"
	}
	rel.Alias = alias
	for i, c := range cols {
		rel.Cols = append(rel.Cols, &ScopeCol{Rel: rel, Name: c.Name, T: c.Type, Slot: &Slot{}, Local: i})
	}
	return rel, nil
}

func isSQLVal(e sqlparser.Expr) bool { _, ok := e.(*sqlparser.SQLVal); return ok }

// setOpRelation plans a parenthesized query with INTERSECT or EXCEPT
// (extractSetOps) as a statement of its own.
func (p *Planner) setOpRelation(name, alias string) (*Relation, error) {
	_, num, _ := strings.Cut(name, ":")
	idx, err := strconv.Atoi(num)
	if err != nil || p.Src == nil || idx < 0 || idx >= len(p.Src.SetOps) {
		return nil, errorf("internal error: unknown table %s", name)
	}
	st, err := p.Cat.PrepareQuery(p.Ctx, p.Src.Orig, p.Src.SetOps[idx])
	if err != nil {
		return nil, err
	}
	st.SetRecursive(p.Src.recs)
	if alias == "" {
		alias = "subquery"
	}
	// Its own planner: its markers are numbered in its own source.
	pp := p.Child(st.Src)
	if st.SetOp && len(st.Trailer) == 0 {
		// Kept logical, as a derived UNION, for its parent's rules.
		q, err := st.bindSetOp(pp)
		p.adopt(pp)
		if err != nil {
			return nil, err
		}
		return DerivedRelation(alias, q.cols, &Relation{Sub: &SelectPlan{Cols: q.cols, Tree: q.Root}, lq: q})
	}
	sp, err := st.Plan(pp)
	p.adopt(pp)
	if err != nil {
		return nil, err
	}
	return DerivedRelation(alias, sp.Cols, &Relation{Sub: sp})
}

// conjuncts splits an expression at its top-level ANDs.
func conjuncts(e Expr) []Expr {
	if a, ok := e.(*AndExpr); ok {
		var out []Expr
		for _, t := range a.Terms {
			out = append(out, conjuncts(t)...)
		}
		return out
	}
	if k, ok := IsConst(e); ok && k.V == true {
		return nil
	}
	return []Expr{e}
}

// children lists an expression's inputs.
func children(e Expr) []Expr {
	switch x := e.(type) {
	case *cmpExpr:
		return []Expr{x.l, x.r}
	case *AndExpr:
		return x.Terms
	case *orExpr:
		return x.terms
	case *notExpr:
		return []Expr{x.e}
	case *isNullExpr:
		return []Expr{x.e}
	case *isBoolExpr:
		return []Expr{x.e}
	case *inExpr:
		return []Expr{x.e}
	case *likeExpr:
		return []Expr{x.e, x.pat}
	case *caseExpr:
		out := append(append([]Expr(nil), x.conds...), x.vals...)
		if x.els != nil {
			out = append(out, x.els)
		}
		return out
	case *castExpr:
		return []Expr{x.e}
	case *arithExpr:
		return []Expr{x.l, x.r}
	case *negExpr:
		return []Expr{x.e}
	case *tryExpr:
		return []Expr{x.e}
	case *funcExpr:
		return x.args
	case *unnestItem:
		return []Expr{x.list}
	case *lambdaExpr:
		return append([]Expr{x.list}, x.outer...) // and the body's parameters
	case *corrExpr:
		if x.left != nil {
			return append([]Expr{x.left}, x.outer...)
		}
		return x.outer
	}
	return nil
}

// columnsOf collects the table columns an expression reads.
func columnsOf(e Expr, out map[*ScopeCol]bool) {
	if c, ok := e.(*ColExpr); ok && c.col != nil {
		out[c.col] = true
		return
	}
	for _, ch := range children(e) {
		columnsOf(ch, out)
	}
}

func relsOf(e Expr) map[*Relation]bool {
	cols := map[*ScopeCol]bool{}
	columnsOf(e, cols)
	out := map[*Relation]bool{}
	for c := range cols {
		out[c.Rel] = true
	}
	return out
}

// toPredicate converts a bound filter to a scan predicate when the scan
// can evaluate it exactly.
func toPredicate(e Expr) (scan.Predicate, bool) {
	switch x := e.(type) {
	case *cmpExpr:
		c, ok := pushableCol(x.l)
		k, kok := IsConst(x.r)
		if !ok || !kok || k.V == nil || x.op == opNullSafeEq {
			return nil, false
		}
		if (c.T.Bit || c.T.Kind == KEnum) && x.op != opEq && x.op != opNe {
			// The scan orders text bytewise, not as DuckDB orders bit
			// strings (vec.CompareBits) or an ENUM's values in their
			// declared order; the engine compares them.
			return nil, false
		}
		v, ok := scanValue(c.T, k.V)
		if !ok {
			return nil, false
		}
		ops := [...]scan.Op{scan.Eq, scan.Ne, scan.Lt, scan.Le, scan.Gt, scan.Ge}
		return scan.Compare{Column: c.Name, Op: ops[x.op], Value: v}, true
	case *inExpr:
		c, ok := pushableCol(x.e)
		if !ok || x.hasNull {
			return nil, false
		}
		if x.vals == nil && x.ints != nil {
			// A set of integers without listed values (inIntSet).
			if c.T.Kind != KInt {
				return nil, false
			}
			return scan.In{Column: c.Name, Ints: x.ints, Not: x.not}, true
		}
		var vals []any
		for _, v := range x.vals {
			sv, ok := scanValue(c.T, v)
			if !ok {
				return nil, false
			}
			vals = append(vals, sv)
		}
		return scan.In{Column: c.Name, Values: vals, Not: x.not}, true
	case *isNullExpr:
		c, ok := pushableCol(x.e)
		if !ok {
			return nil, false
		}
		return scan.IsNull{Column: c.Name, Not: x.not}, true
	case *likeExpr:
		c, ok := pushableCol(x.e)
		if !ok || x.m == nil || x.fold || c.T.Op() != KString {
			return nil, false
		}
		var p scan.Predicate
		if lit, ok := x.m.Exact(); ok {
			p = scan.Compare{Column: c.Name, Op: scan.Eq, Value: lit}
		} else if lit, ok := x.m.Prefix(); ok {
			p = scan.Prefix{Column: c.Name, Prefix: lit}
		} else {
			return nil, false
		}
		if x.not {
			p = scan.Not{Term: p}
		}
		return p, true
	case *AndExpr:
		var terms []scan.Predicate
		for _, t := range x.Terms {
			p, ok := toPredicate(t)
			if !ok {
				return nil, false
			}
			terms = append(terms, p)
		}
		return scan.And{Terms: terms}, true
	case *orExpr:
		var terms []scan.Predicate
		for _, t := range x.terms {
			p, ok := toPredicate(t)
			if !ok {
				return nil, false
			}
			terms = append(terms, p)
		}
		return scan.Or{Terms: terms}, true
	case *notExpr:
		p, ok := toPredicate(x.e)
		if !ok {
			return nil, false
		}
		return scan.Not{Term: p}, true
	}
	return nil, false
}

// pushableCol returns the table column an expression is, if it is one the
// scan can filter on (a top-level primitive or partition column).
func pushableCol(e Expr) (*ScopeCol, bool) {
	c, ok := e.(*ColExpr)
	if !ok || c.col == nil || c.col.Rel.table == nil || strings.Contains(c.col.Name, ".") {
		return nil, false
	}
	t := c.col.T
	if t.Kind == KNested || t.Kind == KInterval {
		return nil, false
	}
	if t.Field != nil && t.Field.Kind != schema.Primitive {
		return nil, false
	}
	return c.col, true
}

// scanValue converts a scalar of a column's type to the Go constant the
// scan compares with.
func scanValue(t Type, v any) (any, bool) {
	switch t.Kind {
	case KInt:
		x, ok := v.(int64)
		return x, ok
	case KUint:
		switch x := v.(type) {
		case uint64:
			return x, true
		case int64:
			return x, true
		}
	case KFloat:
		x, ok := v.(float64)
		return x, ok
	case KBool:
		x, ok := v.(bool)
		return x, ok
	case KString, KUUID:
		x, ok := v.(string)
		return x, ok
	case KBytes:
		x, ok := v.([]byte)
		return x, ok
	case KEnum:
		x, ok := v.(int64) // the file holds the value's text
		if !ok || x < 0 || int(x) >= len(t.Enum.Values) {
			return nil, false
		}
		return t.Enum.Values[x], true
	case KDate:
		return daysToTime(v.(int64)), true
	case KTimestamp:
		if t.Field != nil && t.Field.Node.Physical == format.Int96 { // compared by value only
			return nil, false
		}
		return stampToTime(t, v.(int64)), true
	case KTime:
		return nil, false
	case KDecimal:
		if t.Field != nil && t.Field.Node.Physical != format.Int32 && t.Field.Node.Physical != format.Int64 {
			return nil, false // byte-array decimals: no fast comparison in the scan
		}
		switch x := v.(type) {
		case int64:
			return value.DecimalFromInt64(x, int32(t.Scale)), true
		case value.Decimal:
			return x, true
		}
	}
	return nil, false
}

// colRefs are the column names a SELECT refers to (its expressions, their
// subqueries and its join conditions, not its derived tables' bodies), and
// whether its select list has a *.
type colRefs struct {
	names map[string]bool
	star  bool
}

func refsOf(sel *sqlparser.Select) *colRefs {
	r := &colRefs{names: map[string]bool{}}
	visit := func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.ColName:
			r.names[x.Name.Lowered()] = true
		case sqlparser.JoinCondition:
			for _, c := range x.Using {
				r.names[c.Lowered()] = true
			}
		case *sqlparser.JoinTableExpr:
			switch x.Join {
			case sqlparser.NaturalJoinStr, sqlparser.NaturalLeftJoinStr, sqlparser.NaturalRightJoinStr:
				r.star = true // the columns it joins on depend on every name
			}
		case *sqlparser.AliasedTableExpr:
			return false, nil // a table or a derived table: its own names
		}
		return true, nil
	}
	for _, se := range sel.SelectExprs {
		if _, ok := se.(*sqlparser.StarExpr); ok {
			r.star = true
		}
	}
	sqlparser.Walk(visit, sel.SelectExprs, sel.From, sel.Where, sel.GroupBy, sel.Having, sel.OrderBy)
	return r
}

// pruneDerived drops from a derived table's select list the items its
// outer query never names (refs), so that they are neither computed nor
// able to fail, as in DuckDB. It leaves alone the cases where the items
// matter beyond their values: a * anywhere outside, DISTINCT, set
// operations, GROUP BY by position or ALL, HAVING, ORDER BY by position,
// and select items that are not plain expressions; items named by the
// derived table's own ORDER BY are kept, and so is the first item if no
// other is (the rows must still be there).
func pruneDerived(stmt sqlparser.SelectStatement, refs *colRefs) {
	sel, ok := stmt.(*sqlparser.Select)
	if !ok || refs == nil || refs.star || sel.Distinct != "" || sel.Having != nil {
		return
	}
	for _, g := range sel.GroupBy {
		if _, num := g.(*sqlparser.SQLVal); num || isMarker(g, parse.ByAllMarker) {
			return
		}
	}
	keep := map[string]bool{}
	for n := range refs.names {
		keep[n] = true
	}
	for _, o := range sel.OrderBy {
		if item, _ := orderItem(o); isSQLVal(item) {
			return
		}
	}
	// Items the derived table's own GROUP BY and ORDER BY name by alias.
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if c, ok := n.(*sqlparser.ColName); ok {
			keep[c.Name.Lowered()] = true
		}
		return true, nil
	}, sel.GroupBy, sel.OrderBy)
	var kept sqlparser.SelectExprs
	for _, se := range sel.SelectExprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			return // a * inside: its columns are not named here
		}
		if starMarker(ae) != nil {
			return
		}
		if keep[strings.ToLower(itemName(ae))] {
			kept = append(kept, se)
		}
	}
	if len(kept) == len(sel.SelectExprs) {
		return
	}
	if len(kept) == 0 {
		kept = sel.SelectExprs[:1]
	}
	if len(sel.GroupBy) == 0 && ContainsAggregate(sel.SelectExprs) && !ContainsAggregate(kept) {
		// Still one row: an aggregate that cannot fail keeps it one.
		kept = append(kept, &sqlparser.AliasedExpr{As: sqlparser.NewColIdent("__carquet_rows__"),
			Expr: &sqlparser.FuncExpr{Name: sqlparser.NewColIdent("count"), Exprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}}})
	}
	sel.SelectExprs = kept
}
