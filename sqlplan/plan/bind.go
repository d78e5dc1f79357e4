package plan

import (
	"errors"
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/function"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// ScopeCol is a column a query can name.
type ScopeCol struct {
	Rel  *Relation
	Name string // column name (a dotted path for struct fields)
	T    Type
	Slot *Slot
	// Local is the column's index within its relation's output.
	Local int
	used  bool
	// corr, for a column of an enclosing query that a correlated subquery
	// names, is the subquery's frame (the column binds to a constant) and
	// corrIdx the column's place in it.
	corr    *corrFrame
	corrIdx int
	// coalesce, under FULL JOIN ... USING, is the other side's column of a
	// USING column: named without a table, the column is COALESCE of both.
	coalesce *ScopeCol
}

// Relation is one FROM item: a table scan or a derived table.
type Relation struct {
	Alias string
	table *scan.Table
	path  string
	// Cols are the columns a query may name (a table's top-level columns,
	// plus struct fields as they get named).
	Cols []*ScopeCol
	// used lists, for a table, the scanned columns in output order.
	used   []*ScopeCol
	offset int // position of the relation's first column in joined batches
	Sub    *SelectPlan
	// lq is a derived table's bound query until its parent lowers it
	// (select_derived.go); sub.root is nil until then.
	lq *LQuery
	// lateral: a derived table that names the FROM items before it, run
	// per row of those (lateral.go).
	lateral *lateralSpec
	// pushed are the conjuncts handed to the scan.
	pushed []scan.Predicate
	// residual conjuncts evaluated on the relation's own batches
	// (they only name this relation's columns).
	residual []Expr
	// nullExtended: the relation is on a side of an outer join that may
	// be filled with NULLs, so none of its columns is NOT NULL.
	nullExtended bool
	// pinned: the relation's rows must reach its join unfiltered (the
	// right side of an ASOF join, both sides of a POSITIONAL one): no
	// WHERE conjunct is pushed below the join.
	pinned bool
}

// outputTypes are the types of the relation's columns in joined batches.
func (r *Relation) outputTypes() []Type {
	cols := r.outputCols()
	types := make([]Type, len(cols))
	for i, c := range cols {
		types[i] = c.T
	}
	return types
}

// outputCols are the relation's columns in its batches, in order.
func (r *Relation) outputCols() []*ScopeCol {
	if r.derived() {
		return r.Cols
	}
	return r.used
}

func (r *Relation) width() int {
	if r.derived() {
		return len(r.Cols)
	}
	return len(r.used)
}

// derived tells a derived table (its columns are its query's, all in the
// batches) from a table (only the columns read are).
func (r *Relation) derived() bool { return r.Sub != nil || r.lateral != nil }

// use marks a column read and returns its slot.
func (r *Relation) use(c *ScopeCol) *Slot {
	if !c.used {
		c.used = true
		if !r.derived() {
			c.Local = len(r.used)
			r.used = append(r.used, c)
		}
	}
	return c.Slot
}

// Scope is the set of relations an expression may name, with the scope
// of an enclosing query for error messages about correlation.
type Scope struct {
	Rels  []*Relation
	outer *Scope
	// lambda marks a lambda body's scope: names that are not its
	// parameters are the enclosing query's columns (lambda.go).
	lambda bool
	// JOIN ... USING: a USING column is one column. merged names, per
	// relation, the columns USING merged into a column of an earlier
	// relation (an unqualified name resolves to that one); SELECT * hides
	// the columns in hidden and shows, at the place of a key in shown, the
	// column it maps to (the preserved side's, under a RIGHT JOIN). from
	// lists the relations in FROM order for SELECT * (a RIGHT JOIN is
	// planned with its sides swapped).
	Merged map[*Relation]map[string]bool
	hidden map[*ScopeCol]bool
	shown  map[*ScopeCol]*ScopeCol
	from   []*Relation
	// corr makes this a correlation scope (no relations of its own): the
	// names that reach it from a correlated subquery are resolved in outer
	// and captured in corr.
	corr *corrFrame
}

// newScope is the scope of a FROM clause's join steps.
func newScope(steps []joinStep, outer *Scope) *Scope {
	sc := &Scope{outer: outer, Merged: map[*Relation]map[string]bool{}, hidden: map[*ScopeCol]bool{}, shown: map[*ScopeCol]*ScopeCol{}}
	for i, st := range steps {
		sc.Rels = append(sc.Rels, st.rel)
		sc.from = append(sc.from, st.rel)
		if st.left {
			st.rel.nullExtended = true
		}
		if st.full {
			for _, r := range sc.Rels[:i] {
				r.nullExtended = true
			}
		}
		if st.swapped && i > 0 {
			sc.from[i-1], sc.from[i] = sc.from[i], sc.from[i-1]
		}
		for _, u := range st.using {
			own := findCol(st.rel, u)
			var partner *ScopeCol
			for _, r := range sc.Rels[:i] {
				if partner = findCol(r, u); partner != nil {
					break
				}
			}
			if own == nil || partner == nil {
				continue // the join reports it
			}
			if sc.Merged[st.rel] == nil {
				sc.Merged[st.rel] = map[string]bool{}
			}
			sc.Merged[st.rel][strings.ToLower(u)] = true
			switch {
			case st.swapped:
				sc.shown[own], sc.hidden[partner] = partner, true
			default:
				sc.hidden[own] = true
			}
			if st.full {
				partner.coalesce = own
			}
		}
	}
	if !slices.IsSortedFunc(steps, func(a, b joinStep) int { return a.item - b.item }) {
		// FROM items planned out of order (fromClause): SELECT * lists
		// them as written.
		item := map[*Relation]int{}
		for _, st := range steps {
			item[st.rel] = st.item
		}
		slices.SortStableFunc(sc.from, func(a, b *Relation) int { return item[a] - item[b] })
	}
	return sc
}

func (s *Scope) allNames() []string {
	var out []string
	for _, r := range s.Rels {
		for _, c := range r.Cols {
			out = append(out, c.Name)
		}
	}
	return out
}

func (s *Scope) relByName(name string) *Relation {
	for _, r := range s.Rels {
		if strings.EqualFold(r.Alias, name) {
			return r
		}
	}
	return nil
}

func findCol(r *Relation, name string) *ScopeCol {
	for _, c := range r.Cols {
		if c.Name == name {
			return c
		}
	}
	for _, c := range r.Cols {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// usingCoalesce is a USING column of a FULL JOIN named without a table:
// COALESCE of both sides' columns (named name).
func (p *Planner) usingCoalesce(c *ScopeCol, name string) (Expr, error) {
	e, err := p.bindFunc("coalesce", []Expr{&ColExpr{S: c.Slot, T: c.T, col: c}, &ColExpr{S: c.coalesce.Slot, T: c.coalesce.T, col: c.coalesce}})
	if err != nil {
		return nil, err
	}
	return withText(e, name), nil
}

// nested finds (adding if needed) the struct field at path below a
// top-level column of r.
func nestedCol(r *Relation, top *ScopeCol, path []string) (*ScopeCol, error) {
	if computedStruct(r, top) {
		return nil, &fieldPathError{col: top, path: path}
	}
	f := top.T.Field
	name := top.Name
	for _, p := range path {
		if f == nil || f.Kind != schema.Struct {
			return nil, errorf("%s is not a struct: cannot access field %q", name, p)
		}
		var next *schema.Field
		var names []string
		for _, c := range f.Children {
			names = append(names, c.Name)
			if strings.EqualFold(c.Name, p) {
				next = c
			}
		}
		if next == nil {
			if members, ok := unionMembers(Type{Kind: KNested, Field: f}); ok {
				return nil, unionKeyError(p, members) // unionfuncs.go
			}
			e := errorf("struct %s has no field %q%s", name, p, suggest(p, names))
			e.Err = ErrNoColumn
			return nil, e
		}
		f = next
		name += "." + next.Name
	}
	if r.derived() {
		return nil, unsupported("struct field access on a derived table")
	}
	if c := findCol(r, name); c != nil {
		return c, nil
	}
	c := &ScopeCol{Rel: r, Name: name, T: TypeOfField(f), Slot: &Slot{}}
	r.Cols = append(r.Cols, c)
	return c, nil
}

// resolve finds the column a ColName names.
func (p *Planner) resolve(sc *Scope, n *sqlparser.ColName) (*ScopeCol, error) {
	var parts []string
	if q := n.Qualifier.Qualifier.String(); q != "" {
		parts = append(parts, q)
	}
	if q := n.Qualifier.Name.String(); q != "" {
		parts = append(parts, q)
	}
	parts = append(parts, n.Name.String())
	full := strings.Join(parts, ".")
	// table.column[.field...]
	if len(parts) >= 2 {
		if r := sc.relByName(parts[0]); r != nil {
			c := findCol(r, parts[1])
			if c == nil {
				e := errorf("table %q has no column %q%s", r.Alias, parts[1], suggest(parts[1], colNames(r)))
				e.Err = ErrNoColumn
				return nil, p.Src.Locate(e, parts[1])
			}
			if len(parts) > 2 {
				return nestedCol(r, c, parts[2:])
			}
			return c, nil
		}
	}
	// column[.field...]
	var found *ScopeCol
	for _, r := range sc.Rels {
		if c := findCol(r, parts[0]); c != nil {
			if found != nil && found.Rel != r {
				if sc.Merged[r][strings.ToLower(parts[0])] {
					continue // a USING column: the earlier (preserved) side's
				}
				return nil, p.Src.Locate(errorf("column %q is ambiguous (in %q and %q)", parts[0], found.Rel.Alias, r.Alias), parts[0])
			}
			found = c
		}
	}
	if found == nil {
		if sc.lambda && sc.outer != nil {
			return p.resolve(sc.outer, n)
		}
		if sc.corr != nil {
			c, err := p.resolve(sc.outer, n)
			if err != nil {
				return nil, err
			}
			return sc.corr.capture(c, n)
		}
		if sc.outer != nil {
			c, err := p.resolve(sc.outer, n)
			switch {
			case err == nil && c.corr != nil:
				return c, nil // captured further out: a constant here too
			case err == nil:
				e := errorf("column %s of the outer query is named in a subquery where it cannot be bound", strconv.Quote(full))
				e.Err = errCorrelated
				return nil, p.Src.Locate(e, parts[0])
			case isCorrelated(err):
				return nil, err
			case !errors.Is(err, ErrNoColumn) || len(parts) >= 2 && sc.outer.namesRel(parts[0]):
				// The outer query's own error: the name reached a
				// relation there (o.nosuch names no column of o) or failed
				// otherwise; "no column here" would hide it.
				return nil, err
			}
		}
		var e *Error
		if len(parts) > 1 && len(sc.Rels) > 0 {
			e = errorf("no table or struct column named %q%s", parts[0], suggest(parts[0], append(sc.allNames(), relNames(sc)...)))
		} else {
			e = errorf("column %q does not exist%s", parts[0], suggest(parts[0], sc.allNames()))
		}
		e.Err = ErrNoColumn
		return nil, p.Src.Locate(e, parts[0])
	}
	if len(parts) > 1 {
		return nestedCol(found.Rel, found, parts[1:])
	}
	return found, nil
}

// namesRel reports whether sc or a scope around it has a relation named
// name.
func (sc *Scope) namesRel(name string) bool {
	for s := sc; s != nil; s = s.outer {
		if s.relByName(name) != nil {
			return true
		}
	}
	return false
}

func colNames(r *Relation) []string {
	var out []string
	for _, c := range r.Cols {
		out = append(out, c.Name)
	}
	return out
}

func relNames(sc *Scope) []string {
	var out []string
	for _, r := range sc.Rels {
		out = append(out, r.Alias)
	}
	return out
}

// aggCtx binds expressions above a GROUP BY: group keys and aggregates
// become references to the aggregation's output.
type aggCtx struct {
	keys     []Expr   // bound group keys (input scope)
	keyTexts []string // their SQL text (groupKeyText)
	keyCols  []*ScopeCol
	aggs     []*aggSpec
	slots    []*Slot // output slots: keys then aggregates
	inScope  *Scope
	done     bool    // answered without an aggregation operator
	sets     [][]int // grouping sets (GROUPING SETS, ROLLUP, CUBE), nil for one
}

// groupKeyText is the text by which an expression is matched to a GROUP BY
// key: its SQL with names (of functions, columns) in lower case, as
// they are case-insensitive; string literals keep their case.
func groupKeyText(n sqlparser.Expr) string {
	text := sqlparser.String(n)
	b := []byte(text)
	quoted := false
	for i, c := range b {
		switch {
		case c == '\'':
			quoted = !quoted // '' inside a literal toggles twice
		case !quoted && 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// mayBeKey reports whether n may be one of the group keys. Every
// expression node formats to at least one byte, so a node with more
// nodes below it than the longest key has bytes is none of them: the
// check costs at most that many steps, where formatting n (at every
// level of a chain of operators) would cost its whole size.
func (a *aggCtx) mayBeKey(n sqlparser.Expr) bool {
	longest := 0
	for _, kt := range a.keyTexts {
		longest = max(longest, len(kt))
	}
	if longest == 0 {
		return false
	}
	nodes := 0
	tooBig := errors.New("too big")
	err := sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if _, ok := node.(sqlparser.Expr); ok {
			if nodes++; nodes > longest {
				return false, tooBig
			}
		}
		return true, nil
	}, n)
	return err == nil
}

// AggNames are the names of the aggregate functions (function's
// registry, with their aliases and the forms the binder rewrites).
var AggNames = function.AggregateNames()

func IsAggregate(n sqlparser.Expr) bool {
	switch x := n.(type) {
	case *sqlparser.FuncExpr:
		return AggNames[x.Name.Lowered()] && x.Qualifier.IsEmpty()
	case *sqlparser.GroupConcatExpr:
		return true
	}
	return false
}

func ContainsAggregate(n sqlparser.SQLNode) bool {
	found := false
	sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch node.(type) {
		case *sqlparser.Subquery:
			return false, nil
		}
		if e, ok := node.(sqlparser.Expr); ok && IsAggregate(e) {
			found = true
			return false, nil
		}
		return true, nil
	}, n)
	return found
}

// BindExpr binds an expression in a scope (and, above a GROUP BY, the
// aggregation context).
func (p *Planner) BindExpr(n sqlparser.Expr, sc *Scope, agg *aggCtx) (Expr, error) {
	e, err := p.bindExpr0(n, sc, agg)
	if err != nil {
		return nil, err
	}
	if !e.hasText() {
		e.setNode(n)
	}
	return e, nil
}

func (p *Planner) bindExpr0(n sqlparser.Expr, sc *Scope, agg *aggCtx) (Expr, error) {
	if p.binds++; p.binds&1023 == 0 {
		if err := p.ctxErr(); err != nil {
			return nil, err
		}
	}
	if agg != nil && agg.mayBeKey(n) {
		text := groupKeyText(n)
		for i, kt := range agg.keyTexts {
			if kt == text {
				return &ColExpr{S: agg.slots[i], T: agg.keys[i].Type()}, nil
			}
		}
	}
	if agg != nil {
		if IsAggregate(n) {
			return p.bindAggregate(n, agg)
		}
		if c, ok := n.(*sqlparser.ColName); ok {
			if param := lambdaParam(sc, c); param != nil {
				return &ColExpr{S: param.Slot, T: param.T, col: param}, nil
			}
			// A key that is a column may be named differently (t.a vs a).
			col, err := p.resolve(agg.inScope, c)
			if err != nil {
				return nil, err
			}
			if col.corr != nil {
				return col.corr.constant(col), nil
			}
			for i, kc := range agg.keyCols {
				if kc == col {
					return &ColExpr{S: agg.slots[i], T: agg.keys[i].Type()}, nil
				}
			}
			return nil, p.Src.Locate(errorf("column %q must appear in the GROUP BY clause or be used in an aggregate function", sqlparser.String(c)), c.Name.String())
		}
	} else if IsAggregate(n) {
		return nil, p.Src.Locate(errorf("aggregate function %s is not allowed here", sqlparser.String(n)), funcName(n))
	}
	switch x := n.(type) {
	case *sqlparser.ColName:
		c, err := p.resolve(sc, x)
		if err != nil {
			e, _, err := p.bindFieldPath(err)
			return e, err
		}
		if c.corr != nil {
			return c.corr.constant(c), nil
		}
		if c.coalesce != nil && x.Qualifier.IsEmpty() {
			return p.usingCoalesce(c, c.Name)
		}
		return &ColExpr{S: c.Slot, T: c.T, col: c}, nil
	case *sqlparser.SQLVal:
		return p.bindLiteral(x)
	case *sqlparser.NullVal:
		return &ConstExpr{T: Type{Kind: KNull}}, nil
	case sqlparser.BoolVal:
		return &ConstExpr{T: Type{Kind: KBool}, V: bool(x)}, nil
	case *sqlparser.ParenExpr:
		return p.BindExpr(x.Expr, sc, agg)
	case *sqlparser.AndExpr:
		return p.bindLogic(true, []sqlparser.Expr{x.Left, x.Right}, sc, agg)
	case *sqlparser.OrExpr:
		return p.bindLogic(false, []sqlparser.Expr{x.Left, x.Right}, sc, agg)
	case *sqlparser.NotExpr:
		e, err := p.BindBool(x.Expr, sc, agg)
		if err != nil {
			return nil, err
		}
		return p.fold(&notExpr{e: e}, e)
	case *sqlparser.ComparisonExpr:
		return p.bindComparison(x, sc, agg)
	case *sqlparser.RangeCond:
		l, err := p.BindExpr(x.Left, sc, agg)
		if err != nil {
			return nil, err
		}
		from, err := p.BindExpr(x.From, sc, agg)
		if err != nil {
			return nil, err
		}
		to, err := p.BindExpr(x.To, sc, agg)
		if err != nil {
			return nil, err
		}
		if x.Operator == sqlparser.BetweenStr {
			a, err := p.compare(opGe, l, from)
			if err != nil {
				return nil, err
			}
			b, err := p.compare(opLe, l, to)
			if err != nil {
				return nil, err
			}
			return &AndExpr{Terms: []Expr{a, b}}, nil
		}
		a, err := p.compare(opLt, l, from)
		if err != nil {
			return nil, err
		}
		b, err := p.compare(opGt, l, to)
		if err != nil {
			return nil, err
		}
		return &orExpr{terms: []Expr{a, b}}, nil
	case *sqlparser.IsExpr:
		e, err := p.BindExpr(x.Expr, sc, agg)
		if err != nil {
			return nil, err
		}
		switch x.Operator {
		case sqlparser.IsNullStr:
			return p.fold(&isNullExpr{e: e}, e)
		case sqlparser.IsNotNullStr:
			return p.fold(&isNullExpr{e: e, not: true}, e)
		}
		if e, err = p.coerce(e, Type{Kind: KBool}); err != nil {
			return nil, err
		}
		switch x.Operator {
		case sqlparser.IsTrueStr:
			return p.fold(&isBoolExpr{e: e, want: true}, e)
		case sqlparser.IsNotTrueStr:
			return p.fold(&isBoolExpr{e: e, want: true, not: true}, e)
		case sqlparser.IsFalseStr:
			return p.fold(&isBoolExpr{e: e, want: false}, e)
		default:
			return p.fold(&isBoolExpr{e: e, want: false, not: true}, e)
		}
	case *sqlparser.BinaryExpr:
		if opChainOperator[x.Operator] != "" {
			return p.bindOpChain(x, sc, agg)
		}
		l, err := p.BindExpr(x.Left, sc, agg)
		if err != nil {
			return nil, err
		}
		r, err := p.BindExpr(x.Right, sc, agg)
		if err != nil {
			return nil, err
		}
		switch x.Operator {
		case sqlparser.BitXorStr: // ^ and ** are powers
			return p.bindFunc("power", []Expr{l, r})
		case sqlparser.PlusStr, sqlparser.MinusStr, sqlparser.MultStr, sqlparser.DivStr, sqlparser.ModStr, sqlparser.IntDivStr:
			op := x.Operator[0]
			if x.Operator == sqlparser.IntDivStr || op == '/' && p.Set.IntDiv && isIntKind(l.Type()) && isIntKind(r.Type()) {
				// integer_division: / on integers is //.
				op = 'd'
			}
			return p.arith(op, l, r)
		}
		return nil, unsupported("the " + x.Operator + " operator")
	case *sqlparser.UnaryExpr:
		e, err := p.BindExpr(x.Expr, sc, agg)
		if err != nil {
			return nil, err
		}
		switch x.Operator {
		case sqlparser.UMinusStr:
			return p.negate(e)
		case sqlparser.UPlusStr:
			return e, nil
		case sqlparser.TildaStr:
			return p.bindFunc("bit_not", []Expr{e})
		case sqlparser.BangStr:
			e, err = p.coerce(e, Type{Kind: KBool})
			if err != nil {
				return nil, err
			}
			return p.fold(&notExpr{e: e}, e)
		}
		return nil, unsupported("the unary " + x.Operator + " operator")
	case *sqlparser.FuncExpr:
		if !x.Qualifier.IsEmpty() {
			return nil, unsupported("qualified function names")
		}
		name := x.Name.Lowered()
		if name == parse.WindowMarker {
			return p.bindWindow(x, sc, agg)
		}
		if _, order := splitAggOrder(x.Exprs); order != nil {
			return nil, p.Src.Locate(errorf("ORDER BY applies to aggregate functions, not to %s", name), x.Name.String())
		}
		if name == parse.TryMarker {
			return p.bindTryCast(x, sc, agg)
		}
		if name == "try" {
			return p.bindTry(x, sc, agg)
		}
		if name == parse.ContainedMarker && len(x.Exprs) == 2 {
			// a <@ b: list_has_all(b, a).
			y := *x
			y.Name = sqlparser.NewColIdent("list_has_all")
			y.Exprs = sqlparser.SelectExprs{x.Exprs[1], x.Exprs[0]}
			return p.BindExpr(&y, sc, agg)
		}
		if name == parse.CastMarker {
			return p.bindNestedCast(x, sc, agg, false)
		}
		if name == "columns" {
			return nil, p.Src.Locate(errorf("COLUMNS(...) is only allowed in the select list"), x.Name.String())
		}
		if parse.TakesLambda(name) {
			e, err := p.bindLambdaCall(name, x, sc, agg)
			if err != nil {
				return nil, p.Src.Locate(AsError(err), x.Name.String())
			}
			return e, nil
		}
		if name == parse.LambdaMarker {
			return nil, errorf("a lambda (x -> ...) is only allowed as an argument of list_transform, list_filter or list_reduce")
		}
		if _, known := Funcs[name]; !known && !NestedNames[name] && !UnionFuncNames[name] && name != "nextval" && name != "currval" {
			// An unknown function is the error, not its arguments (which,
			// above a GROUP BY, would be reported as ungrouped columns).
			_, err := p.bindFunc(name, nil)
			return nil, p.Src.Locate(AsError(err), x.Name.String())
		}
		if x.Distinct {
			return nil, errorf("DISTINCT is only allowed in aggregate functions")
		}
		var args []Expr
		for _, se := range x.Exprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok {
				if name == "count" {
					continue
				}
				return nil, errorf("%s(*) is not a function call", name)
			}
			a, err := p.BindExpr(ae.Expr, sc, agg)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
		}
		e, err := p.bindFunc(name, args)
		if err != nil {
			return nil, p.Src.Locate(AsError(err), x.Name.String())
		}
		return e, nil
	case *sqlparser.CaseExpr:
		return p.bindCase(x, sc, agg)
	case *sqlparser.ConvertExpr:
		e, t, err := p.bindConvert(x, sc, agg)
		if err != nil {
			return nil, err
		}
		c, err := p.cast(e, t)
		if k, isConst := c.(*ConstExpr); isConst && err == nil && k != e {
			// A cast literal is no literal: 5::INTEGER keeps its type
			// where a bare 5 would take its other operand's (intLiteral).
			k.setNode(x)
			k.text, k.parts = "", nil
		}
		return c, err
	case *sqlparser.SubstrExpr:
		s, err := p.BindExpr(x.Name, sc, agg)
		if err != nil {
			return nil, err
		}
		args := []Expr{s}
		for _, a := range []sqlparser.Expr{x.From, x.To} {
			if a == nil {
				continue
			}
			b, err := p.BindExpr(a, sc, agg)
			if err != nil {
				return nil, err
			}
			args = append(args, b)
		}
		return p.bindFunc("substring", args)
	case *sqlparser.IntervalExpr:
		return p.bindInterval(x, sc, agg)
	case *sqlparser.Subquery:
		e, err := p.scalarSubquery(x, sc)
		if isCorrelated(err) {
			return p.bindCorrelated(corrScalar, x, nil, false, sc, agg)
		}
		return e, err
	case *sqlparser.ExistsExpr:
		rows, err := p.runSubquery(x.Subquery.Select, sc, 1)
		if isCorrelated(err) {
			return p.bindCorrelated(corrExists, x, nil, false, sc, agg)
		}
		if err != nil {
			return nil, err
		}
		return &ConstExpr{T: Type{Kind: KBool}, V: rows.N > 0}, nil
	case sqlparser.ValTuple:
		if len(x) == 1 {
			return p.BindExpr(x[0], sc, agg)
		}
		vals, err := bindRowOf(p, x, sc, agg)
		if err != nil {
			return nil, err
		}
		return p.bindRowValue(vals)
	case *sqlparser.CollateExpr:
		return nil, unsupported("COLLATE")
	case *sqlparser.MatchExpr:
		return nil, unsupported("MATCH ... AGAINST")
	case *sqlparser.GroupConcatExpr:
		return nil, errorf("aggregate function GROUP_CONCAT is not allowed here")
	case *sqlparser.ValuesFuncExpr:
		return nil, unsupported("VALUES()")
	case *sqlparser.Default:
		return nil, unsupported("DEFAULT")
	}
	return nil, unsupported(fmt.Sprintf("the expression %s", sqlparser.String(n)))
}

func funcName(n sqlparser.Expr) string {
	if f, ok := n.(*sqlparser.FuncExpr); ok {
		return f.Name.String()
	}
	return "group_concat"
}

func AsError(err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{Msg: err.Error(), Offset: -1, Err: err}
}

// fold evaluates an expression whose inputs are all constants.
func (p *Planner) fold(e Expr, inputs ...Expr) (Expr, error) {
	if nullIn(e, inputs) {
		// As DuckDB's optimizer: a NULL constant makes an operation that
		// propagates NULL a NULL, whose other operands are not computed
		// (x * NULL never fails on x's overflow).
		return &ConstExpr{T: e.Type()}, nil
	}
	for _, in := range inputs {
		if _, ok := IsConst(in); !ok {
			return e, nil
		}
	}
	c, err := e.Eval(&Batch{N: 1})
	if err != nil {
		// Not folded: the error is the rows' to raise, if there are any
		// (SELECT abs(x) FROM t WHERE false is no error, as in DuckDB).
		return e, nil
	}
	return &ConstExpr{T: e.Type(), V: c.Get(0)}, nil
}

// nullIn reports a NULL constant among the inputs of e, an operation
// that is NULL when one of them is: arithmetic, or a comparison of
// scalars other than IS [NOT] DISTINCT FROM.
func nullIn(e Expr, inputs []Expr) bool {
	switch x := e.(type) {
	case *arithExpr, *negExpr:
	case *cmpExpr:
		if x.op == opNullSafeEq || x.l.Type().Kind == KNested || x.r.Type().Kind == KNested {
			return false
		}
	default:
		return false
	}
	for _, in := range inputs {
		if k, ok := IsConst(in); ok && k.V == nil && k.T.Kind != KNested {
			return true
		}
	}
	return false
}

func negConst(k *ConstExpr) (Expr, error) {
	switch v := k.V.(type) {
	case nil:
		return k, nil
	case int64:
		if k.T.Kind == KInt && v == function.IntMin(k.T) {
			return nil, errorf("Overflow in negation of numeric value!") // DuckDB's words
		}
		return &ConstExpr{T: k.T, V: -v}, nil
	case float64:
		return &ConstExpr{T: k.T, V: -v}, nil
	case value.Decimal:
		n := new(big.Int).Neg(v.Unscaled)
		if k.T.Huge && !k.T.FitsBig(n) {
			return nil, errorf("Overflow in negation of numeric value!") // DuckDB's words
		}
		return &ConstExpr{T: k.T, V: value.Decimal{Unscaled: n, Scale: v.Scale}}, nil
	case Interval:
		return &ConstExpr{T: k.T, V: v.Neg()}, nil
	case uint64:
		if v == 1<<63 {
			return &ConstExpr{T: Type{Kind: KInt}, V: int64(math.MinInt64)}, nil
		}
	}
	return nil, errorf("cannot negate %s", k.T.SQLName())
}

// bindLiteral types a literal like DuckDB: integers INTEGER or BIGINT
// (wider ones HUGEINT up to 2^127-1, UHUGEINT up to 2^128-1, then DOUBLE), decimals DECIMAL, exponents
// DOUBLE.
func (p *Planner) bindLiteral(x *sqlparser.SQLVal) (Expr, error) {
	s := string(x.Val)
	switch x.Type {
	case sqlparser.StrVal:
		return &ConstExpr{T: Type{Kind: KString}, V: s}, nil
	case sqlparser.IntVal:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			if n >= math.MinInt32 && n <= math.MaxInt32 {
				return &ConstExpr{T: Type{Kind: KInt, Bits: 32}, V: n}, nil
			}
			return &ConstExpr{T: Type{Kind: KInt}, V: n}, nil
		}
		if u, ok := new(big.Int).SetString(s, 10); ok && tHuge.FitsBig(u) {
			return &ConstExpr{T: tHuge, V: value.Decimal{Unscaled: u}}, nil
		} else if ok && u.Sign() > 0 && u.Cmp(maxUHuge) <= 0 {
			return &ConstExpr{T: tUHuge, V: value.Decimal{Unscaled: u}}, nil
		}
		f, _ := strconv.ParseFloat(s, 64)
		return &ConstExpr{T: Type{Kind: KFloat}, V: f}, nil
	case sqlparser.FloatVal:
		if strings.ContainsAny(s, "eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, errorf("bad number %s", s)
			}
			return &ConstExpr{T: Type{Kind: KFloat}, V: f}, nil
		}
		intPart, frac, _ := strings.Cut(s, ".")
		intPart = strings.TrimLeft(intPart, "0")
		prec := len(intPart) + len(frac)
		if prec > 38 {
			f, _ := strconv.ParseFloat(s, 64)
			return &ConstExpr{T: Type{Kind: KFloat}, V: f}, nil
		}
		if prec == 0 {
			prec = 1
		}
		t := Type{Kind: KDecimal, Prec: max(prec, len(frac)+1), Scale: len(frac)}
		u, _ := new(big.Int).SetString(intPart+frac, 10)
		if u == nil {
			u = new(big.Int)
		}
		d := value.Decimal{Unscaled: u, Scale: int32(len(frac))}
		v, err := function.FitDecimal(d, t)
		if err != nil {
			return nil, AsError(err)
		}
		return &ConstExpr{T: t, V: v}, nil
	case sqlparser.HexVal:
		b, err := hexBytes(s)
		if err != nil {
			return nil, errorf("bad hex literal X'%s'", s)
		}
		return &ConstExpr{T: Type{Kind: KBytes}, V: b}, nil
	case sqlparser.HexNum:
		n, err := strconv.ParseInt(s[2:], 16, 64)
		if err != nil {
			return nil, errorf("bad hex number %s", s)
		}
		return &ConstExpr{T: Type{Kind: KInt}, V: n}, nil
	case sqlparser.ValArg:
		return p.Param(s)
	}
	return nil, unsupported("the literal " + s)
}

