package function

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// More scalar functions of DuckDB: numbers, bits, text formatting and
// parsing, hashes, epoch conversions.

// floatOrTemporal is the type rule of isinf and isfinite: a DATE or
// TIMESTAMP (of any unit or zone) as it is, anything else as DOUBLE.
func floatOrTemporal(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if k := args[0].Kind; k == vec.KDate || k == vec.KTimestamp {
		return args[:1], tBool, nil
	}
	return []vec.Type{tFloat}, tBool, nil
}

// InfiniteValue reports whether DATE or TIMESTAMP value v of type t is
// one of DuckDB's infinities.
func InfiniteValue(t vec.Type, v int64) bool {
	if t.Kind == vec.KDate {
		return vec.InfiniteDate(v)
	}
	return vec.InfiniteStamp(v)
}

func init() {
	more := map[string]*Scalar{
		"isfinite": {Min: 1, Max: 1, Rule: floatOrTemporal, Row: func(a []*vec.Col, i int) (any, error) {
			if a[0].T.Kind != vec.KFloat {
				return !InfiniteValue(a[0].T, a[0].I[i]), nil
			}
			x := a[0].F[i]
			return !math.IsInf(x, 0) && !math.IsNaN(x), nil
		}},
		"signbit": {Min: 1, Max: 1, Rule: Sig(tBool, tFloat), Row: func(a []*vec.Col, i int) (any, error) { return math.Signbit(a[0].F[i]), nil }},
		"atan2": {Min: 2, Max: 2, Rule: Sig(tFloat, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
			return math.Atan2(a[0].F[i], a[1].F[i]), nil
		}},
		"asin":    {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: domainFn(math.Asin, -1, 1)},
		"acos":    {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: domainFn(math.Acos, -1, 1)},
		"cot":     {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(func(x float64) float64 { return 1 / math.Tan(x) })},
		"degrees": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(func(x float64) float64 { return x * 180 / math.Pi })},
		"radians": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(func(x float64) float64 { return x * math.Pi / 180 })},
		"gcd": {Min: 2, Max: 2, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) {
			return gcd(a[0].I[i], a[1].I[i])
		}},
		"lcm": {Min: 2, Max: 2, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) {
			x, y := a[0].I[i], a[1].I[i]
			if x == 0 || y == 0 {
				return int64(0), nil
			}
			g, err := gcd(x, y)
			if err != nil {
				return nil, err
			}
			l := x / g.(int64) * y
			if l/y != x/g.(int64) {
				return nil, fmt.Errorf("lcm(%d, %d) is out of the BIGINT range", x, y)
			}
			if l < 0 {
				l = -l
			}
			return l, nil
		}},
		"factorial": {Min: 1, Max: 1, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) {
			n := a[0].I[i]
			if n > 20 {
				return nil, fmt.Errorf("factorial(%d) is out of the BIGINT range", n)
			}
			f := int64(1)
			for k := int64(2); k <= n; k++ {
				f *= k
			}
			return f, nil
		}},
		"even": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: FloatRow(func(x float64) float64 {
			// away from zero to the next even integer
			r := math.Ceil(math.Abs(x))
			if math.Mod(r, 2) != 0 {
				r++
			}
			return math.Copysign(r, x)
		})},
		"bit_count": {Min: 1, Max: 1, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) {
			return int64(bits.OnesCount64(uint64(a[0].I[i]))), nil
		}},
		"xor":         {Min: 2, Max: 2, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) { return a[0].I[i] ^ a[1].I[i], nil }},
		"bit_and_op":  {Min: 2, Max: 2, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) { return a[0].I[i] & a[1].I[i], nil }},
		"bit_or_op":   {Min: 2, Max: 2, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) { return a[0].I[i] | a[1].I[i], nil }},
		"bit_not":     {Min: 1, Max: 1, Rule: Sig(tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) { return ^a[0].I[i], nil }},
		"shift_left":  {Min: 2, Max: 2, Rule: Sig(tInt, tInt), Row: shiftFn(true)},
		"shift_right": {Min: 2, Max: 2, Rule: Sig(tInt, tInt), Row: shiftFn(false)},
		"bit_length": {Min: 1, Max: 1, Rule: Sig(tInt, tString), Row: func(a []*vec.Col, i int) (any, error) {
			return int64(8 * len(a[0].Str(i))), nil
		}},
		"unicode": {Min: 1, Max: 1, Rule: Sig(tInt, tString), Row: func(a []*vec.Col, i int) (any, error) {
			s := a[0].Str(i)
			if len(s) == 0 {
				return int64(-1), nil
			}
			r, _ := utf8.DecodeRune(s)
			return int64(r), nil
		}},
		"translate": {Min: 3, Max: 3, Rule: Sig(tString, tString), Row: func(a []*vec.Col, i int) (any, error) {
			return translate(str(a[0], i), str(a[1], i), str(a[2], i)), nil
		}},
		"levenshtein": {Min: 2, Max: 2, Rule: Sig(tInt, tString), Row: func(a []*vec.Col, i int) (any, error) {
			return int64(levenshtein(a[0].Str(i), a[1].Str(i))), nil
		}},
		"sha256": {Min: 1, Max: 1, Rule: TextOrBlob(tString), Row: func(a []*vec.Col, i int) (any, error) {
			h := sha256.Sum256(a[0].Str(i))
			return hex.EncodeToString(h[:]), nil
		}},
		"hex":         {Min: 1, Max: 1, Rule: hexRule, RowFor: hexRow, Exact: true},
		"to_base64":   {Min: 1, Max: 1, Rule: Sig(tString, vec.Type{Kind: vec.KBytes}), Row: func(a []*vec.Col, i int) (any, error) { return base64.StdEncoding.EncodeToString(a[0].Str(i)), nil }},
		"from_base64": {Min: 1, Max: 1, Rule: Sig(vec.Type{Kind: vec.KBytes}, tString), Row: fromBase64},
		"uuid": {Min: 0, Max: 0, Rule: Sig(vec.Type{Kind: vec.KUUID}), Row: func(a []*vec.Col, i int) (any, error) {
			var b [16]byte
			if _, err := rand.Read(b[:]); err != nil {
				return nil, err
			}
			b[6] = b[6]&0x0f | 0x40
			b[8] = b[8]&0x3f | 0x80
			h := hex.EncodeToString(b[:])
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
		}, Volatile: true},
		"printf":   {Min: 1, Max: -1, Rule: formatRule, Row: printfRow, Exact: true},
		"format":   {Min: 1, Max: -1, Rule: formatRule, Row: formatRow, Exact: true},
		"strptime": {Min: 2, Max: 2, Rule: Sig(tTimestamp, tString), Row: func(a []*vec.Col, i int) (any, error) { return strptime(str(a[0], i), str(a[1], i)) }},
		"try_strptime": {Min: 2, Max: 2, Rule: Sig(tTimestamp, tString), Row: func(a []*vec.Col, i int) (any, error) {
			if v, err := strptime(str(a[0], i), str(a[1], i)); err == nil {
				return v, nil
			}
			return nil, nil // NULL where strptime fails
		}},
		"epoch_ms": {Min: 1, Max: 1, Rule: epochInRule, RowFor: epochRow(1000), Exact: true},
		"timezone": {Min: 2, Max: 2, Rule: timezoneRule, RowFor: timezoneRow, Exact: true},
		"epoch_us": {Min: 1, Max: 1, Rule: Sig(tInt, tTimestamp), Row: func(a []*vec.Col, i int) (any, error) {
			if vec.InfiniteStamp(a[0].I[i]) {
				return nil, nil
			}
			return a[0].I[i], nil
		}},
		"epoch_ns": {Min: 1, Max: 1, Rule: epochNsRule, Row: func(a []*vec.Col, i int) (any, error) {
			if vec.InfiniteStamp(a[0].I[i]) {
				return nil, nil
			}
			if a[0].T.Nanos {
				return a[0].I[i], nil
			}
			us := a[0].I[i]
			if us > math.MaxInt64/1000 || us < math.MinInt64/1000 {
				return nil, fmt.Errorf("the timestamp is out of the range of epoch_ns")
			}
			return us * 1000, nil
		}},
	}
	for alias, name := range map[string]string{
		"to_hex": "hex", "base64": "to_base64", "gen_random_uuid": "uuid", "ord": "unicode",
		"greatest_common_divisor": "gcd", "least_common_multiple": "lcm",
	} {
		more[alias] = more[name]
	}
	register(more)
}

