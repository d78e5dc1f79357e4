package sqlplan

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/scan"
	"github.com/xwb1989/sqlparser"
)

// scopeCol is a column a query can name.
type scopeCol struct {
	rel  *relation
	name string // column name (a dotted path for struct fields)
	t    Type
	slot *slot
	// local is the column's index within its relation's output.
	local int
	used  bool
	// corr, for a column of an enclosing query that a correlated subquery
	// names, is the subquery's frame (the column binds to a constant) and
	// corrIdx the column's place in it.
	corr    *corrFrame
	corrIdx int
	// coalesce, under FULL JOIN ... USING, is the other side's column of a
	// USING column: named without a table, the column is COALESCE of both.
	coalesce *scopeCol
}

// relation is one FROM item: a table scan or a derived table.
type relation struct {
	alias string
	table *scan.Table
	path  string
	// cols are the columns a query may name (a table's top-level columns,
	// plus struct fields as they get named).
	cols []*scopeCol
	// used lists, for a table, the scanned columns in output order.
	used   []*scopeCol
	offset int // position of the relation's first column in joined batches
	sub    *selectPlan
	// lateral: a derived table that names the FROM items before it, run
	// per row of those (lateral.go).
	lateral *lateralSpec
	// pushed are the conjuncts handed to the scan.
	pushed []scan.Predicate
	// residual conjuncts evaluated on the relation's own batches
	// (they only name this relation's columns).
	residual []expr
	// nullExtended: the relation is on a side of an outer join that may
	// be filled with NULLs, so none of its columns is NOT NULL.
	nullExtended bool
	// pinned: the relation's rows must reach its join unfiltered (the
	// right side of an ASOF join, both sides of a POSITIONAL one): no
	// WHERE conjunct is pushed below the join.
	pinned bool
}

// outputTypes are the types of the relation's columns in joined batches.
func (r *relation) outputTypes() []Type {
	cols := r.outputCols()
	types := make([]Type, len(cols))
	for i, c := range cols {
		types[i] = c.t
	}
	return types
}

// outputCols are the relation's columns in its batches, in order.
func (r *relation) outputCols() []*scopeCol {
	if r.derived() {
		return r.cols
	}
	return r.used
}

func (r *relation) width() int {
	if r.derived() {
		return len(r.cols)
	}
	return len(r.used)
}

// derived tells a derived table (its columns are its query's, all in the
// batches) from a table (only the columns read are).
func (r *relation) derived() bool { return r.sub != nil || r.lateral != nil }

// use marks a column read and returns its slot.
func (r *relation) use(c *scopeCol) *slot {
	if !c.used {
		c.used = true
		if !r.derived() {
			c.local = len(r.used)
			r.used = append(r.used, c)
		}
	}
	return c.slot
}

// scope is the set of relations an expression may name, with the scope
// of an enclosing query for error messages about correlation.
type scope struct {
	rels  []*relation
	outer *scope
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
	merged map[*relation]map[string]bool
	hidden map[*scopeCol]bool
	shown  map[*scopeCol]*scopeCol
	from   []*relation
	// corr makes this a correlation scope (no relations of its own): the
	// names that reach it from a correlated subquery are resolved in outer
	// and captured in corr.
	corr *corrFrame
}

// newScope is the scope of a FROM clause's join steps.
func newScope(steps []joinStep, outer *scope) *scope {
	sc := &scope{outer: outer, merged: map[*relation]map[string]bool{}, hidden: map[*scopeCol]bool{}, shown: map[*scopeCol]*scopeCol{}}
	for i, st := range steps {
		sc.rels = append(sc.rels, st.rel)
		sc.from = append(sc.from, st.rel)
		if st.left {
			st.rel.nullExtended = true
		}
		if st.full {
			for _, r := range sc.rels[:i] {
				r.nullExtended = true
			}
		}
		if st.swapped && i > 0 {
			sc.from[i-1], sc.from[i] = sc.from[i], sc.from[i-1]
		}
		for _, u := range st.using {
			own := findCol(st.rel, u)
			var partner *scopeCol
			for _, r := range sc.rels[:i] {
				if partner = findCol(r, u); partner != nil {
					break
				}
			}
			if own == nil || partner == nil {
				continue // the join reports it
			}
			if sc.merged[st.rel] == nil {
				sc.merged[st.rel] = map[string]bool{}
			}
			sc.merged[st.rel][strings.ToLower(u)] = true
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
		item := map[*relation]int{}
		for _, st := range steps {
			item[st.rel] = st.item
		}
		slices.SortStableFunc(sc.from, func(a, b *relation) int { return item[a] - item[b] })
	}
	return sc
}

func (s *scope) allNames() []string {
	var out []string
	for _, r := range s.rels {
		for _, c := range r.cols {
			out = append(out, c.name)
		}
	}
	return out
}

func (s *scope) relByName(name string) *relation {
	for _, r := range s.rels {
		if strings.EqualFold(r.alias, name) {
			return r
		}
	}
	return nil
}

func findCol(r *relation, name string) *scopeCol {
	for _, c := range r.cols {
		if c.name == name {
			return c
		}
	}
	for _, c := range r.cols {
		if strings.EqualFold(c.name, name) {
			return c
		}
	}
	return nil
}

// usingCoalesce is a USING column of a FULL JOIN named without a table:
// COALESCE of both sides' columns (named name).
func (p *planner) usingCoalesce(c *scopeCol, name string) (expr, error) {
	e, err := p.bindFunc("coalesce", []expr{&colExpr{s: c.slot, t: c.t, col: c}, &colExpr{s: c.coalesce.slot, t: c.coalesce.t, col: c.coalesce}})
	if err != nil {
		return nil, err
	}
	return withText(e, name), nil
}

// nested finds (adding if needed) the struct field at path below a
// top-level column of r.
func nestedCol(r *relation, top *scopeCol, path []string) (*scopeCol, error) {
	f := top.t.Field
	name := top.name
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
	c := &scopeCol{rel: r, name: name, t: typeOfField(f), slot: &slot{}}
	r.cols = append(r.cols, c)
	return c, nil
}

// resolve finds the column a ColName names.
func (p *planner) resolve(sc *scope, n *sqlparser.ColName) (*scopeCol, error) {
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
				e := errorf("table %q has no column %q%s", r.alias, parts[1], suggest(parts[1], colNames(r)))
				e.Err = ErrNoColumn
				return nil, p.src.locate(e, parts[1])
			}
			if len(parts) > 2 {
				return nestedCol(r, c, parts[2:])
			}
			return c, nil
		}
	}
	// column[.field...]
	var found *scopeCol
	for _, r := range sc.rels {
		if c := findCol(r, parts[0]); c != nil {
			if found != nil && found.rel != r {
				if sc.merged[r][strings.ToLower(parts[0])] {
					continue // a USING column: the earlier (preserved) side's
				}
				return nil, p.src.locate(errorf("column %q is ambiguous (in %q and %q)", parts[0], found.rel.alias, r.alias), parts[0])
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
				return nil, p.src.locate(e, parts[0])
			case isCorrelated(err):
				return nil, err
			}
		}
		var e *Error
		if len(parts) > 1 && len(sc.rels) > 0 {
			e = errorf("no table or struct column named %q%s", parts[0], suggest(parts[0], append(sc.allNames(), relNames(sc)...)))
		} else {
			e = errorf("column %q does not exist%s", parts[0], suggest(parts[0], sc.allNames()))
		}
		e.Err = ErrNoColumn
		return nil, p.src.locate(e, parts[0])
	}
	if len(parts) > 1 {
		return nestedCol(found.rel, found, parts[1:])
	}
	return found, nil
}

func colNames(r *relation) []string {
	var out []string
	for _, c := range r.cols {
		out = append(out, c.name)
	}
	return out
}

func relNames(sc *scope) []string {
	var out []string
	for _, r := range sc.rels {
		out = append(out, r.alias)
	}
	return out
}

