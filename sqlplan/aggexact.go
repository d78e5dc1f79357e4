package sqlplan

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
	"math"
	"math/big"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Exact sums and averages of decimals and integers (128-bit and wider
// accumulators), and the statistical, bit, list and shape accumulators.

// decSum is an exact running sum of decimals at one scale: a 128-bit
// integer of unscaled units while it fits, carried into a big integer
// past that.
type decSum struct {
	small num.Int128
	big   *big.Int
}

// addUnscaled adds x units of the sum's scale.
func (s *decSum) addUnscaled(x int64) {
	s.addHuge(num.FromInt64(x))
}

// addHuge adds x units of the sum's scale.
func (s *decSum) addHuge(x num.Int128) {
	if t, ok := s.small.Add(x); ok {
		s.small = t
		return
	}
	s.carry(s.small.Big())
	s.small = x
}

// addDecimal adds d, rescaled to scale.
func (s *decSum) addDecimal(d value.Decimal, scale int) {
	if u, ok := function.DecimalToInt64(d, scale); ok {
		s.addUnscaled(u)
		return
	}
	s.carry(ratDecimal(decRat(d), scale).Unscaled)
}

func (s *decSum) carry(u *big.Int) {
	if s.big == nil {
		s.big = new(big.Int)
	}
	s.big.Add(s.big, u)
}

// value is the sum as a decimal of the given scale.
func (s *decSum) value(scale int) value.Decimal {
	u := s.small.Big()
	if s.big != nil {
		u.Add(u, s.big)
	}
	return value.Decimal{Unscaled: u, Scale: int32(scale)}
}

// sumDecAcc sums decimals exactly, per group, as decSum does: 128-bit
// sums, with what overflows them kept apart in big integers (rare), so
// that the per-group slice holds no pointers for the collector to scan.
// While every sum fits an int64 (a decimal(15,2) column's sums, the common
// case) they are kept in narrow, half the memory per group: an
// aggregation over many groups (TPC-H q18's 15M orders at SF 10) holds one
// sum per group until its end.
type sumDecAcc struct {
	t Type
	// narrow holds the sums until one would leave int64 or a value comes
	// as more than an int64; widen then moves them all into sum.
	narrow []int64
	sum    []num.Int128
	// widened: the sums are in sum, not narrow.
	widened bool
	over    map[int32]*big.Int
	seen    []bool
	// wide: some value came as more than an int64, so a sum may near the
	// 128-bit limit and every addition is checked.
	wide bool
	part []int64 // per-batch partial sums (function.LaneSums)
}

// widen moves the int64 sums into 128-bit ones, for good.
func (a *sumDecAcc) widen() {
	if a.widened {
		return
	}
	a.sum = make([]num.Int128, len(a.narrow), cap(a.narrow))
	for g, v := range a.narrow {
		a.sum[g] = num.FromInt64(v)
	}
	a.narrow, a.widened = nil, true
}

// at is group g's sum (without its big-integer overflow).
func (a *sumDecAcc) at(g int) num.Int128 {
	if !a.widened {
		return num.FromInt64(a.narrow[g])
	}
	return a.sum[g]
}

// addNarrow adds int64 unscaled values to the int64 sums, each addition
// checked: at the first that would leave int64 every sum is widened and
// the rest of the batch is added to the 128-bit sums. Without nulls, over
// few groups, the additions go through the kernels of function/aggkernels.go.
func (a *sumDecAcc) addNarrow(gids []int32, ng int, c *Col) {
	a.narrow = growTo(a.narrow, ng)
	x := c.I[:len(gids)]
	if c.Null == nil && ng == 1 && len(gids) > 0 {
		t, _ := num.FromInt64(a.narrow[0]).Add(function.Sum128(x)) // no overflow: see addInts
		a.seen[0] = true
		if t.Hi == int64(t.Lo)>>63 {
			a.narrow[0] = int64(t.Lo)
			return
		}
		a.widen()
		a.sum[0] = t
		return
	}
	if c.Null == nil && function.FewGroups(ng, len(gids)) {
		var ok bool
		if a.part, ok = function.LaneSums(a.part, a.seen, gids, x, ng); ok {
			for g, v := range a.part {
				s, o := function.AddInt64(a.narrow[g], v)
				if o {
					a.widen()
					for g2, v := range a.part[g:] {
						a.sum[g+g2] = a.sum[g+g2].AddInt64(v)
					}
					return
				}
				a.narrow[g] = s
			}
			return
		}
	}
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		s, o := function.AddInt64(a.narrow[g], x[i])
		if o {
			a.widen()
			for j := i; j < len(gids); j++ {
				if c.Null == nil || !c.Null[j] {
					a.addInt(gids[j], x[j])
				}
			}
			return
		}
		a.narrow[g] = s
		a.seen[g] = true
	}
}

