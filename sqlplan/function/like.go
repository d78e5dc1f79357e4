package function

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// LIKE / ILIKE patterns compiled once into runs of literal text and
// wildcards (the engine's LIKE expressions match through them).

// LikeMatcher matches LIKE patterns, with fast paths for exact, prefix,
// suffix and contains patterns.
type LikeMatcher struct {
	kind  int // 0 general, 1 exact, 2 prefix, 3 suffix, 4 contains, 5 runs between %s
	lit   []byte
	parts []likePart
}

type likePart struct {
	lit     []byte // literal run (may contain single-char wildcards marked by any)
	any     []bool // positions of '_' in lit
	percent bool   // a '%' precedes this part
}

// CompileLike compiles a LIKE pattern with escape character esc (0 for
// none); fold compiles it for ILIKE, whose subject the caller lowers.
func CompileLike(p string, esc byte, fold bool) *LikeMatcher {
	if fold {
		p = strings.ToLower(p)
	}
	var parts []likePart
	cur := likePart{}
	special := false
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case esc != 0 && ch == esc && i+1 < len(p):
			i++
			cur.lit = append(cur.lit, p[i])
			cur.any = append(cur.any, false)
		case ch == '%':
			special = true
			parts = append(parts, cur)
			cur = likePart{percent: true}
		case ch == '_':
			special = true
			cur.lit = append(cur.lit, '_')
			cur.any = append(cur.any, true)
		default:
			cur.lit = append(cur.lit, ch)
			cur.any = append(cur.any, false)
		}
	}
	parts = append(parts, cur)
	m := &LikeMatcher{parts: parts}
	hasUnderscore := false
	for _, pt := range parts {
		for _, a := range pt.any {
			hasUnderscore = hasUnderscore || a
		}
	}
	switch {
	case !special:
		m.kind, m.lit = 1, parts[0].lit
	case hasUnderscore:
	case len(parts) == 2 && len(parts[1].lit) == 0:
		m.kind, m.lit = 2, parts[0].lit
	case len(parts) == 2 && len(parts[0].lit) == 0:
		m.kind, m.lit = 3, parts[1].lit
	case len(parts) == 3 && len(parts[0].lit) == 0 && len(parts[2].lit) == 0:
		m.kind, m.lit = 4, parts[1].lit
	default:
		m.kind = 5 // literal runs between '%'s
	}
	return m
}

// Exact returns the text of a pattern with no wildcard.
func (m *LikeMatcher) Exact() (string, bool) { return string(m.lit), m.kind == 1 }

// Prefix returns the text before the one '%' of a pattern 'text%'.
func (m *LikeMatcher) Prefix() (string, bool) { return string(m.lit), m.kind == 2 }

// Match reports whether s matches the pattern.
func (m *LikeMatcher) Match(s []byte) bool {
	switch m.kind {
	case 1:
		return bytes.Equal(s, m.lit)
	case 2:
		return bytes.HasPrefix(s, m.lit)
	case 3:
		return bytes.HasSuffix(s, m.lit)
	case 4:
		return bytes.Contains(s, m.lit)
	case 5:
		return likeRuns(m.parts, s)
	}
	return likeGeneral(m.parts, s)
}

// likeRuns matches a pattern of literal runs between '%'s (no '_'): the
// first run is a prefix, the last (after a '%') a suffix, and each run
// between is found at its leftmost place after the one before, which
// leaves the most of s to the runs after it (TPC-H Q13's
// '%special%requests%' is two searches, not a backtracking match).
func likeRuns(parts []likePart, s []byte) bool {
	if !bytes.HasPrefix(s, parts[0].lit) {
		return false
	}
	rest := s[len(parts[0].lit):]
	last := len(parts) - 1
	for _, pt := range parts[1:last] {
		i := bytes.Index(rest, pt.lit)
		if i < 0 {
			return false
		}
		rest = rest[i+len(pt.lit):]
	}
	return bytes.HasSuffix(rest, parts[last].lit)
}

// matchPart matches one literal run (with '_' wildcards standing for one
// character) at the start of s, returning the bytes consumed.
func matchPart(pt likePart, s []byte) (int, bool) {
	j := 0
	for k := 0; k < len(pt.lit); k++ {
		if j >= len(s) {
			return 0, false
		}
		if pt.any[k] {
			_, size := utf8.DecodeRune(s[j:])
			j += size
			continue
		}
		if s[j] != pt.lit[k] {
			return 0, false
		}
		j++
	}
	return j, true
}

func likeGeneral(parts []likePart, s []byte) bool {
	if len(parts) == 0 {
		return len(s) == 0
	}
	pt := parts[0]
	if !pt.percent {
		n, ok := matchPart(pt, s)
		if !ok {
			return false
		}
		if len(parts) == 1 {
			return n == len(s)
		}
		return likeGeneral(parts[1:], s[n:])
	}
	// After a '%': try every start position.
	for start := 0; start <= len(s); {
		n, ok := matchPart(pt, s[start:])
		if ok {
			rest := s[start+n:]
			if len(parts) == 1 {
				if len(rest) == 0 {
					return true
				}
			} else if likeGeneral(parts[1:], rest) {
				return true
			}
		}
		if start == len(s) {
			break
		}
		_, size := utf8.DecodeRune(s[start:])
		start += size
	}
	return false
}
