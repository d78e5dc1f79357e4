package sqlplan

import (
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// A system macro must not hide a function carquet computes natively: the
// expander would replace the call before the binder saw it.
func TestBuiltinMacrosShadowNothing(t *testing.T) {
	for name := range builtinMacros {
		if _, ok := plan.Funcs[name]; ok || plan.NestedNames[name] || plan.AggNames[name] || plan.WindowFns[name] {
			t.Errorf("system macro %s has the name of a native function", name)
		}
	}
}

// duckdb_functions() lists the system macros once per overload, as
// DuckDB does, with their bodies.
func TestBuiltinMacroRows(t *testing.T) {
	rows := builtinMacroRows()
	perName := map[string]int{}
	for _, r := range rows {
		perName[r.name]++
		if r.kind != "macro" && r.kind != "table" || !r.system || r.macro == nil || len(r.macro.body) == 0 {
			t.Errorf("bad row %+v", r)
		}
	}
	if perName["has_table_privilege"] != 2 || perName["list_median"] != 1 {
		t.Errorf("overloads: has_table_privilege %d, list_median %d", perName["has_table_privilege"], perName["list_median"])
	}
}
