package sqlplan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"testing"
)

// plannerFiles are the planner's files (binding, the logical plan and its
// rules, lowering): until the planner is a package of its own (issue 27),
// TestPlannerStaysOffTheEngine keeps them off the engine's side. A file
// removed since is skipped; a new planner file belongs in the list.
var plannerFiles = []string{
	"agg.go", "aggbitstring.go", "aggnode.go", "aggorder.go", "aggs_more.go",
	"arith.go", "asof.go", "bind.go", "bindcast.go", "bindops.go",
	"bitstringstats.go", "cast.go", "cmpconst.go", "colconv.go", "columns.go",
	"correlated.go", "csvbind.go", "enumfuncs.go", "exec.go", "exec_alias.go",
	"existsgroup.go", "expr.go", "factor.go", "footers.go", "funcs.go",
	"funcs_bins.go", "funcs_json.go", "funcs_jsontransform.go",
	"funcs_lists.go", "funcs_maps.go", "funcs_meta.go", "funcs_ops.go",
	"funcs_remap.go", "funcs_session.go", "funcs_structs.go",
	"funcs_system.go", "funcs_time.go", "function_alias.go", "groupdeps.go",
	"grouping.go", "groupjoin.go", "implied.go", "join.go", "joinorder.go",
	"keyfilter.go", "lambda.go", "lateral.go", "likeexpr.go", "logical.go",
	"memory.go", "nested.go", "nestedcast.go", "nestedorder.go",
	"nestedparse.go", "nestedtext.go", "nestedvals.go", "orderkeys.go",
	"parsed.go", "pipe.go", "plan.go", "plancatalog.go", "planerrors.go", "plansettings.go",
	"pqmeta.go", "pqmeta_rows.go", "pqmeta_values.go", "prepdeps.go", "quantified.go",
	"recursive.go", "reduce.go", "rowsrel.go", "rowstructs.go",
	"rowvalues.go", "sample.go", "scalar.go", "select.go", "select_bind.go",
	"select_derived.go", "select_lower.go", "select_optimize.go",
	"select_union.go", "series.go", "shared.go", "structfields.go",
	"structfuncs.go", "syntax.go", "textbind.go", "timezone.go", "try.go",
	"unionfuncs.go", "uniontype.go", "uniontype_cast.go", "unnestexpr.go",
	"unneststruct.go", "unsignedops.go", "vec_alias.go", "vectors.go",
	"window.go",
}

// engineNames are the engine's side of the seam: its types and the
// statement's catalog, which the planner reaches only through planCatalog.
var engineNames = map[string]bool{
	"Engine": true, "Stmt": true, "Tx": true, "Session": true, "Rows": true,
	"stmtCatalog": true, "stmtOf": true, "holdWrite": true,
}

func TestPlannerStaysOffTheEngine(t *testing.T) {
	fset := token.NewFileSet()
	for _, name := range plannerFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range namesUsed(f) {
			if engineNames[id.Name] {
				t.Errorf("%s: the planner names %s; it reaches the engine through planCatalog (plancatalog.go)", fset.Position(id.Pos()), id.Name)
			}
		}
	}
}

// namesUsed are the identifiers f refers to, without the names that are
// not references: fields selected (x.Rows), struct literal keys and the
// names declared by fields and functions.
func namesUsed(f *ast.File) []*ast.Ident {
	var out []*ast.Ident
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(x.X, walk)
			return false
		case *ast.KeyValueExpr:
			if _, isName := x.Key.(*ast.Ident); !isName {
				ast.Inspect(x.Key, walk)
			}
			ast.Inspect(x.Value, walk)
			return false
		case *ast.Field:
			ast.Inspect(x.Type, walk)
			return false
		case *ast.FuncDecl:
			if x.Recv != nil {
				ast.Inspect(x.Recv, walk)
			}
			ast.Inspect(x.Type, walk)
			if x.Body != nil {
				ast.Inspect(x.Body, walk)
			}
			return false
		case *ast.Ident:
			out = append(out, x)
		}
		return true
	}
	ast.Inspect(f, walk)
	return out
}
