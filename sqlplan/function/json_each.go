package function

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The rows of DuckDB's (v1.5) table functions json_each and json_tree,
// as a list of structs that the engine's table macros of those names
// unnest (sqlplan/macros_builtin.go): __json_each(doc, path, recursive).
// json_each gives the members of the object or the elements of the array
// at path (the value itself when it is neither); json_tree gives that
// value and every value below it, parents before children. The columns
// are DuckDB's: key, value (minified JSON), type, atom (a scalar's JSON,
// NULL for null, arrays and objects), id, parent, fullkey and path. Ids number
// the whole document as DuckDB (and SQLite) do: each value, and each
// object key before its value, in document order.

// jsonEachFields are the columns of a row of json_each and json_tree.
var jsonEachFields = []vec.NamedType{
	{Name: "key", Type: tString},
	{Name: "value", Type: tJSONText},
	{Name: "type", Type: tString},
	{Name: "atom", Type: tJSONText},
	{Name: "id", Type: vec.Type{Kind: vec.KUint}},
	{Name: "parent", Type: vec.Type{Kind: vec.KUint}},
	{Name: "fullkey", Type: tString},
	{Name: "path", Type: tString},
}

var jsonEachRow = vec.Type{Kind: vec.KNested, Fields: jsonEachFields}

func init() {
	register(map[string]*Scalar{
		"__json_each": {Min: 3, Max: 3, Rule: Sig(vec.Type{Kind: vec.KNested, Elem: &jsonEachRow}, tString, tString, tBool), Row: jsonEachRows},
	})
}

// jsonEachRows is row i's list of json_each (argument 2 false) or
// json_tree (true) rows.
func jsonEachRows(a []*vec.Col, i int) (any, error) {
	path := str(a[1], i)
	if strings.HasPrefix(path, "/") {
		return nil, errorf("JSON path must start with '$' for json_each/json_tree")
	}
	root, err := parseJSONNode(a[0].Str(i))
	if err != nil {
		return nil, err
	}
	numberJSON(root, 0)
	steps, err := jsonPath(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(path, "$") {
		path = `$."` + path + `"` // a bare key, written as DuckDB writes it
	}
	at := nodeAt(root, steps)
	rows := []any{}
	if at == nil {
		return rows, nil
	}
	if a[2].B[i] {
		return appendTreeRows(rows, at, nil, path, path, nil), nil
	}
	if at.kind == 's' {
		return append(rows, jsonEachRowOf(at, nil, path, path, nil)), nil
	}
	for k, child := range at.vals {
		key, full := childKey(at, k, path)
		rows = append(rows, jsonEachRowOf(child, key, full, path, nil))
	}
	return rows, nil
}

// numberJSON gives n and the values below it their ids from next on (an
// object's key takes the id before its value's) and returns the next
// free id.
func numberJSON(n *jsonNode, next uint64) uint64 {
	n.id = next
	next++
	for _, v := range n.vals {
		if n.kind == '{' {
			next++ // the key
		}
		next = numberJSON(v, next)
	}
	return next
}

// nodeAt is the value at a path's steps, nil when there is none (a
// duplicate key finds its first member, as DuckDB does).
func nodeAt(n *jsonNode, steps []jsonStep) *jsonNode {
	for _, st := range steps {
		switch {
		case st.key != nil && (n.kind == '{' || !st.alsoIndex):
			if n.kind != '{' {
				return nil
			}
			k := indexOf(n.keys, *st.key)
			if k < 0 {
				return nil
			}
			n = n.vals[k]
		case n.kind == '[':
			k := st.index
			if st.fromEnd {
				k += len(n.vals)
			}
			if k < 0 || k >= len(n.vals) {
				return nil
			}
			n = n.vals[k]
		default:
			return nil
		}
	}
	return n
}

func indexOf(keys []string, key string) int {
	for k, s := range keys {
		if s == key {
			return k
		}
	}
	return -1
}

// childKey is the key column of child k of container n (a member's name,
// an element's index) and its fullkey below the parent's.
func childKey(n *jsonNode, k int, parent string) (key, fullkey string) {
	if n.kind == '{' {
		return n.keys[k], parent + "." + n.keys[k]
	}
	idx := strconv.Itoa(k)
	return idx, parent + "[" + idx + "]"
}

// appendTreeRows appends the rows of n and of the values below it.
func appendTreeRows(rows []any, n *jsonNode, key any, fullkey, path string, parent any) []any {
	rows = append(rows, jsonEachRowOf(n, key, fullkey, path, parent))
	for k, child := range n.vals {
		ck, cfull := childKey(n, k, fullkey)
		rows = appendTreeRows(rows, child, ck, cfull, fullkey, n.id)
	}
	return rows
}

// jsonEachRowOf is the row of value n.
func jsonEachRowOf(n *jsonNode, key any, fullkey, path string, parent any) map[string]any {
	var atom any
	if n.kind == 's' && n.text != "null" {
		atom = n.text
	}
	return map[string]any{
		"key": key, "value": string(appendJSONNode(nil, n)), "type": jsonNodeType(n), "atom": atom,
		"id": n.id, "parent": parent, "fullkey": fullkey, "path": path,
	}
}

// jsonNodeType is DuckDB's json_type of a value: a number is UBIGINT or
// BIGINT when it is an integer that fits, DOUBLE otherwise.
func jsonNodeType(n *jsonNode) string {
	switch n.kind {
	case '{':
		return "OBJECT"
	case '[':
		return "ARRAY"
	}
	switch n.text[0] {
	case '"':
		return "VARCHAR"
	case 't', 'f':
		return "BOOLEAN"
	case 'n':
		return "NULL"
	}
	if _, err := strconv.ParseUint(n.text, 10, 64); err == nil {
		return "UBIGINT"
	}
	if _, err := strconv.ParseInt(n.text, 10, 64); err == nil {
		return "BIGINT"
	}
	return "DOUBLE"
}

// appendJSONNode appends n as minified JSON, members in their order.
func appendJSONNode(dst []byte, n *jsonNode) []byte {
	if n.kind == 's' {
		return append(dst, n.text...)
	}
	dst = append(dst, n.kind)
	for k, v := range n.vals {
		if k > 0 {
			dst = append(dst, ',')
		}
		if n.kind == '{' {
			dst = append(dst, jsonString(n.keys[k])...)
			dst = append(dst, ':')
		}
		dst = appendJSONNode(dst, v)
	}
	if n.kind == '{' {
		return append(dst, '}')
	}
	return append(dst, ']')
}

// jsonString is s as a JSON string, with <, > and & as they are (Go's
// json.Marshal escapes them for HTML; DuckDB does not).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a Go string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
