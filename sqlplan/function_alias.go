package sqlplan

import "github.com/carquet-go/carquet/sqlplan/vec"

// Helpers of package function that the engine uses throughout, under
// their old names.

func floorDiv(a, b int64) int64 { return vec.FloorDiv(a, b) }
func unitsPerDay(t Type) int64  { return vec.UnitsPerDay(t) }
