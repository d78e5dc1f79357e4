package sqlplan

import (
	"context"
	"errors"
	"strings"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

// RETURNING list of MERGE, INSERT, UPDATE and DELETE returns, as DuckDB
// 1.4 does, a row per target row the statement deleted (its values
// before), updated (after) or inserted (as written: after defaults,
// sequences and casts), with the list evaluated over the target's
// columns (by the target's name or alias). MERGE's rows also have
// merge_action, the clause's verb: DELETE, UPDATE or INSERT; RETURNING *
// gives the target's columns only. The rows are collected while the
// statement runs (a collector its context carries, which the writing
// paths feed) and the list is a SELECT over them, planned once the
// statement is done; one mechanism for the four statements.

// returnedTable is the table name the RETURNING SELECT reads.
const returnedTable = "__carquet_returned__"

// returned collects the rows a statement returns.
type returned struct {
	rows   *plan.CatalogRows
	data   []*plan.ColBuilder // the target's columns
	action *plan.ColBuilder   // MERGE's merge_action (nil for the others)
	names  []string
}

type returnedKey struct{}

// returnedOf is the collector the statement's context carries (nil: the
// statement returns nothing).
func returnedOf(ctx context.Context) *returned {
	c, _ := ctx.Value(returnedKey{}).(*returned)
	return c
}

// newReturned is a collector of rows of the target's columns, with
// merge_action when withAction.
func newReturned(names []string, types []Type, withAction bool) *returned {
	c := &returned{rows: &plan.CatalogRows{}, names: names}
	for k, n := range names {
		c.data = append(c.data, c.rows.Col(n, types[k]))
	}
	if withAction {
		c.action = c.rows.Col("merge_action", plan.TString)
	}
	return c
}

// add adds rows of cols with their action (MERGE's; ignored otherwise).
// The columns are cast to the collector's types first (a column of the
// type already passes through as is).
func (c *returned) add(action string, cols []*Col, rows []int32) error {
	if c == nil || len(rows) == 0 {
		return nil
	}
	src := make([]*Col, len(c.data))
	for k, b := range c.data {
		var err error
		if src[k], err = plan.CastCol(cols[k], b.C.T); err != nil {
			return errorf("RETURNING, column %q: %v", c.names[k], err)
		}
	}
	for _, i := range rows {
		for k, b := range c.data {
			b.AddRow(src[k], int(i))
		}
		if c.action != nil {
			c.action.Add(action)
		}
		c.rows.N++
	}
	return nil
}

// addHit adds the rows of cols that hit marks.
func (c *returned) addHit(cols []*Col, hit []bool) error {
	if c == nil {
		return nil
	}
	var rows []int32
	for i, h := range hit {
		if h {
			rows = append(rows, int32(i))
		}
	}
	return c.add("", cols, rows)
}

// returnEdit collects what targetBatch did to a batch: deleted rows with
// their values before (t), updated rows with their values after.
func (c *returned) returnEdit(t *Batch, ed *mergeEdit) error {
	if c == nil {
		return nil
	}
	var deleted, updated []int32
	for i, touched := range ed.touched {
		switch {
		case ed.deleted[i]:
			deleted = append(deleted, int32(i))
		case touched:
			updated = append(updated, int32(i))
		}
	}
	if err := c.add("DELETE", t.Cols, deleted); err != nil {
		return err
	}
	return c.add("UPDATE", ed.cols, updated)
}

// readReturning reads RETURNING list at toks[i] (to the end) and checks
// that it parses as a SELECT list.
func (e *Engine) readReturning(ctx context.Context, text string, toks []parse.Token, i int, m *mergeSpec) error {
	list := toks[i+1:]
	if len(list) == 0 {
		return errAt(text, parse.TokPos(text, toks, i+1), "RETURNING needs a list of expressions")
	}
	m.returning = list
	return e.checkReturning(ctx, text, list, m.alias)
}

// checkReturning checks that a RETURNING list parses as a SELECT list
// and holds none of what DuckDB refuses there: aggregates, window
// functions, subqueries and unnest (every row returned is one row
// written).
func (e *Engine) checkReturning(ctx context.Context, text string, list []parse.Token, alias string) error {
	st, err := e.prepareTokens(ctx, text, returningSelect(list, nil, alias))
	if err != nil {
		return err
	}
	sel, ok := st.AST.(*sqlparser.Select)
	if !ok {
		return errAt(text, list[0].Pos, "RETURNING takes a list of expressions")
	}
	var bad error
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		what, at := "", ""
		switch x := n.(type) {
		case *sqlparser.Subquery:
			what, at = "subqueries are", "select"
		case *sqlparser.FuncExpr:
			switch name := x.Name.Lowered(); {
			case name == parse.WindowMarker:
				what, at = "window functions are", "over"
			case name == "unnest":
				what, at = "unnest is", name
			case plan.IsAggregate(x):
				what, at = "aggregate functions are", x.Name.String()
			}
		case *sqlparser.GroupConcatExpr:
			what, at = "aggregate functions are", "group_concat"
		}
		if what != "" {
			bad = st.Src.Locate(errorf("%s not supported in RETURNING", what), at)
			return false, nil
		}
		return true, nil
	}, sel.SelectExprs)
	return bad
}

