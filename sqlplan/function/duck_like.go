package function

import (
	"bytes"
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// LIKE with an escape character as functions, and normalized_interval,
// from DuckDB's (v1.5) list: like_escape(s, pattern, escape) is
// s LIKE pattern ESCAPE escape; ilike_ ignores case; not_ negates.

func init() {
	tIntervalType := vec.Type{Kind: vec.KInterval}
	register(map[string]*Scalar{
		"like_escape":         {Min: 3, Max: 3, Rule: Sig(tBool, tString), Batch: likeEscapeBatch(false, false)},
		"not_like_escape":     {Min: 3, Max: 3, Rule: Sig(tBool, tString), Batch: likeEscapeBatch(false, true)},
		"ilike_escape":        {Min: 3, Max: 3, Rule: Sig(tBool, tString), Batch: likeEscapeBatch(true, false)},
		"not_ilike_escape":    {Min: 3, Max: 3, Rule: Sig(tBool, tString), Batch: likeEscapeBatch(true, true)},
		"normalized_interval": {Min: 1, Max: 1, Rule: Sig(tIntervalType, tIntervalType), Row: normalizedIntervalRow},
	})
}

// likeEscapeBatch matches each row's string against its pattern; the
// pattern is compiled again only when it or the escape changes from one
// row to the next (they are constants in most calls).
func likeEscapeBatch(fold, negate bool) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tBool, Len: n, Null: vec.MergeNulls(n, a...), B: make([]bool, n)}
		var m *LikeMatcher
		var pat, esc []byte
		for i := range n {
			if out.Null != nil && out.Null[i] {
				continue
			}
			p, e := a[1].Str(i), a[2].Str(i)
			if len(e) > 1 {
				return nil, fmt.Errorf("Invalid escape string. Escape string must be empty or one character.")
			}
			if m == nil || !bytes.Equal(p, pat) || !bytes.Equal(e, esc) {
				var c byte
				if len(e) == 1 {
					c = e[0]
				}
				m, pat, esc = CompileLike(string(p), c, fold), p, e
			}
			s := a[0].Str(i)
			if fold {
				s = bytes.ToLower(s)
			}
			out.B[i] = m.Match(s) != negate
		}
		return out, nil
	}
}

// normalizedIntervalRow carries an interval's microseconds past a day
// into days and its days past 30 into months, as DuckDB normalizes.
func normalizedIntervalRow(a []*vec.Col, i int) (any, error) {
	iv, ok := a[0].A[i].(vec.Interval)
	if !ok {
		return nil, fmt.Errorf("normalized_interval: bad INTERVAL value %v", a[0].A[i])
	}
	return iv.Normalized(), nil
}
