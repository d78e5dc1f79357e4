package sqlplan

import (
	"regexp"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Helpers of package function that the engine uses throughout, under
// their old names.

func floorDiv(a, b int64) int64 { return vec.FloorDiv(a, b) }
func unitsPerDay(t Type) int64  { return vec.UnitsPerDay(t) }

// The cast hub, decimal and interval helpers of package function, under
// the names the engine has used for them.

var (
	tHuge     = function.THuge
	tUHuge    = function.TUHuge
	tBit      = function.TBit
	tTimeTZ   = function.TTimeTZ
	pow10     = function.Pow10
	maxUHuge  = function.MaxUHuge
	opName    = function.OpName
	castTypes = function.CastTypes
)

const (
	maxCastListDepth = function.MaxCastListDepth
	castListStep     = function.CastListStep
	castCodeBase     = function.CastCodeBase
)

func addInt64(a, b int64) (int64, bool)      { return function.AddInt64(a, b) }
func scaleOf(t Type) int                     { return function.ScaleOf(t) }
func timeToNanos(t time.Time) (int64, error) { return function.TimeToNanos(t) }
func parseTypeName(name string, params []int) (Type, error) {
	return function.ParseTypeName(name, params)
}
func fitDecimal(d value.Decimal, t Type) (any, error)       { return function.FitDecimal(d, t) }
func decFloat(unscaled int64, scale int) float64            { return function.DecFloat(unscaled, scale) }
func parseIntervalText(s string) (interval, error)          { return function.ParseIntervalText(s) }
func opSymbol(op byte) string                               { return function.OpSymbol(op) }
func makeInterval(n float64, unit string) (interval, error) { return function.MakeInterval(n, unit) }
func decimalToInt64(d value.Decimal, scale int) (int64, bool) {
	return function.DecimalToInt64(d, scale)
}
func convertTimeUnit(x int64, from, to Type) (any, error) {
	return function.ConvertTimeUnit(x, from, to)
}
func castScalarTry(v any, from, to Type, try bool) (any, error) {
	return function.CastScalar(v, from, to, try)
}
func castColTry(c *Col, to Type, try bool) (*Col, error) { return function.CastCol(c, to, try) }
func castCodeType(n int) (Type, bool)                    { return function.CastCodeType(n) }
func bitsCol(t Type, v [][]byte) *Col                    { return function.BitsCol(t, v) }
func uhugeNeg(c *Col) []num.Int128                       { return function.UHugeNeg(c) }
func uhugeArith(op byte, lc, rc *Col, out *Col) error    { return function.UHugeArith(op, lc, rc, out) }
func sameUnit(from, to Type) bool                        { return function.SameUnit(from, to) }
func sameNested(a, b Type) bool                          { return function.SameNested(a, b) }
func roundToUnit(us, unit int64) int64                   { return function.RoundToUnit(us, unit) }
func rescale(u int64, from, to int) (int64, bool)        { return function.Rescale(u, from, to) }
func quoteText(s string) string                          { return function.QuoteText(s) }
func hugeArith(op byte, lc, rc *Col, ls, rs int, out *Col) error {
	return function.HugeArith(op, lc, rc, ls, rs, out)
}
func exactInts(c *Col) bool                             { return function.ExactInts(c) }
func decimalScalar(t Type, v any) value.Decimal         { return function.DecimalScalar(t, v) }
func decimalOf(unscaled int64, scale int) value.Decimal { return function.DecimalOf(unscaled, scale) }
func combineBits(name string, dst, src []byte) error    { return function.CombineBits(name, dst, src) }
func bitBlobCast(from, to Type) bool                    { return function.BitBlobCast(from, to) }
func castScalar(v any, from, to Type) (any, error)      { return function.CastScalar(v, from, to, false) }

// The casts of package function reach nested values (their Go forms and
// text live here, nestedvals.go and nestedtext.go) through its Nested.
func init() {
	function.Nested = function.NestedValues{
		ListElem: listElem,
		CastList: castList,
		Text:     func(t Type, v any) (string, error) { return nestedText(t, v, false) },
	}
}
func floatFn(f func(float64) float64) func(a []*Col, i int) (any, error) { return function.FloatRow(f) }
func zoneNamed(name string) (*time.Location, error)                      { return function.ZoneNamed(name) }
func timeToDays(t time.Time) int64                                       { return function.TimeToDays(t) }
func cachedRegexp(p string) (*regexp.Regexp, error)                      { return function.CachedRegexp(p) }
