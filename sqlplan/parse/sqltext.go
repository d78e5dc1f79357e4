package parse

import (
	"regexp"
	"strconv"
	"strings"
)

// Helpers that read and write SQL text, for every stage: quoting names
// and strings, writing tokens back as text, splitting token lists.

// QuoteIdent is name as a double-quoted identifier.
func QuoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// QuoteString is s as a string literal.
func QuoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// IdentList is names as a comma-separated list of identifiers.
func IdentList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = SQLIdent(n)
	}
	return strings.Join(out, ", ")
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// SQLIdent is name as an identifier, quoted only where it must be (as
// DuckDB writes names): other characters than letters, digits and _, or
// a keyword.
func SQLIdent(name string) string {
	if plainIdent.MatchString(name) && !keywords[strings.ToLower(name)] {
		return name
	}
	return QuoteIdent(name)
}

// SpacedText writes tokens back as SQL, one space between tokens except
// where the source had none around punctuation ("f(x)", "a.b", "x::INT",
// "a, b"), so that a view's text reads as it was written.
func SpacedText(toks []Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			prev := toks[i-1]
			adjacent := prev.Pos+len(prev.Text) == t.Pos
			glue := adjacent && (isGluePunct(prev) || isGluePunct(t)) || t.Kind == Op && t.Text == ","
			if !glue {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// isGluePunct reports whether t is punctuation written without spaces.
func isGluePunct(t Token) bool {
	if t.Kind != Op {
		return false
	}
	switch t.Text {
	case "(", ")", ",", ".", "::", "[", "]":
		return true
	}
	return false
}

// TokText is the SQL text of toks: their texts as written, spaced (not a
// slice of text: a view's tokens, substituted for its name, come from
// another statement).
func TokText(toks []Token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.Text
	}
	return strings.Join(parts, " ")
}

// NamesIn reports the identifiers among toks, lower-cased.
func NamesIn(toks []Token) map[string]bool {
	out := map[string]bool{}
	for _, t := range toks {
		if t.Kind == Ident || t.Kind == DQuoted || t.Kind == Quoted {
			out[strings.ToLower(t.Unquoted())] = true
		}
	}
	return out
}

// IsNamedArrow reports whether toks[i:] starts with := (the lexer gives
// ':' and '=').
func IsNamedArrow(toks []Token, i int) bool {
	return i+1 < len(toks) && toks[i].Kind == Op && toks[i].Text == ":" && toks[i+1].Kind == Op && toks[i+1].Text == "="
}

// SplitTopLevel splits toks at the commas outside parentheses and
// brackets.
func SplitTopLevel(toks []Token) [][]Token {
	var out [][]Token
	depth, start := 0, 0
	for k, t := range toks {
		if t.Kind != Op {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, toks[start:k])
				start = k + 1
			}
		}
	}
	return append(out, toks[start:])
}

// IsNameToken reports whether t can be a name: an identifier, quoted or
// not.
func IsNameToken(t Token) bool {
	return t.Kind == Ident || t.Kind == Quoted || t.Kind == DQuoted
}

