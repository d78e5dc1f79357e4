package scan

import (
	"fmt"
	"strings"
	"time"

	"github.com/carquet-go/carquet/internal/intset"
)

// Op is a comparison operator.
type Op uint8

const (
	Eq Op = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

func (o Op) String() string { return [...]string{"=", "<>", "<", "<=", ">", ">="}[o] }

// Flip returns the operator with its operands swapped (a < b  ⇔  b > a).
func (o Op) Flip() Op { return [...]Op{Eq, Ne, Gt, Ge, Lt, Le}[o] }

// Negate returns the operator of the negated comparison (NOT a < b ⇔ a >= b
// for non-null operands).
func (o Op) Negate() Op { return [...]Op{Ne, Eq, Ge, Gt, Le, Lt}[o] }

// Predicate is a filter the scan evaluates exactly (returning only rows for
// which it is true, SQL three-valued logic: NULL is not true) and uses to
// prune files, row groups and pages. The constants are Go values:
// int64, float64, bool, string, []byte, time.Time, value.Decimal; they are
// compared with a column by the column's logical type.
type Predicate interface {
	String() string
	isPredicate()
}

// Compare is `Column Op Value`.
type Compare struct {
	Column string
	Op     Op
	Value  any
}

// In is `Column IN (Values...)`, or NOT IN when Not is set. Ints, when
// set, holds the values instead of Values: integers, for lists too long
// to spell out as Go values (the keys of a join's build side, which a
// scan below the join may drop rows by).
type In struct {
	Column string
	Values []any
	Not    bool
	Ints   *intset.Set
}

// IsNull is `Column IS NULL`, or IS NOT NULL when Not is set.
type IsNull struct {
	Column string
	Not    bool
}

// Prefix is `Column LIKE 'prefix%'` on a string or binary column.
type Prefix struct {
	Column string
	Prefix string
}

// And is true when every term is true.
type And struct{ Terms []Predicate }

// Or is true when any term is true.
type Or struct{ Terms []Predicate }

// Not negates a predicate (NULL stays NULL).
type Not struct{ Term Predicate }

func (Compare) isPredicate() {}
func (In) isPredicate()      {}
func (IsNull) isPredicate()  {}
func (Prefix) isPredicate()  {}
func (And) isPredicate()     {}
func (Or) isPredicate()      {}
func (Not) isPredicate()     {}

func (c Compare) String() string { return fmt.Sprintf("%s %s %s", c.Column, c.Op, literal(c.Value)) }

func (p In) String() string {
	if p.Ints != nil {
		not := ""
		if p.Not {
			not = "NOT "
		}
		lo, hi, _ := p.Ints.Range()
		return fmt.Sprintf("%s %sIN (%d integers from %d to %d)", p.Column, not, p.Ints.Len(), lo, hi)
	}
	parts := make([]string, len(p.Values))
	for i, v := range p.Values {
		parts[i] = literal(v)
	}
	not := ""
	if p.Not {
		not = "NOT "
	}
	return fmt.Sprintf("%s %sIN (%s)", p.Column, not, strings.Join(parts, ", "))
}

func (p IsNull) String() string {
	if p.Not {
		return p.Column + " IS NOT NULL"
	}
	return p.Column + " IS NULL"
}

func (p Prefix) String() string { return fmt.Sprintf("%s LIKE %s", p.Column, literal(p.Prefix+"%")) }

func (p And) String() string { return join(p.Terms, " AND ") }
func (p Or) String() string  { return join(p.Terms, " OR ") }
func (p Not) String() string { return "NOT (" + p.Term.String() + ")" }

func join(terms []Predicate, sep string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = "(" + t.String() + ")"
	}
	return strings.Join(parts, sep)
}

func literal(v any) string {
	switch x := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case []byte:
		return fmt.Sprintf("X'%x'", x)
	case nil:
		return "NULL"
	case time.Time:
		// As SQL would write the value; a midnight is most often a DATE.
		x = x.UTC()
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("'2006-01-02'")
		}
		return x.Format("'2006-01-02 15:04:05.999999999'")
	}
	return fmt.Sprint(v)
}

// Columns appends the columns a predicate refers to.
func Columns(dst []string, p Predicate) []string {
	switch x := p.(type) {
	case Compare:
		return append(dst, x.Column)
	case In:
		return append(dst, x.Column)
	case IsNull:
		return append(dst, x.Column)
	case Prefix:
		return append(dst, x.Column)
	case And:
		for _, t := range x.Terms {
			dst = Columns(dst, t)
		}
	case Or:
		for _, t := range x.Terms {
			dst = Columns(dst, t)
		}
	case Not:
		return Columns(dst, x.Term)
	}
	return dst
}
