package function

// What the JSON file reader (sqlplan/textfile) takes from this
// package's JSON functions: the type names json_structure gives values
// and their meeting, and strptime.

// JSONScalarType is json_type's name of a scalar: NULL, BOOLEAN,
// VARCHAR, UBIGINT (a non-negative integer), BIGINT or DOUBLE.
func JSONScalarType(n *JSONNode) string { return jsonNodeType(n) }

// MeetJSONTypes is the type that values of scalar types a and b share, as
// json_structure meets them: JSON where they disagree.
func MeetJSONTypes(a, b string) string { return meetTypeNames(a, b) }

// Strptime parses s with a strptime format into microseconds since
// 1970-01-01 UTC (the file readers' dateformat and timestampformat).
func Strptime(s, format string) (int64, error) {
	v, err := strptime(s, format)
	if err != nil {
		return 0, err
	}
	return v.(int64), nil
}

// Text is a scalar's JSON text (a string's with its quotes), "" for an
// array or object.
func (n *jsonNode) Text() string {
	if n.kind != 's' {
		return ""
	}
	return n.text
}

// JSONQuote is s as a JSON string, as DuckDB writes one (<, > and & as
// they are).
func JSONQuote(s string) string { return jsonString(s) }
