package function

import (
	"math"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// bar(x, min, max[, width]) is DuckDB's text bar chart: x between min and
// max drawn as up to width (default 80) Unicode blocks, in eighths of a
// block, padded with spaces to the whole part of width. x at or below min
// (or NaN) draws nothing, x at or above max the whole width.

func init() {
	register(map[string]*Scalar{"bar": {Min: 3, Max: 4, Rule: Sig(tString, tFloat), Row: barRow}})
}

// barEighths are the blocks of 0/8 to 7/8 of a character's width.
var barEighths = [...]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

func barRow(a []*vec.Col, i int) (any, error) {
	x, lo, hi, maxWidth := a[0].F[i], a[1].F[i], a[2].F[i], 80.0
	if len(a) > 3 {
		maxWidth = a[3].F[i]
	}
	switch {
	case math.IsNaN(maxWidth) || math.IsInf(maxWidth, 0):
		return nil, errorf("Max bar width must not be NaN or infinity")
	case maxWidth < 1:
		return nil, errorf("Max bar width must be >= 1")
	case maxWidth > 1000:
		return nil, errorf("Max bar width must be <= 1000")
	}
	var width float64
	switch {
	case math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi) || x <= lo:
	case x >= hi:
		width = maxWidth
	default:
		width = maxWidth * (x - lo) / (hi - lo)
	}
	if math.IsNaN(width) || math.IsInf(width, 0) {
		return nil, errorf("Bar width must not be NaN or infinity")
	}
	eighths := int(width * 8)
	var sb strings.Builder
	sb.WriteString(strings.Repeat("█", eighths/8))
	used := eighths / 8
	if r := eighths % 8; r != 0 {
		sb.WriteString(barEighths[r])
		used++
	}
	if pad := int(maxWidth) - used; pad > 0 {
		sb.WriteString(strings.Repeat(" ", pad))
	}
	return sb.String(), nil
}
