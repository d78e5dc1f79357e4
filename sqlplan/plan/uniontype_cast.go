package plan

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// Casts into a UNION, as DuckDB makes them: a value of another UNION
// keeps its member (by name; the target must have it) cast to the
// target's type of it; any other value becomes the member of its exact
// type, else the member it casts to implicitly at the lowest cost; two
// such members are ambiguous. A UNION casts to text as its member's
// value does (nestedtext.go).

// checkUnionCast refuses, before any row is read, a cast to UNION type to
// that no value of type from makes.
func checkUnionCast(from, to Type, members []NamedType) error {
	if from.Kind == KNull {
		return nil
	}
	if fm, ok := unionMembers(from); ok {
		_, err := unionMemberPairs(from, to, fm, members)
		return err
	}
	_, err := unionMemberFor(from, to, members)
	return err
}

// castToUnion casts v, of type from, to UNION type to (castNested).
func castToUnion(v any, from, to Type, members []NamedType, try bool) (any, error) {
	if fm, ok := unionMembers(from); ok {
		pairs, err := unionMemberPairs(from, to, fm, members)
		if err != nil {
			return nil, err
		}
		tag, ok := unionTagOf(v, fm)
		if !ok {
			return nil, nil
		}
		m, _ := v.(map[string]any)
		k := pairs[tag]
		x, err := castLeaf(m[fm[tag].Name], fm[tag].Type, members[k].Type, try)
		if err != nil {
			return nil, err
		}
		return unionValue(members, k, x), nil
	}
	k, err := unionMemberFor(from, to, members)
	if err != nil {
		return nil, err
	}
	x, err := function.CastScalar(v, plainType(from), plainType(members[k].Type), try)
	if err != nil {
		if try {
			return nil, nil
		}
		return nil, err
	}
	return unionValue(members, k, toGo(members[k].Type, x)), nil
}

// unionMemberPairs gives, for each member of UNION type from, the
// position of the member of the same name (any case) in to's members.
func unionMemberPairs(from, to Type, fm, tm []NamedType) ([]int, error) {
	pairs := make([]int, len(fm))
	for i, f := range fm {
		pairs[i] = -1
		for k, t := range tm {
			if strings.EqualFold(f.Name, t.Name) {
				pairs[i] = k
				break
			}
		}
		if pairs[i] < 0 {
			return nil, errorf("Type %s can't be cast as %s. The member '%s' is not present in target union", from.SQLName(), to.SQLName(), f.Name)
		}
	}
	return pairs, nil
}

// unionMemberFor is the member of UNION type to that a value of type from
// becomes: the one of its exact type, else the one it casts to
// implicitly at the lowest cost (implicitCost).
func unionMemberFor(from, to Type, members []NamedType) (int, error) {
	best, bestCost, ties := -1, 0, []int(nil)
	for k, m := range members {
		cost, ok := implicitCost(from, m.Type)
		switch {
		case !ok:
		case best < 0 || cost < bestCost:
			best, bestCost, ties = k, cost, []int{k}
		case cost == bestCost:
			ties = append(ties, k)
		}
	}
	if len(ties) > 1 {
		names := make([]string, len(ties))
		for i, k := range ties {
			names[i] = fmt.Sprintf("'%s (%s)'", members[k].Name, members[k].Type.SQLName())
		}
		return 0, errorf("Type %s can't be cast as %s. The cast is ambiguous, multiple possible members in target: %s", from.SQLName(), to.SQLName(), strings.Join(names, ", "))
	}
	if best < 0 {
		names := make([]string, len(members))
		for i, m := range members {
			names[i] = m.Type.SQLName()
		}
		return 0, errorf("Type %s can't be cast as %s. %s can't be implicitly cast to any of the union member types: %s", from.SQLName(), to.SQLName(), from.SQLName(), strings.Join(names, ", "))
	}
	return best, nil
}

// implicitCost is the cost of DuckDB's implicit cast of a value of type
// from to type to (0: the same type), ok false when there is none: the
// widening casts between numbers (to the nearest type first) and of a
// DATE to a TIMESTAMP. Text casts to nothing implicitly.
func implicitCost(from, to Type) (int, bool) {
	if from.SQLName() == to.SQLName() {
		return 0, true
	}
	width := func(t Type) int {
		if t.Bits == 0 {
			return 64
		}
		return t.Bits
	}
	switch fk, tk := from.Kind, to.Kind; {
	case fk == KInt && tk == KInt, fk == KUint && tk == KUint:
		if width(to) > width(from) {
			return 10 + width(to), true
		}
	case fk == KUint && tk == KInt:
		if width(to) > width(from) {
			return 10 + width(to), true
		}
	case (fk == KInt || fk == KUint) && tk == KDecimal:
		if to.Huge {
			return 100, true
		}
		return 110, true
	case (fk == KInt || fk == KUint || fk == KDecimal) && tk == KFloat:
		if to.Float32 {
			return 121, true
		}
		return 120, true
	case fk == KFloat && tk == KFloat:
		if from.Float32 && !to.Float32 {
			return 10, true
		}
	case fk == KDecimal && tk == KDecimal:
		if to.Scale >= from.Scale && to.Prec-to.Scale >= from.Prec-from.Scale {
			return 10, true
		}
	case fk == KDate && tk == KTimestamp:
		return 10, true
	}
	return 0, false
}

// commonUnion is the type two UNIONs meet in (in set operations, CASE,
// lists and comparisons): the one whose members include the other's
// (by name), into which the other casts; DuckDB's cast error when
// neither does. ok is false unless both are UNIONs.
func commonUnion(a, b Type) (Type, bool, error) {
	am, aok := unionMembers(a)
	bm, bok := unionMembers(b)
	if !aok || !bok {
		return Type{}, false, nil
	}
	if _, err := unionMemberPairs(b, a, bm, am); err == nil {
		return a, true, nil
	}
	if _, err := unionMemberPairs(a, b, am, bm); err == nil {
		return b, true, nil
	}
	_, err := unionMemberPairs(b, a, bm, am)
	return Type{}, true, err
}
