package plan

// DuckDB's functions named after the arithmetic operators, and those of
// the statement's time (transaction_timestamp, current_localtimestamp,
// current_localtime) and time zone parts (timezone_hour).
//
// The arithmetic ones: add(a, b) is a + b, subtract(a) is -a, and divide
// is DuckDB's / of the function form, which divides integers as // does
// (divide(5, 2) is 2) and others as /. They bind through the operators, so
// types, overflow errors and constant folding are the operators'.

func init() {
	addFuncs(map[string]*fn{
		"add":      {Min: 1, Max: 2},
		"subtract": {Min: 1, Max: 2},
		"multiply": {Min: 2, Max: 2},
		"divide":   {Min: 2, Max: 2},
	})
	// DuckDB's aliases.
	Funcs["editdist3"] = Funcs["levenshtein"]
	Funcs["datesub"] = Funcs["date_sub"]
	Funcs["uuidv4"] = Funcs["uuid"]
	// The statement's time (bindOperatorFunc).
	addFuncs(map[string]*fn{
		"transaction_timestamp":  {Min: 0, Max: 0},
		"current_localtimestamp": {Min: 0, Max: 0},
		"current_localtime":      {Min: 0, Max: 0},
		"get_current_time":       {Min: 0, Max: 0},
		"timezone_hour":          {Min: 1, Max: 1},
		"timezone_minute":        {Min: 1, Max: 1},
	})
}

// bindOperatorFunc binds the calls of these functions; ok is false for
// other names.
func (p *Planner) bindOperatorFunc(name string, args []Expr) (e Expr, ok bool, err error) {
	switch name {
	case "add":
		if len(args) == 1 {
			return args[0], true, nil
		}
		e, err = p.arith('+', args[0], args[1])
	case "subtract":
		if len(args) == 1 {
			e, err = p.negate(args[0])
			return e, true, err
		}
		e, err = p.arith('-', args[0], args[1])
	case "multiply":
		e, err = p.arith('*', args[0], args[1])
	case "transaction_timestamp": // one statement, one transaction
		e, err = p.bindFunc("now", nil)
	case "current_localtimestamp": // now() in the session's time zone
		if e, err = p.bindFunc("now", nil); err == nil {
			e, err = p.cast(e, tTS)
		}
	case "current_localtime":
		if e, err = p.bindFunc("current_localtimestamp", nil); err == nil {
			e, err = p.cast(e, Type{Kind: KTime})
		}
	case "get_current_time": // the statement's time of day, with its offset
		if e, err = p.bindFunc("now", nil); err == nil {
			e, err = p.cast(e, Type{Kind: KTimeTZ})
		}
	case "timezone_hour", "timezone_minute":
		e, err = p.bindFunc("date_part", []Expr{&ConstExpr{T: TString, V: name}, args[0]})
	case "divide":
		op := byte('/')
		if isIntKind(args[0].Type()) && isIntKind(args[1].Type()) {
			op = 'd'
		}
		e, err = p.arith(op, args[0], args[1])
	default:
		return nil, false, nil
	}
	return e, true, err
}

// negate binds -e (unary minus, and subtract(e)).
func (p *Planner) negate(e Expr) (Expr, error) {
	if k, ok := IsConst(e); e.Type().Kind == KUHuge || e.Type().Kind == KUint && !(ok && k.V == uint64(1<<63)) {
		// Wraps modulo 2^128 (2^64, 2^32, ...), as DuckDB's; a constant
		// folds here. (-9223372036854775808 is negConst's.)
		return p.fold(&negExpr{e: e}, e)
	}
	if k, ok := IsConst(e); ok {
		return negConst(k)
	}
	if !e.Type().IsNumeric() && e.Type().Kind != KInterval {
		return nil, errorf("cannot negate %s", e.Type().SQLName())
	}
	return &negExpr{e: e}, nil
}
