package exec

import "github.com/carquet-go/carquet/sqlplan/vec"

// Short names for the tests' columns.
type (
	Col  = vec.Col
	Type = vec.Type
)

const (
	KInt     = vec.KInt
	KString  = vec.KString
	KFloat   = vec.KFloat
	KBool    = vec.KBool
	vecKUint = vec.KUint
)

var (
	tInt    = Type{Kind: KInt}
	tString = Type{Kind: KString}
)
