package textwidth

import "testing"

func TestWidth(t *testing.T) {
	for s, w := range map[string]int{"abc": 3, "日本語": 6, "e\u0301": 1, "": 0, "a\tb": 2, "😀": 2} {
		if got := String(s); got != w {
			t.Errorf("String(%q) = %d, want %d", s, got, w)
		}
	}
	if got := Truncate("日本語テキスト", 7); got != "日本語…" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate("abcdef", 6); got != "abcdef" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Pad("ab", 4, true); got != "  ab" {
		t.Errorf("Pad = %q", got)
	}
}