// aggCtx binds expressions above a GROUP BY: group keys and aggregates
// become references to the aggregation's output.
type aggCtx struct {
	keys     []expr   // bound group keys (input scope)
	keyTexts []string // their SQL text (groupKeyText)
	keyCols  []*scopeCol
	aggs     []*aggSpec
	slots    []*slot // output slots: keys then aggregates
	inScope  *scope
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

var aggNames = map[string]bool{
	"count": true, "sum": true, "avg": true, "mean": true, "min": true, "max": true, "any_value": true, "first": true,
	"grouping": true, "grouping_id": true,
	"string_agg": true, "group_concat": true, "listagg": true, "bool_and": true, "bool_or": true, "count_if": true,
	"arbitrary": true, "stddev": true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true,
	"list": true, "array_agg": true, "median": true, "product": true, "countif": true, "every": true, "last": true,
	"quantile_cont": true, "quantile_disc": true, "quantile": true, "mode": true, "approx_count_distinct": true,
	"arg_max": true, "arg_min": true, "max_by": true, "min_by": true, "argmax": true, "argmin": true,
	"corr": true, "covar_pop": true, "covar_samp": true, "regr_slope": true, "regr_intercept": true,
	"regr_r2": true, "regr_count": true, "regr_avgx": true, "regr_avgy": true, "regr_sxx": true, "regr_syy": true, "regr_sxy": true,
	"bit_and": true, "bit_or": true, "bit_xor": true,
	"skewness": true, "kurtosis": true, "kurtosis_pop": true, "geomean": true, "geometric_mean": true, "entropy": true,
	"fsum": true, "sumkahan": true, "kahan_sum": true, "favg": true, "histogram": true, "histogram_exact": true, "approx_top_k": true,
}

func isAggregate(n sqlparser.Expr) bool {
	switch x := n.(type) {
	case *sqlparser.FuncExpr:
		return aggNames[x.Name.Lowered()] && x.Qualifier.IsEmpty()
	case *sqlparser.GroupConcatExpr:
		return true
	}
	return false
}

func containsAggregate(n sqlparser.SQLNode) bool {
	found := false
	sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch node.(type) {
		case *sqlparser.Subquery:
			return false, nil
		}
		if e, ok := node.(sqlparser.Expr); ok && isAggregate(e) {
			found = true
			return false, nil
		}
		return true, nil
	}, n)
	return found
}

// bindExpr binds an expression in a scope (and, above a GROUP BY, the
// aggregation context).
func (p *planner) bindExpr(n sqlparser.Expr, sc *scope, agg *aggCtx) (expr, error) {
	e, err := p.bindExpr0(n, sc, agg)
	if err != nil {
		return nil, err
	}
	if !e.hasText() {
		e.setNode(n)
	}
	return e, nil
}

