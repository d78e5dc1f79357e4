package function

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Scalar functions of text, numbers, hashes and regular expressions
// (moved from the binder's funcs.go).

func init() { register(scalarFuncs) }

var scalarFuncs = map[string]*Scalar{
	"length": {Min: 1, Max: 1, Rule: Sig(tInt, tString), Row: func(a []*vec.Col, i int) (any, error) {
		return int64(utf8.RuneCount(a[0].Str(i))), nil
	}},
	"reverse": {Min: 1, Max: 1, Rule: Sig(tString, tString), Row: func(a []*vec.Col, i int) (any, error) {
		r := []rune(str(a[0], i))
		for x, y := 0, len(r)-1; x < y; x, y = x+1, y-1 {
			r[x], r[y] = r[y], r[x]
		}
		return string(r), nil
	}},
	"left": {Min: 2, Max: 2, Rule: Sig(tString, tString, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		r := []rune(str(a[0], i))
		n := a[1].I[i]
		if n < 0 {
			n = max(0, int64(len(r))+n)
		}
		return string(r[:min(n, int64(len(r)))]), nil
	}},
	"right": {Min: 2, Max: 2, Rule: Sig(tString, tString, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		r := []rune(str(a[0], i))
		n := a[1].I[i]
		if n < 0 {
			n = max(0, int64(len(r))+n)
		}
		n = min(n, int64(len(r)))
		return string(r[int64(len(r))-n:]), nil
	}},
	"trim":  {Min: 1, Max: 2, Rule: Sig(tString, tString), Row: trimFn(strings.Trim, strings.TrimSpace)},
	"ltrim": {Min: 1, Max: 2, Rule: Sig(tString, tString), Row: trimFn(strings.TrimLeft, func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) })},
	"rtrim": {Min: 1, Max: 2, Rule: Sig(tString, tString), Row: trimFn(strings.TrimRight, func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) })},
	"replace": {Min: 3, Max: 3, Rule: Sig(tString, tString), Row: func(a []*vec.Col, i int) (any, error) {
		return strings.ReplaceAll(str(a[0], i), str(a[1], i), str(a[2], i)), nil
	}},
	"starts_with": {Min: 2, Max: 2, Rule: Sig(tBool, tString), Row: func(a []*vec.Col, i int) (any, error) {
		return bytes.HasPrefix(a[0].Str(i), a[1].Str(i)), nil
	}},
	"ends_with": {Min: 2, Max: 2, Rule: Sig(tBool, tString), Row: func(a []*vec.Col, i int) (any, error) {
		return bytes.HasSuffix(a[0].Str(i), a[1].Str(i)), nil
	}},
	"contains": {Min: 2, Max: 2, Rule: Sig(tBool, tString), Row: func(a []*vec.Col, i int) (any, error) {
		return bytes.Contains(a[0].Str(i), a[1].Str(i)), nil
	}},
	"strpos": {Min: 2, Max: 2, Rule: Sig(tInt, tString), Row: func(a []*vec.Col, i int) (any, error) {
		s, sub := str(a[0], i), str(a[1], i)
		k := strings.Index(s, sub)
		if k < 0 {
			return int64(0), nil
		}
		return int64(utf8.RuneCountInString(s[:k]) + 1), nil
	}},
	"lpad": {Min: 3, Max: 3, Rule: Sig(tString, tString, tInt, tString), Row: padFn(true)},
	"rpad": {Min: 3, Max: 3, Rule: Sig(tString, tString, tInt, tString), Row: padFn(false)},
	"repeat": {Min: 2, Max: 2, Rule: Sig(tString, tString, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		n := a[1].I[i]
		if n <= 0 {
			return "", nil
		}
		if n > maxStringResult || n*int64(len(a[0].Str(i))) > maxStringResult {
			return nil, fmt.Errorf("result too large")
		}
		return strings.Repeat(str(a[0], i), int(n)), nil
	}},
	"split_part": {Min: 3, Max: 3, Rule: Sig(tString, tString, tString, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		parts := strings.Split(str(a[0], i), str(a[1], i))
		k := a[2].I[i]
		if k < 0 {
			k = int64(len(parts)) + k + 1
		}
		if k < 1 || k > int64(len(parts)) {
			return "", nil
		}
		return parts[k-1], nil
	}},
	"regexp_matches":    {Min: 2, Max: 3, Rule: Sig(tBool, tString), Row: regexpMatch(false)},
	"regexp_full_match": {Min: 2, Max: 3, Rule: Sig(tBool, tString), Row: regexpMatch(true)},
	"regexp_replace": {Min: 3, Max: 4, Rule: Sig(tString, tString), Row: func(a []*vec.Col, i int) (any, error) {
		re, err := regexpOf(a, 1, 3, i, false)
		if err != nil {
			return nil, err
		}
		repl := strings.ReplaceAll(str(a[2], i), `\`, `$`)
		if len(a) > 3 && strings.Contains(str(a[3], i), "g") {
			return re.ReplaceAllString(str(a[0], i), repl), nil
		}
		s := str(a[0], i)
		loc := re.FindStringSubmatchIndex(s)
		if loc == nil {
			return s, nil
		}
		var dst []byte
		dst = re.ExpandString(dst, repl, s, loc)
		return s[:loc[0]] + string(dst) + s[loc[1]:], nil
	}},
	"regexp_extract": {Min: 2, Max: 3, Rule: Sig(tString, tString, tString, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		re, err := CachedRegexp(str(a[1], i))
		if err != nil {
			return nil, err
		}
		m := re.FindStringSubmatch(str(a[0], i))
		g := int64(0)
		if len(a) > 2 {
			g = a[2].I[i]
		}
		if m == nil || g < 0 || g >= int64(len(m)) {
			return "", nil
		}
		return m[g], nil
	}},
	"sha1": {Min: 1, Max: 1, Rule: TextOrBlob(tString), Row: func(a []*vec.Col, i int) (any, error) {
		h := sha1.Sum(a[0].Str(i))
		return hex.EncodeToString(h[:]), nil
	}},
	"md5": {Min: 1, Max: 1, Rule: TextOrBlob(tString), Row: func(a []*vec.Col, i int) (any, error) {
		h := md5.Sum(a[0].Str(i))
		return hex.EncodeToString(h[:]), nil
	}},
	"ascii": {Min: 1, Max: 1, Rule: Sig(tInteger, tString), Row: func(a []*vec.Col, i int) (any, error) {
		r, _ := utf8.DecodeRune(a[0].Str(i))
		if r == utf8.RuneError {
			return int64(0), nil
		}
		return int64(r), nil
	}},
	"chr": {Min: 1, Max: 1, Rule: Sig(tString, tInt), Row: func(a []*vec.Col, i int) (any, error) { return string(rune(a[0].I[i])), nil }},
	"sign": {Min: 1, Max: 1, Rule: Sig(vec.Type{Kind: vec.KInt, Bits: 8}, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
		x := a[0].F[i]
		switch {
		case x > 0:
			return int64(1), nil
		case x < 0:
			return int64(-1), nil
		}
		return int64(0), nil
	}},
	"sqrt": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
		x := a[0].F[i]
		if x < 0 {
			return nil, fmt.Errorf("cannot take the square root of a negative number")
		}
		return math.Sqrt(x), nil
	}},
	"cbrt":  {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(math.Cbrt)},
	"exp":   {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(math.Exp)},
	"ln":    {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: logFn(math.Log)},
	"log10": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: logFn(math.Log10)},
	"log2":  {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: logFn(math.Log2)},
	"log": {Min: 1, Max: 2, Rule: Sig(tFloat, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
		if len(a) == 2 {
			b, x := a[0].F[i], a[1].F[i]
			if x <= 0 || b <= 0 {
				return nil, fmt.Errorf("cannot take the logarithm of zero or a negative number")
			}
			return math.Log(x) / math.Log(b), nil
		}
		x := a[0].F[i]
		if x <= 0 {
			return nil, fmt.Errorf("cannot take the logarithm of zero or a negative number")
		}
		return math.Log10(x), nil
	}},
	"power": {Min: 2, Max: 2, Rule: Sig(tFloat, tFloat), Row: func(a []*vec.Col, i int) (any, error) { return math.Pow(a[0].F[i], a[1].F[i]), nil }},
	"pi":    {Min: 0, Max: 0, Rule: Sig(tFloat), Row: func(a []*vec.Col, i int) (any, error) { return math.Pi, nil }},
	"sin":   {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(math.Sin)},
	"cos":   {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(math.Cos)},
	"tan":   {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(math.Tan)},
	"atan":  {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(math.Atan)},
	"isnan": {Min: 1, Max: 1, Rule: Sig(tBool, tFloat), Row: func(a []*vec.Col, i int) (any, error) { return math.IsNaN(a[0].F[i]), nil }},
	"isinf": {Min: 1, Max: 1, Rule: floatOrTemporal, Row: func(a []*vec.Col, i int) (any, error) {
		if a[0].T.Kind != vec.KFloat {
			return InfiniteValue(a[0].T, a[0].I[i]), nil
		}
		return math.IsInf(a[0].F[i], 0), nil
	}},
	"epoch": {Min: 1, Max: 1, Rule: Sig(tFloat, tTimestamp), Row: func(a []*vec.Col, i int) (any, error) {
		if vec.InfiniteStamp(a[0].I[i]) {
			return nil, nil // an infinity has no epoch: NULL, as DuckDB's
		}
		return float64(a[0].I[i]) / 1e6, nil
	}},
	"date_diff": {Min: 3, Max: 3, Rule: Sig(tInt, tString, tTimestamp, tTimestamp), Row: func(a []*vec.Col, i int) (any, error) {
		if vec.InfiniteStamp(a[1].I[i]) || vec.InfiniteStamp(a[2].I[i]) {
			return nil, nil // no count of parts to an infinity: NULL
		}
		return DateDiff(strings.ToLower(str(a[0], i)), a[1].I[i], a[2].I[i])
	}},
	"date_sub": {Min: 3, Max: 3, Rule: Sig(tInt, tString, tTimestamp, tTimestamp), Row: func(a []*vec.Col, i int) (any, error) {
		if vec.InfiniteStamp(a[1].I[i]) || vec.InfiniteStamp(a[2].I[i]) {
			return nil, nil
		}
		return DateSub(strings.ToLower(str(a[0], i)), a[1].I[i], a[2].I[i])
	}},
	"make_date": {Min: 3, Max: 3, Rule: Sig(tDate, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		y, m, d := a[0].I[i], a[1].I[i], a[2].I[i]
		t := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
		if int64(t.Year()) != y || int64(t.Month()) != m || int64(t.Day()) != d {
			return nil, fmt.Errorf("make_date(%d, %d, %d) is not a date", y, m, d)
		}
		return TimeToDays(t), nil
	}},
	"make_timestamp": {Min: 6, Max: 6, Rule: Sig(tTimestamp, tInt, tInt, tInt, tInt, tInt, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
		sec := a[5].F[i]
		t := time.Date(int(a[0].I[i]), time.Month(a[1].I[i]), int(a[2].I[i]), int(a[3].I[i]), int(a[4].I[i]), 0, 0, time.UTC)
		return t.UnixMicro() + int64(math.Round(sec*1e6)), nil
	}},
	"to_timestamp": {Min: 1, Max: 1, Rule: Sig(tTimestamp, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
		return int64(math.Round(a[0].F[i] * 1e6)), nil
	}},
	"last_day": {Min: 1, Max: 1, Rule: Sig(tDate, tDate), Row: func(a []*vec.Col, i int) (any, error) {
		t := vec.DaysToTime(a[0].I[i])
		return TimeToDays(time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC)), nil
	}},
}

// regexpMatch is regexp_matches (full: regexp_full_match).
func regexpMatch(full bool) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		re, err := regexpOf(a, 1, 2, i, full)
		if err != nil {
			return nil, err
		}
		return re.Match(a[0].Str(i)), nil
	}
}

// regexpOf compiles the pattern in argument p with DuckDB's options in
// argument o (if given): i case-insensitive, c case-sensitive, l literal,
// m/n/p newline-sensitive, s dot matches newline; g (global) is read by
// regexp_replace. full anchors the pattern at both ends.
func regexpOf(a []*vec.Col, p, o, i int, full bool) (*regexp.Regexp, error) {
	pat := str(a[p], i)
	flags := ""
	if len(a) > o {
		for _, c := range str(a[o], i) {
			switch c {
			case 'i':
				flags = strings.ReplaceAll(flags, "i", "") + "i"
			case 'c':
				flags = strings.ReplaceAll(flags, "i", "")
			case 'l':
				pat = regexp.QuoteMeta(pat)
			case 'm', 'n', 'p':
				flags += "m"
			case 's':
				flags += "s"
			case 'g':
			default:
				return nil, fmt.Errorf("unknown regular expression option %q", c)
			}
		}
	}
	if full {
		pat = "^(?:" + pat + ")$"
	}
	if flags != "" {
		pat = "(?" + flags + ")" + pat
	}
	return CachedRegexp(pat)
}

func trimFn(cut func(string, string) string, space func(string) string) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		if len(a) > 1 {
			return cut(str(a[0], i), str(a[1], i)), nil
		}
		return space(str(a[0], i)), nil
	}
}

func padFn(left bool) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		r := []rune(str(a[0], i))
		if a[1].I[i] > maxStringResult {
			return nil, fmt.Errorf("result too large")
		}
		n := int(a[1].I[i])
		pad := []rune(str(a[2], i))
		if n < 0 {
			n = 0
		}
		if len(r) >= n {
			return string(r[:n]), nil
		}
		if len(pad) == 0 {
			return string(r), nil
		}
		fill := make([]rune, 0, n-len(r))
		for len(fill) < n-len(r) {
			fill = append(fill, pad[len(fill)%len(pad)])
		}
		if left {
			return string(fill) + string(r), nil
		}
		return string(r) + string(fill), nil
	}
}

func logFn(f func(float64) float64) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		x := a[0].F[i]
		if x <= 0 {
			return nil, fmt.Errorf("cannot take the logarithm of zero or a negative number")
		}
		return f(x), nil
	}
}

// regexpCache keeps the compiled patterns of the regexp functions (at
// most 256, then it starts again).
var regexpCache = struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}{m: map[string]*regexp.Regexp{}}

// CachedRegexp is the compiled regular expression p, from the cache.
func CachedRegexp(p string) (*regexp.Regexp, error) {
	regexpCache.Lock()
	defer regexpCache.Unlock()
	if re, ok := regexpCache.m[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	if len(regexpCache.m) > 256 {
		regexpCache.m = map[string]*regexp.Regexp{}
	}
	regexpCache.m[p] = re
	return re, nil
}

// maxStringResult bounds what repeat, lpad and rpad build (64 MiB).
const maxStringResult = 1 << 26
