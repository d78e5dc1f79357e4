package plan

// bitstring_agg(x) without min and max, as DuckDB: the range comes from
// what is known of x before reading it — a constant is its own range, a
// column of a table the min and max of its footers' statistics. DuckDB
// also carries statistics through expressions (x + 1); carquet does not,
// and gives DuckDB's error for them.

// errNoBitstringStats is DuckDB's error when the range is not known.
func errNoBitstringStats() error {
	return errorf("Could not retrieve required statistics. Alternatively, try by providing the statistics explicitly: BITSTRING_AGG(col, min, max)")
}

// bitstringStatsRange is the min and max bitstring_agg(x) takes for x.
func (p *Planner) bitstringStatsRange(x Expr) (lo, hi int64, err error) {
	t := x.Type()
	if t.Op() != KInt && t.Kind != KUint {
		return 0, 0, errorf("No function matches the given name and argument types 'bitstring_agg(%s)'. You might need to add explicit type casts.", t.SQLName())
	}
	if c, ok := IsConst(x); ok {
		n, _ := c.V.(int64) // NULL: no bit to set, any range
		return n, n, nil
	}
	if c, isCast := x.(*castExpr); isCast && isIntKind(c.e.Type()) {
		x = c.e // an integer cast keeps the values, and so the range
	}
	col, ok := x.(*ColExpr)
	if !ok || col.col == nil || col.col.Rel == nil || col.col.Rel.table == nil || col.col.Rel.derived() {
		return 0, 0, errNoBitstringStats()
	}
	sum, ok, err := col.col.Rel.table.Summarize(col.col.Name)
	if err == nil && ok && sum.Rows == sum.Nulls {
		return 0, 0, nil // no values: NULL, whatever the range
	}
	if err != nil || !ok || !sum.MinMaxKnown || sum.Min == nil || sum.Max == nil {
		return 0, 0, errNoBitstringStats()
	}
	var r [2]int64
	for k, v := range []any{sum.Min, sum.Max} {
		s, err := goScalar(v, t)
		n, isInt := s.(int64)
		if err != nil || !isInt || t.Kind == KUint && n < 0 {
			return 0, 0, errNoBitstringStats()
		}
		r[k] = n
	}
	return r[0], r[1], nil
}