// rowByTypes chooses the row function of the functions whose computation
// depends on their arguments' types (after binding).
var rowByTypes = map[string]func(types []vec.Type) func(a []*vec.Col, i int) (any, error){}

func domainFn(f func(float64) float64, lo, hi float64) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		x := a[0].F[i]
		if x < lo || x > hi {
			return nil, fmt.Errorf("%v is outside the domain [%v, %v]", x, lo, hi)
		}
		return f(x), nil
	}
}

func gcd(x, y int64) (any, error) {
	if x == math.MinInt64 || y == math.MinInt64 {
		return nil, fmt.Errorf("gcd of the smallest BIGINT is out of range")
	}
	if x < 0 {
		x = -x
	}
	if y < 0 {
		y = -y
	}
	for y != 0 {
		x, y = y, x%y
	}
	return x, nil
}

func shiftFn(left bool) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		x, n := a[0].I[i], a[1].I[i]
		if n < 0 || n > 63 {
			return nil, fmt.Errorf("the shift %d is out of the range 0..63", n)
		}
		if left {
			return x << n, nil
		}
		return x >> n, nil
	}
}

// translate replaces each character of s found in from by the character
// at the same place in to, or drops it when to is shorter.
func translate(s, from, to string) string {
	f, t := []rune(from), []rune(to)
	var b strings.Builder
	for _, r := range s {
		k := -1
		for j, c := range f {
			if c == r {
				k = j
				break
			}
		}
		switch {
		case k < 0:
			b.WriteRune(r)
		case k < len(t):
			b.WriteRune(t[k])
		}
	}
	return b.String()
}

