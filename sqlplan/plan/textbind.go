package plan

import (
	"net/url"
	"strings"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/textfile"
)

// The binding of the file sources other than Parquet (package textfile
// reads them): read_json and its kin, read_text and read_blob, which the
// rewrite made a marker table name (parse/jsonread.go), become relations
// over the package's scans; CSV's are in csvbind.go.

// FileReadRelation is the relation of a call the rewrite made a table
// name of, ok false for other names.
func (p *Planner) FileReadRelation(name, alias string) (*Relation, bool, error) {
	enc, ok := strings.CutPrefix(name, parse.FileReadMarker)
	if !ok {
		return nil, false, nil
	}
	q, err := url.ParseQuery(enc)
	fn := q.Get("fn")
	if _, known := parse.FileReadFunctions[fn]; err != nil || !known {
		return nil, true, errorf("%s is a name reserved for carquet's own use", name)
	}
	if alias == "" {
		alias = fn
	}
	if fn == "read_text" || fn == "read_blob" {
		rel, err := p.readTextRelation(fn, alias, q["path"])
		return rel, true, err
	}
	opts, err := textfile.ReadJSONOptions(fn, q, typeOfBuiltinName)
	if err != nil {
		return nil, true, err
	}
	if table := q.Get("table"); table != "" {
		// COPY table FROM a JSON file: the table's columns (jsoncopy.go).
		_, cols, err := p.Cat.TableColumns(table)
		if err != nil {
			return nil, true, err
		}
		opts.SetColumns(cols)
	}
	rel, err := p.jsonRelation(opts, alias, q["path"])
	return rel, true, err
}

// typeOfBuiltinName reads a type name of the built-in types (not those of
// CREATE TYPE), nested or not.
func typeOfBuiltinName(text string) (Type, error) { return nestedTypeOf(text, nil) }

// jsonRelation lists the files, then the package detects the columns
// (unless given) and plans the scan.
func (p *Planner) jsonRelation(o *textfile.JSONOptions, alias string, patterns []string) (*Relation, error) {
	names, paths, err := p.metaPaths(patterns) // pqmeta.go
	if err != nil {
		return nil, err
	}
	files := make([]textfile.File, len(paths))
	for k := range paths {
		files[k] = textfile.File{Name: names[k], Path: paths[k]}
	}
	scan, cols, err := textfile.PlanJSON(o, files, jsonValue)
	if err != nil {
		return nil, err
	}
	return sourceRelation(alias, scan, cols), nil
}

// jsonValue reads a JSON value as a value of type t, as json_transform
// does: a nested value leniently (what does not fit is NULL), a scalar
// strictly when strict.
func jsonValue(n *function.JSONNode, t Type, strict bool) (any, error) {
	var x any
	var err error
	if t.Kind == KNested {
		x, err = transformJSON(n, t, false)
	} else {
		x, err = transformLeaf(n, t, strict)
	}
	if err != nil {
		return nil, err
	}
	return fromGo(plainType(t), x)
}

// readTextRelation plans read_text or read_blob over the patterns.
func (p *Planner) readTextRelation(fn, alias string, patterns []string) (*Relation, error) {
	var files []textfile.File
	for _, pat := range patterns {
		names, paths, err := p.expandPattern(pat) // pqmeta.go
		if err != nil {
			return nil, err
		}
		for k := range paths {
			files = append(files, textfile.File{Name: names[k], Path: paths[k]})
		}
	}
	scan, cols := textfile.ReadText(files, fn == "read_blob")
	return sourceRelation(alias, scan, cols), nil
}

// sourceNode is a file source's scan as a node of a plan.
type sourceNode struct{ textfile.Scan }

func (n sourceNode) Explain(x *kernels.Explainer, depth int) { x.Line(depth, "%s", n.Label()) }

// sourceRelation is a relation named alias of a file source's rows.
func sourceRelation(alias string, scan textfile.Scan, cols []textfile.Column) *Relation {
	out := make([]Column, len(cols))
	for i, c := range cols {
		out[i] = Column{Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	return nodeRelation(alias, sourceNode{scan}, out)
}

// nodeRelation is a relation named alias of the rows of a scan node with
// columns cols.
func nodeRelation(alias string, root Node, cols []Column) *Relation {
	rel := &Relation{Alias: alias, Sub: &SelectPlan{Root: root, Cols: cols}}
	for i, col := range cols {
		rel.Cols = append(rel.Cols, &ScopeCol{Rel: rel, Name: col.Name, T: col.Type, Slot: &Slot{}, Local: i})
	}
	return rel
}
