package function

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// JSON in VARCHAR values, as DuckDB's json extension reads it:
// json_extract(j, path) (the value at path, as minified JSON text; also j
// -> path), json_extract_string(j, path) (a string value unquoted, others
// as JSON text; also j ->> path), json_array_length, json_valid, json_type
// and json_keys. A path is JSONPath ($.a.b[0], $['a'], [#-1] from the end),
// a JSON pointer (/a/0), or a bare key; a path that is not there gives
// NULL, as does malformed JSON in json_extract (json_valid tells).

// jsonAt returns the raw JSON of the value of doc at path, false when the
// path is not there or doc is not JSON.
func jsonAt(doc []byte, path string) (json.RawMessage, bool, error) {
	steps, err := jsonPath(path)
	if err != nil {
		return nil, false, err
	}
	cur := json.RawMessage(bytes.TrimSpace(doc))
	if !json.Valid(cur) {
		return nil, false, nil
	}
	for _, st := range steps {
		isObject := len(cur) > 0 && cur[0] == '{'
		switch {
		case st.key != nil && (isObject || !st.alsoIndex):
			var obj map[string]json.RawMessage
			if json.Unmarshal(cur, &obj) != nil {
				return nil, false, nil
			}
			v, ok := obj[*st.key]
			if !ok {
				return nil, false, nil
			}
			cur = v
		default:
			var arr []json.RawMessage
			if json.Unmarshal(cur, &arr) != nil {
				return nil, false, nil
			}
			i := st.index
			if st.fromEnd {
				i += len(arr)
			}
			if i < 0 || i >= len(arr) {
				return nil, false, nil
			}
			cur = arr[i]
		}
	}
	return cur, true, nil
}

// jsonStep is one step of a path: an object key, or an array index
// (fromEnd: counted from the end, [#-n]).
type jsonStep struct {
	key       *string
	index     int
	fromEnd   bool
	alsoIndex bool // a JSON pointer's number: a key of an object, an index of an array
}

// jsonPath parses a JSONPath, a JSON pointer or a bare key.
func jsonPath(p string) ([]jsonStep, error) {
	key := func(k string) jsonStep { return jsonStep{key: &k} }
	switch {
	case strings.HasPrefix(p, "/"):
		var out []jsonStep
		for _, part := range strings.Split(p[1:], "/") {
			part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
			if n, err := strconv.Atoi(part); err == nil && n >= 0 {
				// A number is an index in an array, a key in an object:
				// jsonAt tries the key first.
				out = append(out, jsonStep{key: &part, index: n, alsoIndex: true})
				continue
			}
			out = append(out, key(part))
		}
		return out, nil
	case !strings.HasPrefix(p, "$"):
		if n, err := strconv.Atoi(p); err == nil && n >= 0 { // j -> 0: an index
			return []jsonStep{{key: &p, index: n, alsoIndex: true}}, nil
		}
		return []jsonStep{key(p)}, nil
	}
	var out []jsonStep
	for x := 1; x < len(p); {
		switch p[x] {
		case '.':
			end := x + 1
			if end < len(p) && p[end] == '"' {
				close := strings.IndexByte(p[end+1:], '"')
				if close < 0 {
					return nil, errorf("bad JSON path %q", p)
				}
				out = append(out, key(p[end+1:end+1+close]))
				x = end + close + 2
				continue
			}
			for end < len(p) && p[end] != '.' && p[end] != '[' {
				end++
			}
			if end == x+1 {
				return nil, errorf("bad JSON path %q", p)
			}
			out = append(out, key(p[x+1:end]))
			x = end
		case '[':
			close := strings.IndexByte(p[x:], ']')
			if close < 0 {
				return nil, errorf("bad JSON path %q", p)
			}
			in := strings.TrimSpace(p[x+1 : x+close])
			x += close + 1
			if len(in) >= 2 && (in[0] == '\'' || in[0] == '"') && in[len(in)-1] == in[0] {
				out = append(out, key(in[1:len(in)-1]))
				continue
			}
			st := jsonStep{}
			if strings.HasPrefix(in, "#") {
				st.fromEnd = true
				in = strings.TrimSpace(in[1:])
				if in == "" {
					in = "0"
				}
			}
			n, err := strconv.Atoi(strings.ReplaceAll(in, " ", ""))
			if err != nil || !st.fromEnd && n < 0 {
				return nil, errorf("bad JSON path %q", p)
			}
			st.index = n
			out = append(out, st)
		default:
			return nil, errorf("bad JSON path %q", p)
		}
	}
	return out, nil
}

// jsonText is raw JSON minified, keys in their order.
func jsonText(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func init() { register(jsonFuncs) }

var jsonFuncs = map[string]*Scalar{
	"json_extract": {Min: 2, Max: 2, Rule: Sig(tJSONText, tString), Row: func(a []*vec.Col, i int) (any, error) {
		raw, ok, err := jsonAt(a[0].Str(i), str(a[1], i))
		if err != nil || !ok {
			return nil, err
		}
		return jsonText(raw), nil
	}},
	"json_extract_string": {Min: 2, Max: 2, Rule: Sig(tString, tString), Row: func(a []*vec.Col, i int) (any, error) {
		raw, ok, err := jsonAt(a[0].Str(i), str(a[1], i))
		if err != nil || !ok {
			return nil, err
		}
		if string(bytes.TrimSpace(raw)) == "null" {
			return nil, nil
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, nil
		}
		return jsonText(raw), nil
	}},
	"json_valid": {Min: 1, Max: 1, Rule: Sig(tBool, tString), Row: func(a []*vec.Col, i int) (any, error) {
		return json.Valid(a[0].Str(i)), nil
	}},
	"json_array_length": {Min: 1, Max: 2, Rule: Sig(tInt, tString), Row: func(a []*vec.Col, i int) (any, error) {
		doc, ok, err := jsonDocArg(a, i)
		if err != nil || !ok {
			return nil, err
		}
		var arr []json.RawMessage
		if json.Unmarshal(doc, &arr) != nil {
			return int64(0), nil
		}
		return int64(len(arr)), nil
	}},
	"json_type": {Min: 1, Max: 2, Rule: Sig(tString, tString), Row: func(a []*vec.Col, i int) (any, error) {
		doc := json.RawMessage(bytes.TrimSpace(a[0].Str(i)))
		if len(a) > 1 {
			raw, ok, err := jsonAt(doc, str(a[1], i))
			if err != nil || !ok {
				return nil, err
			}
			doc = bytes.TrimSpace(raw)
		}
		if !json.Valid(doc) || len(doc) == 0 {
			return nil, errorf("malformed JSON")
		}
		switch doc[0] {
		case '{':
			return "OBJECT", nil
		case '[':
			return "ARRAY", nil
		case '"':
			return "VARCHAR", nil
		case 't', 'f':
			return "BOOLEAN", nil
		case 'n':
			return "NULL", nil
		}
		if bytes.ContainsAny(doc, ".eE") {
			return "DOUBLE", nil
		}
		if doc[0] == '-' {
			return "BIGINT", nil
		}
		return "UBIGINT", nil
	}},
}