// levenshtein is the edit distance in bytes, as DuckDB's: a two-byte 'é'
// replaced by 'e' costs 2.
func levenshtein(a, b []byte) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// hexRule types hex: of an integer (its two's complement, as DuckDB) or
// of the bytes of a string or blob, upper case (hexRow picks the row
// function); other types are cast to VARCHAR.
func hexRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if k := args[0].Op(); k == vec.KInt || k == vec.KBytes {
		return nil, tString, nil
	}
	return []vec.Type{tString}, tString, nil
}

func hexRow(types []vec.Type) func(a []*vec.Col, i int) (any, error) {
	if types[0].Op() == vec.KInt {
		return func(a []*vec.Col, i int) (any, error) {
			return strings.ToUpper(strconv.FormatUint(uint64(a[0].I[i]), 16)), nil
		}
	}
	return func(a []*vec.Col, i int) (any, error) { return strings.ToUpper(hex.EncodeToString(a[0].Str(i))), nil }
}

func fromBase64(a []*vec.Col, i int) (any, error) {
	b, err := base64.StdEncoding.DecodeString(str(a[0], i))
	if err != nil {
		return nil, fmt.Errorf("from_base64: %v", err)
	}
	return b, nil
}

// epochInRule types epoch_ms and friends both ways: of a number (units
// since 1970) it is a timestamp, of a timestamp the number of units
// (epochRow picks the row function).
func epochInRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if args[0].IsNumeric() {
		return []vec.Type{tInt}, tTimestamp, nil
	}
	return []vec.Type{tTimestamp}, tInt, nil
}