// addInts adds int64 unscaled values to their groups' 128-bit sums
// without an overflow check: while only int64s are added, a sum needs
// more than 2^64 additions to leave 128 bits.
func (a *sumDecAcc) addInts(gids []int32, ng int, c *Col) {
	x := c.I[:len(gids)]
	switch {
	case c.Null != nil:
		for i, g := range gids {
			if !c.Null[i] {
				a.addInt(g, x[i])
			}
		}
	case ng == 1:
		if len(gids) > 0 {
			a.sum[0], _ = a.sum[0].Add(function.Sum128(x)) // sums of int64s: no overflow, as above
			a.seen[0] = true
		}
	default:
		if function.FewGroups(ng, len(gids)) {
			var ok bool
			if a.part, ok = function.LaneSums(a.part, a.seen, gids, x, ng); ok {
				for g, v := range a.part {
					a.sum[g] = a.sum[g].AddInt64(v)
				}
				return
			}
		}
		for i, g := range gids {
			a.addInt(g, x[i])
		}
	}
}

// addInt adds v to group g's sum and marks the group seen.
func (a *sumDecAcc) addInt(g int32, v int64) {
	a.sum[g] = a.sum[g].AddInt64(v)
	a.seen[g] = true
}

func (a *sumDecAcc) update(gids []int32, ng int, c *Col) {
	a.seen = growTo(a.seen, ng)
	ints := c.I != nil && c.Dict == nil && !a.wide
	if ints && !a.widened {
		a.addNarrow(gids, ng, c)
		return
	}
	a.widen()
	a.sum = growTo(a.sum, ng)
	if ints {
		a.addInts(gids, ng, c)
		return
	}
	a.wide = true
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		a.seen[g] = true
		switch {
		case c.I != nil:
			a.addHuge(g, num.FromInt64(c.I[i]))
		case c.H != nil && c.T.Scale == a.t.Scale:
			a.addHuge(g, c.H[i])
		default:
			d := c.Decimal(i)
			if u, ok := function.DecimalToInt64(d, a.t.Scale); ok {
				a.addHuge(g, num.FromInt64(u))
			} else {
				a.carry(g, ratDecimal(decRat(d), a.t.Scale).Unscaled)
			}
		}
	}
}

// addHuge adds x units of the sum's scale to group g.
func (a *sumDecAcc) addHuge(g int32, x num.Int128) {
	if t, ok := a.sum[g].Add(x); ok {
		a.sum[g] = t
		return
	}
	a.carry(g, a.sum[g].Big())
	a.sum[g] = x
}

// carry adds u to group g's overflow.
func (a *sumDecAcc) carry(g int32, u *big.Int) {
	if a.over == nil {
		a.over = map[int32]*big.Int{}
	}
	b := a.over[g]
	if b == nil {
		b = new(big.Int)
		a.over[g] = b
	}
	b.Add(b, u)
}

// wideSum is group g's sum when part of it was kept apart in a big
// integer (wide is false otherwise): a sum past 128 bits, which the
// result column cannot hold but an average of it may still be.
func (a *sumDecAcc) wideSum(g int32) (d value.Decimal, wide bool) {
	o := a.over[g]
	if o == nil {
		return value.Decimal{}, false
	}
	return value.Decimal{Unscaled: new(big.Int).Add(a.at(int(g)).Big(), o), Scale: int32(a.t.Scale)}, true
}

// hugeOverflow is DuckDB's error for a HUGEINT sum past 128 bits (only
// a group with an overflow kept apart can be one); nil otherwise.
func (a *sumDecAcc) hugeOverflow() error {
	if !a.t.Huge {
		return nil
	}
	for g := range a.over {
		if d, _ := a.wideSum(g); !a.t.FitsBig(d.Unscaled) {
			return errorf("Overflow in HUGEINT addition: the sum %s leaves INT128", d.Unscaled)
		}
	}
	return nil
}

