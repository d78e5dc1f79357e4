package textfile

import (
	"math"
	"strconv"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The types read_json detects from a sample of a file's values, as DuckDB
// (v1.5) detects them. Scalars meet as json_structure meets them
// (function.MeetJSONTypes: integers and DOUBLE in DOUBLE, a non-negative
// and a negative integer in HUGEINT, anything else that disagrees in
// JSON); a column of only non-negative integers is BIGINT unless one is
// past BIGINT's range (then HUGEINT). A string column is DATE or
// TIMESTAMP when every string parses with one of DuckDB's candidate
// formats (or the dateformat/timestampformat given), TIME or UUID when
// every string is one, else VARCHAR. Objects are STRUCTs of the union of
// their keys in the order they first appear, or MAP(VARCHAR, T) when they
// have more than 200 keys or their keys appear in less than a tenth of
// them (DuckDB's map_inference_threshold and field_appearance_threshold);
// an object without keys is MAP(VARCHAR, JSON). Arrays are lists of the
// meeting of their elements; an empty one JSON[]. Only NULLs: JSON.

// The thresholds of DuckDB's map inference.
const (
	jsonMapKeys         = 200
	jsonFieldAppearance = 0.1
)

// DuckDB's candidate formats, in the order it tries them: the first that
// parses every value of a column is the column's.
var (
	jsonDateFormats  = []string{"%y-%m-%d", "%Y-%m-%d", "%d-%m-%y", "%d-%m-%Y", "%m-%d-%y", "%m-%d-%Y"}
	jsonStampFormats = []string{"%Y-%m-%dT%H:%M:%S.%fZ", "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S", "%y-%m-%d %H:%M:%S",
		"%Y-%m-%d %H:%M:%S", "%d-%m-%y %H:%M:%S", "%d-%m-%Y %H:%M:%S", "%m-%d-%y %I:%M:%S %p", "%m-%d-%Y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S.%f"}
)

// jsonShape gathers the values seen at one place of the documents.
type jsonShape struct {
	kind byte   // 0: only nulls so far; 's' a scalar; '[' an array; '{' an object; 'j' values that disagree
	name string // a scalar's type name (function.JSONScalarType)
	over bool   // an UBIGINT past BIGINT's range was seen
	strs *stringCandidates
	elem *jsonShape // an array's elements
	// An object's keys in the order they first appear, their values'
	// shapes, how many objects had each, and how many objects there were.
	keys    []string
	vals    []*jsonShape
	seen    []int
	objects int
}

// stringCandidates are the types every string seen so far is a value of.
type stringCandidates struct {
	dates, stamps []string // formats
	time, uuid    bool
}

// jsonInferer holds the detection's options.
type jsonInferer struct {
	dates, stamps []string
}

func newJSONInferer(dateFormat, stampFormat string) *jsonInferer {
	in := &jsonInferer{dates: jsonDateFormats, stamps: jsonStampFormats}
	if dateFormat != "" {
		in.dates = []string{dateFormat}
	}
	if stampFormat != "" {
		in.stamps = []string{stampFormat}
	}
	return in
}

// add merges value n into s.
func (in *jsonInferer) add(s *jsonShape, n *function.JSONNode) {
	if n.IsNull() || s.kind == 'j' {
		return
	}
	kind := byte('s')
	switch {
	case n.IsArray():
		kind = '['
	case n.IsObject():
		kind = '{'
	}
	if s.kind != 0 && s.kind != kind {
		*s = jsonShape{kind: 'j'}
		return
	}
	s.kind = kind
	switch kind {
	case '[':
		if s.elem == nil {
			s.elem = &jsonShape{}
		}
		for _, v := range n.Values() {
			in.add(s.elem, v)
		}
	case '{':
		s.objects++
		for k, v := range n.Values() {
			in.add(s.field(n.Keys()[k]), v)
		}
	default:
		in.addScalar(s, n)
	}
}

// field is the shape of key, counting one more object that has it (a
// key given twice in one object counts twice; that is rare enough).
func (s *jsonShape) field(key string) *jsonShape {
	k := s.fieldAt(key)
	s.seen[k]++
	return s.vals[k]
}

// fieldAt is the index of key's shape, added (seen by no object) when
// it is new.
func (s *jsonShape) fieldAt(key string) int {
	for k, have := range s.keys {
		if have == key {
			return k
		}
	}
	s.keys, s.vals, s.seen = append(s.keys, key), append(s.vals, &jsonShape{}), append(s.seen, 0)
	return len(s.keys) - 1
}

// addScalar merges scalar n into s.
func (in *jsonInferer) addScalar(s *jsonShape, n *function.JSONNode) {
	name := function.JSONScalarType(n)
	if name == "UBIGINT" {
		if text := n.Minified(); len(text) >= 19 {
			if u, err := strconv.ParseUint(text, 10, 64); err == nil && u > math.MaxInt64 {
				s.over = true
			}
		}
	}
	if s.name == "" {
		s.name = name
	} else {
		s.name = function.MeetJSONTypes(s.name, name)
	}
	if s.name == "JSON" {
		*s = jsonShape{kind: 'j'}
		return
	}
	if name != "VARCHAR" {
		return
	}
	v, _ := n.Scalar()
	str, _ := v.(string)
	if s.strs == nil {
		s.strs = &stringCandidates{dates: in.dates, stamps: in.stamps, time: true, uuid: true}
	}
	c := s.strs
	c.dates = keepFormats(c.dates, str)
	c.stamps = keepFormats(c.stamps, str)
	c.time = c.time && isTimeText(str)
	c.uuid = c.uuid && isUUIDText(str)
}

// keepFormats keeps the formats that parse s (a new slice when one goes,
// as the candidates start out shared).
func keepFormats(formats []string, s string) []string {
	for k, f := range formats {
		if _, err := function.Strptime(s, f); err != nil {
			out := append([]string(nil), formats[:k]...)
			for _, g := range formats[k+1:] {
				if _, err := function.Strptime(s, g); err == nil {
					out = append(out, g)
				}
			}
			return out
		}
	}
	return formats
}

// isTimeText reports whether s is a time of day, H:MM:SS[.f].
func isTimeText(s string) bool {
	digits := func(k, n int) bool {
		if k+n > len(s) {
			return false
		}
		for _, c := range []byte(s[k : k+n]) {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	h := 2
	if len(s) > 1 && s[1] == ':' {
		h = 1
	}
	if !digits(0, h) || len(s) < h+6 || s[h] != ':' || !digits(h+1, 2) || s[h+3] != ':' || !digits(h+4, 2) {
		return false
	}
	rest := s[h+6:]
	if rest == "" {
		return true
	}
	return len(rest) > 1 && rest[0] == '.' && digits(h+7, len(rest)-1)
}

// isUUIDText reports whether s is a UUID's 8-4-4-4-12 hex text.
func isUUIDText(s string) bool {
	if len(s) != 36 {
		return false
	}
	for k := range len(s) {
		c := s[k]
		switch {
		case k == 8 || k == 13 || k == 18 || k == 23:
			if c != '-' {
				return false
			}
		case !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
			return false
		}
	}
	return true
}

// jsonColumnType is the type of the values of shape s at depth (1 for a
// column) under the maximum depth (-1: none), and the format its strings
// are read with ("" but for a detected DATE or TIMESTAMP).
func jsonColumnType(s *jsonShape, depth, maxDepth int) (vec.Type, string) {
	if maxDepth >= 0 && depth >= maxDepth && depth > 0 {
		return tJSON, ""
	}
	switch s.kind {
	case 0, 'j':
		return tJSON, ""
	case '[':
		et, _ := jsonColumnType(s.elem, depth+1, maxDepth)
		return vec.Type{Kind: vec.KNested, Elem: &et}, ""
	case '{':
		if s.isMap() {
			vt, _ := jsonColumnType(s.mapValues(), depth+1, maxDepth)
			return vec.MapType(tString, vt), ""
		}
		fields := make([]vec.NamedType, len(s.keys))
		for k, v := range s.vals {
			ft, _ := jsonColumnType(v, depth+1, maxDepth)
			fields[k] = vec.NamedType{Name: s.keys[k], Type: ft}
		}
		return vec.Type{Kind: vec.KNested, Fields: fields}, ""
	}
	switch s.name {
	case "BOOLEAN":
		return tBool, ""
	case "UBIGINT":
		if s.over {
			return tHugeint, ""
		}
		return tBigint, ""
	case "BIGINT":
		return tBigint, ""
	case "HUGEINT":
		return tHugeint, ""
	case "DOUBLE":
		return tFloat, ""
	}
	c := s.strs
	switch {
	case c == nil:
		return tString, ""
	case len(c.dates) > 0:
		return tDate, c.dates[0]
	case len(c.stamps) > 0:
		return tTimestamp, c.stamps[0]
	case c.time:
		return tTime, ""
	case c.uuid:
		return tUUID, ""
	}
	return tString, ""
}

// isMap reports whether an object shape is read as a MAP.
func (s *jsonShape) isMap() bool {
	if len(s.keys) == 0 || len(s.keys) > jsonMapKeys {
		return true
	}
	total := 0
	for _, n := range s.seen {
		total += n
	}
	return float64(total)/float64(len(s.keys)*s.objects) < jsonFieldAppearance
}

// mapValues is the shape all of an object shape's values meet in.
func (s *jsonShape) mapValues() *jsonShape {
	out := &jsonShape{}
	for _, v := range s.vals {
		meetShape(out, v)
	}
	return out
}

// meetShape merges shape b into a.
func meetShape(a, b *jsonShape) {
	switch {
	case b.kind == 0 || a.kind == 'j':
		return
	case a.kind == 0:
		*a = *b
		return
	case a.kind != b.kind || b.kind == 'j':
		*a = jsonShape{kind: 'j'}
		return
	}
	switch a.kind {
	case '[':
		elem := &jsonShape{}
		meetShape(elem, a.elem)
		meetShape(elem, b.elem)
		a.elem = elem
	case '{':
		m := &jsonShape{kind: '{', objects: a.objects + b.objects}
		for _, src := range []*jsonShape{a, b} {
			for k, key := range src.keys {
				at := m.fieldAt(key)
				m.seen[at] += src.seen[k]
				meetShape(m.vals[at], src.vals[k])
			}
		}
		*a = *m
	default:
		name := function.MeetJSONTypes(a.name, b.name)
		if name == "JSON" {
			*a = jsonShape{kind: 'j'}
			return
		}
		strs := a.strs
		if b.strs != nil && strs != nil {
			strs = &stringCandidates{dates: intersect(strs.dates, b.strs.dates), stamps: intersect(strs.stamps, b.strs.stamps), time: strs.time && b.strs.time, uuid: strs.uuid && b.strs.uuid}
		} else if strs == nil {
			strs = b.strs
		}
		*a = jsonShape{kind: 's', name: name, over: a.over || b.over, strs: strs}
	}
}

// intersect keeps the formats of a that b has too.
func intersect(a, b []string) []string {
	var out []string
	for _, f := range a {
		for _, g := range b {
			if f == g {
				out = append(out, f)
				break
			}
		}
	}
	return out
}