func epochRow(microsPerUnit int64) func(types []vec.Type) func(a []*vec.Col, i int) (any, error) {
	return func(types []vec.Type) func(a []*vec.Col, i int) (any, error) {
		if types[0].Kind == vec.KTimestamp {
			return func(a []*vec.Col, i int) (any, error) {
				if vec.InfiniteStamp(a[0].I[i]) {
					return nil, nil // NULL, as DuckDB's
				}
				return vec.FloorDiv(a[0].I[i], microsPerUnit), nil
			}
		}
		return func(a []*vec.Col, i int) (any, error) {
			v := a[0].I[i]
			if v > math.MaxInt64/microsPerUnit || v < math.MinInt64/microsPerUnit {
				return nil, fmt.Errorf("the epoch value %d is out of the TIMESTAMP range", v)
			}
			return v * microsPerUnit, nil
		}
	}
}

// formatRule types printf and format: a format string (constant or
// column), then arguments of any type, as they are.
func formatRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	return append([]vec.Type{tString}, args[1:]...), tString, nil
}

// argText is argument k of a printf/format call as text (NULL as "NULL").
func argText(a []*vec.Col, k, i int) string {
	v := a[k].Get(i)
	if v == nil {
		return "NULL"
	}
	s, err := castScalar(v, a[k].T, tString)
	if err != nil {
		return fmt.Sprint(v)
	}
	return s.(string)
}

// printfRow formats with printf directives: %[flags][width][.prec] and
// d i u x X o c e E f F g G s %%.
func printfRow(a []*vec.Col, i int) (any, error) {
	f := str(a[0], i)
	var b strings.Builder
	next := 1
	for j := 0; j < len(f); j++ {
		if f[j] != '%' {
			b.WriteByte(f[j])
			continue
		}
		k := j + 1
		for k < len(f) && strings.IndexByte("-+ #0123456789.", f[k]) >= 0 {
			k++
		}
		if k >= len(f) {
			return nil, fmt.Errorf("printf: the format ends inside a directive")
		}
		spec, verb := f[j+1:k], f[k]
		j = k
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if next >= len(a) {
			return nil, fmt.Errorf("printf: not enough arguments for the format")
		}
		col := a[next]
		arg := next
		next++
		if col.IsNull(i) {
			b.WriteString(fmt.Sprintf("%"+strings.TrimRight(spec, ".0123456789")+"s", "NULL"))
			continue
		}
		switch verb {
		case 'd', 'i', 'u', 'x', 'X', 'o', 'c':
			n, err := intArg(col, i)
			if err != nil {
				return nil, fmt.Errorf("printf: %%%c needs an integer: %v", verb, err)
			}
			if verb == 'i' || verb == 'u' {
				verb = 'd'
			}
			b.WriteString(fmt.Sprintf("%"+spec+string(verb), n))
		case 'e', 'E', 'f', 'F', 'g', 'G':
			x, err := floatArg(col, i)
			if err != nil {
				return nil, fmt.Errorf("printf: %%%c needs a number: %v", verb, err)
			}
			if verb == 'F' {
				verb = 'f'
			}
			b.WriteString(fmt.Sprintf("%"+spec+string(verb), x))
		case 's':
			b.WriteString(fmt.Sprintf("%"+spec+"s", argText(a, arg, i)))
		default:
			return nil, fmt.Errorf("printf: unknown directive %%%c", verb)
		}
	}
	return b.String(), nil
}

func intArg(c *vec.Col, i int) (int64, error) {
	v, err := castScalar(c.Get(i), c.T, tInt)
	if err != nil {
		return 0, err
	}
	return v.(int64), nil
}

func floatArg(c *vec.Col, i int) (float64, error) {
	v, err := castScalar(c.Get(i), c.T, tFloat)
	if err != nil {
		return 0, err
	}
	return v.(float64), nil
}

