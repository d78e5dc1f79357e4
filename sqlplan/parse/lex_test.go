package parse

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestLexKinds(t *testing.T) {
	toks, err := Lex("SELECT \"a b\", `c`, 'it''s', 1.5e3, ?, $2, :name, @v, a::INT -- note\n/* c */ x->>'k' <> E'a\\nb' $$q'$$")
	if err != nil {
		t.Fatal(err)
	}
	type kt struct {
		kind TokenKind
		text string
	}
	var got []kt
	for _, tk := range Significant(toks) {
		got = append(got, kt{tk.Kind, tk.Text})
	}
	want := []kt{
		{Ident, "SELECT"}, {DQuoted, `"a b"`}, {Op, ","}, {Quoted, "`c`"}, {Op, ","}, {String, "'it''s'"}, {Op, ","},
		{Number, "1.5e3"}, {Op, ","}, {Param, "?"}, {Op, ","}, {Param, "$2"}, {Op, ","}, {Param, ":name"}, {Op, ","}, {Param, "@v"}, {Op, ","},
		{Ident, "a"}, {Op, "::"}, {Ident, "INT"}, {Ident, "x"}, {Op, "->>"}, {String, "'k'"}, {Op, "<>"},
		{String, "'a\nb'"}, {String, "'q'''"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Spaces and comments are tokens too, and every token knows its offset.
	for _, tk := range toks {
		if tk.Kind == Comment && !strings.HasPrefix(tk.Text, "--") && !strings.HasPrefix(tk.Text, "/*") {
			t.Errorf("comment token %q", tk.Text)
		}
	}
	src := "SELECT  x"
	toks, _ = Lex(src)
	if last := toks[len(toks)-1]; last.Pos != 8 || src[last.Pos:] != "x" {
		t.Errorf("x at %d", last.Pos)
	}
}

func TestTokenNames(t *testing.T) {
	toks, err := Lex("a \"B \"\"c\"\"\" `d``e` 'f.parquet' x")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tk := range Significant(toks) {
		names = append(names, tk.Name())
	}
	if want := []string{"a", `B "c"`, "d`e", "f.parquet", "x"}; !reflect.DeepEqual(names, want) {
		t.Errorf("got %q, want %q", names, want)
	}
	if !Significant(toks)[0].Is("A") || Significant(toks)[1].Is("B \"c\"") {
		t.Error("Is matches words only, in any case")
	}
}

func TestLexErrors(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
		msg       string
	}{
		{"SELECT 'abc", 1, 8, "unterminated quoted string"},
		{"SELECT\n  \"abc", 2, 3, "unterminated quoted identifier"},
		{"SELECT 1 /* x", 1, 10, "unterminated comment"},
		{"SELECT $$x", 1, 8, "unterminated $$ string"},
		{"SELECT E'x\\'", 1, 8, "unterminated quoted string"},
	} {
		_, err := Lex(c.src)
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || e.Column != c.col || e.Msg != c.msg {
			t.Errorf("%q: got %v", c.src, err)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	src := "SELECT ';'; ;  -- a;\nSELECT 2 /* ; */;\n"
	stmts, starts, err := SplitStatements(src)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"SELECT ';'", "  -- a;\nSELECT 2 /* ; */"}; !reflect.DeepEqual(stmts, want) {
		t.Errorf("got %q, want %q", stmts, want)
	}
	for i, s := range stmts {
		if src[starts[i]:starts[i]+len(s)] != s {
			t.Errorf("statement %d does not start at %d", i, starts[i])
		}
	}
	if _, _, err := SplitStatements("SELECT 'x; SELECT 2"); err == nil {
		t.Error("an unterminated string splits")
	}
}

func TestOperatorLen(t *testing.T) {
	for s, n := range map[string]int{"->>x": 3, "::int": 2, "<=>": 3, "<>1": 2, "+1": 1, "||": 2, "**2": 2} {
		if got := OperatorLen(s); got != n {
			t.Errorf("OperatorLen(%q) = %d, want %d", s, got, n)
		}
	}
}
