package parse

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// TokenKind classifies the tokens of the lexer.
type TokenKind uint8

// The kinds of token.
const (
	Space   TokenKind = iota // spaces, tabs and line breaks
	Comment                  // -- ... or /* ... */
	Ident                    // identifiers and keywords
	Quoted                   // `identifier`
	DQuoted                  // "identifier" (DuckDB/PostgreSQL) — a string in MySQL
	String                   // 'string' (also E'...' and $$...$$, as a plain SQL string)
	Number                   // 12, 1.5, 1e-3
	Param                    // ?, $1, :name, @name
	Op                       // punctuation and operators
)

// Token is one lexeme of the user's text with its byte offset.
type Token struct {
	Kind TokenKind
	Text string // as written
	Pos  int    // byte offset in the original text
}

// Is reports whether t is the word (a keyword or a bare name), in any
// case.
func (t Token) Is(word string) bool { return t.Kind == Ident && strings.EqualFold(t.Text, word) }

// Unquoted returns the identifier or string a quoted token stands for.
func (t Token) Unquoted() string {
	switch t.Kind {
	case Quoted:
		return strings.ReplaceAll(t.Text[1:len(t.Text)-1], "``", "`")
	case DQuoted:
		return strings.ReplaceAll(t.Text[1:len(t.Text)-1], `""`, `"`)
	case String:
		return strings.ReplaceAll(t.Text[1:len(t.Text)-1], "''", "'")
	}
	return t.Text
}

// multiOps are the operators of more than one character, longest first.
var multiOps = []string{"->>", "<=>", "::", "||", "<=", ">=", "<>", "!=", "->", "<<", ">>", "//", "**", "@>", "<@", "&&"}

// OperatorLen is the length of the operator that starts s (which does
// not start with a space, a quote, a name, a number or a parameter): one
// of multiOps, or else one byte.
func OperatorLen(s string) int {
	for _, m := range multiOps {
		if strings.HasPrefix(s, m) {
			return len(m)
		}
	}
	return 1
}

