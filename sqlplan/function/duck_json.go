package function

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// JSON functions of DuckDB's list that carquet lacked: json_keys,
// json_pretty, json_merge_patch (RFC 7396) and json_contains, with
// DuckDB's (v1.5) results: keys and members in the order the text has
// them.

var tJSONText = vec.Type{Kind: vec.KString, JSON: true}

func init() {
	register(map[string]*Scalar{
		"json_keys":        {Min: 1, Max: 2, Rule: Sig(vec.Type{Kind: vec.KNested, Elem: &tString}, tString), Row: jsonKeysRow},
		"json_pretty":      {Min: 1, Max: 1, Rule: Sig(tString, tString), Batch: bytesMap(tString, appendJSONPretty)},
		"json_merge_patch": {Min: 2, Max: -1, Rule: Sig(tJSONText, tString), Row: jsonMergePatchRow, NonStrict: true},
		"json_contains":    {Min: 2, Max: 2, Rule: Sig(tBool, tString), Batch: jsonContainsBatch},
	})
}

// jsonKeysRow is json_keys(doc[, path]): an object's keys in order (an
// empty list for anything else).
func jsonKeysRow(a []*vec.Col, i int) (any, error) {
	doc, ok, err := jsonDocArg(a, i)
	if err != nil || !ok {
		return nil, err
	}
	members, isObject, err := jsonMembers(doc)
	if err != nil {
		return nil, err
	}
	keys := make([]any, 0, len(members))
	if isObject {
		for _, m := range members {
			keys = append(keys, m.key)
		}
	}
	return keys, nil
}

// jsonDocArg is row i's document (argument 0) or, with a path (argument
// 1), the value at that path; ok is false when the path finds nothing.
func jsonDocArg(a []*vec.Col, i int) (doc json.RawMessage, ok bool, err error) {
	doc = a[0].Str(i)
	if len(a) > 1 {
		return jsonAt(doc, str(a[1], i))
	}
	return doc, true, nil
}

// appendJSONPretty appends a document indented by four spaces a level.
func appendJSONPretty(dst, doc []byte) ([]byte, error) {
	b := bytes.NewBuffer(dst)
	if err := json.Indent(b, doc, "", "    "); err != nil {
		return nil, fmt.Errorf("Malformed JSON: %v", err)
	}
	return b.Bytes(), nil
}

// jsonMergePatchRow applies each patch in turn to the first document (a
// NULL document is null); a NULL patch makes the result NULL.
func jsonMergePatchRow(a []*vec.Col, i int) (any, error) {
	doc := json.RawMessage("null")
	if !a[0].IsNull(i) {
		doc = a[0].Str(i)
	}
	for _, c := range a[1:] {
		if c.IsNull(i) {
			return nil, nil
		}
		var err error
		if doc, err = mergePatch(doc, c.Str(i)); err != nil {
			return nil, err
		}
	}
	return jsonText(doc), nil
}

// jsonMember is one key and value of an object, in the text's order.
type jsonMember struct {
	key string
	val json.RawMessage
}

// jsonMembers reads an object's members in order; isObject is false (and
// no error) for a valid document of another kind.
func jsonMembers(doc json.RawMessage) (members []jsonMember, isObject bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	tok, err := dec.Token()
	if err != nil {
		return nil, false, fmt.Errorf("Malformed JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		if !json.Valid(doc) {
			return nil, false, fmt.Errorf("Malformed JSON")
		}
		return nil, false, nil
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, false, fmt.Errorf("Malformed JSON: %v", err)
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, false, fmt.Errorf("Malformed JSON: %v", err)
		}
		members = append(members, jsonMember{key: kt.(string), val: val})
	}
	return members, true, nil
}

// mergePatch is RFC 7396's MergePatch(target, patch): a patch that is not
// an object replaces the target; an object's null members remove keys,
// the others merge into the target's (which stay in their places, new
// keys after them).
func mergePatch(target, patch json.RawMessage) (json.RawMessage, error) {
	pm, patchIsObject, err := jsonMembers(patch)
	if err != nil {
		return nil, err
	}
	if !patchIsObject {
		return patch, nil
	}
	tm, targetIsObject, err := jsonMembers(target)
	if err != nil {
		return nil, err
	}
	if !targetIsObject {
		tm = nil
	}
	for _, m := range pm {
		at := -1
		for k := range tm {
			if tm[k].key == m.key {
				at = k
				break
			}
		}
		switch {
		case string(bytes.TrimSpace(m.val)) == "null":
			if at >= 0 {
				tm = append(tm[:at], tm[at+1:]...)
			}
		case at >= 0:
			if tm[at].val, err = mergePatch(tm[at].val, m.val); err != nil {
				return nil, err
			}
		default:
			v, err := mergePatch(json.RawMessage("null"), m.val)
			if err != nil {
				return nil, err
			}
			tm = append(tm, jsonMember{key: m.key, val: v})
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for k, m := range tm {
		if k > 0 {
			b.WriteByte(',')
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.key); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// jsonNode is a parsed JSON value: a scalar's text (a number as written,
// a string quoted), or an object's members or an array's elements.
type jsonNode struct {
	kind byte // '{', '[', or 's' for a scalar
	text string
	keys []string // an object's, in order
	vals []*jsonNode
	id   uint64 // json_each's and json_tree's number of the value (numberJSON)
}

// parseJSONNode parses one JSON document (jsonparse.go).
func parseJSONNode(doc []byte) (*jsonNode, error) {
	p := &jsonParser{doc: doc}
	n, err := p.value()
	if err == nil {
		if len(bytes.TrimSpace(doc[p.pos:])) > 0 {
			err = fmt.Errorf("unexpected content after the document at byte %d", p.pos)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("Malformed JSON: %v", err)
	}
	return n, nil
}

// jsonContainsBatch is json_contains(haystack, needle).
func jsonContainsBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tBool, Len: n, Null: vec.MergeNulls(n, a...), B: make([]bool, n)}
	for i := range n {
		if out.Null != nil && out.Null[i] {
			continue
		}
		h, err := parseJSONNode(a[0].Str(i))
		if err != nil {
			return nil, err
		}
		needle, err := parseJSONNode(a[1].Str(i))
		if err != nil {
			return nil, err
		}
		out.B[i] = jsonContains(h, needle)
	}
	return out, nil
}

// jsonContains reports whether needle matches h or a value anywhere
// within it, as DuckDB's json_contains searches.
func jsonContains(h, needle *jsonNode) bool {
	if jsonMatches(h, needle) {
		return true
	}
	for _, v := range h.vals {
		if jsonContains(v, needle) {
			return true
		}
	}
	return false
}

// jsonMatches reports whether h has needle's shape: equal scalars (as
// written: 1 is not 1.0), an object with each of needle's keys (its first
// member of the name) matching, an array with an element matching each of
// needle's.
func jsonMatches(h, needle *jsonNode) bool {
	if h.kind != needle.kind {
		return false
	}
	switch h.kind {
	case 's':
		return h.text == needle.text
	case '{':
		for k, key := range needle.keys {
			at := slices.Index(h.keys, key)
			if at < 0 || !jsonMatches(h.vals[at], needle.vals[k]) {
				return false
			}
		}
		return true
	}
	for _, want := range needle.vals {
		if !slices.ContainsFunc(h.vals, func(v *jsonNode) bool { return jsonMatches(v, want) }) {
			return false
		}
	}
	return true
}
