package function

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Scalar functions of DuckDB's list that carquet lacked: md5_number and
// its halves, the path parsers (parse_filename, parse_dirname,
// parse_dirpath, parse_path), strip_accents, make_timestamptz and the
// two-argument age, with DuckDB's (v1.5) results.

var (
	tUint        = vec.Type{Kind: vec.KUint}
	tTimestampTZ = vec.Type{Kind: vec.KTimestamp, TZ: true}
)

func init() {
	register(map[string]*Scalar{
		"md5_number":       {Min: 1, Max: 1, Rule: Sig(TUHuge, tString), Batch: md5NumberBatch},
		"md5_number_lower": {Min: 1, Max: 1, Rule: Sig(tUint, tString), Batch: md5HalfBatch(8)},
		"md5_number_upper": {Min: 1, Max: 1, Rule: Sig(tUint, tString), Batch: md5HalfBatch(0)},
		"parse_filename":   {Min: 1, Max: 3, Rule: parseFilenameRule, Batch: parseFilenameBatch, NonStrict: true},
		"parse_dirname":    {Min: 1, Max: 2, Rule: Sig(tString, tString), Batch: pathPartBatch(topDirectory), NonStrict: true},
		"parse_dirpath":    {Min: 1, Max: 2, Rule: Sig(tString, tString), Batch: pathPartBatch(dirPath), NonStrict: true},
		"parse_path":       {Min: 1, Max: 2, Rule: Sig(vec.Type{Kind: vec.KNested, Elem: &tString}, tString), Row: parsePathRow, NonStrict: true},
		"strip_accents":    {Min: 1, Max: 1, Rule: Sig(tString, tString), Batch: stripAccentsBatch},
		"make_timestamptz": {Min: 1, Max: 7, Rule: makeTimestampTZRule, Row: makeTimestampTZRow},
		"age":              {Min: 1, Max: 2, Rule: Sig(tInterval, tTimestamp), Row: ageRow},
	})
}

// md5NumberBatch is the MD5 digest read as a little-endian 128-bit
// number, as DuckDB reads it.
func md5NumberBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: TUHuge, Len: n, Null: vec.MergeNulls(n, a...), H: make([]num.Int128, n)}
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			h := md5.Sum(a[0].Str(i))
			x := num.Int128{Hi: int64(binary.LittleEndian.Uint64(h[8:])), Lo: binary.LittleEndian.Uint64(h[:8])}
			out.H[i] = x.FlipSign()
		}
	}
	return out, nil
}

// md5HalfBatch is the 64-bit little-endian number at byte at of the MD5
// digest: md5_number_upper the first eight bytes, _lower the last.
func md5HalfBatch(at int) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tUint, Len: n, Null: vec.MergeNulls(n, a...), I: make([]int64, n)}
		for i := range n {
			if out.Null == nil || !out.Null[i] {
				h := md5.Sum(a[0].Str(i))
				out.I[i] = int64(binary.LittleEndian.Uint64(h[at:]))
			}
		}
		return out, nil
	}
}

