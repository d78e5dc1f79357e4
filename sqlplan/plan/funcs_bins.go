package plan

import "github.com/carquet-go/carquet/sqlplan/function"

// DuckDB's equi_width_bins(min, max, bin_count, nice_rounding): the upper
// bounds of bin_count bins of equal width over [min, max], as a list of
// the type of min and max (integers, doubles, dates or timestamps).

func init() { addFuncs(binsFuncs) }

var binsFuncs = map[string]*fn{
	"equi_width_bins": {4, 4, bindEquiWidthBins, function.EquiWidthBins, false, false},
}

// bindEquiWidthBins picks the integer, double or timestamp overload, as
// DuckDB does, and makes the row function of the chosen one.
func bindEquiWidthBins(p *Planner, in []Expr) ([]Expr, Type, error) {
	k0, k1 := in[0].Type().Kind, in[1].Type().Kind
	if k0 == KNull || k1 == KNull {
		return in, Type{Kind: KNull}, nil
	}
	if k := in[2].Type().Kind; k != KInt && k != KUint && k != KNull {
		return nil, Type{}, errorf("equi_width_bins takes an integer bin count, not %s", in[2].Type().SQLName())
	}
	count, err := p.cast(in[2], TInt)
	if err != nil {
		return nil, Type{}, err
	}
	nice, err := p.cast(in[3], TBool)
	if err != nil {
		return nil, Type{}, err
	}
	isInt := func(k Kind) bool { return k == KInt || k == KUint }
	isNum := func(k Kind) bool { return isInt(k) || k == KFloat || k == KDecimal }
	isTime := func(k Kind) bool { return k == KDate || k == KTimestamp }
	var arg, elem Type
	switch {
	case isInt(k0) && isInt(k1):
		arg, elem = TInt, TInt
		if t0, t1 := in[0].Type(), in[1].Type(); sameScalar(t0, t1) && t0.Kind == KInt {
			elem = t0
		}
	case isNum(k0) && isNum(k1):
		arg, elem = tFloat, tFloat
		if in[0].Type().Float32 && in[1].Type().Float32 {
			elem = Type{Kind: KFloat, Float32: true}
		}
	case isTime(k0) && isTime(k1):
		arg, elem = tTS, tTS
		if k0 == KDate && k1 == KDate {
			elem = tDate
		}
	default:
		return nil, Type{}, errorf("equi_width_bins takes two numbers, dates or timestamps, not %s and %s", in[0].Type().SQLName(), in[1].Type().SQLName())
	}
	// Bounds already of the element type stay so: the row function reads
	// the element type off them.
	bounds := in[:2]
	if !sameScalar(in[0].Type(), elem) || !sameScalar(in[1].Type(), elem) {
		if bounds, err = castAll(p, in[:2], arg); err != nil {
			return nil, Type{}, err
		}
	}
	return []Expr{bounds[0], bounds[1], count, nice}, Type{Kind: KNested, Elem: &elem}, nil
}

// sameScalar tells whether two scalar types are the same.
func sameScalar(a, b Type) bool {
	return a.Kind == b.Kind && a.Bits == b.Bits && a.Float32 == b.Float32 && a.TZ == b.TZ &&
		a.Coarse == b.Coarse && a.Nanos == b.Nanos && a.Huge == b.Huge && a.Prec == b.Prec && a.Scale == b.Scale
}
