package plan

import (
	"math/big"
	"time"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The engine's column vectors and types live in package vec; these names
// keep the package's API (Col, Batch, Type, Kind and its constants) and
// let the rest of the engine use them unqualified.

type (
	// Col is one column of values in the engine (see vec.Col).
	Col = vec.Col
	// Batch is a set of rows as columns (see vec.Batch).
	Batch = vec.Batch
	// Type is the type of a column or expression (see vec.Type).
	Type = vec.Type
	// Kind is the SQL type family of a value (see vec.Kind).
	Kind = vec.Kind
	// NamedType is a struct field in CREATE TABLE (see vec.NamedType).
	NamedType = vec.NamedType

	ColBuilder  = vec.Builder
	storageKind = vec.StorageKind
	Interval    = vec.Interval
)

// The kinds of values (see vec.Kind).
const (
	KNull      = vec.KNull
	KBool      = vec.KBool
	KInt       = vec.KInt
	KUint      = vec.KUint
	KFloat     = vec.KFloat
	KDecimal   = vec.KDecimal
	KString    = vec.KString
	KBytes     = vec.KBytes
	KDate      = vec.KDate
	KTime      = vec.KTime
	KTimestamp = vec.KTimestamp
	KUUID      = vec.KUUID
	KInterval  = vec.KInterval
	KNested    = vec.KNested
	KTimeTZ    = vec.KTimeTZ
	KUHuge     = vec.KUHuge
	KEnum      = vec.KEnum
)

const (
	stAny   = vec.StAny
	stInt   = vec.StInt
	stFloat = vec.StFloat
	stBool  = vec.StBool
	stBytes = vec.StBytes
	stHuge  = vec.StHuge

	scratchCap = vec.ScratchCap

	microsPerDay = vec.MicrosPerDay
)

func newCol(t Type, n int) *Col                      { return vec.NewCol(t, n) }
func NullCol(t Type, n int) *Col                     { return vec.NullCol(t, n) }
func droppedCol(t Type, n int) *Col                  { return vec.DroppedCol(t, n) }
func emptyCol(t Type) *Col                           { return vec.EmptyCol(t) }
func AppendCol(dst, src *Col)                        { vec.AppendCol(dst, src) }
func Storage(t Type) storageKind                     { return vec.Storage(t) }
func NewBuilder(t Type, capacity int) *ColBuilder    { return vec.NewBuilder(t, capacity) }
func scratchInts(n int) ([]int64, bool)              { return vec.ScratchInts(n) }
func scratchFloats(n int) ([]float64, bool)          { return vec.ScratchFloats(n) }
func release(c *Col)                                 { vec.Release(c) }
func TypeOfField(f *schema.Field) Type               { return vec.TypeOfField(f) }
func PhysicalName(f *schema.Field) string            { return vec.PhysicalName(f) }
func pow10Big(k int) *big.Int                        { return vec.Pow10Big(k) }
func hugeScalar(v any, scale int) num.Int128         { return vec.HugeScalar(v, scale) }
func decRat(d value.Decimal) *big.Rat                { return vec.DecRat(d) }
func ratDecimal(r *big.Rat, scale int) value.Decimal { return vec.RatDecimal(r, scale) }
func uhugeSlot(v any) num.Int128                     { return vec.UHugeSlot(v) }
func uhugeValue(h num.Int128) value.Decimal          { return vec.UHugeValue(h) }
func slot128(t Type, v any) num.Int128               { return vec.Slot128(t, v) }
func toGo(t Type, v any) any                         { return vec.GoValue(t, v) }
func microsToTime(us int64) time.Time                { return vec.MicrosToTime(us) }
func stampToTime(t Type, v int64) time.Time          { return vec.StampToTime(t, v) }
func timeValue(t Type, v int64) time.Time            { return vec.TimeValue(t, v) }
func daysToTime(d int64) time.Time                   { return vec.DaysToTime(d) }
func addMonths(t time.Time, months int64) time.Time  { return vec.AddMonths(t, months) }
func timetzKey(us, off int64) int64                  { return vec.TimeTZKey(us, off) }
func timetzParts(k int64) (us, off int64)            { return vec.TimeTZParts(k) }
func timetzUTC(k int64) int64                        { return vec.TimeTZUTC(k) }
func timetzLocalKey(k int64) int64                   { return vec.TimeTZLocalKey(k) }
func compareStrings(t Type, a, b []byte) int         { return vec.CompareStrings(t, a, b) }
func mergeNulls(n int, cols ...*Col) []bool          { return vec.MergeNulls(n, cols...) }
func growTo[T any](s []T, n int) []T                 { return vec.GrowTo(s, n) }
func FormatScalar(t Type, v any) string              { return vec.ScalarText(t, v) }
func formatFloat(f float64) string                   { return vec.FormatFloat(f) }
func formatFloatBits(f float64, bits int) string     { return vec.FormatFloatBits(f, bits) }
func appendTimeTZ(b []byte, k int64) []byte          { return vec.AppendTimeTZ(b, k) }
