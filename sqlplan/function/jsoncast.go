package function

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// A cast of text to JSON checks that the text is one JSON value and keeps
// it as written (white space too), as DuckDB's does; text that is not
// JSON is DuckDB's "Malformed JSON" error (NULL for TRY_CAST).

// textToJSON reports whether a cast from from to to checks JSON text.
func textToJSON(from, to vec.Type) bool {
	return to.Kind == vec.KString && to.JSON && from.Kind == vec.KString && !from.JSON && !from.Bit
}

// checkJSONText returns the error of text that is not one JSON value.
func checkJSONText(text []byte) error {
	if len(text) == 0 {
		return errorf(`Malformed JSON at byte 0 of input: input length is 0.  Input: ""`)
	}
	var v json.RawMessage
	err := json.Unmarshal(text, &v)
	if err == nil {
		return nil
	}
	at, why := len(text), "unexpected end of data"
	var syn *json.SyntaxError
	if errors.As(err, &syn) && syn.Offset < int64(len(text)) {
		at, why = int(max(syn.Offset-1, 0)), "unexpected character"
	}
	return errorf("Malformed JSON at byte %d of input: %s.  Input: %s", at, why, fmt.Sprintf("%q", text))
}

// castTextToJSON is castCol for textToJSON: the same strings, checked.
func castTextToJSON(c *vec.Col, to vec.Type, try bool) (*vec.Col, error) {
	var bad []int
	for i := 0; i < c.Len; i++ {
		if c.IsNull(i) {
			continue
		}
		if err := checkJSONText(c.Str(i)); err != nil {
			if !try {
				return nil, err
			}
			bad = append(bad, i)
		}
	}
	out := *c
	out.T = to
	if len(bad) > 0 {
		out.Null = make([]bool, c.Len)
		for i := 0; i < c.Len; i++ {
			out.Null[i] = c.IsNull(i)
		}
		for _, i := range bad {
			out.Null[i] = true
		}
	}
	return &out, nil
}
