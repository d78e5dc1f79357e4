package sqlplan

import (
	"sort"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// duckdb_functions(): the functions carquet knows, with the columns of
// DuckDB's (v1.5). The rows come from the tables the binder resolves
// names with — the scalar table funcs (the function library and the
// binder's own), the nested-value and lambda functions, the aggregates
// and window functions, the table functions, and the user's macros — so
// the list cannot drift from what a query may call.
//
// Like DuckDB v1.5, window functions are listed as aggregates. A function
// whose arity is known gets one row per arity (DuckDB gives one per
// overload); its parameters are col0, col1, ... of type ANY, as the
// type rules are code, not declarations, and its return type is NULL for
// the same reason.

// functionRow is a row of duckdb_functions() before it is built.
type functionRow struct {
	name, kind string
	params     int    // -1: unknown
	varargs    bool   // more arguments like the last
	volatile   bool   // a new value per call
	withinStmt bool   // one value per statement (now())
	macro      *macro // a macro (one overload)
	system     bool   // a macro of the system (macros_builtin.go)
}

// functionKindOrder sorts the rows by kind as DuckDB groups them.
var functionKindOrder = map[string]int{"scalar": 0, "aggregate": 1, "macro": 2, "table": 3, "table_macro": 4}

// statementConstants are the functions bindFunc folds to one value per
// statement (DuckDB's CONSISTENT_WITHIN_QUERY).
var statementConstants = map[string]bool{
	"now": true, "current_timestamp": true, "localtimestamp": true, "get_current_timestamp": true,
	"current_date": true, "today": true,
}

// internalFunction reports whether a name of the binder's tables is one
// of its own (a rewrite's marker, an operator's implementation, a
// variant chosen by type) rather than a function a query may call.
func internalFunction(name string) bool {
	return strings.HasPrefix(name, "__") || strings.Contains(name, "$") || name == "concat_op" || name == "substring_fn" || name == plan.MacroArgMarker
}

// builtinFunctionRows lists the engine's own functions.
func builtinFunctionRows() []functionRow {
	var rows []functionRow
	seen := map[string]bool{} // kind and name of the rows so far
	add := func(r functionRow) {
		key := r.kind + "\x00" + r.name
		if internalFunction(r.name) || seen[key] {
			return
		}
		seen[key] = true
		rows = append(rows, r)
	}
	for name, f := range plan.Funcs {
		if internalFunction(name) {
			continue
		}
		// now() and its like are marked volatile so as not to fold early,
		// but give one value per statement.
		within := statementConstants[name]
		r := functionRow{name: name, kind: "scalar", params: f.Min, volatile: f.Volatile && !within, withinStmt: within}
		if f.Max < 0 {
			r.varargs = true
			add(r)
			continue
		}
		for ; r.params <= f.Max; r.params++ { // one row per arity
			rows = append(rows, r)
		}
		seen["scalar\x00"+name] = true
	}
	for name := range plan.NestedNames {
		add(functionRow{name: name, kind: "scalar", params: -1})
	}
	for name := range plan.UnionFuncNames {
		add(functionRow{name: name, kind: "scalar", params: -1})
	}
	for _, name := range parse.LambdaFunctions() {
		add(functionRow{name: name, kind: "scalar", params: 2})
	}
	add(functionRow{name: "nextval", kind: "scalar", params: 1, volatile: true})
	add(functionRow{name: "currval", kind: "scalar", params: 1, volatile: true})
	for name := range plan.AggNames {
		if name != "grouping" && name != "grouping_id" { // GROUPING is syntax in DuckDB
			add(functionRow{name: name, kind: "aggregate", params: -1})
		}
	}
	for name := range plan.WindowFns {
		add(functionRow{name: name, kind: "aggregate", params: -1})
	}
	for name := range tableFunctions {
		switch name {
		case "lateral", "values", "select", "with": // words, not functions
		default:
			add(functionRow{name: name, kind: "table", params: -1})
		}
	}
	for name := range parse.CatalogFunctions {
		add(functionRow{name: name, kind: "table", params: 0})
	}
	return rows
}

// macroFunctionRows lists the user's macros, one row per overload.
func macroFunctionRows(p *plan.Planner) []functionRow {
	var rows []functionRow
	for _, m := range stmtOf(p).e.macroSnapshot().m {
		kind := "macro"
		if m.table {
			kind = "table_macro"
		}
		for _, o := range m.overloads() {
			rows = append(rows, functionRow{name: m.name, kind: kind, params: len(o.params), macro: o})
		}
	}
	return rows
}

// sortFunctionRows orders the rows by kind, name and arity.
func sortFunctionRows(rows []functionRow) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.kind != b.kind {
			return functionKindOrder[a.kind] < functionKindOrder[b.kind]
		}
		if a.name != b.name {
			return a.name < b.name
		}
		return a.params < b.params
	})
}

