package output

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/cli/textwidth"
)

func render(t *testing.T, opts Options, cols []Column, rows ...[]any) string {
	t.Helper()
	var b bytes.Buffer
	w := New(&b, opts)
	if err := w.Begin(cols); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	cols = []Column{{Name: "id", Type: "BIGINT"}, {Name: "name", Type: "VARCHAR"}, {Name: "at", Type: "TIMESTAMP"}, {Name: "day", Type: "DATE"}}
	at   = time.Date(2024, 2, 29, 13, 14, 15, 500000000, time.UTC)
	rows = [][]any{{int64(1), "alpha", at, at}, {int64(22), nil, nil, nil}}
)

func TestBox(t *testing.T) {
	got := render(t, Options{Mode: Box}, cols, rows...)
	want := `┌────┬───────┬───────────────────────┬────────────┐
│ id │ name  │ at                    │ day        │
├────┼───────┼───────────────────────┼────────────┤
│  1 │ alpha │ 2024-02-29 13:14:15.5 │ 2024-02-29 │
│ 22 │ NULL  │ NULL                  │ NULL       │
└────┴───────┴───────────────────────┴────────────┘
`
	if got != want {
		t.Errorf("box:\n%s\nwant:\n%s", got, want)
	}
}

func TestFitAndTruncate(t *testing.T) {
	long := strings.Repeat("x", 200)
	got := render(t, Options{Mode: Table, Width: 60}, []Column{{Name: "a"}, {Name: "b"}}, []any{"short", long})
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		if w := textwidth.String(l); w > 60 {
			t.Errorf("line of %d cells: %q", w, l)
		}
	}
	if !strings.Contains(got, "…") || !strings.Contains(got, "| short |") {
		t.Errorf("table:\n%s", got)
	}
	// Wide characters count two cells.
	got = render(t, Options{Mode: Box}, []Column{{Name: "w"}}, []any{"日本"}, []any{"abcd"})
	if !strings.Contains(got, "│ 日本 │") || !strings.Contains(got, "│ abcd │") {
		t.Errorf("wide:\n%s", got)
	}
	got = render(t, Options{Mode: Box, MaxRows: 1}, []Column{{Name: "n"}}, []any{int64(1)}, []any{int64(2)}, []any{int64(3)})
	if !strings.Contains(got, "(3 rows, 1 shown)") || strings.Contains(got, " 2 ") {
		t.Errorf("max rows:\n%s", got)
	}
}

func TestMachineFormats(t *testing.T) {
	if got := render(t, Options{Mode: CSV}, cols, rows...); got != "id,name,at,day\n1,alpha,2024-02-29T13:14:15.5Z,2024-02-29\n22,,,\n" {
		t.Errorf("csv:\n%s", got)
	}
	if got := render(t, Options{Mode: TSV, NoHeader: true}, []Column{{Name: "s"}}, []any{"a\tb\nc\\"}); got != "a\\tb\\nc\\\\\n" {
		t.Errorf("tsv: %q", got)
	}
	if got := render(t, Options{Mode: JSONL}, cols, rows...); got != `{"id":1,"name":"alpha","at":"2024-02-29T13:14:15.5Z","day":"2024-02-29"}`+"\n"+`{"id":22,"name":null,"at":null,"day":null}`+"\n" {
		t.Errorf("jsonl:\n%s", got)
	}
	got := render(t, Options{Mode: JSON}, []Column{{Name: "f"}, {Name: "l"}, {Name: "d", Type: "DECIMAL(9,2)"}}, []any{math.NaN(), []any{int64(1), "x"}, "12.50"}, []any{2.0, map[string]any{"k": nil}, nil})
	if got != "[\n{\"f\":\"NaN\",\"l\":[1,\"x\"],\"d\":12.50},\n{\"f\":2.0,\"l\":{\"k\":null},\"d\":null}\n]\n" {
		t.Errorf("json:\n%s", got)
	}
	if got := render(t, Options{Mode: JSON}, cols); got != "[]\n" {
		t.Errorf("empty json: %q", got)
	}
	if got := render(t, Options{Mode: Markdown}, []Column{{Name: "a|b"}, {Name: "n", Type: "INTEGER"}}, []any{"x", int64(5)}); got != "| a\\|b | n |\n|------|--:|\n| x    | 5 |\n" {
		t.Errorf("markdown:\n%s", got)
	}
	if got := render(t, Options{Mode: Line}, []Column{{Name: "a"}, {Name: "long"}}, []any{int64(1), nil}, []any{int64(2), "x"}); got != "   a = 1\nlong = NULL\n\n   a = 2\nlong = x\n" {
		t.Errorf("line:\n%s", got)
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct {
		v    any
		typ  string
		want string
	}{
		{1.0, "", "1.0"}, {0.1, "", "0.1"}, {1e20, "", "1e+20"}, {float32(2.5), "", "2.5"}, {math.Inf(-1), "", "-Infinity"},
		{[]byte("ok"), "", "ok"}, {[]byte{0, 'a', 0xff}, "", `\x00a\xff`}, {uint64(math.MaxUint64), "", "18446744073709551615"},
		{time.Date(1, 1, 1, 10, 30, 0, 0, time.UTC), "TIME", "10:30:00"}, {int8(-3), "", "-3"},
		{time.Date(1, 1, 1, 12, 34, 56, 5e8, time.FixedZone("", 2*3600)), "TIMETZ", "12:34:56.5+02"},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("", -(5*3600+30*60))), "TIMETZ", "00:00:00-05:30"},
	} {
		if got := Text(c.v, c.typ, false); got != c.want {
			t.Errorf("Text(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	if _, err := ParseMode("bogus"); err == nil {
		t.Error("ParseMode(bogus) succeeded")
	}
	for _, n := range ModeNames() {
		if m, err := ParseMode(n); err != nil || m.String() != n {
			t.Errorf("ParseMode(%s) = %v, %v", n, m, err)
		}
	}
}
