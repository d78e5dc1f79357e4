package main

import (
	"sort"
	"strings"

	"github.com/carquet-go/carquet/internal/cli/output"
)

// sqlKeywords are completed in the case the user types.
var sqlKeywords = []string{
	"SELECT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT", "RIGHT",
	"INNER", "OUTER", "CROSS", "ON", "USING", "AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "BETWEEN",
	"CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT", "UNION", "ALL", "INSERT", "INTO", "VALUES", "CREATE",
	"TABLE", "DROP", "DESCRIBE", "EXPLAIN", "ANALYZE", "SHOW", "TABLES", "ASC", "DESC", "TRUE", "FALSE", "EXISTS",
	"WITH", "BEGIN", "COMMIT", "ROLLBACK", "TIMESTAMP", "DATE", "INTERVAL", "CAST",
	"count(", "sum(", "avg(", "min(", "max(", "round(", "coalesce(", "lower(", "upper(", "length(", "substr(",
	"abs(", "date_trunc(", "strftime(", "concat(", "ifnull(", "nullif(", "now(",
}

var dotCommands = []string{".tables", ".schema", ".mode", ".timer", ".output", ".read", ".explain", ".maxrows",
	".nullvalue", ".bail", ".echo", ".open", ".help", ".quit", ".exit"}

// catalog is what completion knows about the data: tables and their
// columns, loaded on the first Tab through SHOW TABLES and DESCRIBE.
type catalog struct {
	tables  []string
	columns map[string][]string
}

func (sh *shell) catalog() *catalog {
	if sh.cat != nil {
		return sh.cat
	}
	c := &catalog{columns: map[string][]string{}}
	tables, err := sh.queryStrings("SHOW TABLES")
	if err == nil {
		c.tables = tables
		for _, t := range tables {
			cols, err := sh.describe(t)
			if err != nil {
				continue
			}
			for _, col := range cols {
				c.columns[t] = append(c.columns[t], col.name)
			}
		}
	}
	sh.cat = c
	return c
}

func isCompletionRune(r rune) bool {
	return r == '_' || r == '.' || r == '`' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80
}

// matchCase writes a keyword in the case of the word being typed.
func matchCase(kw, typed string) string {
	if typed != "" && strings.ToLower(typed) == typed {
		return strings.ToLower(kw)
	}
	return kw
}

// complete is the line editor's completer: dot-commands and their
// arguments, table.column, keywords, tables and the columns of the tables
// the line names (all columns when it names none).
func (sh *shell) complete(line []rune, pos int) (int, []string) {
	start := pos
	for start > 0 && isCompletionRune(line[start-1]) {
		start--
	}
	word := string(line[start:pos])
	lw := strings.ToLower(strings.TrimPrefix(word, "`"))
	before := strings.TrimSpace(string(line[:start]))
	var cands []string
	add := func(s string) {
		if strings.HasPrefix(strings.ToLower(s), lw) {
			cands = append(cands, s)
		}
	}
	switch {
	case strings.HasPrefix(string(line), ".") && before == "":
		for _, c := range dotCommands {
			add(c)
		}
		return start, cands
	case before == ".mode":
		for _, m := range output.ModeNames() {
			add(m)
		}
		return start, cands
	case before == ".timer" || before == ".explain" || before == ".bail" || before == ".echo":
		add("on")
		add("off")
		return start, cands
	case before == ".schema":
		for _, t := range sh.catalog().tables {
			add(t)
		}
		return start, cands
	case strings.HasPrefix(before, "."):
		return start, nil
	}
	cat := sh.catalog()
	if tbl, col, ok := strings.Cut(word, "."); ok {
		// table.column (or alias.column: the columns of every table).
		cols := cat.columns[tbl]
		var all []string
		if cols == nil {
			for _, t := range cat.tables {
				all = append(all, cat.columns[t]...)
			}
			cols = all
		}
		lc := strings.ToLower(col)
		seen := map[string]bool{}
		for _, c := range cols {
			if strings.HasPrefix(strings.ToLower(c), lc) && !seen[c] {
				seen[c] = true
				cands = append(cands, tbl+"."+c)
			}
		}
		sort.Strings(cands)
		return start, cands
	}
	for _, k := range sqlKeywords {
		if strings.HasPrefix(strings.ToLower(k), lw) {
			cands = append(cands, matchCase(k, word))
		}
	}
	// Columns of the tables named in the line, or of all tables.
	text := strings.ToLower(string(line))
	var named []string
	for _, t := range cat.tables {
		add(t)
		if containsWord(text, strings.ToLower(t)) {
			named = append(named, t)
		}
	}
	if named == nil {
		named = cat.tables
	}
	seen := map[string]bool{}
	for _, t := range named {
		for _, c := range cat.columns[t] {
			if !seen[c] {
				seen[c] = true
				add(c)
			}
		}
	}
	return start, dedupe(cands)
}

func containsWord(text, w string) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], w)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(w)
		if (k == 0 || !isCompletionRune(rune(text[k-1]))) && (end == len(text) || !isCompletionRune(rune(text[end]))) {
			return true
		}
		i = k + 1
	}
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
