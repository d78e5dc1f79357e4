package plan

import "github.com/carquet-go/carquet/sqlplan/function"

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

func CastScalar(v any, from, to Type) (any, error) { return function.CastScalar(v, from, to, false) }

// The casts of package function reach nested values (their Go forms and
// text live here, nestedvals.go and nestedtext.go) through its Nested.
func init() {
	function.Nested = function.NestedValues{
		ListElem: listElem,
		CastList: castNested,
		Text:     func(t Type, v any) (string, error) { return NestedText(t, v, false) },
		Map:      buildMap,
	}
}
