package function

import "testing"

// FuzzJSONPath: any document and path give a value, nothing, or an error;
// never a panic.
func FuzzJSONPath(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a": {"b": [1, 2, {"c": "x"}]}}`, "$.a.b[2].c"}, {`[1,2,3]`, "$[#-1]"}, {`{"a": [1]}`, "/a/0"},
		{`{"x y": 1}`, `$."x y"`}, {`{"a": 1}`, "$['a']"}, {`[`, "$"}, {`{}`, "$.["}, {`[1]`, "$[#]"}, {`{"0": 5}`, "0"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, doc, path string) {
		raw, ok, err := jsonAt([]byte(doc), path)
		if ok && err == nil && len(raw) > 0 {
			_ = jsonText(raw)
		}
	})
}
