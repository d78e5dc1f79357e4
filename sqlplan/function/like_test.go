package function

import "testing"

// likeRuns must agree with the general matcher on patterns of literal
// runs between '%'s.
func TestLikeRunsAgreesWithGeneral(t *testing.T) {
	patterns := []string{"%special%requests%", "a%b", "ab%b", "a%a", "%a%a%", "x%%y", "%%", "%ab%ba", "pre%mid%suf", "%é%ü%"}
	inputs := []string{"", "a", "ab", "aba", "abba", "aa", "special requests", "specialrequests", "requests special", "xy", "x-y", "prefix mid suf", "premidsuf", "premisuf", "éü", "üé", "ab ba", "abba ba"}
	for _, p := range patterns {
		m := CompileLike(p, 0, false)
		if m.kind != 5 {
			continue
		}
		for _, s := range inputs {
			if got, want := m.Match([]byte(s)), likeGeneral(m.parts, []byte(s)); got != want {
				t.Errorf("%q LIKE %q: runs %v, general %v", s, p, got, want)
			}
		}
	}
}

// TestLikeMatcher: each kind of pattern (exact, prefix, suffix, contains,
// runs, general with '_'), escapes and case folding.
func TestLikeMatcher(t *testing.T) {
	for _, c := range []struct {
		pat  string
		esc  byte
		fold bool
		s    string
		want bool
	}{
		{"abc", 0, false, "abc", true}, {"abc", 0, false, "abcd", false},
		{"ab%", 0, false, "abxyz", true}, {"ab%", 0, false, "xab", false},
		{"%yz", 0, false, "abxyz", true}, {"%yz", 0, false, "yza", false},
		{"%mid%", 0, false, "a mid b", true}, {"%mid%", 0, false, "m-i-d", false},
		{"a%b%c", 0, false, "axxbyyc", true}, {"a%b%c", 0, false, "acb", false},
		{"a_c", 0, false, "abc", true}, {"a_c", 0, false, "ac", false}, {"a_c", 0, false, "aéc", true},
		{"%_x_%", 0, false, "1x2", true}, {"%_x_%", 0, false, "x2", false},
		{"100!%", '!', false, "100%", true}, {"100!%", '!', false, "1000", false},
		{"a!_b", '!', false, "a_b", true}, {"a!_b", '!', false, "axb", false},
		{"hello%", 0, true, "hello world", true},
		{"", 0, false, "", true}, {"", 0, false, "a", false}, {"%", 0, false, "", true},
	} {
		if got := CompileLike(c.pat, c.esc, c.fold).Match([]byte(c.s)); got != c.want {
			t.Errorf("%q LIKE %q (escape %q): %v, want %v", c.s, c.pat, c.esc, got, c.want)
		}
	}
}

// TestLikeLiterals: the patterns the scan can push down as an equality
// or a prefix tell their text; others do not.
func TestLikeLiterals(t *testing.T) {
	if lit, ok := CompileLike("a!%b", '!', false).Exact(); !ok || lit != "a%b" {
		t.Errorf("Exact of a!%%b: %q %v", lit, ok)
	}
	if lit, ok := CompileLike("ab%", 0, false).Prefix(); !ok || lit != "ab" {
		t.Errorf("Prefix of ab%%: %q %v", lit, ok)
	}
	for _, p := range []string{"%ab", "a_%", "a%b"} {
		m := CompileLike(p, 0, false)
		if _, ok := m.Exact(); ok {
			t.Errorf("%s is exact", p)
		}
		if _, ok := m.Prefix(); ok {
			t.Errorf("%s is a prefix", p)
		}
	}
}
