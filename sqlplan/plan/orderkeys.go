package plan

import (
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// orderMods are what an ORDER BY item says of its direction and NULLs
// beyond the parser's ASC/DESC: written ASC (parse.AscMarker), NULLS FIRST (1)
// or NULLS LAST (-1) (the rewrite wraps the item in markers).
type orderMods struct {
	asc   bool
	nulls int8
}

// orderItem splits an ORDER BY item into its expression and what it
// says of its order (the rewrite wraps it in parse.NullsFirstMarker,
// parse.NullsLastMarker, parse.AscMarker).
func orderItem(o *sqlparser.Order) (sqlparser.Expr, orderMods) {
	var m orderMods
	e := o.Expr
	for {
		f, ok := e.(*sqlparser.FuncExpr)
		if !ok || len(f.Exprs) != 1 || !f.Qualifier.IsEmpty() {
			return e, m
		}
		ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
		if !ok {
			return e, m
		}
		switch f.Name.Lowered() {
		case parse.NullsFirstMarker:
			m.nulls = 1
		case parse.NullsLastMarker:
			m.nulls = -1
		case parse.AscMarker:
			m.asc = true
		default:
			return e, m
		}
		e = ae.Expr
	}
}

// orderKey is an ORDER BY item's expression, direction and NULL
// placement under the statement's settings (default_order,
// default_null_order).
func (p *Planner) orderKey(o *sqlparser.Order) (item sqlparser.Expr, desc, nullsFirst bool) {
	item, m := orderItem(o)
	dir := int8(0)
	switch {
	case o.Direction == sqlparser.DescScr:
		dir = -1
	case m.asc:
		dir = 1
	}
	desc, nullsFirst = p.Set.resolveOrder(dir, m.nulls)
	return item, desc, nullsFirst
}

// resolveOrder is the direction and NULL placement of an ORDER BY item
// that says dir (1 ASC, -1 DESC, 0 nothing) and nulls (1 NULLS FIRST, -1
// NULLS LAST, 0 nothing).
func (s *Settings) resolveOrder(dir, nulls int8) (desc, nullsFirst bool) {
	desc = dir < 0 || dir == 0 && s.OrderDesc
	return desc, s.nullsFirst(desc, nulls)
}

func firstOf(e sqlparser.Expr, _ orderMods) sqlparser.Expr { return e }