func (p *planner) bindExpr0(n sqlparser.Expr, sc *scope, agg *aggCtx) (expr, error) {
	if p.binds++; p.binds&1023 == 0 {
		if err := p.ctxErr(); err != nil {
			return nil, err
		}
	}
	if agg != nil && agg.mayBeKey(n) {
		text := groupKeyText(n)
		for i, kt := range agg.keyTexts {
			if kt == text {
				return &colExpr{s: agg.slots[i], t: agg.keys[i].typ()}, nil
			}
		}
	}
	if agg != nil {
		if isAggregate(n) {
			return p.bindAggregate(n, agg)
		}
		if c, ok := n.(*sqlparser.ColName); ok {
			if param := lambdaParam(sc, c); param != nil {
				return &colExpr{s: param.slot, t: param.t, col: param}, nil
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
					return &colExpr{s: agg.slots[i], t: agg.keys[i].typ()}, nil
				}
			}
			return nil, p.src.locate(errorf("column %q must appear in the GROUP BY clause or be used in an aggregate function", sqlparser.String(c)), c.Name.String())
		}
	} else if isAggregate(n) {
		return nil, p.src.locate(errorf("aggregate function %s is not allowed here", sqlparser.String(n)), funcName(n))
	}
	switch x := n.(type) {
	case *sqlparser.ColName:
		c, err := p.resolve(sc, x)
		if err != nil {
			return nil, err
		}
		if c.corr != nil {
			return c.corr.constant(c), nil
		}
		if c.coalesce != nil && x.Qualifier.IsEmpty() {
			return p.usingCoalesce(c, c.name)
		}
		return &colExpr{s: c.slot, t: c.t, col: c}, nil
	case *sqlparser.SQLVal:
		return p.bindLiteral(x)
	case *sqlparser.NullVal:
		return &constExpr{t: Type{Kind: KNull}}, nil
	case sqlparser.BoolVal:
		return &constExpr{t: Type{Kind: KBool}, v: bool(x)}, nil
	case *sqlparser.ParenExpr:
		return p.bindExpr(x.Expr, sc, agg)
	case *sqlparser.AndExpr:
		return p.bindLogic(true, []sqlparser.Expr{x.Left, x.Right}, sc, agg)
	case *sqlparser.OrExpr:
		return p.bindLogic(false, []sqlparser.Expr{x.Left, x.Right}, sc, agg)
	case *sqlparser.NotExpr:
		e, err := p.bindBool(x.Expr, sc, agg)
		if err != nil {
			return nil, err
		}
		return p.fold(&notExpr{e: e}, e)
	case *sqlparser.ComparisonExpr:
		return p.bindComparison(x, sc, agg)
	case *sqlparser.RangeCond:
		l, err := p.bindExpr(x.Left, sc, agg)
		if err != nil {
			return nil, err
		}
		from, err := p.bindExpr(x.From, sc, agg)
		if err != nil {
			return nil, err
		}
		to, err := p.bindExpr(x.To, sc, agg)
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
			return &andExpr{terms: []expr{a, b}}, nil
		}
		a, err := p.compare(opLt, l, from)
		if err != nil {
			return nil, err
		}
		b, err := p.compare(opGt, l, to)
		if err != nil {
			return nil, err
		}
		return &orExpr{terms: []expr{a, b}}, nil
	case *sqlparser.IsExpr:
		e, err := p.bindExpr(x.Expr, sc, agg)
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
		l, err := p.bindExpr(x.Left, sc, agg)
		if err != nil {
			return nil, err
		}
		r, err := p.bindExpr(x.Right, sc, agg)
		if err != nil {
			return nil, err
		}
		switch x.Operator {
		case sqlparser.BitXorStr: // ^ and ** are powers
			return p.bindFunc("power", []expr{l, r})
		case sqlparser.PlusStr, sqlparser.MinusStr, sqlparser.MultStr, sqlparser.DivStr, sqlparser.ModStr, sqlparser.IntDivStr:
			op := x.Operator[0]
			if x.Operator == sqlparser.IntDivStr || op == '/' && p.set.intDiv && isIntKind(l.typ()) && isIntKind(r.typ()) {
				// integer_division: / on integers is //.
				op = 'd'
			}
			return p.arith(op, l, r)
		}
		return nil, unsupported("the " + x.Operator + " operator")
	case *sqlparser.UnaryExpr:
		e, err := p.bindExpr(x.Expr, sc, agg)
		if err != nil {
			return nil, err
		}
		switch x.Operator {
		case sqlparser.UMinusStr:
			if e.typ().Kind == KUHuge {
				return nil, errorf("cannot negate UHUGEINT")
			}
			if k, ok := isConst(e); ok {
				return negConst(k)
			}
			if !e.typ().isNumeric() && e.typ().Kind != KInterval {
				return nil, errorf("cannot negate %s", e.typ().SQLName())
			}
			return &negExpr{e: e}, nil
		case sqlparser.UPlusStr:
			return e, nil
		case sqlparser.TildaStr:
			return p.bindFunc("bit_not", []expr{e})
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
		if name == windowMarker {
			return p.bindWindow(x, sc, agg)
		}
		if _, order := splitAggOrder(x.Exprs); order != nil {
			return nil, p.src.locate(errorf("ORDER BY applies to aggregate functions, not to %s", name), x.Name.String())
		}
		if name == tryMarker {
			return p.bindTryCast(x, sc, agg)
		}
		if name == "columns" {
			return nil, p.src.locate(errorf("COLUMNS(...) is only allowed in the select list"), x.Name.String())
		}
		if lambdaFuncs[name] {
			e, err := p.bindLambdaCall(name, x, sc, agg)
			if err != nil {
				return nil, p.src.locate(asError(err), x.Name.String())
			}
			return e, nil
		}
		if name == lambdaMarker {
			return nil, errorf("a lambda (x -> ...) is only allowed as an argument of list_transform, list_filter or list_reduce")
		}
		if _, known := funcs[name]; !known && !nestedNames[name] && name != "nextval" && name != "currval" {
			// An unknown function is the error, not its arguments (which,
			// above a GROUP BY, would be reported as ungrouped columns).
			_, err := p.bindFunc(name, nil)
			return nil, p.src.locate(asError(err), x.Name.String())
		}
		if x.Distinct {
			return nil, errorf("DISTINCT is only allowed in aggregate functions")
		}
		var args []expr
		for _, se := range x.Exprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok {
				if name == "count" {
					continue
				}
				return nil, errorf("%s(*) is not a function call", name)
			}
			a, err := p.bindExpr(ae.Expr, sc, agg)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
		}
		e, err := p.bindFunc(name, args)
		if err != nil {
			return nil, p.src.locate(asError(err), x.Name.String())
		}
		return e, nil
	case *sqlparser.CaseExpr:
		return p.bindCase(x, sc, agg)
	case *sqlparser.ConvertExpr:
		e, t, err := p.bindConvert(x, sc, agg)
		if err != nil {
			return nil, err
		}
		return p.cast(e, t)
	case *sqlparser.SubstrExpr:
		s, err := p.bindExpr(x.Name, sc, agg)
		if err != nil {
			return nil, err
		}
		args := []expr{s}
		for _, a := range []sqlparser.Expr{x.From, x.To} {
			if a == nil {
				continue
			}
			b, err := p.bindExpr(a, sc, agg)
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
		return &constExpr{t: Type{Kind: KBool}, v: rows.N > 0}, nil
	case sqlparser.ValTuple:
		if len(x) == 1 {
			return p.bindExpr(x[0], sc, agg)
		}
		return nil, unsupported("row values (tuples)")
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

func asError(err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{Msg: err.Error(), Offset: -1, Err: err}
}

// fold evaluates an expression whose inputs are all constants.
func (p *planner) fold(e expr, inputs ...expr) (expr, error) {
	for _, in := range inputs {
		if _, ok := isConst(in); !ok {
			return e, nil
		}
	}
	c, err := e.eval(&Batch{N: 1})
	if err != nil {
		// Not folded: the error is the rows' to raise, if there are any
		// (SELECT abs(x) FROM t WHERE false is no error, as in DuckDB).
		return e, nil
	}
	return &constExpr{t: e.typ(), v: c.get(0)}, nil
}

func negConst(k *constExpr) (expr, error) {
	switch v := k.v.(type) {
	case nil:
		return k, nil
	case int64:
		return &constExpr{t: k.t, v: -v}, nil
	case float64:
		return &constExpr{t: k.t, v: -v}, nil
	case value.Decimal:
		n := new(big.Int).Neg(v.Unscaled)
		if k.t.Huge && !k.t.fitsBig(n) {
			return nil, errorf("Overflow in negation of numeric value!") // DuckDB's words
		}
		return &constExpr{t: k.t, v: value.Decimal{Unscaled: n, Scale: v.Scale}}, nil
	case interval:
		return &constExpr{t: k.t, v: v.neg()}, nil
	case uint64:
		if v == 1<<63 {
			return &constExpr{t: Type{Kind: KInt}, v: int64(math.MinInt64)}, nil
		}
	}
	return nil, errorf("cannot negate %s", k.t.SQLName())
}

// bindLiteral types a literal like DuckDB: integers INTEGER or BIGINT
// (wider ones HUGEINT up to 2^127-1, UHUGEINT up to 2^128-1, then DOUBLE), decimals DECIMAL, exponents
// DOUBLE.
func (p *planner) bindLiteral(x *sqlparser.SQLVal) (expr, error) {
	s := string(x.Val)
	switch x.Type {
	case sqlparser.StrVal:
		return &constExpr{t: Type{Kind: KString}, v: s}, nil
	case sqlparser.IntVal:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			if n >= math.MinInt32 && n <= math.MaxInt32 {
				return &constExpr{t: Type{Kind: KInt, Bits: 32}, v: n}, nil
			}
			return &constExpr{t: Type{Kind: KInt}, v: n}, nil
		}
		if u, ok := new(big.Int).SetString(s, 10); ok && tHuge.fitsBig(u) {
			return &constExpr{t: tHuge, v: value.Decimal{Unscaled: u}}, nil
		} else if ok && u.Sign() > 0 && u.Cmp(maxUHuge) <= 0 {
			return &constExpr{t: tUHuge, v: value.Decimal{Unscaled: u}}, nil
		}
		f, _ := strconv.ParseFloat(s, 64)
		return &constExpr{t: Type{Kind: KFloat}, v: f}, nil
	case sqlparser.FloatVal:
		if strings.ContainsAny(s, "eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, errorf("bad number %s", s)
			}
			return &constExpr{t: Type{Kind: KFloat}, v: f}, nil
		}
		intPart, frac, _ := strings.Cut(s, ".")
		intPart = strings.TrimLeft(intPart, "0")
		prec := len(intPart) + len(frac)
		if prec > 38 {
			f, _ := strconv.ParseFloat(s, 64)
			return &constExpr{t: Type{Kind: KFloat}, v: f}, nil
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
		v, err := fitDecimal(d, t)
		if err != nil {
			return nil, asError(err)
		}
		return &constExpr{t: t, v: v}, nil
	case sqlparser.HexVal:
		b, err := hexBytes(s)
		if err != nil {
			return nil, errorf("bad hex literal X'%s'", s)
		}
		return &constExpr{t: Type{Kind: KBytes}, v: b}, nil
	case sqlparser.HexNum:
		n, err := strconv.ParseInt(s[2:], 16, 64)
		if err != nil {
			return nil, errorf("bad hex number %s", s)
		}
		return &constExpr{t: Type{Kind: KInt}, v: n}, nil
	case sqlparser.ValArg:
		return p.param(s)
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

// param binds a placeholder (:v1 for ? and $1, :n_name for named ones).
func (p *planner) param(name string) (expr, error) {
	name = strings.TrimPrefix(name, ":")
	var a *Arg
	named, isNamed := strings.CutPrefix(name, "n_")
	if isNamed {
		name = named
	} else if strings.HasPrefix(name, "v") {
		if n, err := strconv.Atoi(name[1:]); err == nil {
			for i := range p.args {
				if p.args[i].Ordinal == n && p.args[i].Name == "" {
					a = &p.args[i]
				}
			}
			if a == nil && n >= 1 && n <= len(p.args) && p.args[n-1].Name == "" {
				a = &p.args[n-1]
			}
			if a == nil {
				return nil, errorf("no value for parameter $%d (%d given)", n, len(p.args))
			}
		}
	}
	if a == nil {
		for i := range p.args {
			if strings.EqualFold(p.args[i].Name, name) {
				a = &p.args[i]
			}
		}
		if a == nil {
			return nil, errorf("no value for parameter :%s", name)
		}
	}
	t, v, err := argScalar(a.Value)
	if err != nil {
		return nil, err
	}
	return &constExpr{t: t, v: v}, nil
}

func (p *planner) bindLogic(and bool, parts []sqlparser.Expr, sc *scope, agg *aggCtx) (expr, error) {
	var terms []expr
	for _, part := range parts {
		e, err := p.bindBool(part, sc, agg)
		if err != nil {
			return nil, err
		}
		// Flatten nested ANDs / ORs. The first part's terms are taken over,
		// not copied: a left-deep chain of n ORs would copy O(n²) terms.
		var nested []expr
		switch x := e.(type) {
		case *andExpr:
			if and {
				nested = x.terms
			}
		case *orExpr:
			if !and {
				nested = x.terms
			}
		}
		if nested != nil {
			if terms == nil {
				terms = nested
			} else {
				terms = append(terms, nested...)
			}
			continue
		}
		terms = append(terms, e)
	}
	var e expr
	if and {
		e = &andExpr{terms: terms}
	} else {
		e = &orExpr{terms: terms}
	}
	return p.fold(e, terms...)
}

func (p *planner) bindBool(n sqlparser.Expr, sc *scope, agg *aggCtx) (expr, error) {
	e, err := p.bindExpr(n, sc, agg)
	if err != nil {
		return nil, err
	}
	return p.coerce(e, Type{Kind: KBool})
}

func (p *planner) bindComparison(x *sqlparser.ComparisonExpr, sc *scope, agg *aggCtx) (expr, error) {
	if t, ok := x.Left.(sqlparser.ValTuple); ok && len(t) > 1 {
		return p.bindRowComparison(x, t, sc, agg)
	}
	if f, ok := x.Right.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == globMarker || f.Name.Lowered() == similarMarker) {
		return p.bindPatternMatch(x, f, sc, agg)
	}
	l, err := p.bindExpr(x.Left, sc, agg)
	if err != nil {
		return nil, err
	}
	switch x.Operator {
	case sqlparser.InStr, sqlparser.NotInStr:
		not := x.Operator == sqlparser.NotInStr
		e, err := p.bindIn(l, x.Right, not, sc, agg)
		if sub, ok := x.Right.(*sqlparser.Subquery); ok && isCorrelated(err) {
			return p.bindCorrelated(corrIn, sub, x.Left, not, sc, agg)
		}
		return e, err
	}
	if f, ok := x.Right.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == anyMarker || f.Name.Lowered() == allMarker) {
		return p.bindQuantified(x, l, f, sc, agg)
	}
	r, err := p.bindExpr(x.Right, sc, agg)
	if err != nil {
		return nil, err
	}
	switch x.Operator {
	case sqlparser.LikeStr, sqlparser.NotLikeStr, sqlparser.RegexpStr, sqlparser.NotRegexpStr:
		fold := x.Operator == sqlparser.RegexpStr || x.Operator == sqlparser.NotRegexpStr
		not := x.Operator == sqlparser.NotLikeStr || x.Operator == sqlparser.NotRegexpStr
		if l, err = p.coerce(l, Type{Kind: KString}); err != nil {
			return nil, err
		}
		if r, err = p.coerce(r, Type{Kind: KString}); err != nil {
			return nil, err
		}
		e := &likeExpr{e: l, pat: r, not: not, fold: fold}
		if x.Escape != nil {
			esc, err := p.bindExpr(x.Escape, sc, agg)
			if err != nil {
				return nil, err
			}
			k, ok := isConst(esc)
			s, _ := k.v.(string)
			if !ok || len(s) != 1 {
				return nil, errorf("ESCAPE must be a single character")
			}
			e.esc = s[0]
		}
		if k, ok := isConst(r); ok {
			if k.v == nil {
				return &constExpr{t: Type{Kind: KBool}}, nil
			}
			e.m = compileLike(k.v.(string), e.esc, fold)
		}
		return p.fold(e, l, r)
	case sqlparser.JSONExtractOp, sqlparser.JSONUnquoteExtractOp:
		return nil, unsupported("the " + x.Operator + " operator") // the rewrite makes calls of them
	}
	op, ok := cmpOps[x.Operator]
	if !ok {
		return nil, unsupported("the " + x.Operator + " operator")
	}
	return p.compare(op, l, r)
}

