package sqlplan

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// SQLLimits bound the statements Prepare accepts. They are checked in one
// linear pass over the text before any rewriting or parsing, so that
// hostile or generated SQL is refused in time proportional to its length
// instead of after the (recursive, sometimes quadratic) work of the
// stages that follow. Zero fields take the defaults.
type SQLLimits struct {
	// MaxBytes bounds a statement's text (default 16 MiB).
	MaxBytes int
	// MaxNesting bounds the nesting of parentheses, brackets, braces and
	// CASE ... END (default 1000).
	MaxNesting int
	// MaxExprDepth bounds how deep expressions may nest, counting each
	// operator chained without parentheses (a + b + c is two levels) on
	// top of the nesting (default 5000).
	MaxExprDepth int
}

// The default limits. 16 MiB holds an INSERT of a few hundred thousand
// rows (which prepares in a few seconds; bulk loads belong in COPY or in
// parameters), while bounding the memory the token slices of the rewrite
// layer take (a few hundred MiB at worst). PostgreSQL and DuckDB refuse
// far less nesting: the parser under us stops at about 200 parentheses
// in an expression, so 1000 only keeps pathological input from reaching
// it. DuckDB's max_expression_depth is 1000; 5000 accepts an OR of a few
// thousand generated comparisons while the recursive binder and
// evaluator stay well inside a goroutine's stack.
const (
	DefaultMaxSQLBytes     = 16 << 20
	DefaultMaxSQLNesting   = 1000
	DefaultMaxSQLExprDepth = 5000
)

func (l SQLLimits) withDefaults() SQLLimits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxSQLBytes
	}
	if l.MaxNesting <= 0 {
		l.MaxNesting = DefaultMaxSQLNesting
	}
	if l.MaxExprDepth <= 0 {
		l.MaxExprDepth = DefaultMaxSQLExprDepth
	}
	return l
}

// Operator classes for the depth estimate, from the loosest binding to
// the tightest. Along any path from an expression's root to a leaf the
// operators bind ever tighter, and the operators of one class on that
// path are at most those met since the last looser one: the sum of those
// runs over the classes bounds the depth the parser builds.
const (
	opSetOp = iota // UNION, INTERSECT, EXCEPT
	opJoin         // JOIN
	opOr           // OR
	opAnd          // AND
	opNot          // NOT
	opCmp          // = <> < > IS LIKE IN BETWEEN ...
	opBit          // | & << >>
	opAdd          // + - ||
	opMul          // * / % // **
	opTight        // ^ :: -> ->> ~ ! COLLATE
	opClasses
	opExpr = opOr // the first class a comma or a clause word ends
)

// limitLevel is one level of brackets in checkLimits.
type limitLevel struct {
	runs [opClasses]int
	sum  int  // the sum of runs
	kase bool // opened by CASE, closed by END
}

func (lv *limitLevel) op(c int) {
	for k := c + 1; k < opClasses; k++ {
		lv.sum -= lv.runs[k]
		lv.runs[k] = 0
	}
	lv.runs[c]++
	lv.sum++
}

func (lv *limitLevel) endExpr() {
	for k := opExpr; k < opClasses; k++ {
		lv.sum -= lv.runs[k]
		lv.runs[k] = 0
	}
}

// wordClass returns the operator class of a keyword, -1 for none, and
// whether the word starts a clause (ending the expression before it).
func wordClass(w string) (int, bool) {
	if len(w) < 2 || len(w) > 9 {
		return -1, false
	}
	var b [9]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	switch string(b[:len(w)]) {
	case "union", "intersect", "except":
		return opSetOp, true
	case "join":
		return opJoin, true
	case "or":
		return opOr, false
	case "and":
		return opAnd, false
	case "not":
		return opNot, false
	case "is", "like", "ilike", "glob", "in", "between", "similar", "regexp", "rlike":
		return opCmp, false
	case "collate", "at":
		return opTight, false
	case "select", "from", "where", "group", "having", "order", "limit", "offset",
		"on", "using", "qualify", "window", "values", "set", "returning", "when", "then", "else":
		return -1, true
	}
	return -1, false
}

// opClass returns the class of an operator.
func opClass(op string) int {
	switch op {
	case "=", "<", ">", "<=", ">=", "<>", "!=", "<=>", "==", "~~", "!~", "^@":
		return opCmp
	case "|", "&", "<<", ">>":
		return opBit
	case "+", "-", "||":
		return opAdd
	case "*", "/", "%", "//", "**":
		return opMul
	}
	return opTight
}

