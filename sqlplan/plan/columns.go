package plan

import (
	"regexp"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// COLUMNS(...) in the select list, as DuckDB: an item that holds
// COLUMNS(*), COLUMNS('regular expression') or COLUMNS(c -> condition on
// the name c) stands for one item per column of the FROM clause that
// matches, in the order of SELECT *, the call replaced by the column:
// SELECT min(COLUMNS('^a')) reads SELECT min(a1), min(a2). Every COLUMNS
// call of one item must be the same.

// expandColumns expands the COLUMNS items of sel's select list over the
// columns of sc.
func (p *Planner) expandColumns(sel *sqlparser.Select, sc *Scope) error {
	var out sqlparser.SelectExprs
	changed := false
	for _, se := range sel.SelectExprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		var calls []*sqlparser.FuncExpr
		if ok {
			calls = columnsCalls(ae.Expr)
		}
		if len(calls) == 0 {
			out = append(out, se)
			continue
		}
		changed = true
		callText := sqlparser.String(calls[0])
		for _, c := range calls[1:] {
			if sqlparser.String(c) != callText {
				return errorf("the COLUMNS expressions of one select item must be the same")
			}
		}
		names, err := p.columnsMatching(calls[0], sc)
		if err != nil {
			return err
		}
		if !ae.As.IsEmpty() && len(names) > 1 {
			return unsupported("an alias for a COLUMNS expression that matches several columns")
		}
		text := sqlparser.String(ae.Expr)
		for _, col := range names {
			stmt, err := sqlparser.Parse("select " + strings.ReplaceAll(text, callText, col))
			if err != nil {
				return errorf("COLUMNS: %v", err)
			}
			item := stmt.(*sqlparser.Select).SelectExprs[0].(*sqlparser.AliasedExpr)
			item.As = ae.As
			out = append(out, item)
		}
	}
	if changed {
		sel.SelectExprs = out
	}
	return nil
}

// columnsCalls lists the COLUMNS calls in e.
func columnsCalls(e sqlparser.Expr) []*sqlparser.FuncExpr {
	var out []*sqlparser.FuncExpr
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.FuncExpr:
			if x.Name.Lowered() == "columns" && x.Qualifier.IsEmpty() {
				out = append(out, x)
				return false, nil
			}
		}
		return true, nil
	}, e)
	return out
}

// columnsMatching returns, as SQL text, the columns of sc (those SELECT *
// shows, qualified where the name is ambiguous) that the COLUMNS call
// selects.
func (p *Planner) columnsMatching(call *sqlparser.FuncExpr, sc *Scope) ([]string, error) {
	if len(call.Exprs) != 1 {
		return nil, errorf("COLUMNS takes *, a regular expression or a lambda")
	}
	var match func(name string) (bool, error)
	switch a := call.Exprs[0].(type) {
	case *sqlparser.StarExpr:
		match = func(string) (bool, error) { return true, nil }
	case *sqlparser.AliasedExpr:
		switch x := a.Expr.(type) {
		case *sqlparser.SQLVal:
			if x.Type != sqlparser.StrVal {
				return nil, errorf("COLUMNS takes *, a regular expression or a lambda")
			}
			re, err := regexp.Compile(string(x.Val))
			if err != nil {
				return nil, errorf("COLUMNS: bad regular expression: %v", err)
			}
			match = func(name string) (bool, error) { return re.MatchString(name), nil }
		case *sqlparser.FuncExpr:
			if x.Name.Lowered() != parse.LambdaMarker {
				return nil, errorf("COLUMNS takes *, a regular expression or a lambda")
			}
			body, _, _, err := p.bindLambdaBody("COLUMNS", x, 1, TString, nil, nil)
			if err != nil {
				return nil, err
			}
			if body, err = p.coerce(body, TBool); err != nil {
				return nil, err
			}
			match = func(name string) (bool, error) {
				c, err := body.Eval(&Batch{N: 1, Cols: []*Col{ConstCol(TString, name, 1)}})
				if err != nil {
					return false, err
				}
				return !c.IsNull(0) && c.B[0], nil
			}
		default:
			return nil, errorf("COLUMNS takes *, a regular expression or a lambda")
		}
	default:
		return nil, errorf("COLUMNS takes *, a regular expression or a lambda")
	}
	type visible struct {
		rel  *Relation
		name string
	}
	var cols []visible
	count := map[string]int{}
	for _, r := range sc.from {
		for _, c := range r.Cols {
			if strings.Contains(c.Name, ".") && r.table != nil || sc.hidden[c] {
				continue
			}
			cols = append(cols, visible{r, c.Name})
			count[strings.ToLower(c.Name)]++
		}
	}
	var out []string
	for _, c := range cols {
		ok, err := match(c.name)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		text := parse.Backquote(c.name)
		if count[strings.ToLower(c.name)] > 1 {
			text = parse.Backquote(c.rel.Alias) + "." + text
		}
		out = append(out, text)
	}
	if len(out) == 0 {
		return nil, errorf("COLUMNS matches no column")
	}
	return out, nil
}
