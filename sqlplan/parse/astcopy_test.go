package parse

import (
	"testing"

	"github.com/xwb1989/sqlparser"
)

func TestCloneAST(t *testing.T) {
	stmt, err := sqlparser.Parse("SELECT a, b + 1 FROM t WHERE a IN (1, 2) GROUP BY a HAVING count(*) > 1")
	if err != nil {
		t.Fatal(err)
	}
	before := sqlparser.String(stmt)
	cp := CloneAST(stmt)
	if sqlparser.String(cp) != before {
		t.Fatalf("copy reads %s", sqlparser.String(cp))
	}
	// Planning rewrites the tree it is given: the copy's changes must not
	// reach the original.
	sel := cp.(*sqlparser.Select)
	sel.SelectExprs = sel.SelectExprs[:1]
	sel.Where.Expr.(*sqlparser.ComparisonExpr).Right.(sqlparser.ValTuple)[0] = sqlparser.NewIntVal([]byte("9"))
	sel.Having = nil
	sel.From[0].(*sqlparser.AliasedTableExpr).Expr = sqlparser.TableName{Name: sqlparser.NewTableIdent("u")}
	if got := sqlparser.String(stmt); got != before {
		t.Errorf("the original changed: %s", got)
	}
}