func (a *sumDecAcc) result(ng int) *Col {
	if a.widened {
		a.sum = growTo(a.sum, ng)
	} else {
		a.narrow = growTo(a.narrow, ng)
	}
	a.seen = growTo(a.seen, ng)
	if storage(a.t) == stHuge {
		// The common case: every sum fits 128 bits, no big integers.
		c := &Col{T: a.t, Len: ng, H: make([]num.Int128, ng)}
		fits := true
		for g := 0; g < ng && fits; g++ {
			switch {
			case !a.seen[g]:
				c.SetNull(g)
			case a.over[int32(g)] != nil || !a.t.Fits(a.at(g)):
				fits = false
			default:
				c.H[g] = a.at(g)
			}
		}
		if fits {
			return c
		}
	}
	b := newBuilder(a.t, ng)
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			b.Add(nil)
			continue
		}
		u := a.at(g).Big()
		if o := a.over[int32(g)]; o != nil {
			u.Add(u, o)
		}
		b.Add(value.Decimal{Unscaled: u, Scale: int32(a.t.Scale)})
	}
	return b.C
}

// avgExactAcc is AVG of integers or decimals: an exact sum (carried into
// big integers past int64) and a count, divided once at the end.
type avgExactAcc struct {
	sum  sumDecAcc
	n    []int64
	part []int64 // per-batch partial counts (function.CountRows)
}

func (a *avgExactAcc) update(gids []int32, ng int, c *Col) {
	a.n = growTo(a.n, ng)
	if c.Null == nil {
		a.part = function.CountRows(a.n, a.part, gids, ng)
	} else {
		for i, g := range gids {
			if !c.Null[i] {
				a.n[g]++
			}
		}
	}
	a.sum.update(gids, ng, c)
}

func (a *avgExactAcc) result(ng int) *Col {
	a.n = growTo(a.n, ng)
	sums := a.sum.result(ng)
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		if a.n[g] == 0 || sums.IsNull(g) {
			c.SetNull(g)
			continue
		}
		d, wide := a.sum.wideSum(int32(g))
		if !wide {
			if f, ok := exactQuotient(sums, g, a.n[g]); ok {
				c.F[g] = f
				continue
			}
			d = sums.Decimal(g)
		}
		q := new(big.Rat).Quo(decRat(d), new(big.Rat).SetInt64(a.n[g]))
		c.F[g], _ = q.Float64()
	}
	return c
}

// exactQuotient is sum g / n as the nearest float64, when the unscaled
// sum and n * 10^scale are integers below 2^53: both convert exactly and
// IEEE division rounds the quotient once, as big.Rat would.
func exactQuotient(sums *Col, g int, n int64) (float64, bool) {
	const limit = 1 << 53
	var u int64
	switch {
	case sums.H != nil:
		h := sums.H[g]
		if h.Hi != int64(h.Lo)>>63 {
			return 0, false
		}
		u = int64(h.Lo)
	case sums.I != nil:
		u = sums.I[g]
	default:
		return 0, false
	}
	scale := sums.T.Scale
	if u <= -limit || u >= limit || scale >= len(pow10) || n <= 0 || n >= limit/pow10[scale] {
		return 0, false
	}
	return float64(u) / float64(n*pow10[scale]), true
}

// accError is the error an accumulator met in its values, also under
// DISTINCT: an integer SUM that left int64, the logarithm of a value of
// geomean that is not positive.
func accError(a accumulator) error {
	switch x := a.(type) {
	case *sumIntAcc:
		if x.overflow {
			return errorf("integer overflow")
		}
	case *shapeAcc:
		return x.err
	case *sumDecAcc:
		return x.hugeOverflow()
	case *bitStringAcc:
		return x.err
	case *countingAcc:
		return x.overflowError()
	case *bitstringAggAcc:
		return x.err
	case *distinctAcc:
		return accError(x.inner)
	case *orderedAcc:
		return accError(x.inner)
	}
	return nil
}

// pairAccumulator is an accumulator of two arguments (arg, arg2).
type pairAccumulator interface {
	accumulator
	update2(gids []int32, ng int, c, k *Col)
}

// pairStats are the aggregates of (y, x) pairs that pairAcc computes.
var pairStats = map[string]bool{
	"corr": true, "covar_pop": true, "covar_samp": true, "regr_slope": true, "regr_intercept": true, "regr_r2": true,
	"regr_count": true, "regr_avgx": true, "regr_avgy": true, "regr_sxx": true, "regr_syy": true, "regr_sxy": true,
}

// pairAcc keeps, per group, the count, means and co-moments of the (y, x)
// pairs where neither is NULL (Welford's updates, stable for large means).
type pairAcc struct {
	fn                    string
	n                     []int64
	mx, my, sxx, syy, sxy []float64
}

func (a *pairAcc) update(gids []int32, ng int, c *Col) {
	panic("pairAcc: update2 takes both arguments")
}

