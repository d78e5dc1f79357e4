package sqlplan

import (
	"reflect"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// TestLibraryFunctions: every function of package function is in the
// engine's table as the library defines it (no file of the engine
// defines one of its names again), with its batch kernel where it has one.
func TestLibraryFunctions(t *testing.T) {
	for name, lib := range function.Scalars() {
		f := plan.Funcs[name]
		switch {
		case f == nil:
			t.Errorf("%s: not in the table", name)
		case reflect.ValueOf(f.Row).Pointer() != reflect.ValueOf(lib.Row).Pointer():
			t.Errorf("%s: the engine defines it again", name)
		case (lib.Batch != nil) != (plan.VecKernels[f] != nil):
			t.Errorf("%s: batch kernel lost", name)
		}
	}
}

// TestLibraryTypeRules: the library's type rules bind through the
// binder's casts: fixed signatures cast, rules that look at the argument
// types choose the result (nextafter of two FLOATs is a FLOAT), and a rule's
// error is the call's.
func TestLibraryTypeRules(t *testing.T) {
	e := newEngine(t)
	got := queryAll(t, e, "SELECT typeof(jaro_similarity('ab', 'abc')), typeof(nextafter(1::FLOAT, 2::FLOAT)), typeof(nextafter(1, 2)), substring(12345, 2, 3), substr('hello', 2)")
	want := [][]any{{"DOUBLE", "FLOAT", "DOUBLE", "234", "ello"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := queryRows(t, e, "SELECT to_base(1.5, 2)"); err == nil || !strings.Contains(err.Error(), "to_base takes (BIGINT, INTEGER[, INTEGER])") {
		t.Errorf("to_base of a DECIMAL: %v", err)
	}
}