// returningSelect is SELECT list FROM the returned rows AS alias, with a
// * of the list (alone or alias.*) spelled as the target's columns, so
// that it leaves merge_action out.
func returningSelect(list []parse.Token, names []string, alias string) []parse.Token {
	pos := list[0].Pos
	out := []parse.Token{{Kind: parse.Ident, Text: "SELECT", Pos: pos}}
	depth := 0
	for k := 0; k < len(list); k++ {
		t := list[k]
		switch {
		case t.Kind == parse.Op && (t.Text == "(" || t.Text == "["):
			depth++
		case t.Kind == parse.Op && (t.Text == ")" || t.Text == "]"):
			depth--
		}
		itemStart := k == 0 || list[k-1].Kind == parse.Op && list[k-1].Text == ","
		itemEnd := func(j int) bool { return j == len(list) || list[j].Kind == parse.Op && list[j].Text == "," }
		if names != nil && depth == 0 && itemStart {
			star := t.Kind == parse.Op && t.Text == "*" && itemEnd(k+1)
			qualified := k+2 < len(list) && strings.EqualFold(t.Name(), alias) && list[k+1].Text == "." && list[k+2].Text == "*" && itemEnd(k+3)
			if star || qualified {
				for j, n := range names {
					if j > 0 {
						out = append(out, parse.Token{Kind: parse.Op, Text: ",", Pos: t.Pos})
					}
					out = append(out, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(alias), Pos: t.Pos},
						parse.Token{Kind: parse.Op, Text: ".", Pos: t.Pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(n), Pos: t.Pos})
				}
				if qualified {
					k += 2
				}
				continue
			}
		}
		out = append(out, t)
	}
	return append(out, parse.Token{Kind: parse.Ident, Text: "FROM", Pos: pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(returnedTable), Pos: pos},
		parse.Token{Kind: parse.Ident, Text: "AS", Pos: pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(alias), Pos: pos})
}

// mergeReturning runs a MERGE with RETURNING (runReturning), its rows
// with merge_action.
func (s *Stmt) mergeReturning(ctx context.Context, args []Arg, tx *Tx, sess *Session, p *plan.Planner) (*Rows, error) {
	m := s.merge
	ent, err := stmtOf(p).tableEntry(m.target)
	if err != nil {
		return nil, s.Src.Locate(plan.AsError(err), m.target)
	}
	var names []string
	var types []Type
	for _, c := range ent.cols {
		names, types = append(names, c.name), append(types, c.t)
	}
	return s.runReturning(ctx, args, tx, sess, p, names, types, true, m.returning, m.alias)
}