func hexBytes(s string) ([]byte, error) {
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("odd length")
	}
	out := make([]byte, len(s)/2)
	for i := range out {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, err
		}
		out[i] = byte(v)
	}
	return out, nil
}

// Param binds a placeholder (:v1 for ? and $1, :n_name for named ones).
func (p *Planner) Param(name string) (Expr, error) {
	name = strings.TrimPrefix(name, ":")
	var a *Arg
	named, isNamed := strings.CutPrefix(name, "n_")
	if isNamed {
		name = named
	} else if strings.HasPrefix(name, "v") {
		if n, err := strconv.Atoi(name[1:]); err == nil {
			for i := range p.Args {
				if p.Args[i].Ordinal == n && p.Args[i].Name == "" {
					a = &p.Args[i]
				}
			}
			if a == nil && n >= 1 && n <= len(p.Args) && p.Args[n-1].Name == "" {
				a = &p.Args[n-1]
			}
			if a == nil {
				return nil, errorf("no value for parameter $%d (%d given)", n, len(p.Args))
			}
		}
	}
	if a == nil {
		for i := range p.Args {
			if strings.EqualFold(p.Args[i].Name, name) {
				a = &p.Args[i]
			}
		}
		if a == nil {
			return nil, errorf("no value for parameter :%s", name)
		}
	}
	if v, ok := a.Value.(*Variable); ok {
		// EXECUTE's arguments keep the types their expressions have.
		return &ConstExpr{T: v.T, V: v.V}, nil
	}
	t, v, err := argScalar(a.Value)
	if err != nil {
		return nil, err
	}
	return &ConstExpr{T: t, V: v}, nil
}

// shortText is the text of an expression when it is a literal or a sign
// and a literal (ok false otherwise), found without formatting a larger
// tree: asking every operand of a chain of n operators for its whole text
// would take O(n²).
func shortText(n *named) (string, bool) {
	switch {
	case n.text != "":
		return n.text, true
	case n.node != nil:
		switch x := n.node.(type) {
		case *sqlparser.SQLVal:
			return sqlparser.String(x), true
		case *sqlparser.UnaryExpr:
			if _, lit := x.Expr.(*sqlparser.SQLVal); lit {
				return sqlparser.String(x), true
			}
		}
		return "", false
	case n.parts != nil:
		if len(n.parts) > 2 {
			return "", false
		}
		for _, p := range n.parts {
			if k, isConst := p.(*ConstExpr); isConst {
				if _, ok := shortText(&k.named); !ok {
					return "", false
				}
			} else if _, isText := p.(string); !isText {
				return "", false
			}
		}
	}
	return n.String(), true
}
