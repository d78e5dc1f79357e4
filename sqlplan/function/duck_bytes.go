package function

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Byte sizes as text and back: format_bytes (formatReadableSize) in
// powers of 1024, formatReadableDecimalSize in powers of 1000, and
// parse_formatted_bytes, as DuckDB (v1.5) writes and reads them.

// byteUnits are the units of each base, bytes first.
var byteUnits = map[int64][]string{
	1024: {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"},
	1000: {"bytes", "kB", "MB", "GB", "TB", "PB"},
}

// formatBytesBatch writes sizes with one decimal, cut (not rounded) as
// DuckDB does: 1999999 is "1.9 MB". PiB (PB) is the largest unit.
func formatBytesBatch(base int64) func(a []*vec.Col, n int) (*vec.Col, error) {
	units := byteUnits[base]
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tString, Len: n, Null: vec.MergeNulls(n, a...), Off: make([]int32, n+1)}
		for i, v := range a[0].I[:n] {
			if out.Null == nil || !out.Null[i] {
				out.Data = appendByteSize(out.Data, v, uint64(base), units)
			}
			out.Off[i+1] = int32(len(out.Data))
		}
		return out, nil
	}
}

func appendByteSize(dst []byte, v int64, base uint64, units []string) []byte {
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u // the smallest BIGINT's magnitude fits in uint64
	}
	// digits[k] is the size's k-th digit in base base (the last one takes
	// what is left above the largest unit).
	var digits [6]uint64
	digits[0] = u
	for k := 1; k < len(digits); k++ {
		digits[k] = digits[k-1] / base
		digits[k-1] %= base
	}
	for k := len(digits) - 1; k >= 1; k-- {
		if digits[k] != 0 {
			dst = strconv.AppendUint(dst, digits[k], 10)
			dst = append(dst, '.')
			dst = strconv.AppendUint(dst, digits[k-1]*10/base, 10)
			return append(append(dst, ' '), units[k]...)
		}
	}
	dst = strconv.AppendUint(dst, u, 10)
	if u == 1 {
		return append(dst, " byte"...)
	}
	return append(dst, " bytes"...)
}

// byteMultipliers are the units parse_formatted_bytes reads (lower case).
var byteMultipliers = map[string]float64{
	"b": 1, "byte": 1, "bytes": 1,
	"k": 1e3, "kb": 1e3, "kilobyte": 1e3, "kilobytes": 1e3,
	"m": 1e6, "mb": 1e6, "megabyte": 1e6, "megabytes": 1e6,
	"g": 1e9, "gb": 1e9, "gigabyte": 1e9, "gigabytes": 1e9,
	"t": 1e12, "tb": 1e12, "terabyte": 1e12, "terabytes": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

func parseBytesBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: vec.Type{Kind: vec.KUint}, Len: n, Null: vec.MergeNulls(n, a...), I: make([]int64, n)}
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			v, err := parseByteSize(str(a[0], i))
			if err != nil {
				return nil, err
			}
			out.I[i] = int64(v)
		}
	}
	return out, nil
}

// parseByteSize reads a number, then a unit of letters (what follows is
// not read): '1.5 GiB', '16KB', '1e3 k'.
func parseByteSize(s string) (uint64, error) {
	s = strings.TrimLeft(s, " ")
	k := 0
	for k < len(s) && strings.IndexByte("0123456789.eE-+", s[k]) >= 0 {
		k++
	}
	if k == 0 {
		return 0, fmt.Errorf("Memory must have a number (e.g. 1GB)")
	}
	x, err := strconv.ParseFloat(s[:k], 64)
	if err != nil {
		return 0, fmt.Errorf("Invalid memory limit: '%s'", s[:k])
	}
	rest := strings.TrimLeft(s[k:], " ")
	j := 0
	for j < len(rest) && ('a' <= rest[j]|0x20 && rest[j]|0x20 <= 'z') {
		j++
	}
	unit := strings.ToLower(rest[:j])
	mult, ok := byteMultipliers[unit]
	if !ok {
		return 0, fmt.Errorf("Unknown unit for memory: '%s' (expected: KB, MB, GB, TB for 1000^i units or KiB, MiB, GiB, TiB for 1024^i units)", unit)
	}
	if x < 0 {
		return 0, fmt.Errorf("Memory cannot be negative")
	}
	v := x * mult
	if v >= math.MaxUint64 || math.IsNaN(v) {
		return 0, fmt.Errorf("Memory value out of range: value is too large")
	}
	return uint64(v), nil
}
