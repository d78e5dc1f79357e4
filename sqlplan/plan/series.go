package plan

import (
	"strconv"
	"strings"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// seriesRelation plans the marker table name as a one-column relation
// (named like the function, as DuckDB).
func seriesRelation(name, alias string) (*Relation, error) {
	parts := strings.Split(name, ":")
	if len(parts) != 5 {
		return nil, errorf("bad table function")
	}
	var v [3]int64
	for i := range v {
		n, err := strconv.ParseInt(parts[2+i], 10, 64)
		if err != nil {
			return nil, errorf("bad table function")
		}
		v[i] = n
	}
	fn := parts[1]
	if alias == "" {
		alias = fn
	}
	n := &kernels.Series{Cur: v[0], Stop: v[1], Step: v[2], Incl: fn == "generate_series",
		What: fn + "(" + parts[2] + ", " + parts[3] + ", " + parts[4] + ")"}
	sp := &SelectPlan{Root: n, Cols: []Column{{Name: fn, Type: TInt}}}
	rel := &Relation{Alias: alias, Sub: sp}
	rel.Cols = append(rel.Cols, &ScopeCol{Rel: rel, Name: fn, T: TInt, Slot: &Slot{}})
	return rel, nil
}
