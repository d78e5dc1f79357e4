package parse

import (
	"errors"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/xwb1989/sqlparser"
)

// testCasts stands for the engine's types: a few names, spelled as
// char(N) by their place in the list, lists as char(100*depth+N).
func testCasts(tn TypeName) (string, error) {
	for i, name := range []string{"bigint", "double", "varchar", "date", "timestamp", "integer", "double precision"} {
		if strings.EqualFold(tn.Name, name) {
			if len(tn.Params) > 0 {
				return "", errors.New("no parameters here")
			}
			return "char(" + string(rune('0'+tn.ListDepth)) + string(rune('0'+i)) + ")", nil
		}
	}
	return "", &Error{Msg: "unknown type " + tn.Name, Offset: -1, Err: errs.ErrUnsupported}
}

func rewrite(t *testing.T, in string) (*Source, error) {
	t.Helper()
	toks, err := Lex(in)
	if err != nil {
		t.Fatal(err)
	}
	return Rewrite(in, Significant(toks), testCasts)
}

func TestRewrite(t *testing.T) {
	cases := []struct {
		in      string
		wantSQL string
	}{
		{"SELECT * FROM 'a/b.parquet'", "SELECT * FROM `a/b.parquet`"},
		{"SELECT * FROM read_parquet('x.parquet') WHERE a = $2", "SELECT * FROM `x.parquet` WHERE a = :v2"},
		{`SELECT "my col" FROM t WHERE s = 'it''s'`, "SELECT `my col` FROM t WHERE s = 'it''s'"},
		{`SELECT 'a\b'`, `SELECT 'a\\b'`},
		{"SELECT a::BIGINT, (a + 1)::DOUBLE, f(x)::VARCHAR[] FROM t", "SELECT cast ( a as char(00) ) , cast ( ( a + 1 ) as char(01) ) , cast ( f ( x ) as char(12) ) FROM t"},
		{"SELECT CAST(a AS DOUBLE PRECISION), TRY_CAST(b AS integer)", "SELECT CAST ( a as char(06) ) , __carquet_try__ ( cast ( b as char(05) ) )"},
		{"SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00'", "SELECT cast ( '2024-01-01' as char(03) ) , cast ( '2024-01-01 00:00:00' as char(04) )"},
		{"SELECT EXTRACT(year FROM ts) FROM t", "SELECT date_part ( 'year', ts ) FROM t"},
		{"SELECT a || b FROM t WHERE c ILIKE 'x%'", "SELECT a | b FROM t WHERE c regexp 'x%'"},
		{"SELECT ? + ?", "SELECT :v1 + :v2"},
		{"SELECT x FROM t ORDER BY x NULLS LAST", "SELECT x FROM t ORDER BY __carquet_nulls_last__( x )"},
		{"SELECT a FROM t OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY", "SELECT a FROM t limit 3 offset 2"},
		{"SELECT [1, 2][1], {'k': 1}", "SELECT __carquet_index__ ( list_value ( 1 , 2 ) , 1 ) , __carquet_struct__ ( 'k' , 1 )"},
		{`SELECT struct_pack(a := 1, "B" := f(x, 2)), struct_insert(s, c := 'x'), struct_pack(a), struct_pack(t."x")`, "SELECT __carquet_struct__ ( 'a' , 1 , 'B' , f ( x , 2 ) ) , struct_insert ( s , 'c' , 'x' ) , __carquet_struct__ ( 'a' , a ) , __carquet_struct__ ( 'x' , t . `x` )"},
	}
	for _, c := range cases {
		src, err := rewrite(t, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if src.Text != c.wantSQL {
			t.Errorf("%s\n got %s\nwant %s", c.in, src.Text, c.wantSQL)
		}
		if _, err := sqlparser.Parse(src.Text); err != nil {
			t.Errorf("%s: the parser refuses %s: %v", c.in, src.Text, err)
		}
	}
}

func TestRewritePositions(t *testing.T) {
	// Offsets map back through rewrites.
	in := "SELECT DATE '2024-01-01',\n  nope FROM t"
	src, err := rewrite(t, in)
	if err != nil {
		t.Fatal(err)
	}
	k := strings.Index(src.Text, "nope")
	if off := src.OrigOffset(k); in[off:off+4] != "nope" {
		t.Errorf("offset %d maps to %q", k, in[off:])
	}
	// A parser error points into the user's text.
	in = "SELECT a::BIGINT,\n  FROM t"
	if src, err = rewrite(t, in); err != nil {
		t.Fatal(err)
	}
	_, perr := sqlparser.Parse(src.Text)
	if perr == nil {
		t.Fatal("the parser takes a trailing comma")
	}
	e := src.ParseError(perr)
	if e.Line != 2 || e.Column != 3 || !strings.Contains(e.Msg, `near "FROM"`) {
		t.Errorf("got %v (line %d col %d)", e, e.Line, e.Column)
	}
	// Locate points an error at the name it is about.
	e = src.Locate(&Error{Msg: "no table t", Offset: -1}, "x.t")
	if e.Line != 2 || e.Column != 8 {
		t.Errorf("located at %d:%d", e.Line, e.Column)
	}
}

func TestRewriteErrors(t *testing.T) {
	for _, c := range []struct {
		in          string
		col         int
		msg         string
		unsupported bool
	}{
		{"SELECT CAST(a AS double(3)) FROM t", 18, "no parameters here", false},
		{"SELECT a::integer(x) FROM t", 19, `unexpected "x" in type parameters`, false},
		{"SELECT a::", 11, "expected a type name", false},
		{"SELECT a:: FROM t", 12, "unknown type FROM", true},
		{"SELECT a FROM t WHERE a RLIKE 'x'", 25, "the RLIKE operator (use regexp_matches()) is not supported", true},
		{"SELECT x FROM t STRAIGHT_JOIN u", 17, "STRAIGHT_JOIN is not supported", true},
		{"SELECT a]", 9, "unmatched ]", false},
		{"SELECT struct_pack(a := 1, 2)", 28, "Need named argument for struct pack, e.g. STRUCT_PACK(a := b)", false},
		{"SELECT struct_insert(s, 'a' := 1)", 25, "an argument is named by a name before :=", false},
		{"SELECT struct_pack(a := 1, )", 28, "an empty argument of struct_pack", false},
	} {
		_, err := rewrite(t, c.in)
		var e *Error
		if !errors.As(err, &e) || e.Line != 1 || e.Column != c.col || e.Msg != c.msg || c.unsupported != errors.Is(err, errs.ErrUnsupported) {
			t.Errorf("%q: got %v", c.in, err)
			if e != nil {
				t.Logf("at %d:%d", e.Line, e.Column)
			}
		}
	}
}

func TestReadTypeName(t *testing.T) {
	src := "x DOUBLE PRECISION[][] y DECIMAL(10, 2) z"
	toks, err := Lex(src)
	if err != nil {
		t.Fatal(err)
	}
	toks = Significant(toks)
	known := func(name string) bool { return strings.EqualFold(name, "double precision") }
	tn, j, err := ReadTypeName(src, toks, 1, known)
	if err != nil || tn.Name != "DOUBLE PRECISION" || tn.ListDepth != 2 || tn.Pos != 2 || toks[j].Text != "y" {
		t.Errorf("got %+v, %d, %v", tn, j, err)
	}
	tn, j, err = ReadTypeName(src, toks, j+1, known)
	if err != nil || tn.Name != "DECIMAL" || len(tn.Params) != 2 || tn.Params[0] != 10 || tn.Params[1] != 2 || toks[j].Text != "z" {
		t.Errorf("got %+v, %d, %v", tn, j, err)
	}
	if _, _, err := ReadTypeName(src, toks, len(toks), known); err == nil {
		t.Error("a type name read past the end")
	}
}

func TestUnmark(t *testing.T) {
	for in, want := range map[string]string{
		"__carquet_window__('sum', x, '|p', a, '|o', b, '|desc')": "sum(x) OVER (PARTITION BY a ORDER BY b DESC)",
		"__carquet_index__(l, 1) | 'x'":                           "l[1] || 'x'",
		"__carquet_lambda__('x', x + 1)":                          "x -> x + 1",
		"list_value(1, 2)":                                        "[1, 2]",
		"'| ' | b":                                                "'| ' || b",
	} {
		if got := Unmark(in); got != want {
			t.Errorf("Unmark(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzRewrite lexes and rewrites arbitrary text and parses the result:
// every input gives a result or an error, never a panic, and the offsets
// of the rewritten text map into the input.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{
		"SELECT a::INTEGER, DATE '2024-01-01' + 1, b || 'x' FROM t WHERE a IN (1, 2) AND b LIKE 'x%'",
		"SELECT a, rank() OVER (PARTITION BY b ORDER BY a DESC), lag(a) OVER w FROM t WINDOW w AS (ORDER BY a)",
		"SELECT b, count(*) FILTER (WHERE a > 1) FROM t GROUP BY ALL ORDER BY ALL",
		"SELECT * EXCLUDE (b) REPLACE (a + 1 AS a) FROM t QUALIFY row_number() OVER (ORDER BY a) = 1",
		"SELECT [x + 1 FOR x IN [1, 2] IF x > 0], {'a': 1}, MAP {1: 2}, list_transform([1], x -> x * 2)",
		"SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC NULLS FIRST",
		"VALUES (1, 'a'), (2, 'b')", "SELECT * FROM (SELECT 1 INTERSECT SELECT 2) x",
		"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a), b ->> '$.x' FROM t FULL JOIN u USING (k)",
		"SELECT trim(LEADING 'x' FROM b), substring(b FROM 2 FOR 3), position('a' IN b), x[2:], x[:-1] FROM range(3) r(x)",
		"SELECT 'unterminated", "SELECT (((", "SELECT ]", "SELECT a::", "SELECT $0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 1<<12 {
			return
		}
		toks, err := Lex(in)
		if err != nil {
			return
		}
		src, err := Rewrite(in, Significant(toks), testCasts)
		if err != nil {
			return
		}
		for p := 0; p <= len(src.Text); p++ {
			if off := src.OrigOffset(p); off < 0 || off > len(in) {
				t.Fatalf("offset %d maps to %d, outside the input", p, off)
			}
		}
		if _, err := sqlparser.Parse(src.Text); err != nil {
			// -1: a parser message ParseError cannot read (one that
			// quotes a line break) gives an error without a position.
			if e := src.ParseError(err); e.Offset < -1 || e.Offset > len(in) {
				t.Fatalf("parse error at %d, outside the input: %v", e.Offset, e)
			}
		}
	})
}
