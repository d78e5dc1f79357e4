package plan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// json_transform(doc, structure) and from_json: a JSON document read as
// a value of carquet's nested types, the structure a constant JSON text
// of type names ({"a": "INTEGER", "b": ["VARCHAR"], "m": "MAP(VARCHAR,
// INTEGER)"} is STRUCT(a INTEGER, b VARCHAR[], m MAP(VARCHAR, INTEGER))),
// as DuckDB (v1.5) reads it. A value that does not fit its type (a
// string for an INTEGER, an object for a list, a key the object lacks)
// is NULL, and one that is no object a struct of NULLs; the _strict
// forms fail with DuckDB's message instead. Object
// keys match exactly; of duplicate keys the first counts.

func init() {
	addFuncs(map[string]*fn{
		"json_transform":        {Min: 2, Max: 2},
		"json_transform_strict": {Min: 2, Max: 2},
		"from_json":             {Min: 2, Max: 2},
		"from_json_strict":      {Min: 2, Max: 2},
	})
}

// bindJSONTransform binds this file's functions; ok is false for other
// names.
func (p *Planner) bindJSONTransform(name string, args []Expr) (Expr, bool, error) {
	if name != "json_transform" && name != "json_transform_strict" && name != "from_json" && name != "from_json_strict" {
		return nil, false, nil
	}
	strict := strings.HasSuffix(name, "_strict")
	k, ok := IsConst(args[1])
	if !ok {
		return nil, true, errorf("JSON structure must be a constant!")
	}
	if k.V == nil || args[0].Type().Kind == KNull {
		return &ConstExpr{T: tInt32Null}, true, nil // DuckDB's type for a NULL structure
	}
	text, isStr := k.V.(string)
	if !isStr {
		return nil, true, errorf("JSON structure must be a VARCHAR constant")
	}
	node, err := function.ParseJSON([]byte(text))
	if err != nil {
		return nil, true, err
	}
	t, err := structureType(node)
	if err != nil {
		return nil, true, err
	}
	doc, err := p.coerceArg(args[0], TString)
	if err != nil {
		return nil, true, err
	}
	e := nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", t, []Expr{doc}, func(v []any) (any, error) {
		n, err := function.ParseJSON([]byte(v[0].(string)))
		if err != nil {
			return nil, err
		}
		return transformJSON(n, t, strict)
	})
	return e, true, nil
}

// structureType is the type a JSON structure names.
func structureType(n *function.JSONNode) (Type, error) {
	switch {
	case n.IsArray():
		if len(n.Values()) != 1 {
			return Type{}, errorf("Too many values in array of JSON structure")
		}
		elem, err := structureType(n.Values()[0])
		return Type{Kind: KNested, Elem: &elem}, err
	case n.IsObject():
		if len(n.Keys()) == 0 {
			return Type{}, errorf("Empty object in JSON structure")
		}
		fields := make([]NamedType, len(n.Keys()))
		for k, v := range n.Values() {
			ft, err := structureType(v)
			if err != nil {
				return Type{}, err
			}
			fields[k] = NamedType{Name: n.Keys()[k], Type: ft}
		}
		return Type{Kind: KNested, Fields: fields}, nil
	}
	name, _ := n.Scalar()
	s, isStr := name.(string)
	if !isStr {
		return Type{}, errorf("invalid JSON structure")
	}
	if strings.EqualFold(s, "json") {
		return tJSON, nil
	}
	return nestedTypeOf(s, nil)
}

// transformJSON reads n as a value of type t (the engine's Go value of a
// nested value's part).
func transformJSON(n *function.JSONNode, t Type, strict bool) (any, error) {
	if n.IsNull() {
		return nil, nil
	}
	if et, isList := listElem(t); isList {
		if !n.IsArray() {
			return notShaped(n, "ARRAY", strict)
		}
		out := make([]any, len(n.Values()))
		for k, v := range n.Values() {
			x, err := transformJSON(v, et, strict)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	}
	if kt, vt, isMap := mapKV(t); isMap {
		if !n.IsObject() {
			return notShaped(n, "OBJECT", strict)
		}
		return transformMap(n, kt, vt, strict)
	}
	if fields, isStruct := structFields(t); isStruct {
		if !n.IsObject() && strict {
			return notShaped(n, "OBJECT", strict)
		}
		// A value that is no object gives a struct of NULLs, as in DuckDB.
		out := make(map[string]any, len(fields))
		for _, f := range fields {
			k := -1
			if n.IsObject() {
				k = keyIndex(n.Keys(), f.Name)
			}
			if k < 0 {
				if strict {
					return nil, errorf("Object %s does not have key %q", n.Minified(), f.Name)
				}
				out[f.Name] = nil
				continue
			}
			x, err := transformJSON(n.Values()[k], f.Type, strict)
			if err != nil {
				return nil, err
			}
			out[f.Name] = x
		}
		return out, nil
	}
	return transformLeaf(n, t, strict)
}

// transformMap reads object n as a MAP(kt, vt).
func transformMap(n *function.JSONNode, kt, vt Type, strict bool) (any, error) {
	keys := make([]any, 0, len(n.Keys()))
	vals := make([]any, 0, len(n.Keys()))
	for k, v := range n.Values() {
		key, err := castLeaf(n.Keys()[k], TString, kt, !strict)
		if err != nil {
			return nil, err
		}
		val, err := transformJSON(v, vt, strict)
		if err != nil {
			return nil, err
		}
		ks, err := fromGo(plainType(kt), key)
		if err != nil {
			return nil, err
		}
		vs, err := fromGo(plainType(vt), val)
		if err != nil {
			return nil, err
		}
		keys, vals = append(keys, ks), append(vals, vs)
	}
	return buildMap(kt, vt, keys, vals)
}

// keyIndex is the position of the first key named name, -1 for none.
func keyIndex(keys []string, name string) int {
	for k, s := range keys {
		if s == name {
			return k
		}
	}
	return -1
}

// notShaped is the value of a node that is not the container its type
// needs: NULL, or DuckDB's error when strict.
func notShaped(n *function.JSONNode, want string, strict bool) (any, error) {
	if !strict {
		return nil, nil
	}
	got := "a scalar"
	switch {
	case n.IsArray():
		got = "ARRAY"
	case n.IsObject():
		got = "OBJECT"
	}
	return nil, errorf("Expected %s, but got %s: %s", want, got, n.Minified())
}

// transformLeaf reads n as a scalar of type t: VARCHAR takes a string's
// text and any other value's JSON, JSON the value's JSON; other types
// cast the value (a number as a number, a DECIMAL from its text).
func transformLeaf(n *function.JSONNode, t Type, strict bool) (any, error) {
	if t.Kind == KString {
		if s, isStr := stringOf(n); isStr && !t.JSON {
			return s, nil
		}
		return n.Minified(), nil
	}
	v, vt := n.Scalar()
	if vt.Kind == KNull || t.Kind == KDecimal && vt.IsNumeric() {
		// An array or object casts from its text (and fails to); a
		// DECIMAL keeps every digit of the number.
		v, vt = n.Minified(), TString
	}
	y, err := function.CastScalar(v, vt, plainType(t), !strict)
	switch {
	case err == nil:
		return toGo(t, y), nil
	case !strict:
		return nil, nil
	case t.IsNumeric():
		return nil, errorf("Failed to cast value to numerical: %s", n.Minified())
	}
	return nil, err
}

// stringOf is a string node's value.
func stringOf(n *function.JSONNode) (string, bool) {
	v, _ := n.Scalar()
	s, ok := v.(string)
	return s, ok
}