// formatRow formats with fmt-style {} placeholders: {} or {:spec} where
// spec is [<|>|^][width][.prec][d|f|s|x], and {{ / }} for braces.
func formatRow(a []*vec.Col, i int) (any, error) {
	f := str(a[0], i)
	var b strings.Builder
	next := 1
	for j := 0; j < len(f); j++ {
		c := f[j]
		if c == '}' && j+1 < len(f) && f[j+1] == '}' {
			b.WriteByte('}')
			j++
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if j+1 < len(f) && f[j+1] == '{' {
			b.WriteByte('{')
			j++
			continue
		}
		end := strings.IndexByte(f[j:], '}')
		if end < 0 {
			return nil, fmt.Errorf("format: unterminated {")
		}
		spec := f[j+1 : j+end]
		j += end
		if next >= len(a) {
			return nil, fmt.Errorf("format: not enough arguments for the format")
		}
		arg := next
		next++
		spec = strings.TrimPrefix(spec, ":")
		align := byte(0)
		if spec != "" && strings.IndexByte("<>^", spec[0]) >= 0 {
			align, spec = spec[0], spec[1:]
		}
		text := argText(a, arg, i)
		if verb := spec; verb != "" && !a[arg].IsNull(i) {
			kind := verb[len(verb)-1]
			if strings.IndexByte("dfsxeg", kind) < 0 {
				kind = 0
			} else {
				verb = verb[:len(verb)-1]
			}
			width, prec := verb, ""
			if d := strings.IndexByte(verb, '.'); d >= 0 {
				width, prec = verb[:d], verb[d:]
			}
			switch {
			case kind == 'f' || kind == 'e' || kind == 'g' || prec != "" && kind == 0:
				x, err := floatArg(a[arg], i)
				if err != nil {
					return nil, fmt.Errorf("format: {:%s} needs a number: %v", spec, err)
				}
				if kind == 0 {
					kind = 'f'
				}
				text = fmt.Sprintf("%"+prec+string(kind), x)
			case kind == 'd' || kind == 'x':
				n, err := intArg(a[arg], i)
				if err != nil {
					return nil, fmt.Errorf("format: {:%s} needs an integer: %v", spec, err)
				}
				text = fmt.Sprintf("%"+string(kind), n)
			}
			if w, err := strconv.Atoi(width); err == nil && utf8.RuneCountInString(text) < w {
				pad := strings.Repeat(" ", w-utf8.RuneCountInString(text))
				numeric := a[arg].T.IsNumeric()
				switch {
				case align == '<' || align == 0 && !numeric:
					text += pad
				case align == '^':
					h := len(pad) / 2
					text = pad[:h] + text + pad[h:]
				default:
					text = pad + text
				}
			}
		}
		b.WriteString(text)
	}
	return b.String(), nil
}

// strptime parses s with % directives (those of strftime): Y m d H M S f
// (fraction) y b/B (month names) p (AM/PM) j z (+hhmm) and literal text.
func strptime(s, f string) (any, error) {
	year, month, day, hour, minute, sec, micro := 1900, 1, 1, 0, 0, 0, 0
	pm, hasPM := false, false
	offset := 0
	p := 0
	num := func(maxDigits int) (int, error) {
		start := p
		neg := false
		if p < len(s) && (s[p] == '-' || s[p] == '+') && maxDigits > 4 {
			neg = s[p] == '-'
			p++
			start = p
		}
		for p < len(s) && p-start < maxDigits && s[p] >= '0' && s[p] <= '9' {
			p++
		}
		if p == start {
			return 0, fmt.Errorf("strptime: expected a number at %q", s[start:])
		}
		n, _ := strconv.Atoi(s[start:p])
		if neg {
			n = -n
		}
		return n, nil
	}
	var err error
	for j := 0; j < len(f); j++ {
		if f[j] != '%' || j+1 >= len(f) {
			if p >= len(s) || s[p] != f[j] {
				return nil, fmt.Errorf("strptime: %q does not match the format %q", s, f)
			}
			p++
			continue
		}
		j++
		switch f[j] {
		case 'Y':
			year, err = num(9)
		case 'y':
			year, err = num(2)
			year += 2000
			if year >= 2069 {
				year -= 100
			}
		case 'm':
			month, err = num(2)
		case 'd', 'e':
			day, err = num(2)
		case 'H':
			hour, err = num(2)
		case 'I':
			hour, err = num(2)
		case 'M':
			minute, err = num(2)
		case 'S':
			sec, err = num(2)
		case 'f':
			start := p
			var n int
			n, err = num(9)
			digits := p - start
			for ; digits < 6; digits++ {
				n *= 10
			}
			for ; digits > 6; digits-- {
				n /= 10
			}
			micro = n
		case 'j':
			var doy int
			doy, err = num(3)
			month, day = 1, doy
		case 'p':
			if p+2 <= len(s) {
				switch strings.ToUpper(s[p : p+2]) {
				case "AM":
					hasPM, pm = true, false
				case "PM":
					hasPM, pm = true, true
				default:
					err = fmt.Errorf("strptime: expected AM or PM at %q", s[p:])
				}
				p += 2
			} else {
				err = fmt.Errorf("strptime: expected AM or PM")
			}
		case 'b', 'B', 'h':
			month = 0
			for m := time.January; m <= time.December; m++ {
				name := m.String()
				for _, n := range []string{name, name[:3]} {
					if month == 0 && len(s)-p >= len(n) && strings.EqualFold(s[p:p+len(n)], n) {
						month = int(m)
						p += len(n)
					}
				}
			}
			if month == 0 {
				err = fmt.Errorf("strptime: expected a month name at %q", s[p:])
			}
		case 'z':
			if p < len(s) && (s[p] == 'Z' || s[p] == 'z') {
				p++
				break
			}
			if p >= len(s) || (s[p] != '+' && s[p] != '-') {
				err = fmt.Errorf("strptime: expected a UTC offset at %q", s[p:])
				break
			}
			sign := 1
			if s[p] == '-' {
				sign = -1
			}
			p++
			var h, m int
			if h, err = num(2); err == nil {
				if p < len(s) && s[p] == ':' {
					p++
				}
				m, err = num(2)
			}
			offset = sign * (h*3600 + m*60)
		case '%':
			if p >= len(s) || s[p] != '%' {
				err = fmt.Errorf("strptime: %q does not match the format %q", s, f)
			}
			p++
		default:
			return nil, fmt.Errorf("strptime: unsupported directive %%%c", f[j])
		}
		if err != nil {
			return nil, err
		}
	}
	if p != len(s) {
		return nil, fmt.Errorf("strptime: %q has text after the format %q", s, f)
	}
	if hasPM {
		hour %= 12
		if pm {
			hour += 12
		}
	}
	if month < 1 || month > 12 || day < 1 || day > 366 || hour > 23 || minute > 59 || sec > 60 {
		return nil, fmt.Errorf("strptime: %q is not a valid date and time", s)
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, micro*1000, time.UTC)
	if t.Day() != day && month != 1 {
		return nil, fmt.Errorf("strptime: %q is not a valid date", s)
	}
	return t.UnixMicro() - int64(offset)*1e6, nil
}

// timezoneRule types timezone(zone, t), which is t AT TIME ZONE zone: a
// TIMESTAMP (or DATE) read as the wall time in zone becomes the instant,
// a TIMESTAMPTZ (an instant) becomes its wall time in zone.
func timezoneRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if t := args[1]; t.Kind == vec.KTimestamp && t.TZ {
		return []vec.Type{tString, t}, tTimestamp, nil
	}
	return []vec.Type{tString, tTimestamp}, vec.Type{Kind: vec.KTimestamp, TZ: true}, nil
}

func timezoneRow(types []vec.Type) func(a []*vec.Col, i int) (any, error) {
	toWall := types[1].TZ
	return func(a []*vec.Col, i int) (any, error) {
		loc, err := ZoneNamed(str(a[0], i))
		if err != nil {
			return nil, err
		}
		t := time.UnixMicro(a[1].I[i]).UTC()
		if toWall {
			w := t.In(loc)
			return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.UTC).UnixMicro(), nil
		}
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc).UnixMicro(), nil
	}
}

// epochNsRule takes a TIMESTAMP_NS as it is (its value is the answer)
// and any other time as a TIMESTAMP.
func epochNsRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if t := args[0]; t.Kind == vec.KTimestamp && t.Nanos {
		return nil, tInt, nil
	}
	return []vec.Type{tTimestamp}, tInt, nil
}

// FloatRow is the row function of f on a DOUBLE argument.
func FloatRow(f func(float64) float64) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) { return f(a[0].F[i]), nil }
}