func duckdbFunctions(p *plan.Planner, c *plan.CatalogRows) {
	rows := builtinFunctionRows()
	rows = append(rows, builtinMacroRows()...)
	sortFunctionRows(rows)
	user := macroFunctionRows(p)
	sortFunctionRows(user)
	rows = append(rows, user...)

	tList := Type{Kind: KNested, Elem: &plan.TString}
	db, dbOID, schema := c.Col("database_name", plan.TString), c.Col("database_oid", plan.TString), c.Col("schema_name", plan.TString)
	name, aliasOf, kind := c.Col("function_name", plan.TString), c.Col("alias_of", plan.TString), c.Col("function_type", plan.TString)
	desc, comment, tags := c.Col("description", plan.TString), c.Col("comment", plan.TString), c.Col("tags", tTagsMap)
	ret, params, ptypes := c.Col("return_type", plan.TString), c.Col("parameters", tList), c.Col("parameter_types", tList)
	varargs, def, effects := c.Col("varargs", plan.TString), c.Col("macro_definition", plan.TString), c.Col("has_side_effects", plan.TBool)
	internal, oid, examples := c.Col("internal", plan.TBool), c.Col("function_oid", plan.TBigint), c.Col("examples", tList)
	stability, categories := c.Col("stability", plan.TString), c.Col("categories", tList)
	for i, r := range rows {
		c.N++
		if r.macro != nil && !r.system {
			db.Add("carquet")
			dbOID.Add(strconv.Itoa(catalogDatabaseOID))
		} else {
			db.Add("system")
			dbOID.Add("0")
		}
		schema.Add("main")
		name.Add(r.name)
		aliasOf.Add(nil)
		kind.Add(r.kind)
		desc.Add(nil)
		comment.Add(nil)
		tags.Add(map[any]any{})
		ret.Add(nil)
		names, types := functionParams(r)
		params.Add(names)
		ptypes.Add(types)
		if r.varargs {
			varargs.Add("ANY")
		} else {
			varargs.Add(nil)
		}
		if r.macro != nil {
			def.Add(parse.TokText(r.macro.body))
		} else {
			def.Add(nil)
		}
		effects.Add(r.volatile)
		internal.Add(r.macro == nil || r.system)
		oid.Add(int64(catalogFirstFunctionOID + i))
		examples.Add([]any{})
		switch {
		case r.kind == "table" || r.kind == "table_macro":
			stability.Add(nil) // as DuckDB's
		case r.volatile:
			stability.Add("VOLATILE")
		case r.withinStmt:
			stability.Add("CONSISTENT_WITHIN_QUERY")
		default:
			stability.Add("CONSISTENT")
		}
		categories.Add([]any{})
	}
}

// catalogFirstFunctionOID numbers the functions after the catalog's
// objects (as DuckDB's function oids follow its own).
const catalogFirstFunctionOID = 20000

// functionParams is a row's parameter names and types (NULL when the
// arity is not known): a macro's own names, col0, col1, ... of type ANY
// for the others.
func functionParams(r functionRow) (names, types any) {
	if r.params < 0 {
		return nil, nil
	}
	n, t := make([]any, r.params), make([]any, r.params)
	for k := range n {
		if r.macro != nil {
			n[k] = r.macro.params[k]
		} else {
			n[k] = "col" + strconv.Itoa(k)
		}
		t[k] = "ANY"
	}
	return n, t
}
