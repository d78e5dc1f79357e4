package sqlplan

import (
	"context"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

// INSERT, UPDATE and DELETE ... RETURNING list run as MERGE ... RETURNING
// does (returning.go): the list is cut off the statement when it is
// prepared, the statement runs with a collector in its context, and the
// writing paths add to it the rows as written (INSERT's, after
// defaults, sequences and casts; UPDATE's new values) or, for DELETE,
// as they were. Every table kind goes through the same few places:
// insert (write.go) for INSERT, whatever the table; the change
// functions of deleteRows and updateRows (dml.go), which the file,
// folder, hive, Delta and transaction rewrites all call; deltaDML's
// edit for a Delta DELETE (delta_dml.go) and conflictRewrite for INSERT
// ... ON CONFLICT (constraints.go).

// cutReturning takes a RETURNING list at the top level of an INSERT,
// UPDATE or DELETE off its tokens, into s.returning.
func cutReturning(text string, toks []parse.Token, s *Stmt) ([]parse.Token, error) {
	depth := 0
	for i, t := range toks {
		switch {
		case t.Kind == parse.Op && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			depth++
		case t.Kind == parse.Op && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
			depth--
		case depth == 0 && t.Is("returning"):
			if i+1 == len(toks) {
				return nil, errAt(text, parse.TokPos(text, toks, i+1), "RETURNING needs a list of expressions")
			}
			s.returning = toks[i+1:]
			return toks[:i], nil
		}
	}
	return toks, nil
}

// dmlTable is the table an INSERT, UPDATE or DELETE writes and the name
// its columns go by in RETURNING (the alias of an UPDATE or DELETE's
// table, else its name).
func (s *Stmt) dmlTable() (name, alias string) {
	var tn sqlparser.TableName
	switch a := s.AST.(type) {
	case *sqlparser.Insert:
		tn = a.Table
	case *sqlparser.Update:
		return tableOfExprs(a.TableExprs)
	case *sqlparser.Delete:
		return tableOfExprs(a.TableExprs)
	}
	return qualifiedTable(tn), tn.Name.String()
}

// tableOfExprs is dmlTable of an UPDATE or DELETE's table list (dmlTarget
// refuses the lists that are not one table).
func tableOfExprs(tables sqlparser.TableExprs) (name, alias string) {
	if len(tables) != 1 {
		return "", ""
	}
	te, ok := tables[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return "", ""
	}
	tn, ok := te.Expr.(sqlparser.TableName)
	if !ok {
		return "", ""
	}
	alias = tn.Name.String()
	if !te.As.IsEmpty() {
		alias = te.As.String()
	}
	return qualifiedTable(tn), alias
}

// qualifiedTable is schema.table, or table.
func qualifiedTable(tn sqlparser.TableName) string {
	if q := tn.Qualifier.String(); q != "" {
		return q + "." + tn.Name.String()
	}
	return tn.Name.String()
}

// checkDMLReturning checks, once the statement is parsed, the RETURNING
// list cutReturning kept (none: nothing to check).
func (s *Stmt) checkDMLReturning(ctx context.Context) error {
	if s.returning == nil {
		return nil
	}
	_, alias := s.dmlTable()
	if alias == "" {
		return errAt(s.Src.Orig, s.returning[0].Pos, "RETURNING needs a statement of one table")
	}
	return s.e.checkReturning(ctx, s.Src.Orig, s.returning, alias)
}

// dmlReturning runs an INSERT, UPDATE or DELETE with RETURNING and
// returns the list over the rows it wrote or deleted.
func (s *Stmt) dmlReturning(ctx context.Context, args []Arg, tx *Tx, sess *Session, p *plan.Planner) (*Rows, error) {
	name, alias := s.dmlTable()
	tgt, err := s.e.targetOf(name, tx, true)
	if err != nil {
		return nil, s.Src.Locate(plan.AsError(err), name)
	}
	names := fieldNames(tgt.fields)
	types := make([]Type, len(tgt.fields))
	for k, f := range tgt.fields {
		types[k] = plan.TypeOfField(f)
	}
	return s.runReturning(ctx, args, tx, sess, p, names, types, false, s.returning, alias)
}

// returnUpserted gives RETURNING (when the statement collects) the rows
// of an INSERT ... ON CONFLICT or INSERT OR REPLACE, in the order of the
// rows inserted, as DuckDB does: a row that took a key already there
// (used) as its DO UPDATE made it (updated's row of the same place in
// hitNew), unless its WHERE let it be (applied false); any other row as
// inserted. Without DO UPDATE (updated nil) every row is inserted.
func returnUpserted(ctx context.Context, data []*Col, used []bool, updated []*Col, applied []bool, hitNew []int32) error {
	ret := returnedOf(ctx)
	if ret == nil {
		return nil
	}
	n := len(used)
	if updated == nil {
		return ret.add("", data, allRows(n))
	}
	at := make([]int32, n) // row of data -> row of updated, -1 for none
	for j := range at {
		at[j] = -1
	}
	for u, j := range hitNew {
		at[j] = int32(u)
	}
	both := make([]*Col, len(data)) // updated's rows, then data's
	for k := range data {
		both[k] = updated[k].Take(allRows(updated[k].Len))
		plan.AppendCol(both[k], data[k])
	}
	m := int32(updated[0].Len)
	var rows []int32
	for j := 0; j < n; j++ {
		u := at[j]
		switch {
		case u < 0:
			rows = append(rows, m+int32(j))
		case applied[u]:
			rows = append(rows, u)
		}
	}
	return ret.add("", both, rows)
}
