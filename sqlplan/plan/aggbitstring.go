package plan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
)

// bitstring_agg(x, min, max) (DuckDB's): a BIT of max - min + 1 bits, bit
// i set when some value of x is min + i; NULL for a group without
// values. bitstring_agg(x) takes min and max from the column's
// statistics (bitstringstats.go).

// bindBitstringAggArgs takes bitstring_agg's min and max off the bound
// arguments: integer constants, min <= max.
func (p *Planner) bindBitstringAggArgs(spec *aggSpec, bound []Expr) ([]Expr, error) {
	if len(bound) == 1 {
		lo, hi, err := p.bitstringStatsRange(bound[0]) // bitstringstats.go
		if err != nil {
			return nil, err
		}
		bound = append(bound, &ConstExpr{T: TInt, V: lo}, &ConstExpr{T: TInt, V: hi})
	}
	if len(bound) != 3 {
		return nil, errorf("bitstring_agg takes a value, then its min and max")
	}
	if t := bound[0].Type(); t.Op() != KInt && t.Kind != KUint && t.Kind != KNull {
		return nil, errorf("bitstring_agg(%s, ...) is not defined: the value is an integer", t.SQLName())
	}
	var r [2]int64
	for k, b := range bound[1:] {
		c, ok := IsConst(b)
		if !ok || c.T.Op() != KInt && c.T.Kind != KUint {
			return nil, errorf("bitstring_agg's min and max are integer constants")
		}
		n, isInt := c.V.(int64)
		if !isInt {
			return nil, errorf("bitstring_agg's min and max are integers that are not NULL")
		}
		r[k] = n
	}
	if r[0] > r[1] {
		return nil, errorf("Invalid explicit bitstring range: Minimum (%d) > maximum (%d)", r[0], r[1])
	}
	if uint64(r[1]-r[0]) >= function.MaxBitstringAggBits {
		return nil, errorf("bitstring_agg range %d to %d is over the limit of %d bits", r[0], r[1], function.MaxBitstringAggBits)
	}
	spec.BitRange = &function.BitRange{Lo: r[0], Hi: r[1]}
	return bound[:1], nil
}
