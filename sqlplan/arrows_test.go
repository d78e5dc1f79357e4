package sqlplan

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sqlplanArrows are, for each package under sqlplan/, the packages of
// sqlplan its non-test files may import: the stages of issue 27 with
// their arrows one way, vec and num below everything, the facade
// (sqlplan itself, "") on top. The compiler refuses cycles; this keeps a
// lower stage from reaching up to a higher one that does not import it
// yet (exec to plan, plan to dml, anything to the facade).
var sqlplanArrows = map[string][]string{
	"num":      {},
	"parse":    {},
	"vec":      {"num"},
	"function": {"num", "parse", "vec"},
	"exec":     {"function", "num", "parse", "vec"},
	"textfile": {"function", "num", "parse", "vec"},
	"dml":      {"exec", "function", "num", "parse", "vec"},
	"plan":     {"exec", "function", "num", "parse", "textfile", "vec"},
	"":         {"dml", "exec", "function", "num", "parse", "plan", "textfile", "vec"},
}

const sqlplanPath = "github.com/carquet-go/carquet/sqlplan"

func TestSqlplanImportArrows(t *testing.T) {
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{""}
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "testdata" {
			pkgs = append(pkgs, d.Name())
		}
	}
	for _, pkg := range pkgs {
		allowed, known := sqlplanArrows[pkg]
		if !known {
			t.Errorf("sqlplan/%s: a package the arrows do not list; add it to sqlplanArrows", pkg)
			continue
		}
		for _, imp := range sqlplanImports(t, pkg) {
			if !slices.Contains(allowed, imp) {
				t.Errorf("sqlplan/%s imports sqlplan/%s, against the arrows (it may import %v)", pkg, imp, allowed)
			}
		}
	}
}

// sqlplanImports are the packages of sqlplan that the non-test files of
// the package in dir import ("" for sqlplan itself).
func sqlplanImports(t *testing.T, dir string) []string {
	files, err := filepath.Glob(filepath.Join(".", dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			if path == sqlplanPath {
				out = append(out, "")
			} else if rest, ok := strings.CutPrefix(path, sqlplanPath+"/"); ok {
				out = append(out, rest)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
