package plan

import (
	"errors"

	"github.com/xwb1989/sqlparser"
)

// Field access on struct columns that are not a Parquet column's fields:
// s.a where s is a struct computed in a derived table or a CTE
// ((SELECT {'a': 1} AS s)), t.s.a.b. The binder reads such a path as
// struct_extract of the column, field by field (a Parquet struct of a
// table is read leaf by leaf instead: nestedCol).

// fieldPathError is resolve's answer for a column name that reaches into
// a computed struct: the column and the fields below it.
type fieldPathError struct {
	col  *ScopeCol
	path []string
}

func (e *fieldPathError) Error() string { return "field access on a computed struct" }

// computedStruct reports whether the fields of column c of r are reached
// through its values rather than read as Parquet columns.
func computedStruct(r *Relation, c *ScopeCol) bool {
	_, isStruct := structFields(c.T)
	return isStruct && (c.T.Field == nil || r.derived())
}

// bindFieldPath binds the column of a fieldPathError and extracts its
// fields one after the other.
func (p *Planner) bindFieldPath(err error) (Expr, bool, error) {
	var fp *fieldPathError
	if !errors.As(err, &fp) {
		return nil, false, err
	}
	var e Expr = &ColExpr{S: fp.col.Slot, T: fp.col.T, col: fp.col}
	if fp.col.corr != nil {
		e = fp.col.corr.constant(fp.col)
	}
	for _, name := range fp.path {
		next, err := p.bindIndex(e, &ConstExpr{T: TString, V: name})
		if err != nil {
			return nil, true, err
		}
		e = next
	}
	return e, true, nil
}

// structStar expands s.* where s names a column rather than a table
// (DuckDB's struct.*): the struct's fields as columns, named after them;
// DuckDB's errors for a column that is no struct and for an unnamed
// struct. ok is false when s names no column, for the caller's error.
func (p *Planner) structStar(s string, sc *Scope, agg *aggCtx) (outs []Expr, cols []Column, ok bool, err error) {
	e, err := p.BindExpr(&sqlparser.ColName{Name: sqlparser.NewColIdent(s)}, sc, agg)
	if err != nil {
		return nil, nil, false, nil
	}
	fields, isStruct := structFields(e.Type())
	if !isStruct || e.Type().MapOf {
		return nil, nil, true, errorf("Cannot extract field from expression \"%s.*\" because it is not a struct", s)
	}
	for _, f := range fields {
		x, err := p.bindIndex(e, &ConstExpr{T: TString, V: f.Name})
		if err != nil {
			return nil, nil, true, err
		}
		outs = append(outs, x)
		cols = append(cols, Column{Name: f.Name, Type: x.Type(), Nullable: true})
	}
	return outs, cols, true, nil
}
