package sqlplan

import "sync/atomic"

// lastQueryID counts the statements' runs.
var lastQueryID atomic.Uint64

// current_query_id() is the number of the statement's run: one value
// within a statement, a new one for each statement run (the settings a
// run reads are made once per run, settingsFor), unique in the process.
//
// DuckDB's functions of types that carquet's binder answers:
// cast_to_type(x, y) casts x to y's type, can_cast_implicitly(x, y) says
// whether x's type casts to y's without being asked (castsImplicitly,
// the rule macros' typed parameters follow). Both read only their
// arguments' types, as DuckDB's do; carquet has no TYPE values, so
// get_type, make_type and replace_type, which take or give one, are
// not here.

func init() {
	addFuncs(map[string]*fn{
		"cast_to_type":        {min: 2, max: 2},
		"can_cast_implicitly": {min: 2, max: 2},
		"current_query_id":    {min: 0, max: 0},
	})
}

// bindTypeFunc binds this file's functions; ok is false for other names.
func (p *planner) bindTypeFunc(name string, args []expr) (expr, bool, error) {
	switch name {
	case "current_query_id":
		return &constExpr{t: Type{Kind: KUint}, v: p.set.queryID}, true, nil
	case "cast_to_type":
		e, err := p.cast(args[0], args[1].Type())
		return e, true, err
	case "can_cast_implicitly":
		return &constExpr{t: tBool, v: castsImplicitly(args[0].Type(), args[1].Type())}, true, nil
	}
	return nil, false, nil
}
