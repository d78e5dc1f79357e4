package plan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"regexp"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// castTypeName matches the parser's spelling of a cast's type in the
// rewrite layer's casts, convert(x, char(9000NN)) and the like.
var castTypeName = regexp.MustCompile(`^(char\(9\d{5}\)|decimal\(\d+, \d+\)|[a-z]+)$`)

// unmarkCasts names the rewrite layer's casts as the user wrote them:
// convert(x, char(9000NN)) reads CAST(x AS TYPE), nested ones too.
func unmarkCasts(s string) string {
	const open = "convert("
	for from := 0; ; {
		i := strings.Index(s[from:], open)
		if i < 0 {
			return s
		}
		i += from
		args, end := parse.SplitCallArgs(s, i+len(open))
		if end < 0 || len(args) != 2 || !castTypeName.MatchString(args[1]) || i > 0 && parse.IsIdentByte(s[i-1]) {
			from = i + len(open)
			continue
		}
		t := args[1]
		if strings.HasPrefix(t, "char(") {
			if n, err := strconv.Atoi(t[5 : len(t)-1]); err == nil {
				if ct, ok := function.CastCodeType(n); ok {
					t = ct.SQLName()
				}
			}
		}
		repl := "CAST(" + unmarkCasts(args[0]) + " AS " + strings.ToUpper(t) + ")"
		s = s[:i] + repl + s[end:]
		from = i + len(repl)
	}
}

func colNullable(c *ScopeCol) bool {
	if c.Rel != nil && c.Rel.nullExtended {
		return true
	}
	if c.T.Field != nil {
		return c.T.Field.Nullable || strings.Contains(c.Name, ".")
	}
	return true
}

func andOf(es []Expr) Expr {
	if len(es) == 1 {
		return es[0]
	}
	e := &AndExpr{Terms: es}
	e.setText(exprList(es))
	return e
}

// groupTarget resolves GROUP BY 1 and GROUP BY alias to select items.
func (p *Planner) groupTarget(g sqlparser.Expr, items sqlparser.SelectExprs, sc *Scope) sqlparser.Expr {
	if v, ok := g.(*sqlparser.SQLVal); ok && v.Type == sqlparser.IntVal {
		n, _ := strconv.Atoi(string(v.Val))
		if n >= 1 && n <= len(items) {
			if ae, ok := items[n-1].(*sqlparser.AliasedExpr); ok {
				return ae.Expr
			}
		}
		return g
	}
	if c, ok := g.(*sqlparser.ColName); ok && c.Qualifier.IsEmpty() {
		if _, err := p.resolve(sc, c); err == nil {
			return g
		}
		for _, it := range items {
			if ae, ok := it.(*sqlparser.AliasedExpr); ok && ae.As.EqualString(c.Name.Lowered()) {
				return ae.Expr
			}
		}
	}
	return g
}

// runSubquery plans and runs an uncorrelated subquery to completion.
func (p *Planner) runSubquery(stmt sqlparser.SelectStatement, outer *Scope, limit int) (*Batch, error) {
	sp, err := p.PlanSelect(stmt, outer)
	if err != nil {
		return nil, err
	}
	defer sp.Root.Close()
	types := make([]Type, len(sp.Cols))
	for i, c := range sp.Cols {
		types[i] = c.Type
	}
	root := sp.Root
	if limit >= 0 {
		root = &kernels.Limit{In: root, Limit: int64(limit)}
	}
	return Drain(p.Ctx, root, types)
}

func (p *Planner) scalarSubquery(x *sqlparser.Subquery, sc *Scope) (Expr, error) {
	b, err := p.runSubquery(x.Select, sc, 2)
	if err != nil {
		return nil, err
	}
	if len(b.Cols) != 1 {
		return nil, errorf("a scalar subquery must return one column, not %d", len(b.Cols))
	}
	if b.N > 1 {
		return nil, errorf("a scalar subquery returned more than one row")
	}
	t := b.Cols[0].T
	if b.N == 0 {
		return &ConstExpr{T: t}, nil
	}
	return &ConstExpr{T: t, V: b.Cols[0].Get(0)}, nil
}