// CallText is a call's text for a column name: its tokens spaced as
// DuckDB prints a call, name(a, b := 2).
func CallText(toks []Token) string {
	var b strings.Builder
	for j, t := range toks {
		if j > 0 {
			prev := toks[j-1]
			tight := prev.Kind == Op && (prev.Text == "(" || prev.Text == "." || prev.Text == "[") ||
				t.Kind == Op && (t.Text == ")" || t.Text == "," || t.Text == "." || t.Text == "]" || t.Text == "(" && IsNameToken(prev)) ||
				t.Kind == Op && t.Text == "[" && (IsNameToken(prev) || prev.Kind == Op && (prev.Text == "]" || prev.Text == ")")) ||
				t.Kind == Op && t.Text == "=" && prev.Kind == Op && prev.Text == ":"
			if !tight {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// NumberPlaceholders makes the k-th ? of a statement $k (what the rewrite
// would make it), so that an argument ? put twice in a macro's body stays
// one argument.
func NumberPlaceholders(toks []Token) []Token {
	var out []Token
	n := 0
	for i, t := range toks {
		if t.Kind == Param && t.Text == "?" {
			if out == nil {
				out = append([]Token(nil), toks...)
			}
			n++
			out[i].Text = "$" + strconv.Itoa(n)
		}
	}
	if out == nil {
		return toks
	}
	return out
}

// Parenthesized is body in parentheses, the new tokens at pos.
func Parenthesized(body []Token, pos int) []Token {
	out := []Token{{Kind: Op, Text: "(", Pos: pos}}
	out = append(out, body...)
	return append(out, Token{Kind: Op, Text: ")", Pos: pos})
}

// TokPos is the offset in text of toks[i], or the end of text past the
// last token.
func TokPos(text string, toks []Token, i int) int {
	if i < len(toks) {
		return toks[i].Pos
	}
	return len(text)
}

// IsPathName reports whether a table name is a path, not a plain name.
func IsPathName(name string) bool {
	return strings.ContainsAny(name, "/*?[\\") || strings.HasSuffix(name, ".parquet")
}

// QualifiedName reads a table name of one to three parts from toks[i]
// (t, db.t, db.main.t: threePartNames made the last a db.t) and returns
// it as carquet resolves it, "db.t", and the index after it.
func QualifiedName(toks []Token, i int) (string, int, bool) {
	if i < len(toks) && toks[i].Kind == String {
		return toks[i].Unquoted(), i + 1, true // a file: DROP TABLE 'f.parquet'
	}
	if i >= len(toks) || !IsNameToken(toks[i]) {
		return "", i, false
	}
	name := toks[i].Name()
	i++
	if i+1 < len(toks) && IsDot(toks[i]) && IsNameToken(toks[i+1]) {
		name += "." + toks[i+1].Name()
		i += 2
	}
	return name, i, true
}

// IsDot reports whether t is the "." of a qualified name.
func IsDot(t Token) bool { return t.Kind == Op && t.Text == "." }

// NamesTable reports whether toks name the table name after FROM, JOIN
// or a comma of a FROM list.
func NamesTable(toks []Token, name string) bool {
	probe := map[string][]Token{strings.ToLower(name): {{Kind: Ident, Text: "__probe__"}}}
	out := SubstituteCTEs(toks, probe)
	for _, t := range out {
		if t.Kind == Ident && t.Text == "__probe__" {
			return true
		}
	}
	return false
}

// SubstituteCTEs replaces table references to CTEs (after FROM, JOIN or
// a comma in a FROM list) with their replacements (a parenthesized query
// or a marker table name).
func SubstituteCTEs(toks []Token, ctes map[string][]Token) []Token {
	if len(ctes) == 0 {
		return toks
	}
	var out []Token
	// inFrom[d] says whether the parenthesis depth d is in a FROM list:
	// each subquery has its own clauses, so that a SELECT list inside a
	// FROM list, "FROM (SELECT a, v FROM t), w", keeps "v" a column and
	// "w" a table.
	inFrom := []bool{false}
	depth := 0
	for i, t := range toks {
		if t.Kind == Op && t.Text == "(" {
			depth++
			if depth == len(inFrom) {
				inFrom = append(inFrom, false)
			}
			inFrom[depth] = false
		}
		if t.Kind == Op && t.Text == ")" && depth > 0 {
			depth--
		}
		if t.Is("from") || t.Is("join") {
			inFrom[depth] = true
		} else if t.Kind == Ident {
			switch strings.ToLower(t.Text) {
			case "where", "group", "having", "order", "limit", "union", "on", "using", "select",
				"qualify", "window", "intersect", "except", "returning", "set", "values":
				inFrom[depth] = false
			}
		}
		body, isCTE := ctes[strings.ToLower(t.Unquoted())]
		if isCTE && (t.Kind == Ident || t.Kind == Quoted || t.Kind == DQuoted) && i > 0 {
			prev := toks[i-1]
			afterFrom := prev.Is("from") || prev.Is("join") || inFrom[depth] && prev.Kind == Op && prev.Text == ","
			nextIsDot := i+1 < len(toks) && toks[i+1].Kind == Op && toks[i+1].Text == "."
			if afterFrom && !nextIsDot {
				out = append(out, body...)
				// Keep the CTE's name as the alias unless one follows.
				hasAlias := i+1 < len(toks) && (toks[i+1].Is("as") || toks[i+1].Kind == Ident && !IsClauseWord(toks[i+1].Text))
				if !hasAlias {
					out = append(out, Token{Kind: Ident, Text: "AS", Pos: t.Pos}, Token{Kind: Quoted, Text: Backquote(t.Unquoted()), Pos: t.Pos})
				}
				continue
			}
		}
		out = append(out, t)
	}
	return out
}
