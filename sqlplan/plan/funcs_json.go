package plan

import (
	"strings"
)

// json_object(k, v, ...) and json_array(v, ...): JSON built from values of
// any type, each written as to_json writes it (a NULL value is null), as
// DuckDB (v1.5) builds them. The keys must be VARCHAR, as DuckDB asks.

func init() {
	addFuncs(map[string]*fn{
		"json_object": {Min: 0, Max: -1},
		"json_array":  {Min: 0, Max: -1},
	})
}

var tJSON = Type{Kind: KString, JSON: true}

// bindJSONBuild binds json_object and json_array; ok is false for other
// names.
func (p *Planner) bindJSONBuild(name string, args []Expr) (Expr, bool, error) {
	if name != "json_object" && name != "json_array" {
		return nil, false, nil
	}
	object := name == "json_object"
	if object && len(args)%2 != 0 {
		return nil, true, errorf("json_object() requires an even number of arguments")
	}
	parts := make([]Expr, len(args))
	texts := make([]string, len(args))
	for k, a := range args {
		texts[k] = a.String()
		if object && k%2 == 0 && a.Type().Kind != KString {
			return nil, true, errorf("json_object() keys must be VARCHAR, add an explicit cast to argument %q", a.String())
		}
		j, err := p.bindFunc("to_json", []Expr{a})
		if err != nil {
			return nil, true, err
		}
		parts[k] = j
	}
	open, close := byte('['), byte(']')
	if object {
		open, close = '{', '}'
	}
	e := &funcExpr{name: name, args: parts, t: tJSON, strict: false, vec: func(a []*Col, n int) (*Col, error) {
		return buildJSON(a, n, open, close, object)
	}}
	e.setText(name + "(" + strings.Join(texts, ", ") + ")")
	return e, true, nil
}

// buildJSON writes each row's values (JSON texts) between open and close,
// as key: value pairs for an object.
func buildJSON(a []*Col, n int, open, close byte, object bool) (*Col, error) {
	out := &Col{T: tJSON, Len: n, Off: make([]int32, n+1)}
	for i := range n {
		out.Data = append(out.Data, open)
		for k, c := range a {
			switch {
			case k > 0 && (!object || k%2 == 0):
				out.Data = append(out.Data, ',')
			case k > 0:
				out.Data = append(out.Data, ':')
			}
			if c.IsNull(i) {
				if object && k%2 == 0 {
					return nil, errorf("json_object() keys must not be NULL")
				}
				out.Data = append(out.Data, "null"...)
				continue
			}
			out.Data = append(out.Data, c.Str(i)...)
		}
		out.Data = append(out.Data, close)
		out.Off[i+1] = int32(len(out.Data))
	}
	return out, nil
}