// isMarker reports whether an expression is the rewrite layer's marker
// column (GROUP BY ALL, ORDER BY ALL).
func isMarker(e sqlparser.Expr, marker string) bool {
	c, ok := e.(*sqlparser.ColName)
	return ok && c.Qualifier.IsEmpty() && c.Name.String() == marker
}

// splitQualify takes the QUALIFY condition (parse.QualifyMarker(q)) out of a
// HAVING expression: HAVING parse.QualifyMarker(q), or (h) AND parse.QualifyMarker(q).
func splitQualify(e sqlparser.Expr) (rest, qualify sqlparser.Expr) {
	marker := func(e sqlparser.Expr) sqlparser.Expr {
		if f, ok := e.(*sqlparser.FuncExpr); ok && f.Name.Lowered() == parse.QualifyMarker && len(f.Exprs) == 1 {
			if ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr); ok {
				return ae.Expr
			}
		}
		return nil
	}
	if q := marker(e); q != nil {
		return nil, q
	}
	if a, ok := e.(*sqlparser.AndExpr); ok {
		if q := marker(a.Right); q != nil {
			return a.Left, q
		}
	}
	return e, nil
}

// qualifyAliases replaces, in a QUALIFY condition, the names of select
// items (AS aliases) that are not columns of the FROM clause by the items'
// expressions, so that QUALIFY rn = 1 filters on the item named rn.
func (p *Planner) qualifyAliases(q sqlparser.Expr, items sqlparser.SelectExprs, sc *Scope) sqlparser.Expr {
	aliases := map[string]sqlparser.Expr{}
	for _, it := range items {
		if ae, ok := it.(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() {
			aliases[ae.As.Lowered()] = ae.Expr
		}
	}
	q, _ = p.replaceAliases(q, aliases, sc)
	return q
}

// replaceAliases replaces the unqualified names in e that are keys of
// aliases and not columns in scope by their expressions (in parentheses).
// Subqueries and lambda bodies keep their names. It changes e in place
// (and returns it, or what replaced it), and says whether it did.
func (p *Planner) replaceAliases(e sqlparser.Expr, aliases map[string]sqlparser.Expr, sc *Scope) (sqlparser.Expr, bool) {
	names := p.aliasRefs(e, aliases, sc)
	changed := false
	for _, c := range names {
		// A copy: trees that share a node would make cycles when replaced
		// into again.
		if sub, ok := cloneExpr(aliases[c.Name.Lowered()]); ok {
			e, changed = sqlparser.ReplaceExpr(e, c, &sqlparser.ParenExpr{Expr: sub}), true
		}
	}
	return e, changed
}

// aliasRefs lists the names in e that replaceAliases replaces.
func (p *Planner) aliasRefs(e sqlparser.Expr, aliases map[string]sqlparser.Expr, sc *Scope) []*sqlparser.ColName {
	if len(aliases) == 0 || e == nil {
		return nil
	}
	var names []*sqlparser.ColName
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.FuncExpr:
			return x.Name.Lowered() != parse.LambdaMarker, nil
		case *sqlparser.ColName:
			if x.Qualifier.IsEmpty() && aliases[x.Name.Lowered()] != nil {
				if _, err := p.resolve(sc, x); err != nil {
					names = append(names, x)
				}
			}
		}
		return true, nil
	}, e)
	return names
}

// cloneExpr copies an expression (by printing and parsing it: sqlparser
// has no deep copy).
func cloneExpr(e sqlparser.Expr) (sqlparser.Expr, bool) {
	st, err := sqlparser.Parse("select " + sqlparser.String(e))
	if err != nil {
		return nil, false
	}
	sel, ok := st.(*sqlparser.Select)
	if !ok || len(sel.SelectExprs) != 1 {
		return nil, false
	}
	ae, ok := sel.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, false
	}
	return ae.Expr, true
}

