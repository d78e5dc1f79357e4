package sqlplan

// DuckDB's functions named after the arithmetic operators: add(a, b) is
// a + b, subtract(a) is -a, and divide is DuckDB's / of the function form,
// which divides integers as // does (divide(5, 2) is 2) and others as /.
// They bind through the operators, so types, overflow errors and
// constant folding are the operators'.

func init() {
	addFuncs(map[string]*fn{
		"add":      {min: 1, max: 2},
		"subtract": {min: 1, max: 2},
		"multiply": {min: 2, max: 2},
		"divide":   {min: 2, max: 2},
	})
	funcs["editdist3"] = funcs["levenshtein"] // DuckDB's alias
}

// bindOperatorFunc binds the calls of those functions; ok is false for
// other names.
func (p *planner) bindOperatorFunc(name string, args []expr) (e expr, ok bool, err error) {
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
func (p *planner) negate(e expr) (expr, error) {
	if e.Type().Kind == KUHuge {
		// Wraps modulo 2^128, as DuckDB's; a constant folds here.
		return p.fold(&negExpr{e: e}, e)
	}
	if k, ok := isConst(e); ok {
		return negConst(k)
	}
	if !e.Type().IsNumeric() && e.Type().Kind != KInterval {
		return nil, errorf("cannot negate %s", e.Type().SQLName())
	}
	return &negExpr{e: e}, nil
}
