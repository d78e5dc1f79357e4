package function

import (
	"math"
	"math/big"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Exact sums and averages of decimals and integers (128-bit and wider
// accumulators), and the statistical, bit and shape accumulators.

// DecSum is an exact running sum of decimals at one scale: a 128-bit
// integer of unscaled units while it fits, carried into a big integer
// past that.
type DecSum struct {
	small num.Int128
	big   *big.Int
}

// AddUnscaled adds x units of the sum's scale.
func (s *DecSum) AddUnscaled(x int64) {
	s.addHuge(num.FromInt64(x))
}

// addHuge adds x units of the sum's scale.
func (s *DecSum) addHuge(x num.Int128) {
	if t, ok := s.small.Add(x); ok {
		s.small = t
		return
	}
	s.carry(s.small.Big())
	s.small = x
}

// AddDecimal adds d, rescaled to scale.
func (s *DecSum) AddDecimal(d value.Decimal, scale int) {
	if u, ok := DecimalToInt64(d, scale); ok {
		s.AddUnscaled(u)
		return
	}
	s.carry(vec.RatDecimal(vec.DecRat(d), scale).Unscaled)
}

func (s *DecSum) carry(u *big.Int) {
	if s.big == nil {
		s.big = new(big.Int)
	}
	s.big.Add(s.big, u)
}

// Value is the sum as a decimal of the given scale.
func (s *DecSum) Value(scale int) value.Decimal {
	u := s.small.Big()
	if s.big != nil {
		u.Add(u, s.big)
	}
	return value.Decimal{Unscaled: u, Scale: int32(scale)}
}

// sumDecAcc sums decimals exactly, per group, as DecSum does: 128-bit
// sums, with what overflows them kept apart in big integers (rare), so
// that the per-group slice holds no pointers for the collector to scan.
// While every sum fits an int64 (a decimal(15,2) column's sums, the common
// case) they are kept in narrow, half the memory per group: an
// aggregation over many groups (TPC-H q18's 15M orders at SF 10) holds one
// sum per group until its end.
type sumDecAcc struct {
	t vec.Type
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
	part []int64 // per-batch partial sums (LaneSums)
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
// few groups, the additions go through the kernels of aggkernels.go.
func (a *sumDecAcc) addNarrow(gids []int32, ng int, c *vec.Col) {
	a.narrow = vec.GrowTo(a.narrow, ng)
	x := c.I[:len(gids)]
	if c.Null == nil && ng == 1 && len(gids) > 0 {
		t, _ := num.FromInt64(a.narrow[0]).Add(Sum128(x)) // no overflow: see addInts
		a.seen[0] = true
		if t.Hi == int64(t.Lo)>>63 {
			a.narrow[0] = int64(t.Lo)
			return
		}
		a.widen()
		a.sum[0] = t
		return
	}
	if c.Null == nil && FewGroups(ng, len(gids)) {
		var ok bool
		if a.part, ok = LaneSums(a.part, a.seen, gids, x, ng); ok {
			for g, v := range a.part {
				s, o := AddInt64(a.narrow[g], v)
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
		s, o := AddInt64(a.narrow[g], x[i])
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
func (a *sumDecAcc) addInts(gids []int32, ng int, c *vec.Col) {
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
			a.sum[0], _ = a.sum[0].Add(Sum128(x)) // sums of int64s: no overflow, as above
			a.seen[0] = true
		}
	default:
		if FewGroups(ng, len(gids)) {
			var ok bool
			if a.part, ok = LaneSums(a.part, a.seen, gids, x, ng); ok {
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

func (a *sumDecAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.seen = vec.GrowTo(a.seen, ng)
	ints := c.I != nil && c.Dict == nil && !a.wide
	if ints && !a.widened {
		a.addNarrow(gids, ng, c)
		return
	}
	a.widen()
	a.sum = vec.GrowTo(a.sum, ng)
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
			if u, ok := DecimalToInt64(d, a.t.Scale); ok {
				a.addHuge(g, num.FromInt64(u))
			} else {
				a.carry(g, vec.RatDecimal(vec.DecRat(d), a.t.Scale).Unscaled)
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

func (a *sumDecAcc) Result(ng int) *vec.Col {
	if a.widened {
		a.sum = vec.GrowTo(a.sum, ng)
	} else {
		a.narrow = vec.GrowTo(a.narrow, ng)
	}
	a.seen = vec.GrowTo(a.seen, ng)
	if vec.Storage(a.t) == vec.StHuge {
		// The common case: every sum fits 128 bits, no big integers.
		c := &vec.Col{T: a.t, Len: ng, H: make([]num.Int128, ng)}
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
	b := vec.NewBuilder(a.t, ng)
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
	part []int64 // per-batch partial counts (CountRows)
}

func (a *avgExactAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.n = vec.GrowTo(a.n, ng)
	if c.Null == nil {
		a.part = CountRows(a.n, a.part, gids, ng)
	} else {
		for i, g := range gids {
			if !c.Null[i] {
				a.n[g]++
			}
		}
	}
	a.sum.Update(gids, ng, c)
}

func (a *avgExactAcc) Result(ng int) *vec.Col {
	a.n = vec.GrowTo(a.n, ng)
	sums := a.sum.Result(ng)
	c := &vec.Col{T: tFloat, Len: ng, F: make([]float64, ng)}
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
		q := new(big.Rat).Quo(vec.DecRat(d), new(big.Rat).SetInt64(a.n[g]))
		c.F[g], _ = q.Float64()
	}
	return c
}

// exactQuotient is sum g / n as the nearest float64 (quotient64), when
// the unscaled sum and n * 10^scale fit 64 bits.
func exactQuotient(sums *vec.Col, g int, n int64) (float64, bool) {
	var u num.Int128
	switch {
	case sums.H != nil:
		u = sums.H[g]
	case sums.I != nil:
		u = num.FromInt64(sums.I[g])
	default:
		return 0, false
	}
	return quotient64(u, n, sums.T.Scale)
}

// pairAcc keeps, per group, the count, means and co-moments of the (y, x)
// pairs where neither is NULL (Welford's updates, stable for large means).
type pairAcc struct {
	fn                    string
	n                     []int64
	mx, my, sxx, syy, sxy []float64
}

func (a *pairAcc) Update(gids []int32, ng int, c *vec.Col) {
	panic("pairAcc: update2 takes both arguments")
}

func (a *pairAcc) grow(ng int) {
	a.n = vec.GrowTo(a.n, ng)
	a.mx, a.my = vec.GrowTo(a.mx, ng), vec.GrowTo(a.my, ng)
	a.sxx, a.syy, a.sxy = vec.GrowTo(a.sxx, ng), vec.GrowTo(a.syy, ng), vec.GrowTo(a.sxy, ng)
}

func (a *pairAcc) Update2(gids []int32, ng int, yc, xc *vec.Col) {
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

func (a *pairAcc) Result(ng int) *vec.Col {
	a.grow(ng)
	if a.fn == "regr_count" {
		return &vec.Col{T: tInt, Len: ng, I: append([]int64(nil), a.n[:ng]...)}
	}
	c := &vec.Col{T: tFloat, Len: ng, F: make([]float64, ng)}
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
	t    vec.Type
	v    []int64
	seen []bool
}

func (a *bitAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v, a.seen = vec.GrowTo(a.v, ng), vec.GrowTo(a.seen, ng)
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

func (a *bitAcc) Result(ng int) *vec.Col {
	a.v, a.seen = vec.GrowTo(a.v, ng), vec.GrowTo(a.seen, ng)
	c := &vec.Col{T: a.t, Len: ng, I: append([]int64(nil), a.v[:ng]...)}
	nullUnseen(c, a.seen[:ng])
	return c
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

func (a *shapeAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.n = vec.GrowTo(a.n, ng)
	for k := range a.sum {
		a.sum[k] = vec.GrowTo(a.sum[k], ng)
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

func (a *shapeAcc) Result(ng int) *vec.Col {
	a.n = vec.GrowTo(a.n, ng)
	for k := range a.sum {
		a.sum[k] = vec.GrowTo(a.sum[k], ng)
	}
	c := &vec.Col{T: tFloat, Len: ng, F: make([]float64, ng)}
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

func (a *sumDecAcc) Reserve(n int) { a.narrow, a.seen = make([]int64, 0, n), make([]bool, 0, n) }

func (a *avgExactAcc) Reserve(n int) { a.sum.Reserve(n); a.n = make([]int64, 0, n) }