func (a *pairAcc) grow(ng int) {
	a.n = growTo(a.n, ng)
	a.mx, a.my = growTo(a.mx, ng), growTo(a.my, ng)
	a.sxx, a.syy, a.sxy = growTo(a.sxx, ng), growTo(a.syy, ng), growTo(a.sxy, ng)
}

func (a *pairAcc) update2(gids []int32, ng int, yc, xc *Col) {
	a.grow(ng)
	for i, g := range gids {
		if yc.IsNull(i) || xc.IsNull(i) {
			continue
		}
		x, y := xc.F[i], yc.F[i]
		a.n[g]++
		n := float64(a.n[g])
		dx, dy := x-a.mx[g], y-a.my[g]
		a.mx[g] += dx / n
		a.my[g] += dy / n
		a.sxx[g] += dx * (x - a.mx[g])
		a.syy[g] += dy * (y - a.my[g])
		a.sxy[g] += dx * (y - a.my[g])
	}
}

func (a *pairAcc) result(ng int) *Col {
	a.grow(ng)
	if a.fn == "regr_count" {
		return &Col{T: tInt, Len: ng, I: append([]int64(nil), a.n[:ng]...)}
	}
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		n := float64(a.n[g])
		sxx, syy, sxy := a.sxx[g], a.syy[g], a.sxy[g]
		v, ok := 0.0, a.n[g] > 0
		switch a.fn {
		case "covar_pop":
			v = sxy / n
		case "covar_samp":
			v, ok = sxy/(n-1), a.n[g] > 1
		case "corr": // NaN without variance, as DuckDB
			v = sxy / math.Sqrt(sxx*syy)
		case "regr_slope": // NaN without variance of x, as DuckDB
			v = sxy / sxx
		case "regr_intercept":
			v, ok = a.my[g]-sxy/sxx*a.mx[g], ok && sxx != 0
		case "regr_r2":
			switch {
			case !ok || sxx == 0:
				ok = false
			case syy == 0:
				v = 1
			default:
				v = sxy * sxy / (sxx * syy)
			}
		case "regr_avgx":
			v = a.mx[g]
		case "regr_avgy":
			v = a.my[g]
		case "regr_sxx":
			v = sxx
		case "regr_syy":
			v = syy
		case "regr_sxy":
			v = sxy
		}
		if ok {
			c.F[g] = v
		} else {
			c.SetNull(g)
		}
	}
	return c
}

// bitAcc is bit_and, bit_or or bit_xor of integers.
type bitAcc struct {
	fn   string
	t    Type
	v    []int64
	seen []bool
}

func (a *bitAcc) update(gids []int32, ng int, c *Col) {
	a.v, a.seen = growTo(a.v, ng), growTo(a.seen, ng)
	for i, g := range gids {
		if c.IsNull(i) {
			continue
		}
		x := c.I[i]
		switch {
		case !a.seen[g]:
			a.v[g] = x
		case a.fn == "bit_and":
			a.v[g] &= x
		case a.fn == "bit_or":
			a.v[g] |= x
		default:
			a.v[g] ^= x
		}
		a.seen[g] = true
	}
}

func (a *bitAcc) result(ng int) *Col {
	a.v, a.seen = growTo(a.v, ng), growTo(a.seen, ng)
	c := &Col{T: a.t, Len: ng, I: append([]int64(nil), a.v[:ng]...)}
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			c.SetNull(g)
		}
	}
	return c
}

// listAcc is list (array_agg): every value of the group, NULLs included, in
// input order; NULL for a group without rows.
type listAcc struct {
	t    Type
	vals [][]any
	seen []bool
}

func (a *listAcc) update(gids []int32, ng int, c *Col) {
	a.vals, a.seen = growTo(a.vals, ng), growTo(a.seen, ng)
	for i, g := range gids {
		// Elements as nested values read from files hold them (time.Time
		// for dates and times, strings for decimals).
		a.vals[g] = append(a.vals[g], toGo(*a.t.Elem, c.Get(i)))
		a.seen[g] = true
	}
}

func (a *listAcc) result(ng int) *Col {
	a.vals, a.seen = growTo(a.vals, ng), growTo(a.seen, ng)
	b := newBuilder(a.t, ng)
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			b.Add(nil)
			continue
		}
		b.Add(a.vals[g])
	}
	return b.C
}