// runReturning runs a statement with RETURNING list over the target's
// columns (names, types; by alias): the list is bound first over them,
// so that a name it does not know changes nothing; then the statement
// runs, collecting its rows, and the list is evaluated over those.
//
// Outside a transaction the statement runs in one of its own, committed
// once the list is evaluated over every row: an error there (a cast
// that fails, a division by zero) leaves the tables as they were, as in
// DuckDB, where the statement and its RETURNING are one.
func (s *Stmt) runReturning(ctx context.Context, args []Arg, tx *Tx, sess *Session, p *plan.Planner,
	names []string, types []Type, withAction bool, list []parse.Token, alias string) (*Rows, error) {
	check, err := s.planReturning(ctx, p, newReturned(names, types, withAction), list, alias)
	if err != nil {
		return nil, err
	}
	check.Close()
	if tx != nil {
		return s.returnedRows(ctx, args, tx, sess, p, newReturned(names, types, withAction), list, alias, false)
	}
	// A table another connection changed meanwhile fails the COMMIT with
	// ErrConflict, and nothing was written: the statement runs again, as
	// one without RETURNING would have waited for the other's write.
	for attempt := 1; ; attempt++ {
		tx := s.e.Begin(false)
		rows, err := s.returnedRows(ctx, args, tx, sess, p, newReturned(names, types, withAction), list, alias, true)
		if err == nil {
			if err = tx.Commit(); err == nil {
				return rows, nil
			}
			rows.Close()
		} else {
			tx.Rollback()
		}
		if !errors.Is(err, ErrConflict) || attempt == returningAttempts || ctx.Err() != nil {
			return nil, err
		}
	}
}

// returningAttempts bounds the runs of a statement with RETURNING whose
// COMMIT conflicts with other connections' writes.
const returningAttempts = 20

// returnedRows runs the statement in tx, collecting its rows into ret,
// and plans the list over them; evaluated to the end when whole.
func (s *Stmt) returnedRows(ctx context.Context, args []Arg, tx *Tx, sess *Session, p *plan.Planner,
	ret *returned, list []parse.Token, alias string, whole bool) (*Rows, error) {
	if _, err := s.exec(context.WithValue(ctx, returnedKey{}, ret), args, tx, sess); err != nil {
		return nil, err
	}
	rows, err := s.planReturning(ctx, p, ret, list, alias)
	if err != nil || !whole {
		return rows, err
	}
	defer rows.Close()
	b, err := (&plan.SelectPlan{Root: rows.root, Cols: rows.cols}).DrainAll(rows.ctx)
	rows.root = nil // drainAll closed it
	if err != nil {
		return nil, err
	}
	out := constRows(ctx, rows.cols, b.Cols)
	out.root.(*kernels.Const).Batches[0].N = b.N
	return out, nil
}

// planReturning plans the RETURNING list over the rows ret holds, the
// target's columns going by alias.
func (s *Stmt) planReturning(ctx context.Context, p *plan.Planner, ret *returned, list []parse.Token, alias string) (*Rows, error) {
	ctx = context.WithValue(ctx, returnedKey{}, ret)
	st, err := s.e.prepareTokens(ctx, s.Src.Orig, returningSelect(list, ret.names, alias))
	if err != nil {
		return nil, err
	}
	rp := p.Child(st.Src)
	rp.Ctx = ctx
	sp, err := st.Plan(rp)
	if err != nil {
		rp.ReleaseAll()
		return nil, err
	}
	return &Rows{cols: sp.Cols, root: sp.Root, ctx: ctx, p: rp}, nil
}

// returnedRelation is the relation of the rows a statement returned.
func returnedRelation(p *plan.Planner, alias string) (*plan.Relation, error) {
	ret := returnedOf(p.Ctx)
	if ret == nil || ret.rows == nil {
		return nil, errorf("%s is carquet's own table of ... RETURNING", returnedTable)
	}
	return ret.rows.Relation(alias, "RETURNING"), nil
}

// allRows is 0..n-1.
func allRows(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}
