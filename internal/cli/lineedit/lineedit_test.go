package lineedit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keys feeds key bytes to a new editor and returns the lines it read.
func lines(t *testing.T, h *History, c Completer, keys string) ([]string, []error, string) {
	t.Helper()
	var out bytes.Buffer
	ed := New(strings.NewReader(keys), &out)
	ed.History = h
	ed.Complete = c
	ed.Width = func() int { return 20 }
	var got []string
	var errs []error
	for {
		l, err := ed.ReadLine("> ")
		if err == io.EOF {
			break
		}
		got = append(got, l)
		errs = append(errs, err)
	}
	return got, errs, out.String()
}

func TestEditing(t *testing.T) {
	cases := []struct{ keys, want string }{
		{"hello\r", "hello"},
		{"hllo\x01\x06e\r", "hello"},                          // Ctrl-A, Ctrl-F, insert
		{"world\x01hello \r", "hello world"},                  // insert at start
		{"abc\x08\x08x\r", "ax"},                              // backspace
		{"hello world\x17\x17bye\r", "bye"},                   // Ctrl-W twice
		{"abc def\x01\x0b\r", ""},                             // Ctrl-K at start
		{"abc def\x1b[D\x1b[D\x15\r", "ef"},                   // arrows, Ctrl-U
		{"abc\x1b[D\x1b[D\x1b[3~\r", "ac"},                    // Delete key
		{"one two\x1bb\x0bthree\r", "one three"},              // Alt-B, Ctrl-K
		{"one two\x1b[1;5D\x1b[1;5D\x1b[1;5Cx\r", "onex two"}, // Ctrl-arrows
		{"ab\x1b[H\x1b[Fc\r", "abc"},                          // Home, End
		{"abc\x0b\x01\x19\x19\r", "abc"},                      // yank of nothing twice (kill was empty)
		{"abc\x01\x0b\x19\x19\r", "abcabc"},                   // kill and yank twice
		{"ab\x14\r", "ba"},                                    // Ctrl-T
		{"x\x1b[200~a\nb\x1b[201~y\r", "xa by"},               // bracketed paste
		{"日本\x02x\r", "日x本"},                                  // wide runes
		{"abc\x04\x01\x04\r", "bc"},                           // Ctrl-D deletes under the cursor
	}
	for _, c := range cases {
		got, errs, _ := lines(t, nil, nil, c.keys)
		if len(got) != 1 || got[0] != c.want || errs[0] != nil {
			t.Errorf("keys %q: got %q %v, want %q", c.keys, got, errs, c.want)
		}
	}
	got, errs, out := lines(t, nil, nil, "abc\x03xyz\r\x04")
	if len(got) != 2 || !errors.Is(errs[0], ErrInterrupt) || got[1] != "xyz" || !strings.Contains(out, "^C") {
		t.Errorf("Ctrl-C: %q %v", got, errs)
	}
}

func TestHistoryNavigationAndSearch(t *testing.T) {
	h := NewHistory()
	for _, l := range []string{"select 1;", "select 2;", "show tables;"} {
		h.Add(l)
	}
	cases := []struct{ keys, want string }{
		{"\x1b[A\r", "show tables;"},
		{"\x1b[A\x1b[A\r", "select 2;"},
		{"\x1b[A\x1b[A\x1b[A\x1b[A\r", "select 1;"},     // stops at the oldest
		{"draft\x1b[A\x1b[B\r", "draft"},                // back down restores the edit line
		{"\x10\x10\x0e\r", "show tables;"},              // Ctrl-P, Ctrl-N
		{"\x12sel\r", "select 2;"},                      // Ctrl-R
		{"\x12sel\x12\r", "select 1;"},                  // Ctrl-R again: older
		{"x\x12sel\x07\r", "x"},                         // Ctrl-G cancels
		{"\x12tab\x05 -- end\r", "show tables; -- end"}, // another key ends the search and acts
	}
	for _, c := range cases {
		got, _, _ := lines(t, h, nil, c.keys)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("keys %q: got %q, want %q", c.keys, got, c.want)
		}
	}
}

func TestCompletion(t *testing.T) {
	words := []string{"SELECT", "SET", "events", "users"}
	comp := func(line []rune, pos int) (int, []string) {
		start := pos
		for start > 0 && line[start-1] != ' ' {
			start--
		}
		w := strings.ToLower(string(line[start:pos]))
		var out []string
		for _, c := range words {
			if strings.HasPrefix(strings.ToLower(c), w) {
				out = append(out, c)
			}
		}
		return start, out
	}
	cases := []struct{ keys, want string }{
		{"sel\t\r", "SELECT "},
		{"SELECT * FROM ev\t\r", "SELECT * FROM events "},
		{"se\t\r", "SE"},
		{"s\tl\r", "SEl"},
	}
	for _, c := range cases {
		got, _, _ := lines(t, nil, comp, c.keys)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("keys %q: got %q, want %q", c.keys, got, c.want)
		}
	}
	// Two Tabs list the candidates.
	_, _, out := lines(t, nil, comp, "se\t\t\r")
	if !strings.Contains(out, "SELECT  SET") {
		t.Errorf("listing: %q", out)
	}
}

func TestWrapping(t *testing.T) {
	// 30 characters on a 20-cell terminal wrap to a second row; editing at
	// the start redraws both rows.
	_, _, out := lines(t, nil, nil, strings.Repeat("x", 30)+"\x01y\r")
	if !strings.Contains(out, "\x1b[1A") || !strings.Contains(out, "> y"+strings.Repeat("x", 30)) {
		t.Errorf("wrapped output: %q", out)
	}
	// A line that ends exactly at the edge gets its own new row.
	_, _, out = lines(t, nil, nil, strings.Repeat("x", 18)+"\r")
	if !strings.Contains(out, strings.Repeat("x", 18)+"\n\r") {
		t.Errorf("edge wrap: %q", out)
	}
}

func TestHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history")
	h, err := LoadHistory(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"a", "b", "b", "", "multi\nline", "d"} {
		if err := h.Add(l); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(h.Entries(), "|"); got != "b|multi line|d" {
		t.Errorf("entries: %s", got)
	}
	h2, err := LoadHistory(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h2.Entries(), "|"); got != "b|multi line|d" {
		t.Errorf("reloaded: %s", got)
	}
	b, _ := os.ReadFile(path)
	if string(b) != "b\nmulti line\nd\n" {
		t.Errorf("file after trimming: %q", b)
	}
}