// shapeAcc computes the float aggregates of per-group sums: product,
// geomean (the exponential of the mean logarithm), and from the sums of
// x, x², x³ and x⁴ the sample skewness and the excess kurtosis, sample
// (bias-corrected, kurtosis) or population (kurtosis_pop), as DuckDB
// defines them; a group too small has none (NULL), nor has the kurtosis
// of equal values.
type shapeAcc struct {
	fn  string
	n   []int64
	sum [4][]float64
	err error
}

func (a *shapeAcc) update(gids []int32, ng int, c *Col) {
	a.n = growTo(a.n, ng)
	for k := range a.sum {
		a.sum[k] = growTo(a.sum[k], ng)
	}
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		x := c.F[i]
		switch a.fn {
		case "product":
			if a.n[g] == 0 {
				a.sum[0][g] = 1
			}
			a.sum[0][g] *= x
		case "geomean":
			if x <= 0 && a.err == nil {
				a.err = errorf("cannot take the logarithm of %g", x)
			}
			a.sum[0][g] += math.Log(x)
		default:
			x2 := x * x
			a.sum[0][g] += x
			a.sum[1][g] += x2
			a.sum[2][g] += x2 * x
			a.sum[3][g] += x2 * x2
		}
		a.n[g]++
	}
}

func (a *shapeAcc) result(ng int) *Col {
	a.n = growTo(a.n, ng)
	for k := range a.sum {
		a.sum[k] = growTo(a.sum[k], ng)
	}
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		v, ok := a.value(g)
		if !ok {
			c.SetNull(g)
			continue
		}
		c.F[g] = v
	}
	return c
}

func (a *shapeAcc) value(g int) (float64, bool) {
	n := float64(a.n[g])
	switch a.fn {
	case "product":
		return a.sum[0][g], a.n[g] > 0
	case "geomean":
		return math.Exp(a.sum[0][g] / n), a.n[g] > 0
	}
	// Central moments from the power sums.
	mean := a.sum[0][g] / n
	m2 := a.sum[1][g]/n - mean*mean
	m3 := a.sum[2][g]/n - 3*mean*a.sum[1][g]/n + 2*mean*mean*mean
	m4 := a.sum[3][g]/n - 4*mean*a.sum[2][g]/n + 6*mean*mean*a.sum[1][g]/n - 3*mean*mean*mean*mean
	switch a.fn {
	case "skewness":
		if a.n[g] < 3 {
			return 0, false
		}
		// Equal values give 0/0: NaN, as in DuckDB (kurtosis is NULL).
		return math.Sqrt(n*(n-1)) / (n - 2) * m3 / math.Pow(m2, 1.5), true
	case "kurtosis":
		if a.n[g] < 4 || m2 <= 0 {
			return 0, false
		}
		return (n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3)), true
	default: // kurtosis_pop
		if a.n[g] < 1 || m2 <= 0 {
			return 0, false
		}
		return m4/(m2*m2) - 3, true
	}
}

// lastAcc keeps each group's last value in input order, NULL included
// (first's counterpart; order-dependent without ORDER BY).
type lastAcc struct {
	t    Type
	vals []any
}

func (a *lastAcc) update(gids []int32, ng int, c *Col) {
	a.vals = growTo(a.vals, ng)
	for i, g := range gids {
		a.vals[g] = c.Get(i)
	}
}

func (a *lastAcc) result(ng int) *Col {
	a.vals = growTo(a.vals, ng)
	return valuesCol(a.t, a.vals[:ng])
}

// entropyAcc is the Shannon entropy, in bits, of each group's distribution
// of non-NULL values.
type entropyAcc struct {
	t      Type
	counts []map[string]int64
	n      []int64
	buf    []byte
}

func (a *entropyAcc) update(gids []int32, ng int, c *Col) {
	a.counts = growTo(a.counts, ng)
	a.n = growTo(a.n, ng)
	for i, g := range gids {
		if c.IsNull(i) {
			continue
		}
		if a.counts[g] == nil {
			a.counts[g] = map[string]int64{}
		}
		a.buf = vec.AppendKey(a.buf[:0], c, i)
		a.counts[g][string(a.buf)]++
		a.n[g]++
	}
}

func (a *entropyAcc) result(ng int) *Col {
	a.counts = growTo(a.counts, ng)
	a.n = growTo(a.n, ng)
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		n := float64(a.n[g])
		h := 0.0
		for _, k := range a.counts[g] {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
		c.F[g] = h
	}
	return c
}

func (a *sumDecAcc) reserve(n int) { a.narrow, a.seen = make([]int64, 0, n), make([]bool, 0, n) }

func (a *avgExactAcc) reserve(n int) { a.sum.reserve(n); a.n = make([]int64, 0, n) }