// compare builds `l op r` after bringing both sides to one type, with
// constants on the right where possible.
func (p *planner) compare(op cmpOp, l, r expr) (expr, error) {
	if _, lc := isConst(l); lc {
		if _, rc := isConst(r); !rc {
			l, r, op = r, l, flipCmp(op)
		}
	}
	if k, ok := isConst(r); ok {
		if _, lc := isConst(l); !lc {
			if k2, ok := constInColumnType(op, l.typ(), k); ok {
				r = k2
			}
		}
	}
	l, r, err := p.unify(l, r)
	if err != nil {
		return nil, err
	}
	if _, lc := isConst(l); lc {
		if _, rc := isConst(r); !rc {
			l, r, op = r, l, flipCmp(op)
		}
	}
	e := &cmpExpr{op: op, l: l, r: r}
	e.setParts(l, " "+cmpNames[op]+" ", r)
	return p.fold(e, l, r)
}

func (p *planner) bindIn(l expr, right sqlparser.Expr, not bool, sc *scope, agg *aggCtx) (expr, error) {
	var items []expr
	switch rt := right.(type) {
	case sqlparser.ValTuple:
		for _, it := range rt {
			e, err := p.bindExpr(it, sc, agg)
			if err != nil {
				return nil, err
			}
			items = append(items, e)
		}
	case *sqlparser.Subquery:
		b, err := p.runSubquery(rt.Select, sc, -1)
		if err != nil {
			return nil, err
		}
		if len(b.Cols) != 1 {
			return nil, errorf("the subquery of IN returns %d columns, not 1", len(b.Cols))
		}
		// Each distinct value once: the test (and a scan's IN list) is
		// as long as the subquery's distinct values, not its rows.
		c := b.Cols[0]
		seen := make(map[string]struct{}, b.N)
		var key []byte
		for i := 0; i < b.N; i++ {
			key = appendKey(key[:0], c, i)
			if _, dup := seen[string(key)]; dup {
				continue
			}
			seen[string(key)] = struct{}{}
			items = append(items, &constExpr{t: c.T, v: c.get(i)})
		}
		if b.N == 0 {
			// x IN (empty) is false, even for NULL x.
			return &constExpr{t: Type{Kind: KBool}, v: not}, nil
		}
	case sqlparser.ListArg:
		return nil, unsupported("list arguments")
	default:
		return nil, unsupported("IN with " + sqlparser.String(right))
	}
	allConst := true
	for _, it := range items {
		if _, ok := isConst(it); !ok {
			allConst = false
		}
	}
	if !allConst {
		// x IN (a, b) with expressions: a disjunction of equalities.
		var terms []expr
		for _, it := range items {
			c, err := p.compare(opEq, l, it)
			if err != nil {
				return nil, err
			}
			terms = append(terms, c)
		}
		var e expr = &orExpr{terms: terms}
		if not {
			e = &notExpr{e: e}
		}
		return e, nil
	}
	// Constants: cast them to the column's type.
	target := l.typ()
	for _, it := range items {
		t := it.typ()
		if t.Kind == KNull {
			continue
		}
		u, err := unifyTypes(target, t)
		if err != nil {
			return nil, err
		}
		target = u
	}
	// Integers of any width compare as int64s: the column is not cast
	// (which would check every row for overflow, and keep the scan from
	// evaluating the list).
	if l.typ().Kind != KInt || target.Kind != KInt {
		var err error
		if l, err = p.cast(l, target); err != nil {
			return nil, err
		}
	}
	e := &inExpr{e: l, not: not}
	for _, it := range items {
		k := it.(*constExpr)
		if k.v == nil {
			e.hasNull = true
			continue
		}
		v, err := castScalar(k.v, k.t, target)
		if err != nil {
			return nil, asError(err)
		}
		e.vals = append(e.vals, v)
	}
	e.prepare()
	return p.fold(e, l)
}

// unifyTypes returns the type two operands are compared or combined in.
func unifyTypes(a, b Type) (Type, error) {
	ak, bk := a.op(), b.op()
	switch {
	case hugeint(a, b):
		return tHuge, nil
	case ak == bk:
		if ak == KDecimal {
			scale := max(a.Scale, b.Scale)
			prec := max(a.Prec-a.Scale, b.Prec-b.Scale) + scale
			return Type{Kind: KDecimal, Prec: min(prec, 38), Scale: scale}, nil
		}
		if ak == KInt {
			return Type{Kind: KInt, Bits: intWidth(a, b)}, nil
		}
		if ak == KFloat {
			return Type{Kind: KFloat}, nil
		}
		if ak == KString {
			return Type{Kind: KString, Bit: a.Bit && b.Bit}, nil
		}
		if a.Nanos != b.Nanos {
			// TIMESTAMP_NS with TIMESTAMP (TIME_NS with TIME): compared
			// exactly, in nanoseconds.
			a.Nanos = true
		}
		if a.Coarse != b.Coarse {
			// TIMESTAMP_S, TIMESTAMP_MS and TIMESTAMP meet in the finer
			// unit (DuckDB's rule); all count microseconds.
			a.Coarse = min(a.Coarse, b.Coarse)
			if a.Coarse == 0 || b.Coarse == 0 {
				a.Coarse = 0
			}
		}
		if a.Nanos {
			a.Coarse = 0
		}
		return a, nil
	case ak == KNull:
		return b, nil
	case bk == KNull:
		return a, nil
	case a.isNumeric() && b.isNumeric():
		switch {
		case ak == KUHuge || bk == KUHuge:
			// With unsigned and signed integers (a negative one fails
			// the cast), a UHUGEINT; with other numbers, a DOUBLE.
			o := b
			if bk == KUHuge {
				o = a
			}
			if o.op() == KInt || o.Kind == KUint {
				return tUHuge, nil
			}
			return Type{Kind: KFloat}, nil
		case ak == KFloat || bk == KFloat:
			return Type{Kind: KFloat}, nil
		case ak == KDecimal || bk == KDecimal:
			d, o := a, b
			if bk == KDecimal {
				d, o = b, a
			}
			digits := 19
			if o.op() == KUint {
				digits = 20
			}
			scale := d.Scale
			prec := max(d.Prec-d.Scale, digits) + scale
			if prec > 38 {
				return Type{Kind: KFloat}, nil
			}
			return Type{Kind: KDecimal, Prec: prec, Scale: scale}, nil
		default: // int with ubigint
			return Type{Kind: KDecimal, Prec: 20, Scale: 0}, nil
		}
	case ak == KString && b.Kind != KNested:
		return withoutField(b), nil
	case bk == KString && a.Kind != KNested:
		return withoutField(a), nil
	case ak == KDate && bk == KTimestamp || ak == KTimestamp && bk == KDate:
		// A DATE meets TIMESTAMP_S and TIMESTAMP_MS in their own type.
		return Type{Kind: KTimestamp, Coarse: a.Coarse + b.Coarse}, nil
	}
	return Type{}, errorf("cannot compare %s with %s", a.SQLName(), b.SQLName())
}

