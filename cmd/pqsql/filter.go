package main

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/scan"
)

// parseFilter parses a WHERE-like expression into a scan.Predicate, which
// the scan pushes down (pruning row groups and pages) and evaluates:
//
//	expr    = or
//	or      = and { OR and }
//	and     = not { AND not }
//	not     = NOT not | "(" expr ")" | cond
//	cond    = col op lit | lit op col | col [NOT] IN "(" lit {"," lit} ")"
//	        | col IS [NOT] NULL | col [NOT] LIKE 'prefix%'
//	        | col [NOT] BETWEEN lit AND lit
//	op      = "=" | "==" | "!=" | "<>" | "<" | "<=" | ">" | ">="
//	lit     = number | 'string' | TRUE | FALSE
//
// Column names are bare words (dotted paths allowed) or "double-quoted".
// Times are written as strings ('2023-11-12', '2023-11-12 08:00:00').
// decimalCol reports whether a column is a DECIMAL, so that numbers
// compared with it are kept exact.
func parseFilter(src string, decimalCol func(string) bool) (scan.Predicate, error) {
	toks, err := lexFilter(src)
	if err != nil {
		return nil, err
	}
	p := &filterParser{toks: toks, src: src, decimalCol: decimalCol}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t, "unexpected %q", t.text)
	}
	return e, nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tQuotedIdent
	tNumber
	tString
	tOp
	tLParen
	tRParen
	tComma
)

type token struct {
	kind tokKind
	text string
	pos  int
}

func lexFilter(s string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			toks = append(toks, token{tLParen, "(", i})
			i++
		case c == ')':
			toks = append(toks, token{tRParen, ")", i})
			i++
		case c == ',':
			toks = append(toks, token{tComma, ",", i})
			i++
		case c == '\'' || c == '"' || c == '`':
			q := c
			start := i
			i++
			var b strings.Builder
			for {
				if i >= len(s) {
					return nil, fmt.Errorf("filter: unterminated quote at offset %d", start)
				}
				if s[i] == q {
					if i+1 < len(s) && s[i+1] == q {
						b.WriteByte(q)
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
			k := tString
			if q != '\'' {
				k = tQuotedIdent
			}
			toks = append(toks, token{k, b.String(), start})
		case strings.ContainsRune("=!<>", rune(c)):
			start := i
			i++
			if i < len(s) && (s[i] == '=' || (c == '<' && s[i] == '>')) {
				i++
			}
			op := s[start:i]
			if op == "!" {
				return nil, fmt.Errorf("filter: unexpected '!' at offset %d", start)
			}
			toks = append(toks, token{tOp, op, start})
		case c >= '0' && c <= '9' || ((c == '-' || c == '+' || c == '.') && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '.')):
			start := i
			i++
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
				((s[i] == '-' || s[i] == '+') && (s[i-1] == 'e' || s[i-1] == 'E'))) {
				i++
			}
			toks = append(toks, token{tNumber, s[start:i], start})
		case c == '_' || unicode.IsLetter(rune(c)) || c >= 0x80:
			start := i
			for i < len(s) && (s[i] == '_' || s[i] == '.' || s[i] >= 0x80 || unicode.IsLetter(rune(s[i])) || unicode.IsDigit(rune(s[i]))) {
				i++
			}
			toks = append(toks, token{tIdent, s[start:i], start})
		default:
			return nil, fmt.Errorf("filter: unexpected %q at offset %d", c, i)
		}
	}
	return append(toks, token{tEOF, "", len(s)}), nil
}

type filterParser struct {
	toks       []token
	i          int
	src        string
	decimalCol func(string) bool
}

func (p *filterParser) peek() token { return p.toks[p.i] }
func (p *filterParser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *filterParser) errAt(t token, format string, args ...any) error {
	what := fmt.Sprintf(format, args...)
	if t.kind == tEOF {
		return fmt.Errorf("filter %q: %s at the end", p.src, what)
	}
	return fmt.Errorf("filter %q: %s at offset %d", p.src, what, t.pos)
}

// keyword reports (and consumes) a bare word equal to kw, any case.
func (p *filterParser) keyword(kw string) bool {
	t := p.peek()
	if t.kind == tIdent && strings.EqualFold(t.text, kw) {
		p.i++
		return true
	}
	return false
}

func (p *filterParser) or() (scan.Predicate, error) {
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	terms := []scan.Predicate{left}
	for p.keyword("OR") {
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		terms = append(terms, r)
	}
	if len(terms) == 1 {
		return left, nil
	}
	return scan.Or{Terms: terms}, nil
}

func (p *filterParser) and() (scan.Predicate, error) {
	left, err := p.not()
	if err != nil {
		return nil, err
	}
	terms := []scan.Predicate{left}
	for p.keyword("AND") {
		r, err := p.not()
		if err != nil {
			return nil, err
		}
		terms = append(terms, r)
	}
	if len(terms) == 1 {
		return left, nil
	}
	return scan.And{Terms: terms}, nil
}

func (p *filterParser) not() (scan.Predicate, error) {
	if p.keyword("NOT") {
		t, err := p.not()
		if err != nil {
			return nil, err
		}
		return scan.Not{Term: t}, nil
	}
	if p.peek().kind == tLParen {
		p.next()
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if t := p.next(); t.kind != tRParen {
			return nil, p.errAt(t, "want ')'")
		}
		return e, nil
	}
	return p.cond()
}

