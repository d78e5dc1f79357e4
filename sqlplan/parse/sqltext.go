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