// lateralAliases lets a select item use the aliases of the items before
// it, and WHERE those of every item, where the names are not columns (as
// DuckDB does): SELECT amount * 2 AS d, d + 1 ... WHERE d > 10. An item
// changed keeps its output name. The statement's own tree is shared by
// every execution (and goroutine) and is never changed: a SELECT that
// uses such names is replaced by a copy.
func (p *Planner) lateralAliases(sel *sqlparser.Select, sc *Scope) *sqlparser.Select {
	if !p.usesLateralAliases(sel, sc) {
		return sel
	}
	st, err := sqlparser.Parse(sqlparser.String(sel))
	c, ok := st.(*sqlparser.Select)
	if err != nil || !ok {
		return sel
	}
	sel = c
	aliases := map[string]sqlparser.Expr{}
	for _, it := range sel.SelectExprs {
		ae, ok := it.(*sqlparser.AliasedExpr)
		if !ok {
			continue
		}
		name := itemName(ae)
		if e, changed := p.replaceAliases(ae.Expr, aliases, sc); changed {
			ae.Expr, ae.As = e, sqlparser.NewColIdent(name)
		}
		if !ae.As.IsEmpty() {
			aliases[ae.As.Lowered()] = ae.Expr
		}
	}
	if sel.Where != nil {
		sel.Where.Expr, _ = p.replaceAliases(sel.Where.Expr, aliases, sc)
	}
	return sel
}

// usesLateralAliases reports, without changing anything, whether
// lateralAliases has names to replace in sel.
func (p *Planner) usesLateralAliases(sel *sqlparser.Select, sc *Scope) bool {
	aliases := map[string]sqlparser.Expr{}
	for _, it := range sel.SelectExprs {
		ae, ok := it.(*sqlparser.AliasedExpr)
		if !ok {
			continue
		}
		if len(p.aliasRefs(ae.Expr, aliases, sc)) > 0 {
			return true
		}
		if !ae.As.IsEmpty() {
			aliases[ae.As.Lowered()] = ae.Expr
		}
	}
	return sel.Where != nil && len(p.aliasRefs(sel.Where.Expr, aliases, sc)) > 0
}

// itemName is the name of a select item's output column: its alias, the
// column it names, or its SQL text (as written, rewrites undone).
func itemName(x *sqlparser.AliasedExpr) string {
	if name := x.As.String(); name != "" {
		return name
	}
	if c, ok := x.Expr.(*sqlparser.ColName); ok {
		return c.Name.String()
	}
	return parse.Unmark(unmarkCasts(sqlparser.String(x.Expr)))
}

// starMarker returns the marker call that follows a star for EXCLUDE or
// REPLACE (parse/rewrite.go), nil for any other select item.
func starMarker(se sqlparser.SelectExpr) *sqlparser.FuncExpr {
	if ae, ok := se.(*sqlparser.AliasedExpr); ok {
		if f, ok := ae.Expr.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == parse.ExcludeMarker || f.Name.Lowered() == parse.ReplaceMarker) {
			return f
		}
	}
	return nil
}

// starChanges reads a star's marker: the names EXCLUDE leaves out, or the
// expressions REPLACE puts in the place of columns, by lower-case name
// (its arguments are expression, name pairs).
func starChanges(f *sqlparser.FuncExpr) (exclude map[string]bool, replace map[string]sqlparser.Expr, err error) {
	name := func(a sqlparser.SelectExpr) (string, bool) {
		if c, ok := a.(*sqlparser.AliasedExpr); ok {
			if cn, ok := c.Expr.(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
				return strings.ToLower(cn.Name.String()), true
			}
		}
		return "", false
	}
	if f.Name.Lowered() == parse.ExcludeMarker {
		exclude = map[string]bool{}
		for _, a := range f.Exprs {
			n, ok := name(a)
			if !ok {
				return nil, nil, errorf("EXCLUDE takes column names")
			}
			exclude[n] = true
		}
		return exclude, nil, nil
	}
	if len(f.Exprs)%2 != 0 {
		return nil, nil, errorf("REPLACE takes expression AS column pairs")
	}
	replace = map[string]sqlparser.Expr{}
	for i := 0; i < len(f.Exprs); i += 2 {
		e, ok := f.Exprs[i].(*sqlparser.AliasedExpr)
		n, okName := name(f.Exprs[i+1])
		if !ok || !okName {
			return nil, nil, errorf("REPLACE takes expression AS column pairs")
		}
		replace[n] = e.Expr
	}
	return nil, replace, nil
}
