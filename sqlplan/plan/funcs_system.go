package plan

import "sync/atomic"

// LastQueryID counts the statements' runs.
var LastQueryID atomic.Uint64

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
		"cast_to_type":        {Min: 2, Max: 2},
		"can_cast_implicitly": {Min: 2, Max: 2},
		"current_query_id":    {Min: 0, Max: 0},
	})
}

// bindTypeFunc binds this file's functions; ok is false for other names.
func (p *Planner) bindTypeFunc(name string, args []Expr) (Expr, bool, error) {
	switch name {
	case "current_query_id":
		return &ConstExpr{T: Type{Kind: KUint}, V: p.Set.QueryID}, true, nil
	case "cast_to_type":
		e, err := p.cast(args[0], args[1].Type())
		return e, true, err
	case "can_cast_implicitly":
		return &ConstExpr{T: TBool, V: castsImplicitly(args[0].Type(), args[1].Type())}, true, nil
	}
	return nil, false, nil
}
