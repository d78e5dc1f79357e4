package tpch

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// FloatTolerance is the relative difference allowed between two values
// when either engine returns a floating-point type.
const FloatTolerance = 1e-9

// cell is one value in a form both engines' values convert to.
type cell struct {
	kind byte // 0 null, 'n' exact number, 'f' float, 's' string, 't' date/time
	rat  *big.Rat
	f    float64
	s    string // the value as shown in a diff
}

func exact(r *big.Rat) cell { return cell{kind: 'n', rat: r, s: ratText(r)} }

// ratText writes r as a decimal with no trailing zeros ("12.5", "3").
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	ten := big.NewInt(10)
	d := new(big.Int).Set(r.Denom())
	for k := 1; k <= 60; k++ {
		if new(big.Int).Rem(new(big.Int).Exp(ten, big.NewInt(int64(k)), nil), d).Sign() == 0 {
			return r.FloatString(k)
		}
	}
	return r.RatString()
}

// toCell converts a value database/sql scanned into an any; typ is the
// column's DatabaseTypeName (carquet hands DECIMAL out as text).
func toCell(typ string, v any) cell {
	switch x := v.(type) {
	case nil:
		return cell{s: "NULL"}
	case int64:
		return exact(new(big.Rat).SetInt64(x))
	case int32:
		return exact(new(big.Rat).SetInt64(int64(x)))
	case int16:
		return exact(new(big.Rat).SetInt64(int64(x)))
	case int8:
		return exact(new(big.Rat).SetInt64(int64(x)))
	case int:
		return exact(new(big.Rat).SetInt64(int64(x)))
	case uint64:
		return exact(new(big.Rat).SetUint64(x))
	case uint32:
		return exact(new(big.Rat).SetUint64(uint64(x)))
	case *big.Int:
		return exact(new(big.Rat).SetInt(x))
	case duckdb.Decimal:
		r := new(big.Rat).SetInt(x.Value)
		r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Scale)), nil)))
		return exact(r)
	case float64:
		return cell{kind: 'f', f: x, s: strconv.FormatFloat(x, 'g', -1, 64)}
	case float32:
		return cell{kind: 'f', f: float64(x), s: strconv.FormatFloat(float64(x), 'g', -1, 32)}
	case string:
		if strings.HasPrefix(strings.ToUpper(typ), "DECIMAL") || strings.HasPrefix(strings.ToUpper(typ), "NUMERIC") {
			if r, ok := new(big.Rat).SetString(x); ok {
				return exact(r)
			}
		}
		return cell{kind: 's', s: strconv.Quote(x)}
	case []byte:
		return cell{kind: 's', s: strconv.Quote(string(x))}
	case time.Time:
		x = x.UTC()
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return cell{kind: 't', s: x.Format(time.DateOnly)}
		}
		return cell{kind: 't', s: x.Format(time.RFC3339Nano)}
	}
	return cell{kind: 's', s: fmt.Sprintf("%T(%v)", v, v)}
}

func (c cell) float() float64 {
	if c.kind == 'f' {
		return c.f
	}
	f, _ := c.rat.Float64()
	return f
}

// equal compares exactly, except that a float on either side (of numbers)
// allows FloatTolerance.
func (c cell) equal(d cell) bool {
	switch {
	case c.kind == 0 || d.kind == 0:
		return c.kind == d.kind
	case c.kind == 'n' && d.kind == 'n':
		return c.rat.Cmp(d.rat) == 0
	case (c.kind == 'f' || c.kind == 'n') && (d.kind == 'f' || d.kind == 'n'):
		a, b := c.float(), d.float()
		if a == b {
			return true
		}
		if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
			return false
		}
		return math.Abs(a-b) <= FloatTolerance*max(math.Abs(a), math.Abs(b))
	}
	return c.kind == d.kind && c.s == d.s
}

func cells(r *Result) [][]cell {
	out := make([][]cell, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = make([]cell, len(row))
		for j, v := range row {
			out[i][j] = toCell(r.Types[j], v)
		}
	}
	return out
}

func rowText(row []cell) string {
	parts := make([]string, len(row))
	for i, c := range row {
		parts[i] = c.s
	}
	return strings.Join(parts, " | ")
}

// Compare checks got (carquet's answer) against want (DuckDB's) for q:
// the same number of columns and rows, and equal values row by row in
// the order of q's ORDER BY. Rows whose sort keys tie, and all rows of a
// query without ORDER BY, may come in any order: such a run of rows is
// compared after sorting both sides by their text. It returns nil or a
// description of the first difference.
func Compare(q Query, got, want *Result) error {
	if len(got.Columns) != len(want.Columns) {
		return fmt.Errorf("%s: carquet returned %d columns %v, DuckDB %d %v", q.Name, len(got.Columns), got.Columns, len(want.Columns), want.Columns)
	}
	var keys []int
	for _, k := range q.SortKeys {
		at := slices.IndexFunc(want.Columns, func(c string) bool { return strings.EqualFold(c, k) })
		if at < 0 {
			return fmt.Errorf("%s: ORDER BY key %q is not an output column of DuckDB's answer %v", q.Name, k, want.Columns)
		}
		keys = append(keys, at)
	}
	g, w := cells(got), cells(want)
	if len(g) != len(w) {
		return fmt.Errorf("%s: carquet returned %d rows, DuckDB %d%s", q.Name, len(g), len(w), firstRows(g, w))
	}
	// Runs of rows with equal sort keys in DuckDB's answer.
	for start := 0; start < len(w); {
		end := start + 1
		for end < len(w) && (len(keys) == 0 || sameKeys(w[start], w[end], keys)) {
			end++
		}
		gs, ws := g[start:end], w[start:end]
		if end-start > 1 {
			gs, ws = sortedText(gs), sortedText(ws)
		}
		for i := range ws {
			for j := range ws[i] {
				if !gs[i][j].equal(ws[i][j]) {
					return fmt.Errorf("%s: row %d column %d (%s): carquet %s (%s), DuckDB %s (%s)\n  carquet row: %s\n  DuckDB row:  %s",
						q.Name, start+i+1, j+1, want.Columns[j], gs[i][j].s, got.Types[j], ws[i][j].s, want.Types[j], rowText(gs[i]), rowText(ws[i]))
				}
			}
		}
		start = end
	}
	return nil
}

func sameKeys(a, b []cell, keys []int) bool {
	for _, k := range keys {
		if !a[k].equal(b[k]) {
			return false
		}
	}
	return true
}

func sortedText(rows [][]cell) [][]cell {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(a, b []cell) int { return strings.Compare(rowText(a), rowText(b)) })
	return out
}

func firstRows(g, w [][]cell) string {
	var b strings.Builder
	for i := 0; i < 3; i++ {
		if i < len(g) {
			fmt.Fprintf(&b, "\n  carquet row %d: %s", i+1, rowText(g[i]))
		}
		if i < len(w) {
			fmt.Fprintf(&b, "\n  DuckDB row %d:  %s", i+1, rowText(w[i]))
		}
	}
	return b.String()
}