func withoutField(t Type) Type { t.Field = nil; return t }

// unify casts two operands to their common type.
func (p *planner) unify(l, r expr) (expr, expr, error) {
	lt, rt := l.typ(), r.typ()
	if lt.op() == rt.op() && lt.op() != KDecimal && lt.Nanos == rt.Nanos {
		return l, r, nil
	}
	if lt.op() == KDecimal && rt.op() == KDecimal && lt.Scale == rt.Scale && lt.Prec <= 18 == (rt.Prec <= 18) {
		return l, r, nil
	}
	t, err := unifyTypes(lt, rt)
	if err != nil {
		return nil, nil, err
	}
	// Compare a column with a constant in the column's own type when the
	// constant converts exactly (keeps the typed fast path and pushdown).
	if k, ok := isConst(r); ok && k.v != nil && lt.Kind != KNested {
		if lt.op() == KInt && rt.Kind == KDecimal || lt.op() == KInt && rt.Kind == KFloat {
			// 3 = 3.0 compares as integers; 3 = 3.5 must not.
			if v, err := castScalar(k.v, rt, lt); err == nil {
				if back, err := castScalar(v, lt, rt); err == nil && compareScalars(rt, back, k.v) == 0 {
					return l, &constExpr{t: lt, v: v}, nil
				}
			}
		} else if rt.op() == KString {
			if _, lc := isConst(l); !lc {
				c, err := p.cast(r, withoutField(lt))
				return l, c, err
			}
		}
	}
	if k, ok := isConst(l); ok && k.v != nil && lt.op() == KString && rt.Kind != KNested {
		c, err := p.cast(l, withoutField(rt))
		return c, r, err
	}
	if l, err = p.cast(l, t); err != nil {
		return nil, nil, err
	}
	if r, err = p.cast(r, t); err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

// coerce casts e to t implicitly.
func (p *planner) coerce(e expr, t Type) (expr, error) {
	et := e.typ()
	if et.op() == t.op() || et.Kind == KNull {
		if et.Kind == KNull {
			return p.cast(e, t)
		}
		return e, nil
	}
	if t.Kind == KBool && et.op() != KString && et.op() != KInt {
		return nil, errorf("%s is %s, not BOOLEAN", e.String(), et.SQLName())
	}
	return p.cast(e, t)
}

// cast converts e to t, folding constants.
func (p *planner) cast(e expr, t Type) (expr, error) {
	et := e.typ()
	if loc := p.set.tz; loc != nil && (et.TZ || t.TZ) {
		// TIMESTAMPTZ and wall times meet in the TimeZone (timezone.go).
		if out, ok, err := p.zoneCast(e, t, loc); ok {
			return out, err
		}
	}
	if et.Kind == t.Kind && et.Kind != KDecimal && !(t.op() == KInt && t.Bits != 0 && t.Bits < 64) && sameNested(et, t) && sameUnit(et, t) &&
		!(t.Kind == KInt && et.Bits != 0 && et.Bits < 64) && et.Coarse == t.Coarse && et.TZ == t.TZ && et.Bit == t.Bit {
		return e, nil
	}
	if et.Kind == KDecimal && t.Kind == KDecimal && et.Scale == t.Scale && et.Prec <= 18 == (t.Prec <= 18) && t.Prec >= et.Prec {
		return e, nil
	}
	if k, ok := isConst(e); ok {
		v, err := castScalar(k.v, k.t, t)
		if err != nil {
			return nil, asError(err)
		}
		return &constExpr{named: named{text: k.text, node: k.node, parts: k.parts}, t: t, v: v}, nil
	}
	c := &castExpr{e: e, to: t}
	c.setParts("CAST(", e, " AS "+t.SQLName()+")")
	return c, nil
}

// bindConvert binds the operand and the target type of CAST(x AS t).
func (p *planner) bindConvert(x *sqlparser.ConvertExpr, sc *scope, agg *aggCtx) (expr, Type, error) {
	e, err := p.bindExpr(x.Expr, sc, agg)
	if err != nil {
		return nil, Type{}, err
	}
	t, err := convertType(x.Type)
	return e, t, err
}

// bindTryCast binds TRY_CAST(x AS t) (rewritten as tryMarker(CAST(x AS
// t))): a CAST whose values that do not convert are NULL instead of an
// error.
func (p *planner) bindTryCast(x *sqlparser.FuncExpr, sc *scope, agg *aggCtx) (expr, error) {
	var conv *sqlparser.ConvertExpr
	if len(x.Exprs) == 1 {
		if ae, ok := x.Exprs[0].(*sqlparser.AliasedExpr); ok {
			conv, _ = ae.Expr.(*sqlparser.ConvertExpr)
		}
	}
	if conv == nil {
		return nil, errorf("bad TRY_CAST")
	}
	e, t, err := p.bindConvert(conv, sc, agg)
	if err != nil {
		return nil, err
	}
	if k, ok := isConst(e); ok {
		if _, isList := listElem(t); isList {
			v, err := castScalarTry(k.v, k.t, t, true)
			if err != nil {
				v = nil
			}
			return &constExpr{t: t, v: v}, nil
		}
	}
	c, err := p.cast(e, t)
	if err == nil {
		if ce, ok := c.(*castExpr); ok {
			ce.try = true
			ce.setText("TRY_" + ce.String())
		}
		return c, nil
	}
	if _, ok := isConst(e); ok {
		return &constExpr{t: t}, nil // a constant that does not convert
	}
	return nil, err
}

// arith types and builds an arithmetic expression.
// isIntKind reports whether t is a signed or unsigned integer type.
func isIntKind(t Type) bool { return t.Kind == KInt || t.Kind == KUint }

func (p *planner) arith(op byte, l, r expr) (expr, error) {
	var err error
	if l, err = p.micros(l); err != nil {
		return nil, err
	}
	if r, err = p.micros(r); err != nil {
		return nil, err
	}
	lt, rt := l.typ(), r.typ()
	if lt.Kind == KNull || rt.Kind == KNull {
		t := lt
		if lt.Kind == KNull {
			t = rt
		}
		if t.Kind == KNull {
			t = Type{Kind: KInt}
		}
		return &constExpr{t: t}, nil
	}
	// Strings in arithmetic are numbers (or dates) given as text.
	if lt.op() == KString {
		if _, ok := isConst(l); ok {
			if rt.isNumeric() {
				// Text that is not a number is an error ('' + 1 dereferenced
				// the nil the failed cast returned — found by FuzzQuery).
				var err error
				if l, err = p.cast(l, Type{Kind: KFloat}); err != nil {
					return nil, err
				}
			}
		}
	}
	if rt.op() == KString {
		if _, ok := isConst(r); ok {
			switch {
			case rt.op() == KString && (lt.Kind == KTimestamp || lt.Kind == KDate):
				var err error
				if r, err = p.cast(r, Type{Kind: KInterval}); err != nil {
					return nil, err
				}
			case lt.isNumeric():
				var err error
				if r, err = p.cast(r, Type{Kind: KFloat}); err != nil {
					return nil, err
				}
			}
		}
	}
	lt, rt = l.typ(), r.typ()
	if op == '*' && (lt.Kind == KInterval) != (rt.Kind == KInterval) {
		// n * INTERVAL of constants: each part times n.
		iv, n := l, r
		if rt.Kind == KInterval {
			iv, n = r, l
		}
		ik, ok1 := isConst(iv)
		nk, ok2 := isConst(n)
		if ok1 && ok2 && nk.t.op() == KInt {
			x, isIv := ik.v.(interval)
			m, isInt := nk.v.(int64)
			if isIv && isInt {
				return &constExpr{t: Type{Kind: KInterval}, v: x.mulInt(m)}, nil
			}
		}
		if ok1 {
			if x, isIv := ik.v.(interval); isIv && n.typ().isNumeric() {
				return p.scaledInterval(n, x, n.String()+" * "+iv.String())
			}
		}
		if n.typ().isNumeric() {
			return scaleIntervalCol(iv, n, false), nil
		}
		return nil, errorf("cannot compute %s * %s", lt.SQLName(), rt.SQLName())
	}
	if op == '/' && lt.Kind == KInterval && rt.isNumeric() {
		return scaleIntervalCol(l, r, true), nil
	}
	if lt.Kind == KInterval && rt.Kind == KInterval && (op == '+' || op == '-') {
		lv, lIv := constInterval(l)
		rv, rIv := constInterval(r)
		if lIv && rIv {
			// Constants keep their months (for date arithmetic).
			if op == '-' {
				rv = rv.neg()
			}
			return &constExpr{t: lt, v: lv.add(rv)}, nil
		}
	}
	var t Type
	lk, rk := lt.op(), rt.op()
	switch {
	case lk == KDate && (rk == KInt) && (op == '+' || op == '-'):
		t = Type{Kind: KDate}
	case lk == KInt && rk == KDate && op == '+':
		t = Type{Kind: KDate}
	case lk == KDate && rk == KDate && op == '-':
		t = Type{Kind: KInt}
	case (lk == KTimestamp || lk == KDate) && rk == KInterval && (op == '+' || op == '-'):
		t = Type{Kind: KTimestamp}
	case lk == KTime && rk == KInterval && (op == '+' || op == '-'):
		t = Type{Kind: KTime}
	case lk == KTimeTZ && rk == KInterval && (op == '+' || op == '-'):
		t = tTimeTZ
	case lk == KInterval && (rk == KTimestamp || rk == KDate) && op == '+':
		l, r = r, l
		t = Type{Kind: KTimestamp}
	case lk == KTimestamp && rk == KTimestamp && op == '-':
		t = Type{Kind: KInterval}
	case lk == KInterval && rk == KInterval && (op == '+' || op == '-'):
		t = Type{Kind: KInterval}
	case (lk == KUHuge || rk == KUHuge) && lt.isNumeric() && rt.isNumeric():
		if (op == '+' || op == '-' || op == '*') && (lk == KDecimal && !lt.Huge || rk == KDecimal && !rt.Huge) {
			// With a DECIMAL, as DuckDB: the UHUGEINT as a DECIMAL(38,0).
			dec := Type{Kind: KDecimal, Prec: 38}
			var err error
			if lk == KUHuge {
				l, err = p.cast(l, dec)
			} else {
				r, err = p.cast(r, dec)
			}
			if err != nil {
				return nil, err
			}
			return p.arith(op, l, r)
		}
		t = Type{Kind: KFloat}
		if op != '/' && uhugeOperand(l) && uhugeOperand(r) {
			t = tUHuge
			var err error
			if l, err = p.cast(l, tUHuge); err != nil {
				return nil, err
			}
			if r, err = p.cast(r, tUHuge); err != nil {
				return nil, err
			}
			break
		}
		var err error
		if l, err = p.cast(l, t); err != nil {
			return nil, err
		}
		if r, err = p.cast(r, t); err != nil {
			return nil, err
		}
	case lt.isNumeric() && rt.isNumeric():
		switch {
		case op == '/':
			t = Type{Kind: KFloat}
		case op == 'd':
			// x // y (DIV): integer division, truncating; on other
			// numbers DuckDB's // divides (7.5 // 2 is 3.75).
			if hugeint(lt, rt) {
				t = tHuge
				break
			}
			if lk == KFloat || rk == KFloat || lk == KDecimal || rk == KDecimal || lk == KUint || rk == KUint {
				return p.arith('/', l, r)
			}
			t = Type{Kind: KInt, Bits: literalWidth(l, r)}
		case lk == KFloat || rk == KFloat:
			t = Type{Kind: KFloat}
		case lk == KDecimal || rk == KDecimal:
			ls, rs := scaleOf(lt), scaleOf(rt)
			lp, rp := operandPrec(l, lt), operandPrec(r, rt)
			switch op {
			case '*':
				// DuckDB's rule: two operands of at most 18 digits multiply
				// in 64 bits as DECIMAL(18, s1+s2), an overflow being an
				// error; wider ones as DECIMAL(min(38, p1+p2), s1+s2).
				prec := lp + rp
				if prec > 18 && lp <= 18 && rp <= 18 && ls+rs < 18 {
					prec = 18
				}
				t = Type{Kind: KDecimal, Scale: ls + rs, Prec: min(38, prec)}
			default:
				s := max(ls, rs)
				t = Type{Kind: KDecimal, Scale: s, Prec: min(38, max(lp-ls, rp-rs)+s+1)}
			}
			if hugeint(lt, rt) {
				t = tHuge // HUGEINT with integers stays HUGEINT
			}
			if t.Prec <= 18 {
				var err error
				if l, err = p.cast(l, decType(lt)); err != nil {
					return nil, err
				}
				if r, err = p.cast(r, decType(rt)); err != nil {
					return nil, err
				}
			}
		case lk == KUint || rk == KUint:
			t = Type{Kind: KFloat}
		default:
			t = Type{Kind: KInt, Bits: literalWidth(l, r)}
		}
		if t.Kind == KFloat {
			var err error
			if l, err = p.cast(l, Type{Kind: KFloat}); err != nil {
				return nil, err
			}
			if r, err = p.cast(r, Type{Kind: KFloat}); err != nil {
				return nil, err
			}
		}
	default:
		return nil, errorf("cannot compute %s %c %s", lt.SQLName(), op, rt.SQLName())
	}
	e := &arithExpr{op: op, l: l, r: r, t: t}
	e.setParts(l, " "+opSymbol(op)+" ", r)
	return p.fold(e, l, r)
}

// intWidth is the width in bits of integer arithmetic on a and b (0 for
// 64): the wider operand's, as DuckDB (INTEGER + INTEGER is an INTEGER
// that overflows past 2^31); unsigned narrow integers count as 64.
func intWidth(a, b Type) int {
	w := func(t Type) int {
		if t.Kind != KInt || t.Bits == 0 {
			return 64
		}
		return t.Bits
	}
	if bits := max(w(a), w(b)); bits < 64 {
		return bits
	}
	return 0
}

// literalWidth is intWidth of l and r, where an integer literal takes the
// other operand's narrower width when it fits it (DuckDB lets a literal
// cast implicitly: SMALLINT * 2 is a SMALLINT, TINYINT + 1000 an INTEGER).
func literalWidth(l, r expr) int {
	lt, rt := l.typ(), r.typ()
	lv, lLit := intLiteral(l)
	rv, rLit := intLiteral(r)
	fits := func(v int64, t Type) bool {
		if t.Kind != KInt || t.Bits == 0 || t.Bits >= 32 {
			return false
		}
		lim := int64(1) << (t.Bits - 1)
		return v >= -lim && v < lim
	}
	switch {
	case lLit && !rLit && fits(lv, rt):
		lt = rt
	case rLit && !lLit && fits(rv, lt):
		rt = lt
	}
	return intWidth(lt, rt)
}

// intLiteral reports an integer literal as written (not a CAST) and its
// value.
func intLiteral(e expr) (int64, bool) {
	k, ok := isConst(e)
	if !ok || k.t.Kind != KInt || k.t.Bits != 0 && k.t.Bits < 32 {
		return 0, false // a CAST to a narrow type is no literal
	}
	v, ok := k.v.(int64)
	if !ok {
		return 0, false
	}
	text, ok := shortText(&k.named)
	return v, ok && text == strconv.FormatInt(v, 10)
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
			if k, isConst := p.(*constExpr); isConst {
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

// hugeint reports operands of which one is a HUGEINT and the other a
// HUGEINT or an integer (UBIGINT too): DuckDB computes them as HUGEINT.
func hugeint(a, b Type) bool {
	intLike := func(t Type) bool { return t.Huge || t.op() == KInt || t.Kind == KUint }
	return (a.Huge || b.Huge) && intLike(a) && intLike(b)
}

func mustArith(p *planner, op byte, l, r expr) expr {
	e, err := p.arith(op, l, r)
	if err != nil {
		return &constExpr{t: Type{Kind: KFloat}}
	}
	return e
}

func precOf(t Type) int {
	switch t.op() {
	case KDecimal:
		return t.Prec
	case KInt:
		switch t.Bits {
		case 8:
			return 3
		case 16:
			return 5
		case 32:
			return 10
		}
		return 19
	}
	return 20
}

// operandPrec is the precision an operand of decimal arithmetic counts
// with: an integer constant's digits (as DuckDB types an integer literal
// by its value), else its type's.
func operandPrec(e expr, t Type) int {
	if k, ok := isConst(e); ok && t.op() == KInt {
		if v, ok := k.v.(int64); ok {
			digits := 1
			for a := v; a >= 10 || a <= -10; a /= 10 {
				digits++
			}
			return digits
		}
	}
	return precOf(t)
}

// decType is the decimal type an integer or decimal operand computes in.
func decType(t Type) Type {
	if t.Kind == KDecimal {
		return t
	}
	return Type{Kind: KDecimal, Prec: 18, Scale: 0}
}

func (p *planner) bindCase(x *sqlparser.CaseExpr, sc *scope, agg *aggCtx) (expr, error) {
	var subject expr
	if x.Expr != nil {
		var err error
		if subject, err = p.bindExpr(x.Expr, sc, agg); err != nil {
			return nil, err
		}
	}
	e := &caseExpr{}
	var vals []expr
	for _, w := range x.Whens {
		var cond expr
		var err error
		if subject != nil {
			v, err := p.bindExpr(w.Cond, sc, agg)
			if err != nil {
				return nil, err
			}
			if cond, err = p.compare(opEq, subject, v); err != nil {
				return nil, err
			}
		} else if cond, err = p.bindBool(w.Cond, sc, agg); err != nil {
			return nil, err
		}
		v, err := p.bindExpr(w.Val, sc, agg)
		if err != nil {
			return nil, err
		}
		e.conds = append(e.conds, cond)
		vals = append(vals, v)
	}
	if x.Else != nil {
		v, err := p.bindExpr(x.Else, sc, agg)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	t, err := commonType(vals)
	if err != nil {
		return nil, err
	}
	for i := range vals {
		if vals[i], err = p.cast(vals[i], t); err != nil {
			return nil, err
		}
	}
	e.t = t
	e.vals = vals[:len(e.conds)]
	if x.Else != nil {
		e.els = vals[len(vals)-1]
	}
	return e, nil
}

// commonType is the type several values (CASE branches, COALESCE
// arguments) are brought to.
func commonType(vals []expr) (Type, error) {
	t := Type{Kind: KNull}
	for _, v := range vals {
		vt := v.typ()
		if t.Kind == KNull {
			t = withoutField(vt)
			if vt.Kind == KNested {
				t = vt
			}
			continue
		}
		if vt.Kind == KNull {
			continue
		}
		if vt.op() == KString && t.op() != KString {
			if _, ok := isConst(v); ok {
				continue
			}
			t = Type{Kind: KString}
			continue
		}
		if t.op() == KString && vt.op() != KString {
			t = Type{Kind: KString}
			continue
		}
		u, err := unifyTypes(t, vt)
		if err != nil {
			return Type{}, err
		}
		t = u
	}
	if t.Kind == KNull {
		t = Type{Kind: KInt}
	}
	return t, nil
}

func (p *planner) bindInterval(x *sqlparser.IntervalExpr, sc *scope, agg *aggCtx) (expr, error) {
	e, err := p.bindExpr(x.Expr, sc, agg)
	if err != nil {
		return nil, err
	}
	k, ok := isConst(e)
	if !ok {
		unit, err := makeInterval(1, x.Unit)
		if err != nil {
			return nil, err
		}
		return p.scaledInterval(e, unit, "INTERVAL ("+e.String()+") "+strings.ToUpper(x.Unit))
	}
	f, err := castScalar(k.v, k.t, Type{Kind: KFloat})
	if err != nil {
		return nil, asError(err)
	}
	n, _ := f.(float64)
	iv, err := makeInterval(n, x.Unit)
	if err != nil {
		return nil, err
	}
	return &constExpr{t: Type{Kind: KInterval}, v: iv}, nil
}

// scaledInterval is n times the interval unit, n an expression, as
// interval.scale (a fraction of a month carries into days).
func (p *planner) scaledInterval(n expr, unit interval, text string) (expr, error) {
	f, err := p.cast(n, tFloat)
	if err != nil {
		return nil, err
	}
	e := &funcExpr{name: "interval", args: []expr{f}, t: Type{Kind: KInterval}, strict: true, row: func(a []*Col, i int) (any, error) {
		iv, ok := unit.scale(a[0].F[i])
		if !ok {
			return nil, errorf("the interval is out of range")
		}
		return iv, nil
	}}
	e.setText(text)
	return e, nil
}

// parseIntervalText reads an interval written as parts: "1 year 2 months
// 3 days", "-2 hours", "1 day 04:05:06.5", "04:05".
func parseIntervalText(s string) (interval, error) {
	var iv interval
	f := strings.Fields(strings.ToLower(s))
	for i := 0; i < len(f); i++ {
		if strings.Contains(f[i], ":") {
			t := f[i]
			neg := strings.HasPrefix(t, "-")
			t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
			parts := strings.Split(t, ":")
			if len(parts) < 2 || len(parts) > 3 {
				return interval{}, errorf("invalid interval %q", s)
			}
			var us float64
			for k, mult := range []float64{3600e6, 60e6, 1e6}[:len(parts)] {
				x, err := strconv.ParseFloat(parts[k], 64)
				if err != nil {
					return interval{}, errorf("invalid interval %q", s)
				}
				us += x * mult
			}
			if neg {
				us = -us
			}
			iv.micros += int64(math.Round(us))
			continue
		}
		n, err := strconv.ParseFloat(f[i], 64)
		if err != nil || i+1 >= len(f) {
			return interval{}, errorf("invalid interval %q", s)
		}
		i++
		part, err := makeInterval(n, f[i])
		if err != nil {
			return interval{}, err
		}
		iv = iv.add(part)
	}
	return iv, nil
}

// fractional is n times a unit of days or months; a fraction carries
// into the smaller parts (1.5 months is 1 month 15 days).
func fractional(unit interval, n float64) (interval, error) {
	iv, ok := unit.scale(n)
	if !ok {
		return interval{}, errorf("the interval is out of range")
	}
	return iv, nil
}

func makeInterval(n float64, unit string) (interval, error) {
	u := strings.TrimSuffix(strings.ToLower(unit), "s")
	switch u {
	case "microsecond", "us":
		return interval{micros: int64(n)}, nil
	case "millisecond", "ms":
		return interval{micros: int64(n * 1e3)}, nil
	case "second", "sec":
		return interval{micros: int64(n * 1e6)}, nil
	case "minute", "min":
		return interval{micros: int64(n * 60e6)}, nil
	case "hour", "h":
		return interval{micros: int64(n * 3600e6)}, nil
	case "day", "d":
		return fractional(interval{days: 1}, n)
	case "week":
		return fractional(interval{days: 7}, n)
	case "month":
		return fractional(interval{months: 1}, n)
	case "quarter":
		return fractional(interval{months: 3}, n)
	case "year":
		return fractional(interval{months: 12}, n)
	}
	return interval{}, errorf("unknown interval unit %q", unit)
}

// convertType decodes the type of a CAST as the rewrite layer spelled it.
func convertType(ct *sqlparser.ConvertType) (Type, error) {
	name := strings.ToLower(ct.Type)
	var params []int
	for _, v := range []*sqlparser.SQLVal{ct.Length, ct.Scale} {
		if v != nil {
			n, _ := strconv.Atoi(string(v.Val))
			params = append(params, n)
		}
	}
	if name == "char" && len(params) == 1 {
		if t, ok := castCodeType(params[0]); ok {
			return t, nil
		}
	}
	switch name {
	case "char", "nchar":
		return Type{Kind: KString}, nil
	case "binary":
		return Type{Kind: KBytes}, nil
	case "datetime":
		return Type{Kind: KTimestamp}, nil
	case "unsigned":
		return Type{Kind: KUint, Bits: 64}, nil
	case "signed":
		return Type{Kind: KInt, Bits: 64}, nil
	}
	t, err := parseTypeName(name, params)
	if err != nil {
		return Type{}, asError(err)
	}
	return t, nil
}

// argScalar converts an argument value into a typed scalar.
func argScalar(v any) (Type, any, error) {
	switch x := v.(type) {
	case nil:
		return Type{Kind: KNull}, nil, nil
	case int64:
		return Type{Kind: KInt}, x, nil
	case int:
		return Type{Kind: KInt}, int64(x), nil
	case int32:
		return Type{Kind: KInt}, int64(x), nil
	case int16:
		return Type{Kind: KInt}, int64(x), nil
	case int8:
		return Type{Kind: KInt}, int64(x), nil
	case uint8:
		return Type{Kind: KInt}, int64(x), nil
	case uint16:
		return Type{Kind: KInt}, int64(x), nil
	case uint32:
		return Type{Kind: KInt}, int64(x), nil
	case uint:
		return argScalar(uint64(x))
	case uint64:
		if x <= math.MaxInt64 {
			return Type{Kind: KInt}, int64(x), nil
		}
		return Type{Kind: KUint, Bits: 64}, x, nil
	case float64:
		return Type{Kind: KFloat}, x, nil
	case float32:
		return Type{Kind: KFloat}, float64(x), nil
	case bool:
		return Type{Kind: KBool}, x, nil
	case string:
		return Type{Kind: KString}, x, nil
	case []byte:
		return Type{Kind: KBytes}, append([]byte(nil), x...), nil
	case value.Decimal:
		s := int(x.Scale)
		if s < 0 {
			s = 0
		}
		p := len(strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(x.String(), "-"), ".", ""), "0"))
		if s == 0 && p > 38 && x.Unscaled != nil {
			// An integer past 38 digits: a HUGEINT or UHUGEINT when it fits.
			switch {
			case tHuge.fitsBig(x.Unscaled):
				return tHuge, value.Decimal{Unscaled: x.Unscaled}, nil
			case x.Unscaled.Sign() > 0 && x.Unscaled.Cmp(maxUHuge) <= 0:
				return tUHuge, value.Decimal{Unscaled: x.Unscaled}, nil
			}
		}
		t := Type{Kind: KDecimal, Prec: min(38, max(p, s+1)), Scale: s}
		out, err := fitDecimal(x, t)
		if err != nil {
			return Type{}, nil, asError(err)
		}
		return t, out, nil
	}
	if t, ok := v.(time.Time); ok && t.Nanosecond()%1000 != 0 {
		// Nanosecond digits: kept, so a TIMESTAMP_NS compares exactly.
		if ns, err := timeToNanos(t); err == nil {
			return Type{Kind: KTimestamp, TZ: true, Nanos: true}, ns, nil
		}
	}
	if t, ok := v.(interface{ UnixMicro() int64 }); ok {
		return Type{Kind: KTimestamp, TZ: true}, t.UnixMicro(), nil
	}
	return Type{}, nil, errorf("unsupported argument type %T", v)
}

// bindPatternMatch binds x [NOT] GLOB p and x [NOT] SIMILAR TO p, which
// the rewrite made x [NOT] LIKE marker(p): regexp_full_match(x, p), the
// GLOB pattern first made a regular expression (by the function of the
// marker's name, folded for a constant).
func (p *planner) bindPatternMatch(x *sqlparser.ComparisonExpr, f *sqlparser.FuncExpr, sc *scope, agg *aggCtx) (expr, error) {
	if len(f.Exprs) != 1 || x.Escape != nil {
		return nil, errorf("GLOB and SIMILAR TO take one pattern")
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, errorf("GLOB and SIMILAR TO take one pattern")
	}
	pat := ae.Expr
	if f.Name.Lowered() == globMarker {
		pat = f // the marker is also the function from GLOB pattern to regular expression
	}
	var e sqlparser.Expr = &sqlparser.FuncExpr{Name: sqlparser.NewColIdent("regexp_full_match"),
		Exprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: x.Left}, &sqlparser.AliasedExpr{Expr: pat}}}
	if x.Operator == sqlparser.NotLikeStr {
		e = &sqlparser.NotExpr{Expr: e}
	}
	return p.bindExpr(e, sc, agg)
}

