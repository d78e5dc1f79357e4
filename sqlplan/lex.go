package sqlplan

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// tokKind classifies the tokens of the rewrite layer's lexer.
type tokKind uint8

const (
	tkSpace   tokKind = iota
	tkComment         // -- ... or /* ... */
	tkIdent           // identifiers and keywords
	tkQuoted          // `identifier`
	tkDQuoted         // "identifier" (DuckDB/PostgreSQL) — a string in MySQL
	tkString          // 'string'
	tkNumber
	tkParam // ?, $1, :name, @name
	tkOp    // punctuation and operators
)

// token is one lexeme of the user's text with its byte offset.
type token struct {
	kind tokKind
	text string // as written
	pos  int    // byte offset in the original text
}

func (t token) is(word string) bool { return t.kind == tkIdent && strings.EqualFold(t.text, word) }

// unquoted returns the identifier or string a quoted token stands for.
func (t token) unquoted() string {
	switch t.kind {
	case tkQuoted:
		return strings.ReplaceAll(t.text[1:len(t.text)-1], "``", "`")
	case tkDQuoted:
		return strings.ReplaceAll(t.text[1:len(t.text)-1], `""`, `"`)
	case tkString:
		return strings.ReplaceAll(t.text[1:len(t.text)-1], "''", "'")
	}
	return t.text
}

var multiOps = []string{"->>", "<=>", "::", "||", "<=", ">=", "<>", "!=", "->", "<<", ">>", "//", "**"}

// lex splits SQL text into tokens. Unterminated quotes and comments are
// errors at their start.
func lex(src string) ([]token, error) {
	var out []token
	i := 0
	for i < len(src) {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			for i < len(src) && strings.IndexByte(" \t\n\r\f", src[i]) >= 0 {
				i++
			}
			out = append(out, token{tkSpace, src[start:i], start})
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			out = append(out, token{tkComment, src[start:i], start})
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, errAt(src, start, "unterminated comment")
			}
			i += end + 4
			out = append(out, token{tkComment, src[start:i], start})
		case c == '$' && strings.HasPrefix(src[i:], "$$"):
			// $$dollar-quoted$$ text (PostgreSQL, DuckDB)
			end := strings.Index(src[i+2:], "$$")
			if end < 0 {
				return nil, errAt(src, start, "unterminated $$ string")
			}
			body := src[i+2 : i+2+end]
			i += end + 4
			out = append(out, token{tkString, "'" + strings.ReplaceAll(body, "'", "''") + "'", start})
		case (c == 'e' || c == 'E') && i+1 < len(src) && src[i+1] == '\'' && (i == 0 || !isIdentPart(src[i-1])):
			// E'...' with backslash escapes
			var b strings.Builder
			i += 2
			for {
				if i >= len(src) {
					return nil, errAt(src, start, "unterminated quoted string")
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
			out = append(out, token{tkString, "'" + strings.ReplaceAll(b.String(), "'", "''") + "'", start})
		case c == '\'' || c == '"' || c == '`':
			i++
			for {
				if i >= len(src) {
					return nil, errAt(src, start, "unterminated quoted %s", map[byte]string{'\'': "string", '"': "identifier", '`': "identifier"}[c])
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
			k := map[byte]tokKind{'\'': tkString, '"': tkDQuoted, '`': tkQuoted}[c]
			out = append(out, token{k, src[start:i], start})
		case isIdentStart(c):
			for i < len(src) && isIdentPart(src[i]) {
				i++
			}
			out = append(out, token{tkIdent, src[start:i], start})
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
			out = append(out, token{tkNumber, src[start:i], start})
		case c == '?':
			i++
			out = append(out, token{tkParam, "?", start})
		case (c == '$' || c == ':' || c == '@') && i+1 < len(src) && (isIdentPart(src[i+1])) && !(c == ':' && i+1 < len(src) && src[i+1] == ':'):
			i++
			for i < len(src) && isIdentPart(src[i]) {
				i++
			}
			out = append(out, token{tkParam, src[start:i], start})
		default:
			op := string(c)
			for _, m := range multiOps {
				if strings.HasPrefix(src[i:], m) {
					op = m
					break
				}
			}
			i += len(op)
			out = append(out, token{tkOp, op, start})
		}
	}
	return out, nil
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// significant returns the tokens that are not spaces or comments.
func significant(toks []token) []token {
	out := make([]token, 0, len(toks))
	for _, t := range toks {
		if t.kind != tkSpace && t.kind != tkComment {
			out = append(out, t)
		}
	}
	return out
}

// splitStatements splits text at semicolons outside quotes and comments.
// Empty statements are dropped.
func splitStatements(src string) ([]string, []int, error) {
	toks, err := lex(src)
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
		if t.kind == tkOp && t.text == ";" {
			flush(t.pos)
			begin, seen = t.pos+1, false
		} else if t.kind != tkSpace && t.kind != tkComment {
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
func endsAlias(t token) bool {
	switch t.kind {
	case tkSpace:
		return true // no token: the end
	case tkOp:
		return t.text == "," || t.text == ")" || t.text == ";"
	case tkIdent:
		switch strings.ToLower(t.text) {
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
func quoteKeywordNames(toks []token) []token {
	var out []token
	var calls []string // the word before each open parenthesis
	prev := func(i int) token {
		if i > 0 {
			return toks[i-1]
		}
		return token{kind: tkSpace}
	}
	for i, t := range toks {
		switch {
		case t.kind == tkOp && t.text == "(":
			calls = append(calls, strings.ToLower(prev(i).text))
		case t.kind == tkOp && t.text == ")" && len(calls) > 0:
			calls = calls[:len(calls)-1]
		}
		if t.kind != tkIdent {
			continue
		}
		word := strings.ToLower(t.text)
		p := prev(i)
		quote := false
		switch {
		case p.kind == tkOp && p.text == "." && i >= 2 && toks[i-2].kind != tkOp:
			quote = parserKeyword(word)
		case p.is("as"):
			inCast := len(calls) > 0 && (calls[len(calls)-1] == "cast" || calls[len(calls)-1] == "try_cast")
			var next token
			if i+1 < len(toks) {
				next = toks[i+1]
			}
			quote = !inCast && (namesAfterAs[word] || isKeywordWord(word) && endsAlias(next))
		case word == "key":
			quote = !p.is("primary") && !p.is("foreign") && !p.is("unique")
		}
		if quote {
			if out == nil {
				out = append([]token(nil), toks...)
			}
			out[i] = token{kind: tkQuoted, text: backquote(t.text), pos: t.pos}
		}
	}
	if out == nil {
		return toks
	}
	return out
}
