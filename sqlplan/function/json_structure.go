package function

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// json_structure(doc): the shape of a document as DuckDB (v1.5) writes
// it, a JSON text of type names ({"a":"UBIGINT","b":["VARCHAR"]}). The
// values of an array meet in one shape: null gives way to anything,
// UBIGINT and BIGINT meet in HUGEINT, integers and DOUBLE in DOUBLE,
// arrays in the meeting of their elements, objects in the union of their
// keys (in the order they first appear); anything else meets in "JSON".
// An empty array is ["NULL"], an object without keys "JSON".
//
// This file also lets the binder read parsed documents (JSONNode), for
// json_transform.

func init() {
	register(map[string]*Scalar{
		"json_structure": {Min: 1, Max: 1, Rule: Sig(tJSONText, tString), Row: jsonStructureRow},
	})
}

func jsonStructureRow(a []*vec.Col, i int) (any, error) {
	n, err := parseJSONNode(a[0].Str(i))
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	shapeOf(n).write(&b)
	return b.String(), nil
}

// jsonShape is the shape of a value: a scalar type's name (NULL for
// null, JSON where values disagree), or an array's element shape, or an
// object's keys and their shapes.
type jsonShape struct {
	kind byte // 's' for a named type, '[' or '{'
	name string
	elem *jsonShape
	keys []string
	vals []*jsonShape
}

var nullShape = &jsonShape{kind: 's', name: "NULL"}

// shapeOf is the shape of n.
func shapeOf(n *jsonNode) *jsonShape {
	switch n.kind {
	case '[':
		elem := nullShape
		for _, v := range n.vals {
			elem = meetShapes(elem, shapeOf(v))
		}
		return &jsonShape{kind: '[', elem: elem}
	case '{':
		s := &jsonShape{kind: '{'}
		for k, v := range n.vals {
			s.addKey(n.keys[k], shapeOf(v))
		}
		return s
	}
	return &jsonShape{kind: 's', name: jsonNodeType(n)}
}

// addKey merges key's shape v into object shape s.
func (s *jsonShape) addKey(key string, v *jsonShape) {
	for k, have := range s.keys {
		if have == key {
			s.vals[k] = meetShapes(s.vals[k], v)
			return
		}
	}
	s.keys, s.vals = append(s.keys, key), append(s.vals, v)
}

// meetShapes is the shape that values of shapes a and b share.
func meetShapes(a, b *jsonShape) *jsonShape {
	switch {
	case a.kind == 's' && a.name == "NULL":
		return b
	case b.kind == 's' && b.name == "NULL":
		return a
	case a.kind != b.kind:
		return &jsonShape{kind: 's', name: "JSON"}
	case a.kind == '[':
		return &jsonShape{kind: '[', elem: meetShapes(a.elem, b.elem)}
	case a.kind == '{':
		s := &jsonShape{kind: '{'}
		for k, v := range a.vals {
			s.addKey(a.keys[k], v)
		}
		for k, v := range b.vals {
			s.addKey(b.keys[k], v)
		}
		return s
	}
	return &jsonShape{kind: 's', name: meetTypeNames(a.name, b.name)}
}

// numberRank orders the number types of json_structure (0: not a number).
var numberRank = map[string]int{"UBIGINT": 1, "BIGINT": 1, "HUGEINT": 2, "DOUBLE": 3}

// meetTypeNames is the type two scalar types of JSON values meet in.
func meetTypeNames(a, b string) string {
	rank := numberRank
	switch {
	case a == b:
		return a
	case rank[a] == 0 || rank[b] == 0:
		return "JSON"
	case rank[a] == 1 && rank[b] == 1:
		return "HUGEINT"
	case rank[a] > rank[b]:
		return a
	}
	return b
}

// write writes the shape as json_structure's text.
func (s *jsonShape) write(b *strings.Builder) {
	switch {
	case s.kind == '[':
		b.WriteByte('[')
		s.elem.write(b)
		b.WriteByte(']')
	case s.kind == '{' && len(s.keys) > 0:
		b.WriteByte('{')
		for k, v := range s.vals {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(s.keys[k]))
			b.WriteByte(':')
			v.write(b)
		}
		b.WriteByte('}')
	case s.kind == '{':
		b.WriteString(`"JSON"`)
	default:
		b.WriteString(jsonString(s.name))
	}
}

// JSONNode is a parsed JSON value, its object members in the text's
// order (duplicates kept).
type JSONNode = jsonNode

// ParseJSON parses one JSON document; the error is DuckDB's "Malformed
// JSON".
func ParseJSON(doc []byte) (*JSONNode, error) { return parseJSONNode(doc) }

// IsObject and IsArray tell a container from a scalar.
func (n *jsonNode) IsObject() bool { return n.kind == '{' }
func (n *jsonNode) IsArray() bool  { return n.kind == '[' }

// IsNull reports whether n is JSON's null.
func (n *jsonNode) IsNull() bool { return n.kind == 's' && n.text == "null" }

// Keys are an object's keys and Values its values or an array's elements.
func (n *jsonNode) Keys() []string      { return n.keys }
func (n *jsonNode) Values() []*JSONNode { return n.vals }

// Minified is n as minified JSON text.
func (n *jsonNode) Minified() string { return string(appendJSONNode(nil, n)) }

// Scalar is a scalar's value as the engine's scalar of its JSON type:
// a string, a bool, an int64 (an integer that fits) or a float64, with
// its type; nil for null, arrays and objects.
func (n *jsonNode) Scalar() (any, vec.Type) {
	if n.kind != 's' {
		return nil, vec.Type{Kind: vec.KNull}
	}
	switch t := jsonNodeType(n); t {
	case "NULL":
		return nil, vec.Type{Kind: vec.KNull}
	case "VARCHAR":
		var s string
		_ = json.Unmarshal([]byte(n.text), &s) // the parser wrote it
		return s, tString
	case "BOOLEAN":
		return n.text == "true", tBool
	case "UBIGINT", "BIGINT":
		if v, err := strconv.ParseInt(n.text, 10, 64); err == nil {
			return v, tInt
		}
	}
	f, _ := strconv.ParseFloat(n.text, 64) // past DOUBLE's range: ±Inf
	return f, tFloat
}