// checkLimits refuses a statement longer, or nesting deeper, than the
// limits allow. It scans the text once, skipping what lex treats as
// strings, quoted identifiers and comments, and allocates only its stack
// of levels (at most MaxNesting of them).
func checkLimits(src string, lim SQLLimits) error {
	lim = lim.withDefaults()
	if len(src) > lim.MaxBytes {
		e := errAt(src, lim.MaxBytes, "the statement is %d bytes long, more than the limit of %s", len(src), byteSize(lim.MaxBytes))
		e.Err = ErrLimit
		return e
	}
	levels := []limitLevel{{}}
	outer := 0 // the sums of the levels below the top
	tooDeep := func(off int) error {
		e := errAt(src, off, "the statement nests expressions deeper than %d levels (each operator chained without parentheses counts as one)", lim.MaxExprDepth)
		e.Err = ErrLimit
		return e
	}
	open := func(off int, kase bool) error {
		if len(levels) > lim.MaxNesting {
			e := errAt(src, off, "the statement nests parentheses, brackets or CASE deeper than %d levels", lim.MaxNesting)
			e.Err = ErrLimit
			return e
		}
		outer += levels[len(levels)-1].sum
		levels = append(levels, limitLevel{kase: kase})
		if outer+len(levels) > lim.MaxExprDepth {
			return tooDeep(off)
		}
		return nil
	}
	closeLevel := func(kase bool) {
		if len(levels) > 1 && levels[len(levels)-1].kase == kase {
			levels = levels[:len(levels)-1]
			outer -= levels[len(levels)-1].sum
		}
	}
	op := func(off, c int) error {
		top := &levels[len(levels)-1]
		top.op(c)
		if outer+top.sum+len(levels) > lim.MaxExprDepth {
			return tooDeep(off)
		}
		return nil
	}
	for i := 0; i < len(src); {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(src)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil // unterminated: lex says so
			}
			i += j + 4
		case c == '$' && i+1 < len(src) && src[i+1] == '$':
			j := strings.Index(src[i+2:], "$$")
			if j < 0 {
				return nil
			}
			i += j + 4
		case (c == 'e' || c == 'E') && i+1 < len(src) && src[i+1] == '\'' && (i == 0 || !parse.IsIdentPart(src[i-1])):
			// E'...' with backslash escapes
			i += 2
			for {
				if i >= len(src) {
					return nil // unterminated: lex says so
				}
				if src[i] == '\\' {
					i += 2
					continue
				}
				i++
				if src[i-1] == '\'' {
					if i < len(src) && src[i] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case c == '\'' || c == '"' || c == '`':
			i++
			for {
				j := strings.IndexByte(src[i:], c)
				if j < 0 {
					return nil
				}
				i += j + 1
				if i < len(src) && src[i] == c {
					i++
					continue
				}
				break
			}
		case parse.IsIdentPart(c):
			for i < len(src) && parse.IsIdentPart(src[i]) {
				i++
			}
			w := src[start:i]
			switch {
			case len(w) == 4 && strings.EqualFold(w, "case"):
				if err := open(start, true); err != nil {
					return err
				}
			case len(w) == 3 && strings.EqualFold(w, "end"):
				closeLevel(true)
			default:
				cls, clause := wordClass(w)
				if clause {
					levels[len(levels)-1].endExpr()
				}
				if cls >= 0 {
					if err := op(start, cls); err != nil {
						return err
					}
				}
			}
		case c == '(' || c == '[' || c == '{':
			i++
			if err := open(start, false); err != nil {
				return err
			}
		case c == ')' || c == ']' || c == '}':
			i++
			for len(levels) > 1 && levels[len(levels)-1].kase {
				closeLevel(true) // a CASE without END
			}
			closeLevel(false)
		case c == ',':
			i++
			levels[len(levels)-1].endExpr()
		case c == ';':
			i++
			for len(levels) > 1 {
				levels = levels[:len(levels)-1]
			}
			levels[0] = limitLevel{}
			outer = 0
		case c == '.' || c == '?' || c == '$' || c == '@' || c == ':' && !(i+1 < len(src) && src[i+1] == ':'):
			i++
		default:
			i += parse.OperatorLen(src[i:])
			if err := op(start, opClass(src[start:i])); err != nil {
				return err
			}
		}
	}
	return nil
}

func byteSize(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
