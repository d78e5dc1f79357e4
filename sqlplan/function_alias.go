package sqlplan

import "github.com/carquet-go/carquet/sqlplan/function"

// Helpers of package function that the engine uses throughout, under
// their old names.

func floorDiv(a, b int64) int64 { return function.FloorDiv(a, b) }
func unitsPerDay(t Type) int64  { return function.UnitsPerDay(t) }