// pathSeparators are the separators a path parser's separator argument
// names; any other name (or NULL) is the default, both slashes.
func pathSeparators(c *vec.Col, i int) string {
	if c == nil || c.IsNull(i) {
		return `/\`
	}
	switch strings.ToLower(str(c, i)) {
	case "system", "forward_slash":
		return "/"
	case "backslash":
		return `\`
	}
	return `/\`
}

// parseFilenameRule types parse_filename(path[, trim_extension][,
// separator]): the second argument is the separator when it is text.
func parseFilenameRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if len(args) == 2 && args[1].Op() == vec.KString {
		return []vec.Type{tString, tString}, tString, nil
	}
	return []vec.Type{tString, tBool, tString}, tString, nil
}

// parseFilenameBatch is the last component of a path (after its last
// separator), without its extension when asked (a NULL flag or
// separator is the default).
func parseFilenameBatch(a []*vec.Col, n int) (*vec.Col, error) {
	var trim, sep *vec.Col
	switch {
	case len(a) == 3:
		trim, sep = a[1], a[2]
	case len(a) == 2 && a[1].T.Kind == vec.KBool:
		trim = a[1]
	case len(a) == 2:
		sep = a[1]
	}
	return pathBatch(a[0], n, func(p string, i int) string {
		name := p[strings.LastIndexAny(p, pathSeparators(sep, i))+1:]
		if trim != nil && !trim.IsNull(i) && trim.B[i] {
			if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
				name = name[:dot]
			}
		}
		return name
	}), nil
}

// pathPartBatch is the kernel of parse_dirname and parse_dirpath.
func pathPartBatch(part func(p, seps string) string) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		var sep *vec.Col
		if len(a) > 1 {
			sep = a[1]
		}
		return pathBatch(a[0], n, func(p string, i int) string { return part(p, pathSeparators(sep, i)) }), nil
	}
}

// pathBatch applies f to each path that is not NULL.
func pathBatch(paths *vec.Col, n int, f func(p string, i int) string) *vec.Col {
	out := &vec.Col{T: tString, Len: n, Null: vec.MergeNulls(n, paths), Off: make([]int32, n+1)}
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			out.Data = append(out.Data, f(str(paths, i), i)...)
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out
}

// topDirectory is parse_dirname: the first component of a path with a
// separator (the separator itself for an absolute path), else empty.
func topDirectory(p, seps string) string {
	at := strings.IndexAny(p, seps)
	switch {
	case at < 0:
		return ""
	case at == 0:
		return p[:1]
	}
	return p[:at]
}

// dirPath is parse_dirpath: the path before its last separator (empty
// for a file at the root, as DuckDB's).
func dirPath(p, seps string) string {
	return p[:max(strings.LastIndexAny(p, seps), 0)]
}

// parsePathRow is parse_path: a path's components (empty ones dropped),
// with the leading separator first for an absolute path.
func parsePathRow(a []*vec.Col, i int) (any, error) {
	if a[0].IsNull(i) {
		return nil, nil
	}
	var sep *vec.Col
	if len(a) > 1 {
		sep = a[1]
	}
	seps := pathSeparators(sep, i)
	p := str(a[0], i)
	parts := []any{}
	if p != "" && strings.ContainsRune(seps, rune(p[0])) {
		parts = append(parts, p[:1])
	}
	for _, s := range strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		parts = append(parts, s)
	}
	return parts, nil
}

// makeTimestampTZRule types make_timestamptz(micros) and
// make_timestamptz(year, month, day, hour, minute, seconds[, zone]).
func makeTimestampTZRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	switch len(args) {
	case 1:
		return []vec.Type{tInt}, tTimestampTZ, nil
	case 6, 7:
		return []vec.Type{tInt, tInt, tInt, tInt, tInt, tFloat, tString}, tTimestampTZ, nil
	}
	return nil, vec.Type{}, fmt.Errorf("make_timestamptz takes 1, 6 or 7 arguments, not %d", len(args))
}

// makeTimestampTZRow builds the instant of a wall-clock time in a zone
// (the session's default, UTC, without one); fields out of range carry
// over as DuckDB's do (month 13 is January of the next year).
func makeTimestampTZRow(a []*vec.Col, i int) (any, error) {
	if len(a) == 1 {
		return a[0].I[i], nil
	}
	loc := time.UTC
	if len(a) == 7 {
		var err error
		if loc, err = ZoneNamed(str(a[6], i)); err != nil {
			return nil, err
		}
	}
	sec := a[5].F[i]
	if math.IsNaN(sec) || math.Abs(sec) > 1e12 {
		return nil, fmt.Errorf("make_timestamptz: seconds %v out of range", sec)
	}
	t := time.Date(int(a[0].I[i]), time.Month(a[1].I[i]), int(a[2].I[i]), int(a[3].I[i]), int(a[4].I[i]), 0, 0, loc)
	return t.UnixMicro() + int64(math.Round(sec*1e6)), nil
}

// ageRow is age(a, b): the time from b to a in years, months, days and
// time of day, borrowing as PostgreSQL and DuckDB do (a day borrowed
// counts the days of the earlier date's month); negative when b is later.
func ageRow(a []*vec.Col, i int) (any, error) {
	x, y := a[0].I[i], a[1].I[i]
	if InfiniteStamp(x) || InfiniteStamp(y) {
		return nil, nil
	}
	sign := int64(1)
	if x < y {
		x, y, sign = y, x, -1
	}
	tx, ty := vec.MicrosToTime(x), vec.MicrosToTime(y)
	months := int64(tx.Year()-ty.Year())*12 + int64(tx.Month()-ty.Month())
	days := int64(tx.Day() - ty.Day())
	micros := (x - TimeToDays(tx)*vec.MicrosPerDay) - (y - TimeToDays(ty)*vec.MicrosPerDay)
	if micros < 0 {
		micros += vec.MicrosPerDay
		days--
	}
	if days < 0 {
		days += int64(time.Date(ty.Year(), ty.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day())
		months--
	}
	return vec.Interval{Months: sign * months, Days: sign * days, Micros: sign * micros}, nil
}