var keywords = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "NULL": true,
	"LIKE": true, "BETWEEN": true, "TRUE": true, "FALSE": true}

func (p *filterParser) isColumn(t token) bool {
	return t.kind == tQuotedIdent || (t.kind == tIdent && !keywords[strings.ToUpper(t.text)])
}

func opOf(s string) scan.Op {
	switch s {
	case "=", "==":
		return scan.Eq
	case "!=", "<>":
		return scan.Ne
	case "<":
		return scan.Lt
	case "<=":
		return scan.Le
	case ">":
		return scan.Gt
	}
	return scan.Ge
}

func (p *filterParser) cond() (scan.Predicate, error) {
	t := p.next()
	if !p.isColumn(t) {
		// lit op col
		opt := p.next()
		if opt.kind != tOp {
			return nil, p.errAt(opt, "want a comparison operator")
		}
		ct := p.next()
		if !p.isColumn(ct) {
			return nil, p.errAt(ct, "want a column name")
		}
		lit, err := p.literalFrom(t, ct.text)
		if err != nil {
			return nil, err
		}
		return scan.Compare{Column: ct.text, Op: opOf(opt.text).Flip(), Value: lit}, nil
	}
	col := t.text
	switch n := p.peek(); {
	case n.kind == tOp:
		p.next()
		lit, err := p.literal(col)
		if err != nil {
			return nil, err
		}
		return scan.Compare{Column: col, Op: opOf(n.text), Value: lit}, nil
	case p.keyword("IS"):
		not := p.keyword("NOT")
		if !p.keyword("NULL") {
			return nil, p.errAt(p.peek(), "want NULL after IS")
		}
		return scan.IsNull{Column: col, Not: not}, nil
	}
	not := p.keyword("NOT")
	switch {
	case p.keyword("IN"):
		if t := p.next(); t.kind != tLParen {
			return nil, p.errAt(t, "want '(' after IN")
		}
		var vals []any
		for {
			lit, err := p.literal(col)
			if err != nil {
				return nil, err
			}
			vals = append(vals, lit)
			t := p.next()
			if t.kind == tRParen {
				break
			}
			if t.kind != tComma {
				return nil, p.errAt(t, "want ',' or ')'")
			}
		}
		return scan.In{Column: col, Values: vals, Not: not}, nil
	case p.keyword("LIKE"):
		t := p.next()
		if t.kind != tString {
			return nil, p.errAt(t, "want a string pattern after LIKE")
		}
		prefix, ok := strings.CutSuffix(t.text, "%")
		if !ok || strings.ContainsAny(prefix, "%_") {
			return nil, p.errAt(t, "only LIKE 'prefix%%' patterns are supported (use the SQL shell for others)")
		}
		var pr scan.Predicate = scan.Prefix{Column: col, Prefix: prefix}
		if not {
			pr = scan.Not{Term: pr}
		}
		return pr, nil
	case p.keyword("BETWEEN"):
		lo, err := p.literal(col)
		if err != nil {
			return nil, err
		}
		if !p.keyword("AND") {
			return nil, p.errAt(p.peek(), "want AND in BETWEEN")
		}
		hi, err := p.literal(col)
		if err != nil {
			return nil, err
		}
		var pr scan.Predicate = scan.And{Terms: []scan.Predicate{
			scan.Compare{Column: col, Op: scan.Ge, Value: lo},
			scan.Compare{Column: col, Op: scan.Le, Value: hi},
		}}
		if not {
			pr = scan.Not{Term: pr}
		}
		return pr, nil
	}
	return nil, p.errAt(p.peek(), "want an operator after column %q", col)
}

func (p *filterParser) literal(col string) (any, error) {
	return p.literalFrom(p.next(), col)
}

func (p *filterParser) literalFrom(t token, col string) (any, error) {
	var v any
	switch {
	case t.kind == tString:
		v = t.text
	case t.kind == tNumber:
		if i, err := strconv.ParseInt(t.text, 10, 64); err == nil {
			v = i
		} else if f, err := strconv.ParseFloat(t.text, 64); err == nil {
			v = f
		} else {
			return nil, p.errAt(t, "bad number %q", t.text)
		}
	case t.kind == tIdent && strings.EqualFold(t.text, "TRUE"):
		v = true
	case t.kind == tIdent && strings.EqualFold(t.text, "FALSE"):
		v = false
	case t.kind == tIdent && strings.EqualFold(t.text, "NULL"):
		return nil, p.errAt(t, "comparing with NULL is never true (use IS NULL)")
	default:
		return nil, p.errAt(t, "want a value (number, 'string', TRUE or FALSE)")
	}
	// A number compared with a DECIMAL column stays exact.
	if t.kind == tNumber && p.decimalCol != nil && p.decimalCol(col) {
		if d, ok := parseDecimal(t.text); ok {
			v = d
		}
	}
	return v, nil
}

// parseDecimal reads decimal text ("-12.340", "5") exactly.
func parseDecimal(s string) (value.Decimal, bool) {
	s = strings.TrimSpace(s)
	ip, frac, _ := strings.Cut(s, ".")
	u, ok := new(big.Int).SetString(ip+frac, 10)
	if !ok || strings.ContainsAny(frac, "+-") {
		return value.Decimal{}, false
	}
	return value.Decimal{Unscaled: u, Scale: int32(len(frac))}, true
}