// Lex splits SQL text into tokens. Unterminated quotes and comments are
// errors at their start.
func Lex(src string) ([]Token, error) {
	var out []Token
	i := 0
	for i < len(src) {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			for i < len(src) && strings.IndexByte(" \t\n\r\f", src[i]) >= 0 {
				i++
			}
			out = append(out, Token{Space, src[start:i], start})
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			out = append(out, Token{Comment, src[start:i], start})
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, ErrAt(src, start, "unterminated comment")
			}
			i += end + 4
			out = append(out, Token{Comment, src[start:i], start})
		case c == '$' && strings.HasPrefix(src[i:], "$$"):
			// $$dollar-quoted$$ text (PostgreSQL, DuckDB)
			end := strings.Index(src[i+2:], "$$")
			if end < 0 {
				return nil, ErrAt(src, start, "unterminated $$ string")
			}
			body := src[i+2 : i+2+end]
			i += end + 4
			out = append(out, Token{String, "'" + strings.ReplaceAll(body, "'", "''") + "'", start})
		case (c == 'e' || c == 'E') && i+1 < len(src) && src[i+1] == '\'' && (i == 0 || !IsIdentPart(src[i-1])):
			// E'...' with backslash escapes
			var b strings.Builder
			i += 2
			for {
				if i >= len(src) {
					return nil, ErrAt(src, start, "unterminated quoted string")
				}
				ch := src[i]
				if ch == '\'' {
					if i+1 < len(src) && src[i+1] == '\'' {
						b.WriteByte('\'')
						i += 2
						continue
					}
					i++
					break
				}
				if ch == '\\' && i+1 < len(src) {
					i++
					switch src[i] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case 'r':
						b.WriteByte('\r')
					case 'b':
						b.WriteByte('\b')
					case 'f':
						b.WriteByte('\f')
					case '0':
						b.WriteByte(0)
					default:
						b.WriteByte(src[i])
					}
					i++
					continue
				}
				b.WriteByte(ch)
				i++
			}
			out = append(out, Token{String, "'" + strings.ReplaceAll(b.String(), "'", "''") + "'", start})
		case c == '\'' || c == '"' || c == '`':
			i++
			for {
				if i >= len(src) {
					return nil, ErrAt(src, start, "unterminated quoted %s", map[byte]string{'\'': "string", '"': "identifier", '`': "identifier"}[c])
				}
				if src[i] == c {
					if i+1 < len(src) && src[i+1] == c {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			k := map[byte]TokenKind{'\'': String, '"': DQuoted, '`': Quoted}[c]
			out = append(out, Token{k, src[start:i], start})
		case isIdentStart(c):
			for i < len(src) && IsIdentPart(src[i]) {
				i++
			}
			out = append(out, Token{Ident, src[start:i], start})
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '.') {
				i++
			}
			if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
				j := i + 1
				if j < len(src) && (src[j] == '+' || src[j] == '-') {
					j++
				}
				if j < len(src) && src[j] >= '0' && src[j] <= '9' {
					i = j
					for i < len(src) && src[i] >= '0' && src[i] <= '9' {
						i++
					}
				}
			}
			out = append(out, Token{Number, src[start:i], start})
		case c == '?':
			i++
			out = append(out, Token{Param, "?", start})
		case (c == '$' || c == ':' || c == '@') && i+1 < len(src) && (IsIdentPart(src[i+1])) && !(c == ':' && i+1 < len(src) && src[i+1] == ':'):
			i++
			for i < len(src) && IsIdentPart(src[i]) {
				i++
			}
			out = append(out, Token{Param, src[start:i], start})
		default:
			i += OperatorLen(src[i:])
			out = append(out, Token{Op, src[start:i], start})
		}
	}
	return out, nil
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// IsIdentPart reports whether c may continue a bare name (UTF-8 bytes
// included).
func IsIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// Significant returns the tokens that are not spaces or comments.
func Significant(toks []Token) []Token {
	out := make([]Token, 0, len(toks))
	for _, t := range toks {
		if t.Kind != Space && t.Kind != Comment {
			out = append(out, t)
		}
	}
	return out
}

// SplitStatements splits text at semicolons outside quotes and comments.
// Empty statements are dropped; starts are the byte offsets in src of
// the statements returned.
func SplitStatements(src string) ([]string, []int, error) {
	toks, err := Lex(src)
	if err != nil {
		return nil, nil, err
	}
	var stmts []string
	var starts []int
	begin, seen := 0, false // seen: a significant token since begin
	flush := func(end int) {
		if seen {
			stmts = append(stmts, src[begin:end])
			starts = append(starts, begin)
		}
	}
	for _, t := range toks {
		if t.Kind == Op && t.Text == ";" {
			flush(t.Pos)
			begin, seen = t.Pos+1, false
		} else if t.Kind != Space && t.Kind != Comment {
			seen = true
		}
	}
	flush(len(src))
	return stmts, starts, nil
}

// parserKeyword reports whether the parser takes word as a keyword rather
// than a name.
func parserKeyword(word string) bool {
	typ, _ := sqlparser.NewStringTokenizer(word).Scan()
	return typ != sqlparser.ID
}

// namesAfterAs are the reserved words of the parser that queries use as
// aliases (DuckDB takes any word after AS): quoted there, they name a
// column. Words that may follow AS in another sense (a type in CAST, a
// query after CREATE ... AS, VALUES, TABLE) are not among them.
var namesAfterAs = map[string]bool{
	"key": true, "order": true, "group": true, "window": true, "index": true,
	"default": true, "desc": true, "asc": true, "match": true, "next": true,
	"to": true, "schema": true, "database": true, "limit": true, "offset": true,
	"separator": true, "column": true, "check": true, "range": true, "rows": true,
	"primary": true, "references": true, "unique": true, "using": true, "status": true,
	"option": true, "read": true, "write": true, "show": true, "begin": true,
}