// globRegexp returns the regular expression of a GLOB pattern: * any
// characters, ? one, [abc] [a-z] [!abc] a class, anything else itself.
func globRegexp(g string) string {
	var b strings.Builder
	b.WriteString("(?s)")
	for i := 0; i < len(g); {
		switch c := g[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end == 0 && i+2 < len(g) { // []...] : ] first is a member
				if e := strings.IndexByte(g[i+2:], ']'); e >= 0 {
					end = e + 1
				}
			}
			if end < 0 {
				b.WriteString(`\[`)
				break
			}
			class := g[i+1 : i+1+end]
			b.WriteByte('[')
			if strings.HasPrefix(class, "!") {
				b.WriteByte('^')
				class = class[1:]
			}
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(class, `\`, `\\`), "[", `\[`))
			b.WriteByte(']')
			i += end + 2
			continue
		default:
			r, n := utf8.DecodeRuneInString(g[i:])
			b.WriteString(regexp.QuoteMeta(string(r)))
			i += n
			continue
		}
		i++
	}
	return b.String()
}

// opChainOperator maps the operators that DuckDB, like PostgreSQL, gives
// one precedence, below + and *, applied left to right (||, |, &, << and
// >>), to the functions that apply them. The parser gives them MySQL's
// precedences instead; bindOpChain applies them in DuckDB's order. Bitwise
// OR is found by bitOrOperand.
var opChainOperator = map[string]string{
	sqlparser.BitOrStr:      "concat_op",
	sqlparser.BitAndStr:     "bit_and_op",
	sqlparser.ShiftLeftStr:  "shift_left",
	sqlparser.ShiftRightStr: "shift_right",
}

// bindOpChain binds a chain of opChainOperator operators, as parsed from
// left to right, folding it from the left.
func (p *planner) bindOpChain(x *sqlparser.BinaryExpr, sc *scope, agg *aggCtx) (expr, error) {
	var operands []sqlparser.Expr
	var ops []string
	var flatten func(e sqlparser.Expr)
	flatten = func(e sqlparser.Expr) {
		if b, ok := e.(*sqlparser.BinaryExpr); ok && opChainOperator[b.Operator] != "" {
			flatten(b.Left)
			ops = append(ops, b.Operator)
			flatten(b.Right)
			return
		}
		operands = append(operands, e)
	}
	flatten(x)
	acc, err := p.bindExpr(operands[0], sc, agg)
	if err != nil {
		return nil, err
	}
	for i, op := range ops {
		fn, operand := opChainOperator[op], operands[i+1]
		if op == sqlparser.BitOrStr {
			var bitOr bool
			if operand, bitOr = bitOrOperand(operand); bitOr {
				fn = "bit_or_op"
			}
		}
		r, err := p.bindExpr(operand, sc, agg)
		if err != nil {
			return nil, err
		}
		if fn == "concat_op" && isListConcat(acc, r) {
			if acc, err = p.bindListConcatOp(acc, r); err != nil {
				return nil, err
			}
			continue
		}
		if acc, err = p.bindFunc(fn, []expr{acc, r}); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// bitOrOperand tells a bitwise OR from a concatenation, which the parser
// reads as the same | operator: the rewrite marks the right operand of a
// single | by putting BINARY before its first term. Operators that bind
// tighter than | leave that term at the end of the left spine of the
// right operand; bitOrOperand returns the operand without the marker, and
// whether it was there.
func bitOrOperand(e sqlparser.Expr) (sqlparser.Expr, bool) {
	switch x := e.(type) {
	case *sqlparser.UnaryExpr:
		if x.Operator == sqlparser.BinaryStr {
			return x.Expr, true
		}
	case *sqlparser.BinaryExpr:
		if l, ok := bitOrOperand(x.Left); ok {
			c := *x
			c.Left = l
			return &c, true
		}
	}
	return e, false
}
