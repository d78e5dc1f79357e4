package function

import (
	"strings"
	"testing"

	"github.com/rivo/uniseg"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// graphemeSamples cover the clusters UAX #29 joins: marks, emoji with
// modifiers and ZWJ, flags (pairs of regional indicators), Hangul jamo,
// CR LF, prepended marks, and invalid UTF-8 (one cluster a byte).
var graphemeSamples = []string{
	"", "abc", "e\u0301", "🤦🏼\u200d♂️🤦🏽\u200d♀️", "🇫🇷🇩🇪🇮", "\r\n", "a\r\r\nb\n\r",
	"\u1112\u1161\u11ab", "👨\u200d👩\u200d👧\u200d👦x", "\u0600a", "\u0301a", "\xff\xfeé", "🦆🤦🏼\u200d♂️x🇫🇷é",
}

// TestGraphemeCount: the count is uniseg's, on the ASCII shortcut as on
// the cluster walk, and cutting one cluster at a time gives the string
// back.
func TestGraphemeCount(t *testing.T) {
	for _, s := range graphemeSamples {
		n := graphemeCount([]byte(s))
		if want := int64(uniseg.GraphemeClusterCount(s)); n != want {
			t.Errorf("graphemeCount(%+q) = %d, want %d", s, n, want)
		}
		var back strings.Builder
		for k := range n {
			one := graphemeSlice([]byte(s), k, k+1)
			if len(one) == 0 {
				t.Errorf("cluster %d of %+q is empty", k, s)
			}
			back.Write(one)
		}
		if back.String() != s {
			t.Errorf("the clusters of %+q join to %+q", s, back.String())
		}
	}
	col := strCol(graphemeSamples...)
	col.SetNull(1)
	out, err := lengthGraphemeBatch([]*vec.Col{col}, col.Len)
	if err != nil || !out.IsNull(1) || out.I[3] != 2 || out.I[5] != 1 {
		t.Errorf("length_grapheme's batch: %v, %v (NULL row %v)", out.I, err, out.IsNull(1))
	}
}

// TestGraphemeCuts: left_grapheme, right_grapheme and substring_grapheme
// with DuckDB's positions (checked against DuckDB v1.5), on whole
// clusters, including negative and out-of-range positions.
func TestGraphemeCuts(t *testing.T) {
	const ducks = "🦆🤦🏼\u200d♂️🤦🏽\u200d♀️🦆"
	for _, c := range []struct {
		name string
		s    string
		args []int64
		want string
	}{
		{"left_grapheme", "🤦🏼\u200d♂️🤦🏽\u200d♀️", []int64{1}, "🤦🏼\u200d♂️"},
		{"left_grapheme", "🇫🇷🇩🇪🇮🇹", []int64{-1}, "🇫🇷🇩🇪"},
		{"left_grapheme", "abc", []int64{-5}, ""},
		{"left_grapheme", "abc", []int64{-1 << 63}, ""},
		{"left_grapheme", "a\u0301", []int64{1}, "a\u0301"},
		{"right_grapheme", "🤦🏼\u200d♂️🤦🏽\u200d♀️", []int64{1}, "🤦🏽\u200d♀️"},
		{"right_grapheme", "ab🇫🇷cd", []int64{-1}, "b🇫🇷cd"},
		{"right_grapheme", "abc", []int64{1<<63 - 1}, "abc"},
		{"right_grapheme", "abc", []int64{-1 << 63}, ""},
		{"right_grapheme", "\u0301abc", []int64{4}, "\u0301abc"},
		{"substring_grapheme", ducks, []int64{3}, "🤦🏽\u200d♀️🦆"},
		{"substring_grapheme", ducks, []int64{2, 2}, "🤦🏼\u200d♂️🤦🏽\u200d♀️"},
		{"substring_grapheme", ducks, []int64{-3, 1}, "🤦🏼\u200d♂️"},
		{"substring_grapheme", ducks, []int64{-9, 2}, "🦆🤦🏼\u200d♂️"},
		{"substring_grapheme", ducks, []int64{0, 2}, "🦆"},
		{"substring_grapheme", ducks, []int64{0, 1}, ""},
		{"substring_grapheme", ducks, []int64{3, -2}, "🦆🤦🏼\u200d♂️"},
		{"substring_grapheme", ducks, []int64{9, -2}, "🤦🏽\u200d♀️🦆"},
		{"substring_grapheme", ducks, []int64{5, 1}, ""},
		{"substring_grapheme", "abcdéf", []int64{-6, 1}, "a"},
		{"substring_grapheme", "abcdef", []int64{-10, 3}, "abc"},
		{"substring_grapheme", "abcdef", []int64{4, -10}, "abc"},
		{"substring_grapheme", "a\r\nb", []int64{2, 1}, "\r\n"},
	} {
		args := []*vec.Col{strCol(c.s)}
		for _, v := range c.args {
			args = append(args, intCol(v))
		}
		if got := batchStrings(t, c.name, args...); got[0] != c.want {
			t.Errorf("%s(%+q, %v) = %+q, want %+q", c.name, c.s, c.args, got[0], c.want)
		}
	}
}

// TestGraphemeBounds: positions past 32 bits are errors that name the
// function, as substring's; NULL rows stay NULL without being looked at.
func TestGraphemeBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		args []int64
		msg  string
	}{
		{"substring_grapheme", []int64{1 << 32}, "offset outside of supported range (> 4294967295)"},
		{"substring_grapheme", []int64{-1<<32 - 1}, "offset outside of supported range (< -4294967296)"},
		{"substring_grapheme", []int64{1, 1 << 32}, "length outside of supported range"},
		{"left_grapheme", []int64{1 << 32}, "length outside of supported range"},
	} {
		args := []*vec.Col{strCol("abc")}
		for _, v := range c.args {
			args = append(args, intCol(v))
		}
		_, err := Scalars()[c.name].Batch(args, 1)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), c.name) {
			t.Errorf("%s%v: %v, want %q", c.name, c.args, err, c.msg)
		}
	}
	s, k := strCol("abc", "x"), intCol(1<<40, 1)
	s.SetNull(0)
	if got := batchStrings(t, "left_grapheme", s, k); got[0] != "NULL" || got[1] != "x" {
		t.Errorf("left_grapheme over a NULL row: %q", got)
	}
}
