package sqlplan

import (
	"context"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// MERGE ... RETURNING list returns, as DuckDB 1.4 does, a row per target
// row the MERGE deleted (its values before), updated (after) or inserted,
// with the list evaluated over the target's columns (by the target's
// name or alias) and merge_action, the clause's verb: DELETE, UPDATE or
// INSERT. RETURNING * gives the target's columns only. The rows are
// collected while the MERGE runs and the list is a SELECT over them,
// planned once the MERGE is done.

// mergeReturnedTable is the table name the RETURNING SELECT reads.
const mergeReturnedTable = "__carquet_merge_returned__"

// mergeReturned collects the rows a MERGE returns.
type mergeReturned struct {
	rows   *catalogRows
	data   []*colBuilder // the target's columns
	action *colBuilder
	names  []string
}

type mergeReturnedKey struct{}

// mergeReturnedOf is the collector the statement's context carries (nil:
// the MERGE returns nothing).
func mergeReturnedOf(ctx context.Context) *mergeReturned {
	c, _ := ctx.Value(mergeReturnedKey{}).(*mergeReturned)
	return c
}

// newMergeReturned is a collector of rows of the target's columns.
func newMergeReturned(names []string, types []Type) *mergeReturned {
	c := &mergeReturned{rows: &catalogRows{}, names: names}
	for k, n := range names {
		c.data = append(c.data, c.rows.col(n, types[k]))
	}
	c.action = c.rows.col("merge_action", tString)
	return c
}

// add adds rows of cols (nil: every row) with their action.
func (c *mergeReturned) add(action string, cols []*Col, rows []int32) {
	if c == nil {
		return
	}
	for _, i := range rows {
		for k, b := range c.data {
			b.AddRow(cols[k], int(i))
		}
		c.action.Add(action)
		c.rows.n++
	}
}

// returnEdit collects what targetBatch did to a batch: deleted rows with
// their values before (t), updated rows with their values after.
func (c *mergeReturned) returnEdit(t *Batch, ed *mergeEdit) {
	if c == nil {
		return
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
	c.add("DELETE", t.Cols, deleted)
	c.add("UPDATE", ed.cols, updated)
}

// readReturning reads RETURNING list at toks[i] (to the end) and checks
// that it parses as a SELECT list.
func (e *Engine) readReturning(ctx context.Context, text string, toks []parse.Token, i int, m *mergeSpec) error {
	list := toks[i+1:]
	if len(list) == 0 {
		return errAt(text, tokPos(text, toks, i+1), "RETURNING needs a list of expressions")
	}
	m.returning = list
	_, err := e.prepareTokens(ctx, text, returningSelect(list, nil, m.alias))
	return err
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
	return append(out, parse.Token{Kind: parse.Ident, Text: "FROM", Pos: pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(mergeReturnedTable), Pos: pos},
		parse.Token{Kind: parse.Ident, Text: "AS", Pos: pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(alias), Pos: pos})
}

// mergeReturning runs a MERGE with RETURNING: the list is bound first
// over the target's columns, so that a name it does not know changes
// nothing; then the MERGE runs, and the list is evaluated over the rows
// it collected.
func (s *Stmt) mergeReturning(ctx context.Context, args []Arg, tx *Tx, sess *Session, p *planner) (*Rows, error) {
	m := s.merge
	ent, err := p.tableEntry(m.target)
	if err != nil {
		return nil, s.src.Locate(asError(err), m.target)
	}
	var names []string
	var types []Type
	for _, c := range ent.cols {
		names, types = append(names, c.name), append(types, c.t)
	}
	check, err := s.planReturning(ctx, p, newMergeReturned(names, types))
	if err != nil {
		return nil, err
	}
	check.Close()
	ret := &mergeReturned{}
	if _, err := s.exec(context.WithValue(ctx, mergeReturnedKey{}, ret), args, tx, sess); err != nil {
		return nil, err
	}
	if ret.rows == nil {
		return nil, errorf("MERGE ... RETURNING: the MERGE collected no rows")
	}
	return s.planReturning(ctx, p, ret)
}

// planReturning plans the RETURNING list over the rows ret holds.
func (s *Stmt) planReturning(ctx context.Context, p *planner, ret *mergeReturned) (*Rows, error) {
	ctx = context.WithValue(ctx, mergeReturnedKey{}, ret)
	st, err := s.e.prepareTokens(ctx, s.src.Orig, returningSelect(s.merge.returning, ret.names, s.merge.alias))
	if err != nil {
		return nil, err
	}
	rp := p.child(st.src)
	rp.ctx = ctx
	sp, err := st.plan(rp)
	if err != nil {
		rp.releaseAll()
		return nil, err
	}
	return &Rows{cols: sp.cols, root: sp.root, ctx: ctx, p: rp}, nil
}

// returnedRelation is the relation of the rows a MERGE returned.
func (p *planner) returnedRelation(alias string) (*relation, error) {
	ret := mergeReturnedOf(p.ctx)
	if ret == nil || ret.rows == nil {
		return nil, errorf("%s is carquet's own table of MERGE ... RETURNING", mergeReturnedTable)
	}
	return ret.rows.relation(alias, "MERGE RETURNING"), nil
}

// allRows is 0..n-1.
func allRows(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}