// isKeywordWord reports whether word is a keyword of the parser or of the
// rewrite layer (PIVOT, ASOF, QUALIFY, ...).
func isKeywordWord(word string) bool {
	if _, ok := unsupportedWords[word]; ok {
		return true
	}
	switch word {
	case "qualify", "pivot", "unpivot", "asof", "positional", "semi", "anti", "lateral", "tablesample", "returning":
		return true
	}
	return parserKeyword(word)
}

// endsAlias reports whether t can follow an alias: the end of the
// statement, a comma or closing parenthesis, or a word that starts the
// next clause or join. After AS, a keyword followed by one of these is
// the alias itself (SELECT 1 AS from FROM t), not the start of a query
// or an expression (CREATE TABLE t AS SELECT ..., a macro's AS CASE ...).
func endsAlias(t Token) bool {
	switch t.Kind {
	case Space:
		return true // no token: the end
	case Op:
		return t.Text == "," || t.Text == ")" || t.Text == ";"
	case Ident:
		switch strings.ToLower(t.Text) {
		case "from", "where", "group", "having", "qualify", "window", "order", "limit", "offset", "fetch",
			"union", "intersect", "except", "on", "using", "join", "inner", "left", "right", "full", "cross",
			"natural", "positional", "asof", "semi", "anti", "returning", "into":
			return true
		}
	}
	return false
}

// quoteKeywordNames back-quotes keywords that stand for names where only
// a name can stand: after AS (an alias, outside CAST), after a '.' (a
// qualified column or a struct field: t.key, s.order), and key alone (a
// common column name, a keyword only after PRIMARY, FOREIGN or UNIQUE).
// The parser then reads them as names; the text of every other token is
// left as it is.
func quoteKeywordNames(toks []Token) []Token {
	var out []Token
	var calls []string // the word before each open parenthesis
	prev := func(i int) Token {
		if i > 0 {
			return toks[i-1]
		}
		return Token{Kind: Space}
	}
	for i, t := range toks {
		switch {
		case t.Kind == Op && t.Text == "(":
			calls = append(calls, strings.ToLower(prev(i).Text))
		case t.Kind == Op && t.Text == ")" && len(calls) > 0:
			calls = calls[:len(calls)-1]
		}
		if t.Kind != Ident {
			continue
		}
		word := strings.ToLower(t.Text)
		p := prev(i)
		quote := false
		switch {
		case p.Kind == Op && p.Text == "." && i >= 2 && toks[i-2].Kind != Op:
			quote = parserKeyword(word)
		case p.Is("as"):
			inCast := len(calls) > 0 && (calls[len(calls)-1] == "cast" || calls[len(calls)-1] == "try_cast")
			var next Token
			if i+1 < len(toks) {
				next = toks[i+1]
			}
			quote = !inCast && (namesAfterAs[word] || isKeywordWord(word) && endsAlias(next))
		case word == "key":
			quote = !p.Is("primary") && !p.Is("foreign") && !p.Is("unique")
		case keywordFunctions[word] && i+1 < len(toks) && toks[i+1].Kind == Op && toks[i+1].Text == "(":
			quote = startsOperand(p)
		}
		if quote {
			if out == nil {
				out = append([]Token(nil), toks...)
			}
			out[i] = Token{Kind: Quoted, Text: Backquote(t.Text), Pos: t.Pos}
		}
	}
	if out == nil {
		return toks
	}
	return out
}

// IsIdentByte reports whether c is an ASCII letter, digit or underscore:
// a byte of a name in the parser's formatted text.
func IsIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Name is the name a token stands for where a name is expected: the
// text of a bare word, the content of a quoted name or of a string (a
// table may be named by a file path in quotes).
func (t Token) Name() string {
	switch t.Kind {
	case Quoted, DQuoted, String:
		return t.Unquoted()
	}
	return t.Text
}
